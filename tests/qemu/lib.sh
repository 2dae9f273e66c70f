# Boot tests in QEMU/OVMF: describe the steps of one boot, run it, judge it.
#
#   boot_begin NAME QEMU_CPU [EXTRA QEMU ARGS...]
#   step ID 'uncore.efi ARGS'            a command run from the UEFI Shell as fs0:\... ('!cmd': cmd as is)
#   expect ID rc zero|nonzero|0xN         (0xN: exactly that %lasterror%)
#   expect ID has  'ERE'                 some line of the step's output matches
#   expect ID lacks 'ERE'
#   expect ID lines N                    the step printed exactly N non-empty lines
#   expect ID count 'ERE' N              exactly N lines of the step's output match
#   expect ID rate 'EVENT' PER_S PCT     the human table's rate/s for EVENT is within PCT% of PER_S
#   expect ID csvrate 'EVENT' PER_S PCT  every -x , row for EVENT: value / run time within PCT% of PER_S
#   expect ID rows 'EVENT' N             N -x , rows for EVENT
#   expect ID bw read|write|total MBPS PCT   bw's last figure for that line within PCT% of MBPS
#   expect ID pbw ROW:FIELD MBPS PCT        a bw --per-box row's figure (socket1:read, socket0.ch3:write) within PCT% of MBPS
#   expect ID ivbw read|write|total MBPS PCT every bw -I interval's figure for that line within PCT% of MBPS
#   expect ID same OTHER_ID              the output equals that of step OTHER_ID
#   expect ID same-written OTHER_ID      regs: equals OTHER_ID's but for the lines of counters no run
#                                        writes ('  (never written)': they keep what they count)
#   expect ID same-except OTHER_ID 'ERE' equals OTHER_ID's but for the lines matching ERE (counters that
#                                        ignore writes, under --fault ro-counters, keep what they count)
#   expect ID above OTHER_ID [BY]        the last '= 0xN' of the output is above OTHER_ID's (a counter moved),
#                                        by at least BY (default 1)
#   (every step whose command has -j is also parsed with Python's json module:
#   its lines but the uncore:/uncore-emu:/child: messages must be one JSON
#   document, or JSON Lines for -I and var show; see tests/json_check.py)
#   press ID 'ERE' KEY                   once a line of step ID's output matches ERE, press KEY
#                                        (a QEMU sendkey name, e.g. esc) on the PS/2 keyboard;
#                                        ID pass:N: the log from "@@PASS N" on (what the firmware
#                                        shows between passes); KEY 'down ret': each in turn
#   boot_check ID 'SHELL CODE'           after the boot, on the host: ok if the code succeeds
#                                        ($dir is the boot's folder: vars.fd, serial.txt)
#   boot_around 'SETUP' 'TEARDOWN'      shell code run in the boot's folder ($dir) before QEMU
#                                        starts (servers it talks to) and after its checks
#   pass N                               the steps after it run in the boot's Nth pass: the guest
#                                        resets between passes (QEMU stays, and so do the VARS and
#                                        the ESP's files); startup.nsh finds its pass from files
#                                        fs0:\passN that the pass before leaves
#   boot_vars FILE                       the VARS image the boot starts from (default $OVMF_VARS)
#   boot_stop 'ERE'                      the boot must not end by itself: it is stopped (and counts as
#                                        finished) once the serial log matches ERE and QEMU still runs 3 s later
#   boot_run                             boots (in the background, QEMU_JOBS at a time)
#   boot_wait                            waits, then prints "ok - NAME.ID" / "FAIL - NAME.ID" per step
#
# A lab boot has no Shell and no startup.nsh: the firmware boots a USB stick
# image (tools/mkimage.sh) as removable media, \EFI\BOOT\BOOTX64.EFI, which
# reads its configuration from the stick and ends the boot itself:
#   lab_begin NAME QEMU_CPU [EXTRA QEMU ARGS...]
#   lab_image FILE                       boot a copy of that image instead of one made here
#   lab_efi FILE                         the stick's BOOTX64.EFI (default build/uncore.efi)
#   lab_config FILE                      its \uncore\uncore.cfg (default tools/uncore.cfg)
#   lab_file FILE ::/DEST                another file on the stick
#   lab_secure                           Secure Boot: OVMF's snakeoil pair (test key enrolled)
#   lab_readonly                         the stick is write-protected
#   lab_full                             the stick has no free space (a file fills it)
#   lab_end shutdown|reboot              how the guest must end QEMU by itself (default shutdown);
#   lab_end stop 'ERE'                   or: it must not, and is stopped once the serial log matches ERE
#   boot_check ID 'SHELL CODE'           as above; $dir also has usb.img (the stick after the
#                                        boot) and results/ (a copy of its \uncore\results), and
#                                        lab_cat PATH prints a file from the stick
# The boot's first result is NAME.ending: how it ended, against lab_end.
#
# Each step is wrapped in marker lines (@@STEP / @@RC with %lasterror%) so a
# verdict never rests on QEMU's exit code. The boot is killed on a firmware
# exception dump or on a timeout, and every step not reached fails.

