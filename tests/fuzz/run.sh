#!/usr/bin/env bash
# Runs a libFuzzer binary on a copy of its seed corpus (the seeds in the
# repository stay as they are) and prints one ok/FAIL line.
set -u
bin=$1; seeds=$2; shift 2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$seeds"/* "$work"/
name=$(basename "$bin")
if out=$("$bin" "$work" -artifact_prefix="$work/" "$@" 2>&1); then
	echo "ok - fuzz.$name ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' <<<"$out" | tail -1))"
else
	echo "FAIL - fuzz.$name"
	tail -n 30 <<<"$out" | sed 's/^/    /'
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -e "$a" ] && echo "    input: $(od -c "$a" | head -3)"
	done
fi
