#!/usr/bin/env bash
# The example Prometheus configuration and alerting rules (tools/prometheus/) as Prometheus
# reads them: promtool check config, check rules, and test rules (the alerts fire for the
# board that should raise them and for no other). Run by `make unit` and `make check`.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/tools/prometheus
fail=0
check() { # NAME COMMAND...: ok, or FAIL with what promtool said
	local name=$1 out; shift
	if out=$("$@" 2>&1); then
		echo "ok - prometheus.$name"
	else
		echo "FAIL - prometheus.$name: $(tr '\n' ' ' <<<"$out")"
		fail=1
	fi
}
check config promtool check config "$dir/prometheus.yml"
check rules promtool check rules "$dir/uncore.rules.yml"
check rules_fire promtool test rules "$dir/uncore.rules.test.yml"
exit $fail