QEMU_TIMEOUT=${QEMU_TIMEOUT:-180}
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=${WORK:-$TOP/build/qemu}

boot_begin() {
	BOOT=$1; BOOT_CPU=$2; shift 2
	BOOT_EXTRA=("$@")
	STEPS=(); CMDS=(); EXPECTS=(); CHECKS=(); CHECK_IDS=(); PRESS=(); PASSES=(); PASS=1 BOOT_STOP= BOOT_VARS=$OVMF_VARS
	BOOT_FILES=("$TOP/build/uncore.efi")
	LAB= BOOT_SETUP= BOOT_TEARDOWN=
}
pass() { PASS=$1; }
boot_stop() { BOOT_STOP=$1; }
boot_vars() { BOOT_VARS=$1; }

lab_begin() {
	boot_begin "$@"
	LAB=1 LAB_EFI=$TOP/build/uncore.efi LAB_CONFIG=$TOP/tools/uncore.cfg LAB_SECURE= LAB_RO= LAB_FULL=
	LAB_END=shutdown LAB_STOP= LAB_FILES=() LAB_IMAGE=
}
lab_image() { LAB_IMAGE=$1; }
lab_efi() { LAB_EFI=$1; }
lab_config() { LAB_CONFIG=$1; }
lab_file() { LAB_FILES+=("$1" "$2"); }
lab_secure() { LAB_SECURE=1; }
lab_readonly() { LAB_RO=1; }
lab_full() { LAB_FULL=1; }
lab_end() { LAB_END=$1 LAB_STOP=${2:-}; }
# A file from the stick of the boot being checked ($dir), on stdout.
lab_cat() { mcopy -n -i "$dir/usb.img@@1M" "::$1" -; }

# Extra files for the ESP root.
boot_file() { BOOT_FILES+=("$1"); }

step() { STEPS+=("$1"); CMDS+=("$2"); PASSES+=("$PASS"); }
boot_around() { BOOT_SETUP=$1 BOOT_TEARDOWN=$2; }
boot_check() { CHECK_IDS+=("$1"); CHECKS+=("$2"); }
press() { PRESS+=("$1"$'\t'"$2"$'\t'"$3"); }
expect() { EXPECTS+=("$1"$'\t'"$2"$'\t'"${3:-}"$'\t'"${4:-}"$'\t'"${5:-}"); }

# Checks a rate against its expected value; prints a reason when it is off.
# awk does the arithmetic in floating point, which is plenty for a 1% check.
rate_check() { # got want pct what
	awk -v g="$1" -v w="$2" -v p="$3" -v what="$4" 'BEGIN {
		if (g == "") { print what ": no such row"; exit }
		d = (g - w) / w * 100; if (d < 0) d = -d
		if (d > p) printf "%s: %s/s, want %s/s within %s%% (off by %.3f%%)\n", what, g, w, p, d }'
}

