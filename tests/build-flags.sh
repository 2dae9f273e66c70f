#!/usr/bin/env bash
# The build rebuilds an object when the command that builds it changes, and
# only then (the Makefile's flags_file: OBJ.o.flags beside each object), and
# `make bench` measures the load kernels' very object. Run by `make unit` and
# `make check`; builds a few objects in a folder of its own (BUILD=), so the
# tree's build/ is left alone.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$top" --no-print-directory BUILD="$tmp" "$@" 2>&1; }
check() { # NAME WHY-IF-FAILED CONDITION...
	local name=$1 why=$2; shift 2
	if "$@"; then echo "ok - build.$name"; pass=$((pass + 1)); else
		echo "FAIL - build.$name: $why"; fail=$((fail + 1)); fi
}
# Which of the sources OUT (make's output) says were compiled, in order.
compiled() { sed -n 's/^  [A-Z]*CC \{1,\}\([^ ]*\.c\)$/\1/p' <<<"$1" | tr '\n' ' ' | sed 's/ $//'; }
is() { [ "$1" = "$2" ]; }

load=$tmp/efi/drivers/engine/load.o # LOAD_OPT
cold=$tmp/efi/drivers/engine/evsel.o # EFI_COLD: -Oz
hot=$tmp/efi/drivers/engine/stat.o  # EFI_HOT: -O2
host=$tmp/host/drivers/base/fmt.o   # HOST_CFLAGS
objs=("$load" "$cold" "$hot" "$host")

out=$(mk "${objs[@]}")
got=$(compiled "$out")
check first_build "compiled [$got]; make said: $out" \
	is "$got" "drivers/engine/load.c drivers/engine/evsel.c drivers/engine/stat.c drivers/base/fmt.c"
out=$(mk "${objs[@]}")
check nothing_again "the second make compiled [$(compiled "$out")]" is "$(compiled "$out")" ""
check each_object_its_own_opt "flags: load [$(tail -c 40 "$load.flags" 2>/dev/null)], evsel [$(tail -c 40 "$cold.flags" 2>/dev/null)], stat [$(tail -c 80 "$hot.flags" 2>/dev/null)]" \
	eval 'grep -qs -- " -O2$" "$load.flags" && grep -qs -- " -Oz$" "$cold.flags" && grep -qs -- " -O2 -falign-functions=1 " "$hot.flags"'

out=$(mk LOAD_OPT=-O1 "${objs[@]}")
check load_opt_rebuilds_load_alone "with LOAD_OPT=-O1 make compiled [$(compiled "$out")]" \
	is "$(compiled "$out")" "drivers/engine/load.c"
check load_opt_recorded "load.o.flags: $(cat "$load.flags" 2>/dev/null)" grep -qs -- " -O1$" "$load.flags"
out=$(mk LOAD_OPT=-O1 "${objs[@]}")
check load_opt_nothing_again "the second make with LOAD_OPT=-O1 compiled [$(compiled "$out")]" is "$(compiled "$out")" ""
out=$(mk "${objs[@]}")
check load_opt_back "back to the default LOAD_OPT make compiled [$(compiled "$out")]" \
	is "$(compiled "$out")" "drivers/engine/load.c"

# Another compiler (the same one by another name) rebuilds every kind.
cc=$(command -v gcc)
out=$(mk CC="$cc" "${objs[@]}")
check cc_rebuilds_all "with CC=$cc make compiled [$(compiled "$out")]" \
	is "$(compiled "$out")" "drivers/engine/load.c drivers/engine/evsel.c drivers/engine/stat.c drivers/base/fmt.c"
out=$(mk CC="$cc" "${objs[@]}")
check cc_nothing_again "the second make with CC=$cc compiled [$(compiled "$out")]" is "$(compiled "$out")" ""

# make bench links the object the application links, not a copy built apart.
out=$(mk -n V=1 "$tmp/bench/bench_load")
link=$(grep -- '-o [^ ]*/bench/bench_load$' <<<"$out")
check bench_links_shipped_load "bench_load's link: [$link]" eval '[[ " $link " == *" $load "* ]]'

echo "# build: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
