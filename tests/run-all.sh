#!/usr/bin/env bash
# `make check`: host unit tests (ASan+UBSan), then the QEMU/OVMF boot tests,
# then one "N passed, N failed" line over both.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
log=$top/build/check.log
mkdir -p "$top/build"
{
	echo "# host unit tests"
	"$top/tests/run-unit.sh" "$@"
	"$top/tests/layering.sh" -v
	"$top/tests/fuzz/run.sh" "$top/build/fuzz/fuzz_evsel" "$top/tests/fuzz/corpus/evsel" -max_total_time="${FUZZ_CHECK_SECONDS:-30}"
	"$top/tests/fuzz/run.sh" "$top/build/fuzz/fuzz_decode" "$top/tests/fuzz/corpus/decode" -max_total_time="${FUZZ_CHECK_SECONDS:-30}"
	echo "# QEMU/OVMF boot tests"
	"$top/tests/qemu/boot-tests.sh"
} 2>&1 | tee "$log"
pass=$(grep -c '^ok - ' "$log")
fail=$(grep -c '^FAIL - ' "$log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
