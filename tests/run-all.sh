#!/usr/bin/env bash
# `make check`: host unit tests (ASan+UBSan), the layering and documents checks, the
# fuzzers (both at once, FUZZ_CHECK_SECONDS each), then the QEMU/OVMF boot
# tests (QEMU_JOBS at a time); then each phase's time and each boot's, and
# one "N passed, N failed" line over everything.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
log=$top/build/check.log
times=$top/build/check-times.txt
mkdir -p "$top/build"
: > "$times"
phase() { # name command...: runs it, notes its wall-clock time
	local name=$1 start=$SECONDS; shift
	"$@"
	printf '#   %-12s %4ds\n' "$name" $((SECONDS - start)) >> "$times"
}
fuzz_both() {
	local tmp; tmp=$(mktemp -d)
	"$top/tests/fuzz/run.sh" "$top/build/fuzz/fuzz_evsel" "$top/tests/fuzz/corpus/evsel" \
		-max_total_time="${FUZZ_CHECK_SECONDS:-30}" > "$tmp/evsel" 2>&1 &
	"$top/tests/fuzz/run.sh" "$top/build/fuzz/fuzz_decode" "$top/tests/fuzz/corpus/decode" \
		-max_total_time="${FUZZ_CHECK_SECONDS:-30}" > "$tmp/decode" 2>&1 &
	wait
	cat "$tmp/evsel" "$tmp/decode"
	rm -rf "$tmp"
}
start=$SECONDS
{
	echo "# host unit tests"
	phase "host tests" "$top/tests/run-unit.sh" "$@"
	phase layering "$top/tests/layering.sh" -v
	phase docs "$top/tests/docs.sh"
	echo "# fuzzing"
	phase fuzzing fuzz_both
	echo "# QEMU/OVMF boot tests"
	phase "QEMU boots" "$top/tests/qemu/boot-tests.sh"
} 2>&1 | tee "$log"
pass=$(grep -c '^ok - ' "$log")
fail=$(grep -c '^FAIL - ' "$log")
echo "# times (wall clock):"
cat "$times"
# each boot's own time (QEMU and its checks), in the order of the boots
sed -n 's/^# boot \([^ ]*\) took \([0-9]*\)s with its checks, \([0-9.]*\) s CPU$/\1 \2 \3/p' "$log" | while read -r b s c; do
	printf '#     boot %-10s %4ds %6.1fs CPU\n' "$b" "$s" "$c"
done
sed -n 's/^# boot [^ ]* took [0-9]*s with its checks, \([0-9.]*\) s CPU$/\1/p' "$log" |
	awk '{c += $1} END {printf "#   %-12s %6.1fs CPU (user + system, all boots)\n", "boots", c}'
printf '#   %-12s %4ds\n' total $((SECONDS - start))
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