# -j output goes through a real JSON parser: appends to fails when it does
# not parse. Messages (uncore:, uncore-emu:, a child's child:) are not part
# of it; a failed command may print no JSON at all.
json_fails() { # command output rc
	local cmd=" $1 " json mode=doc why
	[[ $cmd == *" -j "* ]] || return 0
	[[ $cmd == *" -I "* || $cmd == *" var show "* ]] && mode=lines
	json=$(grep -Ev '^(uncore|uncore-emu|child): ' <<<"$2")
	[ -z "$json" ] && [ "$3" != 0x0 ] && return 0
	why=$(python3 "$TOP/tests/json_check.py" "$mode" <<<"$json") || fails+=("-j output: $why")
}

# Serial text with ANSI escapes and CRs removed.
clean_log() { sed -e 's/\x1b\[[0-9;?=]*[A-Za-z]//g' -e 's/\r//g' "$1"; }

# Each ERE matches a line of FILE, in the order given (awk's ERE: no backslash, no {N}).
in_order() { # FILE ERE...
	local f=$1 at=0 n re; shift
	for re; do
		n=$(awk -v from="$at" -v re="$re" 'NR >= from && $0 ~ re {print NR; exit}' "$f")
		[ -n "$n" ] || { echo "no line matches /$re/ after line $at of ${f##*/}"; return 1; }
		at=$n
	done
}

# The output of one step: the lines between its markers.
step_output() { awk -v id="$2" '$0 == "@@STEP " id {on=1; next} $0 ~ "^@@RC " id " " {on=0} on' "$1"; }
step_rc() { awk -v id="$2" '$1 == "@@RC" && $2 == id {r = $3} END {if (r != "") print r}' "$1"; }

# Boots run in the background, QEMU_JOBS at a time (default: twice the
# number of cores: a boot's guest idles through much of its waits, so one
# per core left the cores half used), each in its own folder; boot_wait
# prints their results in the order they were described, each boot's
# ending with "# boot NAME took Ns with its checks, C s CPU" (run-all.sh
# sums these up; C: the CPU seconds, user + system, of QEMU, the harness
# and the checks, which is what the boots share the cores by).
# The CPU seconds (user + system) of this shell and its children so far,
# in CPU_S (times runs in this shell: in a pipe or $(...) it would count a
# fork's).
cpu_seconds() {
	times > "$WORK/$BOOT.times"
	CPU_S=$(awk '{for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); c += t[1] * 60 + t[2] }} END {printf "%.1f", c}' "$WORK/$BOOT.times")
}
QEMU_JOBS=${QEMU_JOBS:-$((2 * $(nproc 2>/dev/null || echo 1)))}
BOOT_ORDER=()

# BOOTS="e5 stat" runs only the boots named, BOOTS=list prints every boot's
# name (a developer's shortcut, also make boot BOOTS=...; make check runs all).
BOOT_ALL=()
boot_run() {
	BOOT_ALL+=("$BOOT")
	[ "${BOOTS:-}" != list ] || { echo "$BOOT"; return 0; }
	if [ -n "${BOOTS:-}" ] && [[ " $BOOTS " != *" $BOOT "* ]]; then
		return 0
	fi
	mkdir -p "$WORK"
	while [ "$(jobs -rp | wc -l)" -ge "$QEMU_JOBS" ]; do
		wait -n 2>/dev/null || sleep 0.5
	done
	BOOT_ORDER+=("$BOOT")
	{
		local boot_t0=$SECONDS
		boot_run_now
		cpu_seconds
		echo "# boot $BOOT took $((SECONDS - boot_t0))s with its checks, $CPU_S s CPU"
	} > "$WORK/$BOOT.result" 2>&1 &
}

