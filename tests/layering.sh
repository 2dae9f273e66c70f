#!/usr/bin/env bash
# The layers, from #include lines, bottom up:
#   base    drivers/base/    the hardware seam (hw.h) and helpers: status, fmt, parse, arith, crc32,
#                            CPU identity, PCI buses, SMBIOS, the time base
#   engine  drivers/engine/  the driver model (pmu.h), events, scheduling and sampling, counts, info, load
#   driver  drivers/pmu/     one driver per PMU family, above the engine (and the records, which it
#                            converts from the layouts it wrote)
#   output  drivers/output/  reports, records, stored variables, HTML
#   lab     drivers/lab/     lab mode's configuration and files
#   cmd     drivers/cmd/     the command layer: the parser, the command table, one file per
#                            command, the stat/bw pipeline; above the rest of drivers/, no firmware
#   efi     efi/             the firmware edge: entry point, console, variables, files, the native seam
#   tools   tools/           host programs
# Rules: a layer includes only its own and the layers it names below; no file
# outside drivers/pmu/ includes a driver's header; nothing outside drivers/pmu/
# names a driver. Prints the graph (-v) and one ok/FAIL line per rule.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
verbose=${1:-}
shopt -s nullglob
srcs=(drivers/*/*.[ch] efi/*.[ch] efi/*/*.[ch] tools/*.[ch])

# "FILE -> HEADER" for every quoted #include, the header as a path from the top.
edges() {
	for f in "${srcs[@]}"; do
		sed -n 's/^#include "\(.*\)"/\1/p' "$f" | while read -r h; do
			p=$(realpath -m --relative-to="$top" "$(dirname "$f")/$h")
			echo "$f -> $p"
		done
	done
}

layer() {
	case $1 in
	drivers/base/*) echo base ;;
	drivers/engine/*) echo engine ;;
	drivers/pmu/*) echo driver ;;
	drivers/output/*) echo output ;;
	drivers/lab/*) echo lab ;;
	drivers/cmd/*) echo cmd ;;
	efi/*) echo efi ;;
	tools/*) echo tools ;;
	*) echo other ;;
	esac
}

# What each layer may include (besides itself).
allowed() {
	case $1 in
	base) echo "" ;;
	engine) echo "base" ;;
	driver) echo "base engine output" ;; # output: a driver converts the record layouts it wrote (rec_convert)
	output) echo "base engine" ;;
	lab) echo "base engine output" ;;
	cmd) echo "base engine output lab" ;;
	efi) echo "base engine output lab cmd" ;;
	tools) echo "base engine output" ;;
	*) echo "" ;;
	esac
}

all=$(edges)
if [ "$verbose" = -v ]; then
	echo "# include graph by layer (FROM -> TO: count)"
	while read -r f _ h; do echo "$(layer "$f") -> $(layer "$h")"; done <<<"$all" | sort | uniq -c |
		awk '{ printf "#   %-7s -> %-7s %3d\n", $2, $4, $1 }'
fi

rule() { # NAME BAD-LINES
	if [ -z "$2" ]; then echo "ok - layering.$1"; else
		echo "FAIL - layering.$1"; sed 's/^/    /' <<<"$2"; fi
}

bad=$(while read -r f _ h; do
	[ "$(layer "$h")" = driver ] && [ "$(layer "$f")" != driver ] && echo "$f includes $h"
done <<<"$all")
rule no_driver_header_outside_drivers_pmu "$bad"

# Each layer reaches only down: drivers above the engine, nothing below the
# engine reaches up, the commands above both.
bad=$(while read -r f _ h; do
	lf=$(layer "$f") lh=$(layer "$h")
	[ "$lf" = "$lh" ] && continue
	[ "$lh" = other ] && continue
	[[ " $(allowed "$lf") " == *" $lh "* ]] || echo "$f ($lf) includes $h ($lh)"
done <<<"$all")
rule layers_reach_only_down "$bad"

# No firmware header below the commands: nothing in drivers/ includes anything in efi/.
bad=$(while read -r f _ h; do
	[[ $f == drivers/* && $h == efi/* ]] && echo "$f includes $h"
done <<<"$all")
rule drivers_include_nothing_in_efi "$bad"

# Nor a firmware header: drivers/ (the command layer too) builds unchanged for the host tests.
bad=$(grep -nE '^#include <(efi|efilib|efiapi|efiprot)[a-z_0-9]*\.h>' drivers/*/*.[ch] 2>/dev/null)
rule drivers_include_no_firmware_header "$bad"

# The engine names no driver: no driver's symbols or register names outside drivers/pmu/.
names=$(grep -lE 'skl_|SKL_|MSR_UNC_|knc_|KNC_|MSR_KNC_|p6_|P6_|\<arch_|\<ARCH_|IA32_|snbep_|SNBEP_|MC_CH|adl_|ADL_|tgl_|TGL_|icl_|ICL_|rkl_|RKL_|disc_|DISC_|xcha_|XCHA_|pmu_driver_[a-z]' \
	drivers/base/*.[ch] drivers/engine/*.[ch] drivers/output/*.[ch] drivers/lab/*.[ch] drivers/cmd/*.[ch] efi/*.[ch] efi/*/*.[ch] tools/*.[ch] 2>/dev/null)
rule engine_names_no_driver "$names"
