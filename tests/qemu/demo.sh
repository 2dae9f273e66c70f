#!/usr/bin/env bash
# `make demo`: boot QEMU/OVMF headless and run uncore.efi from the UEFI Shell,
# printing what the application printed.
set -u
. "$(dirname "$0")/lib.sh"
WORK=$TOP/build/demo

boot_begin demo Skylake-Client
step info 'uncore.efi info'
echo "demo: booting QEMU (q35, -cpu Skylake-Client, OVMF, TCG) and running fs0:\\uncore.efi info ..."
boot_run >/dev/null
log=$WORK/demo/serial.txt
if ! grep -q '^@@RC info ' "$log"; then
	echo "demo: error: the boot did not finish; serial log: $log" >&2
	exit 1
fi
echo "---- Shell> fs0:\\uncore.efi info"
step_output "$log" info
echo "---- exit status (%lasterror%): $(step_rc "$log" info)"
echo "QEMU has no uncore PMU: its unknown MSRs read 0, so MSR_UNC_CBO_CONFIG reports no CBo."
