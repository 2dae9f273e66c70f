#!/usr/bin/env bash
# Runs host unit-test binaries; prints their ok/FAIL lines. A binary that dies
# (a sanitizer report, a crash) without reporting counts as one failure.
set -u
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL - ' <<<"$out"; then
		echo "FAIL - $(basename "$t"): exited with status $rc without reporting a failure"
	fi
done