# The harness's wait between two looks at a running boot: 0.2 s in the
# shell itself (read -t on a FIFO of its own, not a sleep process each
# time), then whether the serial log changed since the last look (a test of
# the files' times against a mark written just before looking, so a line
# that comes meanwhile is seen the next time). The looks (grep, clean_log)
# run only then: on a boot's long quiet stretches the harness forks nothing.
poll_begin() {
	rm -f "$dir/poll.fifo" "$dir/poll.mark"; mkfifo "$dir/poll.fifo" && exec {POLL_FD}<>"$dir/poll.fifo"
}
poll_wait() { # 0: the serial log changed (or may have)
	read -r -t 0.2 -u "$POLL_FD" _
	[ ! "$dir/serial.log" -ot "$dir/poll.mark" ] || return 1
	echo > "$dir/poll.mark"
}
poll_end() { exec {POLL_FD}>&-; }

# Its status: 1 when a step or check of any boot failed.
boot_wait() {
	wait
	local b failed=0
	for b in ${BOOTS:-}; do
		[ "$b" = list ] || [[ " ${BOOT_ALL[*]} " == *" $b "* ]] ||
			{ echo "FAIL - boots: no boot named $b (BOOTS=list names them)"; failed=1; }
	done
	for b in "${BOOT_ORDER[@]}"; do
		cat "$WORK/$b.result"
		! grep -q '^FAIL - ' "$WORK/$b.result" || failed=1
	done
	BOOT_ORDER=()
	return $failed
}

boot_run_now() {
	local dir="$WORK/$BOOT" i
	rm -rf "$dir"; mkdir -p "$dir"
	if [ -n "$BOOT_SETUP" ]; then
		eval "$BOOT_SETUP" || { echo "FAIL - $BOOT.setup"; eval "$BOOT_TEARDOWN"; return 1; }
		boot_run_shell; eval "$BOOT_TEARDOWN"; return
	fi
	[ -z "$LAB" ] || { lab_run_now; return; }
	boot_run_shell
}

