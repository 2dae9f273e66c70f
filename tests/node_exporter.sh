#!/usr/bin/env bash
# Debian's prometheus-node-exporter reads what the systemd unit of the docs
# (tools/uncore-boot-check.service) writes: its textfile collector, started on
# a loopback port the system picks, serves every series of the file with the
# same labels and value (Prometheus' Python client parses both sides) and
# node_textfile_scrape_error 0. Run by `make unit` and `make check`:
#   tests/node_exporter.sh            the unit's own command (its three paths
#                                     moved to a temporary directory) on each
#                                     stored record of the decoder's fuzzer
#                                     seeds, as UncoreBoot1 in an efivarfs-like
#                                     directory: status 0 (3 and a file saying
#                                     uncore_check_passed 0 for a failed
#                                     check's seed), then the scrape; and on a
#                                     record cut short, status 1, no file
#   tests/node_exporter.sh NAME FILE  one textfile as it is (the linux boot's)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
ne=
trap '[ -n "$ne" ] && kill "$ne" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/text" "$tmp/vars"
guid=7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63
fail=0
say() { # NAME OK? MESSAGE
	if [ "$2" = 0 ]; then echo "ok - node_exporter.$1"; else echo "FAIL - node_exporter.$1: $3"; fail=1; fi
}

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/text" --web.listen-address="127.0.0.1:$port" > "$tmp/ne.log" 2>&1 &
ne=$!

# The scrape against the textfile: every uncore_ series of one is in the
# other with the same value, and the collector had no error. A family whose
# series differ in their label names (a total beside per-channel rows) is
# served with the missing labels empty, which Prometheus takes as absent: so
# a label with an empty value counts as none on both sides.
scrape() { # NAME FILE
	/usr/bin/python3 - "$2" "http://127.0.0.1:$port/metrics" <<'EOF'
import sys, time, urllib.request
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as prom
def series(families):
    return {(s.name, tuple(sorted((k, v) for k, v in s.labels.items() if v)), float(s.value))
            for f in families for s in f.samples}
text = open(sys.argv[1]).read()
want = {s for s in series(om(text)) if s[0].startswith("uncore_")}
rows = sum(1 for line in text.splitlines() if line.startswith("uncore_"))
if rows != len(want):
    sys.exit("%d uncore_ rows in the file but %d distinct series" % (rows, len(want)))
for _ in range(100):  # the exporter may still be starting
    try:
        text = urllib.request.urlopen(sys.argv[2], timeout=5).read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("node_exporter did not answer on " + sys.argv[2])
got = series(prom(text))
if ("node_textfile_scrape_error", (), 0.0) not in got:
    sys.exit("node_textfile_scrape_error is not 0")
got = {s for s in got if s[0].startswith("uncore_")}
if not want or want != got:
    sys.exit("%d series in the file, %d served; only in the file: %s; only served: %s"
             % (len(want), len(got), sorted(want - got)[:2], sorted(got - want)[:2]))
EOF
}

if [ $# = 2 ]; then
	out="no file $2"
	cp "$2" "$tmp/text/uncore.prom" && out=$(scrape "$1" "$tmp/text/uncore.prom" 2>&1)
	say "$1" $? "$(tr '\n' ' ' <<<"$out")"
	exit $fail
fi

unit=$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" "$top/tools/uncore-boot-check.service" | sed 's/\$\$/$/g' |
	sed "s#/var/lib/prometheus/node-exporter#$tmp/text#; s#/usr/local/bin/uncore_decode#$top/build/host/uncore_decode#; s#/sys/firmware/efi/efivars#$tmp/vars#")
n=0
for seed in "$top"/tests/fuzz/corpus/decode/record_*; do
	# A seed's first byte is the fuzzer's mode (even: a record), the rest the record.
	[ $(($(head -c 1 "$seed" | od -An -tu1) % 2)) = 0 ] || continue
	rm -f "$tmp/vars/"* && { printf '\007\000\000\000' && tail -c +2 "$seed"; } > "$tmp/vars/UncoreBoot1-$guid" || exit 1
	# A seed named *_check_failed is a check that failed (a bw --min-bw 2000
	# against the emulator's 1,500 MB/s): the unit fails with status 3 and
	# still leaves its file, which says uncore_check_passed 0.
	want=0 passed=
	case $seed in *_check_failed) want=3 passed='uncore_check_passed\{.*\} 0' ;; esac
	out=$(sh -c "$unit" 2>&1); s=$?
	[ $s = $want ] && [ "$(ls "$tmp/text")" = uncore.prom ] &&
		{ [ -z "$passed" ] || grep -Eqx "$passed" "$tmp/text/uncore.prom" || ! out="no $passed"; } &&
		out=$(scrape "${seed##*/}" "$tmp/text/uncore.prom" 2>&1)
	say "${seed##*/}" $? "status $s (want $want), the directory holds: $(ls "$tmp/text" | tr '\n' ' '); $(tr '\n' ' ' <<<"$out")"
	n=$((n + 1))
done
[ $n -gt 0 ] || say seeds 1 "no record seeds in tests/fuzz/corpus/decode"
# A record cut short (a seed's first 100 bytes): status 1, and the file the
# run before left is removed rather than served again.
seed=$top/tests/fuzz/corpus/decode/record_stat
echo '# EOF' > "$tmp/text/uncore.prom" && rm -f "$tmp/vars/"* &&
	{ printf '\007\000\000\000' && tail -c +2 "$seed" | head -c 100; } > "$tmp/vars/UncoreBoot1-$guid" || exit 1
out=$(sh -c "$unit" 2>&1); s=$?
[ $s = 1 ] && [ -z "$(ls "$tmp/text")" ]
say corrupt_record_removes_file $? "status $s (want 1), the directory holds: $(ls "$tmp/text" | tr '\n' ' '); $(tr '\n' ' ' <<<"$out")"
exit $fail
