#!/usr/bin/env bash
# `make demo`: boot QEMU/OVMF headless (no uncore of its own), load the
# emulated uncore with chosen event rates, and run uncore.efi from the UEFI
# Shell as a lab would, printing what the applications printed.
set -u
. "$(dirname "$0")/lib.sh"
WORK=$TOP/build/demo

EMU='uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2.5M --rate UNC_ARB_TRK_REQUESTS.ALL=40M --rate UNC_ARB_TRK_OCCUPANCY.ALL=1.2G --rate DRAM_DATA_READS=312.5M --rate DRAM_DATA_WRITES=125M --rate DRAM_IA_REQUESTS=400M --rate DRAM_GT_REQUESTS=30M --rate DRAM_IO_REQUESTS=5M'
DEMO_IDS=(emu info table interval bw load)
DEMO_CMDS=("$EMU" 'uncore.efi info'
	'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL,UNC_ARB_TRK_OCCUPANCY.ALL,UNC_CLOCK.SOCKET -d 2 -o var'
	'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET -I 1000 -n 3'
	'uncore.efi bw -d 2'
	'uncore.efi bw -d 2 --load copy --cpus all --min-bw 25000')

boot_begin demo Skylake-Client -smp 4 -m 512
boot_file "$TOP/build/uncore-emu.efi"
for i in "${!DEMO_IDS[@]}"; do step "${DEMO_IDS[$i]}" "${DEMO_CMDS[$i]}"; done
echo "demo: booting QEMU (q35, -cpu Skylake-Client -smp 4, OVMF, TCG). QEMU has no uncore, so the"
echo "demo: emulated one is loaded first; every figure below says 'msr access: emulated'."
boot_run_now >/dev/null
log=$WORK/demo/serial.txt
if ! grep -q '^@@RC load ' "$log"; then
	echo "demo: error: the boot did not finish; serial log: $log" >&2
	exit 1
fi
for i in "${!DEMO_IDS[@]}"; do
	echo
	echo "Shell> fs0:\\${DEMO_CMDS[$i]}"
	step_output "$log" "${DEMO_IDS[$i]}"
	echo "(exit status: $(step_rc "$log" "${DEMO_IDS[$i]}"))"
done
echo
echo "QEMU has exited. On the host, the record the table run stored, read back from the VARS image:"
echo "\$ build/uncore_decode --vars build/demo/demo/vars.fd UncoreResults"
"$TOP/build/uncore_decode" --vars "$WORK/demo/vars.fd" UncoreResults
