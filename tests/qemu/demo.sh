#!/usr/bin/env bash
# `make demo`: boot QEMU/OVMF headless, load the emulated uncore with its
# default configuration, and run uncore.efi from the UEFI Shell, printing
# what the applications printed.
set -u
. "$(dirname "$0")/lib.sh"
WORK=$TOP/build/demo

boot_begin demo Skylake-Client -smp 4
boot_file "$TOP/build/uncore-emu.efi"
step emu 'uncore-emu.efi'
step info 'uncore.efi info'
echo "demo: booting QEMU (q35, -cpu Skylake-Client, OVMF, TCG); QEMU has no uncore, so the emulator is loaded first"
boot_run >/dev/null
log=$WORK/demo/serial.txt
if ! grep -q '^@@RC info ' "$log"; then
	echo "demo: error: the boot did not finish; serial log: $log" >&2
	exit 1
fi
for s in emu info; do
	case $s in
	emu) echo "---- Shell> fs0:\\uncore-emu.efi" ;;
	info) echo "---- Shell> fs0:\\uncore.efi info" ;;
	esac
	step_output "$log" "$s"
	echo "---- exit status (%lasterror%): $(step_rc "$log" "$s")"
done
