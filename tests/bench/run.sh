#!/usr/bin/env bash
# `make bench`: the size of uncore.efi (each section of the outer image
# and of the application it carries packed, the five largest symbols, the
# packed sizes and the time to unpack), and the cost of one full IMC sample (all five counters),
#  - on the host, in instructions (valgrind's callgrind, inside one_sample());
#    and per PMU family (MSR, RDPMC, PCI, MMIO, discovery CHA), the engine's own
#    instructions per sample with the seam left out, the same per counter
#    read, and the accesses it makes; then the same paths at a real part's
#    size (cha4, rdpmc7, pci16);
#  - in QEMU, in TSC cycles, from `uncore.efi bench` against the emulated uncore.
# Figures only: nothing here passes or fails on speed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/bench/bench_imc
n=10000
out=$top/build/bench/callgrind.out

echo "== size: build/uncore.efi"
efi=$top/build/uncore.efi
size=$(stat -c %s "$efi")
limit=$(sed -n 's/^EFI_SIZE_LIMIT := //p' "$top/Makefile")
echo "uncore.efi: $size bytes; the guard (EFI_SIZE_LIMIT) $limit bytes: $((limit - size)) bytes of headroom"
echo "its sections (the outer image, efi/stub.c; those without contents take no bytes in the file):"
sections() { # FILE: each section's size, and what it holds
	objdump -h "$1" | while read -r idx name size rest; do
		[[ $idx =~ ^[0-9]+$ ]] || continue
		read -r flags
		[[ $flags == *ALLOC* ]] || continue
		case $name in
		.data) [[ $flags == *CONTENTS* ]] && what='' || what='no contents: unpacked from .zdata at start' ;;
		.zdata) what='.data, packed' ;;
		.zimage) what='the application, packed' ;;
		*) [[ $flags == *CONTENTS* ]] && what='' || what='no contents: zero-filled' ;;
		esac
		printf '  %-10s %7d bytes%s\n' "$name" "$((16#$size))" "${what:+ ($what)}"
	done
}
sections "$efi"
echo "the application it carries (build/uncore.so, unpacked into pages the stub allocates):"
sections "$top/build/uncore.so" | grep -v '^  \.\(hash\|gnu\.hash\|dynsym\|dynstr\|dynamic\|reloc\|rela\|zdata\) '
echo "the five largest symbols (build/uncore.so):"
nm --size-sort -S "$top/build/uncore.so" | tail -5 | tac | while read -r addr size type name; do
	printf '  %-24s %6d bytes (%s)\n' "$name" "$((16#$size))" "$type"
done
"$top/build/bench/bench_unpack" "$top/build/uncore.zimg" 50 || exit 1
uout=$top/build/bench/callgrind.unpack.out
valgrind --tool=callgrind --toggle-collect=unpack_once --callgrind-out-file="$uout" \
	"$top/build/bench/bench_unpack" "$top/build/uncore.zimg" 1 >/dev/null 2>&1 || {
	echo "bench: valgrind failed on bench_unpack" >&2; exit 1; }
uir=$(awk '/^(summary|totals):/ {print $2; exit}' "$uout")
# unpack_once runs twice: once to read the image, once timed
echo "unpacking it, counted by callgrind: $((uir / 2)) instructions (the stub's cost at each start)"

echo "== host: the load kernels against plain C loops built as STREAM is built"
"$top/build/bench/bench_load" || exit 1

echo "== host: one IMC sample, counted by callgrind ($n samples)"
"$bin" 100000 || exit 1
valgrind --tool=callgrind --toggle-collect=one_sample --callgrind-out-file="$out" "$bin" "$n" >/dev/null 2>&1 || {
	echo "bench: valgrind failed" >&2; exit 1; }
ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
echo "callgrind: $ir instructions in $n samples = $((ir / n)) instructions per sample (its seam: efi/hw_native.c's loads)"

