#!/usr/bin/env bash
# The layers, from #include lines: drivers/pmu/ (one driver per PMU family)
# sits above the engine (drivers/*.[ch]); efi/, its commands (efi/cmd/, one
# file per command) and tools/ use the engine. No file outside drivers/pmu/
# may include a driver's header, the engine names no driver, and nothing in
# drivers/ reaches up into efi/ (the commands or the firmware side). Prints the graph (-v) and one ok/FAIL line per rule.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
verbose=${1:-}

# "FILE -> HEADER" for every quoted #include, the header as a path from the top.
edges() {
	for f in drivers/*.[ch] drivers/pmu/*.[ch] efi/*.[ch] efi/cmd/*.[ch] tools/*.[ch]; do
		sed -n 's/^#include "\(.*\)"/\1/p' "$f" | while read -r h; do
			p=$(realpath -m --relative-to="$top" "$(dirname "$f")/$h")
			echo "$f -> $p"
		done
	done
}

layer() {
	case $1 in
	drivers/pmu/*) echo driver ;;
	drivers/*) echo engine ;;
	efi/cmd/*) echo cmd ;;
	efi/*) echo efi ;;
	tools/*) echo tools ;;
	*) echo other ;;
	esac
}

all=$(edges)
if [ "$verbose" = -v ]; then
	echo "# include graph by layer (FROM -> TO: count)"
	while read -r f _ h; do echo "$(layer "$f") -> $(layer "$h")"; done <<<"$all" | sort | uniq -c |
		awk '{ printf "#   %-7s -> %-7s %3d\n", $2, $4, $1 }'
fi

bad=$(while read -r f _ h; do
	[ "$(layer "$h")" = driver ] && [ "$(layer "$f")" != driver ] && echo "$f includes $h"
done <<<"$all")
if [ -z "$bad" ]; then echo "ok - layering.no_driver_header_outside_drivers_pmu"; else
	echo "FAIL - layering.no_driver_header_outside_drivers_pmu"; sed 's/^/    /' <<<"$bad"; fi

# Nothing below the commands reaches up: no engine or driver file includes
# anything in efi/.
up=$(while read -r f _ h; do
	case $(layer "$f") in engine | driver) case $(layer "$h") in cmd | efi) echo "$f includes $h" ;; esac ;; esac
done <<<"$all")
if [ -z "$up" ]; then echo "ok - layering.drivers_include_nothing_in_efi"; else
	echo "FAIL - layering.drivers_include_nothing_in_efi"; sed 's/^/    /' <<<"$up"; fi

# The engine names no driver: no driver's symbols or register names in it.
names=$(grep -lE 'skl_|SKL_|MSR_UNC_|knc_|KNC_|MSR_KNC_|p6_|P6_|\<arch_|\<ARCH_|IA32_|snbep_|SNBEP_|MC_CH|adl_|ADL_|tgl_|TGL_|disc_|DISC_|pmu_driver_[a-z]' drivers/*.[ch] efi/*.[ch] efi/cmd/*.[ch] tools/*.[ch] 2>/dev/null)
if [ -z "$names" ]; then echo "ok - layering.engine_names_no_driver"; else
	echo "FAIL - layering.engine_names_no_driver"; sed 's/^/    /' <<<"$names"; fi
