#!/usr/bin/env bash
# The systemd unit of the docs (tools/uncore-boot-check.service) as systemd
# reads it: `systemd-analyze verify` exits 0 even on a key it ignores, so
# the check is that it says nothing at all. Run by `make unit` and `make check`.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(systemd-analyze verify "$top/tools/uncore-boot-check.service" 2>&1)
if [ $? = 0 ] && [ -z "$out" ]; then
	echo "ok - systemd.unit_verifies"
else
	echo "FAIL - systemd.unit_verifies: $(tr '\n' ' ' <<<"$out")"
	exit 1
fi