echo "== host: one sample per PMU family, the engine and driver alone (the seam left out), callgrind ($n samples)"
for fam in msr rdpmc pci mmio cha chapkg cha4 rdpmc7 pci16; do
	[ "$fam" = cha4 ] && echo "  -- the same paths at a real part's size (each sample's fixed cost spread over more counters):"
	case $fam in
	msr) what="MSR general counters (Skylake CBo + ARB, 2 events, 5 counters)" ;;
	rdpmc) what="RDPMC (architectural core PMU, 2 events)" ;;
	pci) what="two-dword PCI counters (Xeon E5 iMC, 2 events x 4 channels)" ;;
	mmio) what="MMIO free-running counters (Skylake IMC, 5 events)" ;;
	cha) what="a discovery CHA counter on this processor's package (SPR, 1 event)" ;;
	chapkg) what="the same CHA on package 1: one trip there a sample" ;;
	cha4) what="MSR: a discovery CHA box's 4 counters (SPR, 4 events)" ;;
	rdpmc7) what="RDPMC: the architectural PMU's 4 general + 3 fixed counters" ;;
	pci16) what="PCI: a full Xeon E5 iMC, 4 events x 4 channels" ;;
	esac
	sout=$top/build/bench/callgrind.$fam.out
	acc=$(valgrind --tool=callgrind --toggle-collect=one_sample --toggle-collect='seam_*' \
		--callgrind-out-file="$sout" "$top/build/bench/bench_sample" "$fam" "$n" 2>/dev/null) || {
		echo "bench: bench_sample $fam failed" >&2; exit 1; }
	# one_sample's inclusive count: the totals would also hold the set-up's
	# seam calls, which the toggles turn on when they leave them
	ir=$(callgrind_annotate --inclusive=yes "$sout" 2>/dev/null |
		awk '/ [^ ]*bench_sample\.c:one_sample / {gsub(",", "", $1); print $1; exit}')
	[ -n "$ir" ] || { echo "bench: no one_sample in $sout" >&2; exit 1; }
	# per counter: one sample's instructions outside the seam over the
	# counters it reads (bench_sample prints how many)
	ctrs=$(sed -n 's/^[a-z0-9]* *[0-9]* events, \([0-9]*\) counters:.*/\1/p' <<<"$acc")
	[ -n "$ctrs" ] && [ "$ctrs" -gt 0 ] || { echo "bench: bench_sample $fam printed no counter count" >&2; exit 1; }
	printf '  %-66s %5d instructions per sample, %d counter%s: %d per counter outside the seam\n' "$what:" \
		"$((ir / n))" "$ctrs" "$([ "$ctrs" = 1 ] || echo s)" "$((ir / n / ctrs))"
	echo "      ${acc#* counters: }"
	# beside it, the least a sample making the same tests can cost
	# (bench_floor.c), for the MSR and RDPMC runs whose sample is one list
	# call (chapkg's is a trip, which the floor does not model: cha's is its)
	case $fam in msr | rdpmc | cha | cha4 | rdpmc7)
		chk=$(sed -n 's/.*; \([0-9]*\) registers checked besides.*/\1/p' <<<"$acc")
		fout=$top/build/bench/callgrind.floor.$fam.out
		valgrind --tool=callgrind --toggle-collect=one_sample --toggle-collect=seam_read \
			--callgrind-out-file="$fout" "$top/build/bench/bench_floor" "$chk" "$ctrs" "$n" >/dev/null 2>&1 || {
			echo "bench: bench_floor $chk $ctrs failed" >&2; exit 1; }
		fir=$(callgrind_annotate --inclusive=yes "$fout" 2>/dev/null |
			awk '/ [^ ]*bench_floor\.c:one_sample / {gsub(",", "", $1); print $1; exit}')
		[ -n "$fir" ] || { echo "bench: no one_sample in $fout" >&2; exit 1; }
		printf '      the least a sample with the same tests costs (bench_floor.c, %d checked registers): %d, %d per counter\n' \
			"$chk" "$((fir / n))" "$((fir / n / ctrs))" ;;
	esac
done

echo "== QEMU (TCG): uncore.efi bench against the emulated uncore"
. "$top/tests/qemu/lib.sh"
WORK=$top/build/bench/qemu
boot_begin bench Skylake-Client
boot_file "$top/build/uncore-emu.efi"
step emu 'uncore-emu.efi --rate DRAM_DATA_READS=100M'
expect emu rc zero
step bench "uncore.efi bench -n $n"
expect bench rc zero
expect bench has '^imc sample: '
boot_run_now >/dev/null
step_output "$WORK/bench/serial.txt" bench | grep -v '^uncore: warning'
echo "(TCG emulates every instruction: QEMU cycles say more about the emulator than about hardware)"
