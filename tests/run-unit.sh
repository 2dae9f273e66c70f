#!/usr/bin/env bash
# Runs host unit-test binaries, UNIT_JOBS at a time (default: the number of
# cores); prints their ok/FAIL lines in the order given, each binary's
# output whole. A binary that dies (a sanitizer report, a crash) without
# reporting counts as one failure. Exits 1 when anything failed.
set -u
jobs=${UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
for t in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n 2>/dev/null || sleep 0.1
	done
	{ "$t" > "$tmp/$i.out" 2>&1; echo $? > "$tmp/$i.rc"; } &
	i=$((i + 1))
done
wait
i=0
failed=0
for t in "$@"; do
	printf '%s\n' "$(cat "$tmp/$i.out")"
	rc=$(cat "$tmp/$i.rc")
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL - ' "$tmp/$i.out"; then
		echo "FAIL - $(basename "$t"): exited with status $rc without reporting a failure"
	fi
	[ "$rc" -eq 0 ] && ! grep -q '^FAIL - ' "$tmp/$i.out" || failed=1
	i=$((i + 1))
done
exit $failed