boot_run_shell() {
	local i
	{
		printf '@echo -off\r\n'
		local p last=1
		for ((p = PASS; p > 1; p--)); do
			printf 'if exist fs0:\\pass%s then\r\n  goto pass%s\r\nendif\r\n' "$p" "$p"
		done
		for i in "${!STEPS[@]}"; do
			if [ "${PASSES[$i]}" != "$last" ]; then # the pass before ends: a file for the next, a reset
				printf 'echo "@@PASS %s"\r\necho %s > fs0:\\pass%s\r\nreset\r\n:pass%s\r\n' \
					"${PASSES[$i]}" "${PASSES[$i]}" "${PASSES[$i]}" "${PASSES[$i]}"
				last=${PASSES[$i]}
			fi
			printf 'echo "@@STEP %s"\r\n' "${STEPS[$i]}"
			case ${CMDS[$i]} in
			'!'*) printf '%s\r\n' "${CMDS[$i]#!}" ;; # a shell command of its own
			*) printf 'fs0:\\%s\r\n' "${CMDS[$i]}" ;;
			esac
			printf 'echo "@@RC %s %%lasterror%%"\r\n' "${STEPS[$i]}"
		done
		# (a boot to stop ends on one more reset, which must not end by itself)
		printf 'echo "@@DONE"\r\nreset%s\r\n' "$([ -n "$BOOT_STOP" ] || echo ' -s')"
	} > "$dir/startup.nsh"
	mformat -i "$dir/esp.img" -C -T 65536 -h 64 -s 32 :: || return 1
	mcopy -i "$dir/esp.img" "$dir/startup.nsh" "${BOOT_FILES[@]}" :: || return 1
	cp "$BOOT_VARS" "$dir/vars.fd"

	# Keys go in through QEMU's monitor on a pipe (mon.in/mon.out); opened
	# read-write, the FIFO never blocks the harness even if QEMU is gone.
	# The first key is Return, once the Shell asks "Press ESC in 5 seconds to
	# skip startup.nsh or any other key to continue": the Shell reads it and
	# starts startup.nsh at once instead of counting the 5 seconds down.
	local mon=() pending=("${PRESS[@]}") countdown=1 reboot=(-no-reboot) pressed=0
	[ "$PASS" = 1 ] || reboot=()
	mkfifo "$dir/mon.in" "$dir/mon.out" && mon=(-monitor "pipe:$dir/mon") || return 1
	: > "$dir/serial.log"
	qemu-system-x86_64 -machine q35 -accel tcg -cpu "$BOOT_CPU" -m 256 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,unit=1,file="$dir/vars.fd" \
		-drive format=raw,file="$dir/esp.img",snapshot=on \
		-display none -nodefaults "${reboot[@]}" -serial file:"$dir/serial.log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 "${BOOT_EXTRA[@]}" "${mon[@]}" \
		</dev/null >"$dir/qemu.out" 2>&1 &
	local pid=$! start=$SECONDS why=""
	poll_begin
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - start)) -ge "$QEMU_TIMEOUT" ]; then
			why="timeout after ${QEMU_TIMEOUT}s"; break
		fi
		poll_wait || continue
		if grep -qa '!!!! X64 Exception Type' "$dir/serial.log"; then
			sleep 1; why="firmware exception dump"; break
		fi
		if [ -n "$BOOT_STOP" ] && clean_log "$dir/serial.log" | grep -Eq -- "$BOOT_STOP"; then
			sleep 3; kill -0 "$pid" 2>/dev/null || why="it ended by itself"; break
		fi
		# A boot of passes: every countdown of the Shell, after a reset too
		# (a countdown of its own: at least 2 s after the last).
		if [ "$PASS" != 1 ] && [ $((SECONDS - pressed)) -ge 2 ] &&
			tail -c 200 "$dir/serial.log" | grep -qa 'in [2-5] seconds to skip'; then
			printf 'sendkey ret\n' 1<>"$dir/mon.in"
			pressed=$SECONDS countdown=
		fi
		# (only while at least 2 seconds are left and no step has begun: a key
		# that came late would go to the step's program, as a user's abort)
		if [ -n "$countdown" ] && tail -c 200 "$dir/serial.log" | grep -qa 'in [2-5] seconds to skip' &&
			! grep -qa '@@STEP' "$dir/serial.log"; then
			printf 'sendkey ret\n' 1<>"$dir/mon.in"
			countdown=
		fi
		local k kid kre kkey key left=()
		for k in "${pending[@]}"; do
			IFS=$'\t' read -r kid kre kkey <<<"$k"
			if if [[ $kid == pass:* ]]; then clean_log "$dir/serial.log" | sed -n "/^@@PASS ${kid#pass:}\$/,\$p"
			   else step_output <(clean_log "$dir/serial.log") "$kid"; fi | grep -Eq -- "$kre"; then
				for key in $kkey; do printf 'sendkey %s\n' "$key" 1<>"$dir/mon.in"; sleep 0.3; done
				echo "# $BOOT.$kid: pressed $kkey after $((SECONDS - start))s" >> "$dir/keys.txt"
			else
				left+=("$k")
			fi
		done
		pending=("${left[@]}")
	done
	poll_end
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	clean_log "$dir/serial.log" > "$dir/serial.txt"
	if [ -z "$why" ] && [ -z "$BOOT_STOP" ] && ! grep -qx '@@DONE' "$dir/serial.txt"; then
		why="the boot ended before the script finished"
	fi
	echo "# boot $BOOT (-cpu $BOOT_CPU): $((SECONDS - start))s${why:+, $why}; log: $dir/serial.txt"
	[ ! -f "$dir/keys.txt" ] || cat "$dir/keys.txt"

	# Each step's expectations (their indexes in EXPECTS), looked up by the step's ID.
	local id si ei
	local -A exp_of=()
	for ei in "${!EXPECTS[@]}"; do exp_of[${EXPECTS[$ei]%%$'\t'*}]+="$ei "; done
	for si in "${!STEPS[@]}"; do
		id=${STEPS[$si]}
		local out rc fails=()
		out=$(step_output "$dir/serial.txt" "$id")
		rc=$(step_rc "$dir/serial.txt" "$id")
		if [ -z "${exp_of[$id]:-}" ]; then
			fails+=("the step has no expectations: a check that cannot fail is not a test")
		elif [ -z "$rc" ]; then
			fails+=("step did not finish${why:+ ($why)}")
		else
			local e kind arg arg2 arg3 n r why2
			for ei in ${exp_of[$id]}; do
				IFS=$'\t' read -r eid kind arg arg2 arg3 <<<"${EXPECTS[$ei]}"
				case $kind in
				rc) if [ "$arg" = zero ] && [ "$rc" != 0x0 ]; then fails+=("exit status $rc, expected 0")
				    elif [ "$arg" = nonzero ] && [ "$rc" = 0x0 ]; then fails+=("exit status 0, expected non-zero")
				    elif [[ $arg = 0x* ]] && [ "$rc" != "$arg" ]; then fails+=("exit status $rc, expected $arg"); fi ;;
				has) grep -Eq -- "$arg" <<<"$out" || fails+=("no line matches /$arg/") ;;
				lacks) ! grep -Eq -- "$arg" <<<"$out" || fails+=("a line matches /$arg/") ;;
				lines) n=$(grep -c . <<<"$out"); [ "$n" = "$arg" ] || fails+=("$n lines, expected $arg") ;;
				count) n=$(grep -Ec -- "$arg" <<<"$out"); [ "$n" = "$arg2" ] || fails+=("$n lines match /$arg/, expected $arg2") ;;
				rate) r=$(awk -v ev="$arg" '$1 == ev {r = $3} END {print r}' <<<"$out")
				      why2=$(rate_check "$r" "$arg2" "$arg3" "$arg"); [ -z "$why2" ] || fails+=("$why2") ;;
				csvrate) while read -r r; do
				      why2=$(rate_check "$r" "$arg2" "$arg3" "$arg"); [ -z "$why2" ] || fails+=("$why2")
				      done < <(awk -F, -v ev="$arg" '{for (i = 1; i <= NF; i++) if ($i == ev && i >= 3)
				               print $(i-2) / $(i+1) * 1e9}' <<<"$out")
				      grep -q ",$arg," <<<"$out" || fails+=("no CSV row for $arg") ;;
				rows) n=$(grep -c ",$arg," <<<"$out"); [ "$n" = "$arg2" ] || fails+=("$n rows for $arg, expected $arg2") ;;
				bw) r=$(awk -v w="$arg" '$1 == w && $3 == "MB/s" {r = $2} END {print r}' <<<"$out")
				    why2=$(rate_check "$r" "$arg2" "$arg3" "bw $arg"); [ -z "$why2" ] || fails+=("$why2") ;;
				pbw) # a row of bw --per-box: ROW:FIELD (socket1:read, socket0.ch3:write) MB/s PCT
				     r=$(awk -v row="${arg%%:*}" -v f="${arg#*:}" '$1 == row {for (i = 2; i + 2 <= NF; i++)
				         if ($i == f && $(i + 2) == "MB/s") r = $(i + 1)} END {print r}' <<<"$out")
				     why2=$(rate_check "$r" "$arg2" "$arg3" "bw $arg"); [ -z "$why2" ] || fails+=("$why2") ;;
				ivbw) n=0  # every interval row of bw -I, not only the last
				      local t
				      while read -r t r; do n=$((n + 1))
				      why2=$(rate_check "$r" "$arg2" "$arg3" "bw $arg at $t s"); [ -z "$why2" ] || fails+=("$why2")
				      done < <(awk -v w="$arg" '$2 == w && $4 == "MB/s" {print $1, $3}' <<<"$out")
				      [ "$n" -gt 0 ] || fails+=("no interval rows for bw $arg") ;;
				same) [ "$out" = "$(step_output "$dir/serial.txt" "$arg")" ] || fails+=("output differs from step $arg") ;;
				same-written) # regs: as step $arg, but for counters no run writes (they keep what they count)
				      [ "$(grep -v '  (never written)$' <<<"$out")" = "$(step_output "$dir/serial.txt" "$arg" |
					grep -v '  (never written)$')" ] || fails+=("output differs from step $arg (registers a run writes)") ;;
				same-except) [ "$(grep -Ev -- "$arg2" <<<"$out")" = "$(step_output "$dir/serial.txt" "$arg" |
					grep -Ev -- "$arg2")" ] || fails+=("output differs from step $arg (but for /$arg2/)") ;;
				above) # the value after the last '= ' of a line, above step $arg's (a counter that moved) by $arg2
				       r=$(grep -Eo '= 0x[0-9a-f]+$' <<<"$out" | tail -n 1 | cut -c3-)
				       n=$(grep -Eo '= 0x[0-9a-f]+$' <<<"$(step_output "$dir/serial.txt" "$arg")" | tail -n 1 | cut -c3-)
				       if [ -z "$r" ] || [ -z "$n" ] || (( r - n < ${arg2:-1} )); then fails+=("${r:-no value} is not above step $arg's ${n:-no value}${arg2:+ by $arg2}"); fi ;;
				esac
			done
			json_fails "${CMDS[$si]}" "$out" "$rc"
		fi
		if [ ${#fails[@]} -eq 0 ]; then
			echo "ok - $BOOT.$id"
		else
			echo "FAIL - $BOOT.$id"
			printf '    %s\n' "${fails[@]}"
			sed 's/^/    | /' <<<"$out" | head -n 30
		fi
	done
	boot_checks "$why"
}

# The boot_check lines of the boot, after it (why: why it went wrong, if it did).
boot_checks() {
	local why=$1 k out2
	for k in "${!CHECK_IDS[@]}"; do
		if [ -n "$why" ]; then
			echo "FAIL - $BOOT.${CHECK_IDS[$k]}"
			echo "    not checked: $why"
			continue
		fi
		if out2=$(eval "${CHECKS[$k]}" 2>&1); then
			echo "ok - $BOOT.${CHECK_IDS[$k]}"
		else
			echo "FAIL - $BOOT.${CHECK_IDS[$k]}"
			sed 's/^/    | /' <<<"$out2" | head -n 30
		fi
	done
}

# A lab boot: the stick goes in as a USB mass-storage device on an xHCI
# controller, so the firmware's boot options for removable media start its
# \EFI\BOOT\BOOTX64.EFI. QMP (on a pipe) reports how the guest ended QEMU:
# with -no-reboot a guest reset ends QEMU too, and its SHUTDOWN event's
# reason tells a reset (guest-reset) from a power-off (guest-shutdown).
lab_run_now() {
	local code=$OVMF_CODE vars=$OVMF_VARS machine=(-machine q35) ro=
	if [ -n "$LAB_SECURE" ]; then
		code=${OVMF_CODE%.fd}.snakeoil.fd vars=${OVMF_VARS%.fd}.snakeoil.fd
		machine=(-machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on)
	fi
	[ -z "$LAB_RO" ] || ro=,readonly=on
	if [ -n "$LAB_IMAGE" ]; then
		cp "$LAB_IMAGE" "$dir/usb.img" || return 1
	else
		"$TOP/tools/mkimage.sh" "$dir/usb.img" "$LAB_EFI" "$LAB_CONFIG" "${LAB_FILES[@]}" || return 1
	fi
	if [ -n "$LAB_FULL" ]; then # a file of every free byte
		local free; free=$(mdir -i "$dir/usb.img@@1M" :: | sed -n 's/ //g; s/^\([0-9]*\)bytesfree$/\1/p')
		truncate -s "${free:?}" "$dir/filler" && mcopy -i "$dir/usb.img@@1M" "$dir/filler" ::/filler || return 1
	fi
	cp "$vars" "$dir/vars.fd"
	mkfifo "$dir/qmp.in" "$dir/qmp.out" || return 1
	# Held open (read-write never blocks) until QEMU is gone, so that the
	# command waits in the pipe for QEMU to read it.
	local qmp_fd
	exec {qmp_fd}<>"$dir/qmp.in"
	printf '{"execute":"qmp_capabilities"}\n' >&"$qmp_fd"
	: > "$dir/serial.log"
	qemu-system-x86_64 "${machine[@]}" -accel tcg -cpu "$BOOT_CPU" -m 256 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$code" \
		-drive if=pflash,format=raw,unit=1,file="$dir/vars.fd" \
		-drive if=none,id=stick,format=raw,file="$dir/usb.img$ro" \
		-device qemu-xhci -device usb-storage,drive=stick,removable=on \
		-display none -nodefaults -no-reboot -serial file:"$dir/serial.log" -qmp pipe:"$dir/qmp" \
		"${BOOT_EXTRA[@]}" </dev/null >"$dir/qemu.out" 2>&1 &
	local pid=$! start=$SECONDS why="" ending=""
	cat "$dir/qmp.out" > "$dir/qmp.log" &
	local cat_pid=$!
	poll_begin
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - start)) -ge "$QEMU_TIMEOUT" ]; then
			why="timeout after ${QEMU_TIMEOUT}s"; break
		fi
		poll_wait || continue
		if grep -qa '!!!! X64 Exception Type' "$dir/serial.log"; then
			sleep 1; why="firmware exception dump"; break
		fi
		if [ -n "$LAB_STOP" ] && clean_log "$dir/serial.log" | grep -Eq -- "$LAB_STOP"; then
			# Still running 3 s later: it stays (else QMP says how it ended).
			sleep 3; ! kill -0 "$pid" 2>/dev/null || ending=stop; break
		fi
	done
	poll_end
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	exec {qmp_fd}>&-
	# cat ends at the end of QEMU's output; a writer opening and closing
	# the pipe ends it too if QEMU never opened it.
	: 1<>"$dir/qmp.out"
	wait "$cat_pid" 2>/dev/null
	clean_log "$dir/serial.log" > "$dir/serial.txt"
	if [ -z "$ending" ] && [ -z "$why" ]; then
		case $(grep -o '"reason": *"[a-z-]*"' "$dir/qmp.log" | tail -n 1) in
		*'"guest-shutdown"') ending=shutdown ;;
		*'"guest-reset"') ending=reboot ;;
		*) ending="QEMU ended otherwise (QMP: $(grep SHUTDOWN "$dir/qmp.log" | tail -n 1))" ;;
		esac
	fi
	echo "# boot $BOOT (-cpu $BOOT_CPU, no Shell${LAB_SECURE:+, Secure Boot}${LAB_RO:+, read-only stick}): $((SECONDS - start))s, ended: ${ending:-$why}; log: $dir/serial.txt"
	if [ "$ending" = "$LAB_END" ]; then
		echo "ok - $BOOT.ending"
	else
		echo "FAIL - $BOOT.ending"
		echo "    expected $LAB_END${LAB_STOP:+ once /$LAB_STOP/ is printed}, got: ${ending:-$why}"
		grep . "$dir/serial.txt" | tail -n 15 | cut -c1-200 | sed 's/^/    | /'
	fi
	[ "$ending" = "$LAB_END" ] || why=${why:-"it ended otherwise than expected"}
	# The results folders of the run, as left on the stick, in $dir/results.
	mcopy -s -n -i "$dir/usb.img@@1M" ::/uncore/results "$dir/" 2>/dev/null
	# Every lab boot: each results.json it left parses, each junit.xml
	# follows the rules of Jenkins' JUnit schema.
	CHECK_IDS+=(result-files) CHECKS+=('python3 "$TOP/tests/qemu/lab_check.py" files "$dir/results"')
	boot_checks "$why"
}
