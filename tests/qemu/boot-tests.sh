#!/usr/bin/env bash
# The QEMU/OVMF scenarios. Each step runs fs0:\uncore.efi as a user would.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/linux.sh"

long=$(printf 'x%.0s' $(seq 1 300))

# Lab boots' helpers (the lab section below).
lab=$TOP/tests/qemu/lab
# The one run folder a lab boot left on its stick (copied to $dir/results).
run_dir() { local d; d=$(ls -d "$dir"/results/*/ 2>/dev/null); [ "$(grep -c . <<<"$d")" = 1 ] && echo "${d%/}"; }
lab_line() { grep -Fx -- "$1" "$dir/serial.txt"; }
# A RESULT line's measurement within PCT% of MB/s.
lab_measured() { # NAME MBPS PCT
	local r; r=$(sed -n "s/^UNCORE-LAB RESULT name=$1 result=[a-z]* measurement=\([0-9.]*\) units=MB\/s\$/\1/p" "$dir/serial.txt")
	why2=$(rate_check "$r" "$2" "$3" "$1"); [ -z "$why2" ] || { echo "$why2"; return 1; }
}

# The longest boot (it boots Linux after OVMF) is described, and so started, first:
# the boots run QEMU_JOBS at a time, and a long one started last would run alone.
# Linux reads the records a run stored: Debian's kernel (linux-image-amd64)
# booted by OVMF with the VARS image this lab run wrote, efivarfs loaded as
# a module and mounted, and the static release decoder in a busybox
# initramfs (tests/qemu/linux-init.sh, linux.sh). What it decodes there is what the
# host decoder reads from the image, byte for byte; every chunk is there.
linux_efivarfs() {
	local k kver
	k=$(linux_kernel)
	[ -n "$k" ] || { echo "no /boot/vmlinuz-* (tests/deps.sh installs linux-image-amd64)"; return 1; }
	kver=${k#/boot/vmlinuz-}
	linux_initramfs "$kver" "$dir/initramfs.gz" || return 1
	cp "$dir/usb.img" "$dir/linux-disk.img" && cp "$dir/vars.fd" "$dir/linux-vars.fd" || return 1
	linux_run install "$dir/linux-vars.fd" || return 1
	cp "$dir/linux-install.txt" "$dir/linux.txt"
	local id
	for id in list csv info om; do
		[ "$(step_rc "$dir/linux.txt" $id)" = 0 ] || { echo "under Linux, $id failed:"; step_output "$dir/linux.txt" $id; return 1; }
	done
	"$TOP/build/uncore_decode" -x , --vars "$dir/vars.fd" LinuxRead > "$dir/host-csv.txt" &&
		"$TOP/build/uncore_decode" --vars "$dir/vars.fd" Lab003 > "$dir/host-info.txt" &&
		"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" | sort > "$dir/host-list.txt" &&
		"$TOP/build/uncore_decode" --openmetrics --vars "$dir/vars.fd" LinuxRead > "$dir/host-om.txt" || return 1
	diff <(step_output "$dir/linux.txt" csv) "$dir/host-csv.txt" &&
		diff <(step_output "$dir/linux.txt" om) "$dir/host-om.txt" &&
		/usr/bin/python3 "$TOP/tests/om_check.py" "$dir/host-om.txt" &&
		diff <(step_output "$dir/linux.txt" info) "$dir/host-info.txt" &&
		diff <(step_output "$dir/linux.txt" list | sort) "$dir/host-list.txt" || return 1
	local n; n=$(sed -n 's/^uncore: results stored in EFI variable LinuxRead: [0-9]* bytes in \([0-9]*\) chunks .*/\1/p' "$dir/serial.txt")
	[ "${n:-0}" -gt 100 ] && [ "$(step_output "$dir/linux.txt" sizes | grep -c "^LinuxRead\.[0-9]\{4\}-")" = "$n" ] ||
		{ echo "$n chunks stored; efivarfs lists:"; step_output "$dir/linux.txt" sizes; return 1; }
	echo "Linux $kver, efivarfs: LinuxRead ($n chunks, also as OpenMetrics) and Lab003 decode as on the host"
}
lab_begin linux Skylake-Client
lab_config "$lab/linux.cfg"
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
lab_file "$TOP/build/uncore-emu-drv.efi" ::/uncore/uncore-emu-drv.efi
lab_file "$TOP/build/uncore-boot.efi" ::/uncore/uncore-boot.efi
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=4 failed=1"'
boot_check efivarfs linux_efivarfs
boot_check efibootmgr linux_drivers
boot_run

# The push and boot-check boots next: the push boot waits idle for its
# servers and the boot check through seven firmware boots, long in wall time,
# so that they overlap the others rather than run alone at the end.
. "$TOP/tests/qemu/push_boot.sh"
# The boot check (drivers/cmd/bootcheck.md): one QEMU run of five passes, the
# guest reset between them, the VARS kept. Pass 1 adds the emulator as
# Driver0000 (its LoadOptions from uncore-emu.efi --driver-option) and
# installs the check behind it; each reset then runs the check before the
# Shell (boots 1 and 2 pass); with --on-fail setup boot 3 fails and resets
# into the firmware's setup (bootcheck_setup), boot 4 keeps 2..4 (K=3); a
# corrupt configuration makes boot 5 store an error record and the boot
# goes on; --on-fail halt stops boot 6.
# --on-fail setup: boot 3's check fails, its record is stored, it sets
# EFI_OS_INDICATIONS_BOOT_TO_FW_UI and resets; boot 4's fails again and,
# the bit still set, goes on; the firmware then opens its setup (OVMF's
# UiApp front page), left by its Continue for the Shell (press pass:4).
bootcheck_setup() {
	sed -n '/^@@PASS 4$/,/UEFI Interactive Shell/p' "$dir/serial.txt" > "$dir/setup.txt"
	in_order "$dir/setup.txt" '^uncore-boot: boot 3: FAILED; record UncoreBoot3 stored, last 3 kept; in [0-9.]+ s$' \
		"^uncore-boot: the check failed and its policy is setup: resetting into the firmware's setup$" \
		'^uncore-boot: boot 4: FAILED; record UncoreBoot4 stored' \
		'^uncore-boot: the check failed; its policy is setup, already requested: the firmware opens its setup next$' \
		'^BdsDxe: starting Boot[0-9A-F]+ "UiApp" ' 'Device Manager' '^UEFI Interactive Shell' &&
		"$TOP/build/uncore_decode" --vars "$dir/vars.fd" UncoreBoot4 |
		grep -Eq '^FAIL: read\+write bandwidth [0-9.]+ MB/s < the required 100000\.000 MB/s$'
}
boot_begin bootcheck Skylake-Client
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/build/uncore-emu-drv.efi"
boot_file "$TOP/build/uncore-boot.efi"
step bc-emu '!bcfg driver add 0 fs0:\uncore-emu-drv.efi "uncore emulator"'
expect bc-emu rc zero
expect bc-emu has '^bcfg: Add Driver0000 as 0$'
step bc-emu-opt 'uncore-emu.efi --driver-option 0000 --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500'
expect bc-emu-opt rc zero
expect bc-emu-opt has '^uncore-emu: Driver0000 starts the emulator with these options \([0-9]+ bytes of data\)$'
step bc-bad 'uncore.efi boot-check install --on-fail maybe'
expect bc-bad rc nonzero
expect bc-bad lines 1
expect bc-bad has "^uncore: error: bad value 'maybe' for --on-fail"
step bc-none 'uncore.efi boot-check show'
expect bc-none rc nonzero
expect bc-none has '^uncore: error: boot-check show: no boot check is installed$'
step bc-install 'uncore.efi boot-check install --min-bw 1000 -d 0.5'
expect bc-install rc zero
expect bc-install has '^boot-check: installed Driver0001 "uncore boot check" -> \\EFI\\uncore\\uncore-boot\.efi, last in DriverOrder \(2\)$'
step bc-show 'uncore.efi boot-check show'
expect bc-show rc zero
expect bc-show has "^boot-check: configuration: check 'bw -d 0\.5 --min-bw 1000', keep 3, on fail continue$"
for n in 1 2; do
	pass $((n + 1))
	step bc-list$n 'uncore.efi var list'
	expect bc-list$n rc zero
	expect bc-list$n has "^UncoreBoot$n "
done
step bc-rec2 'uncore.efi var show UncoreBoot2'
expect bc-rec2 rc zero
expect bc-rec2 has '^PASS: read\+write bandwidth 1[45][0-9]{2}\.[0-9]{3} MB/s >= the required 1000\.000 MB/s$'
step bc-setup 'uncore.efi boot-check install --min-bw 100000 -d 0.2 --on-fail setup'
expect bc-setup rc zero
pass 4
press pass:4 'Select Entry' 'down down down down ret' # Continue, the fifth item
step bc-osind '!dmpstore OsIndications'
expect bc-osind rc zero
expect bc-osind has '^ +00000000: [0-9A-F][02468ACE] '
step bc-list4 'uncore.efi var list'
expect bc-list4 rc zero
expect bc-list4 count '^UncoreBoot[234] ' 3
expect bc-list4 lacks '^UncoreBoot1 '
step bc-corrupt '!setvar UncoreBootCfg -guid 3f1d6b2e-8c47-4a59-b0e3-91d2c6a8f514 -nv -bs -rt =554E43420100'
expect bc-corrupt rc zero
pass 5
step bc-rec5 'uncore.efi var show UncoreBoot5'
expect bc-rec5 rc zero
expect bc-rec5 has '^boot 5: the check did not run: UncoreBootCfg: not a boot check configuration \(6 bytes\) \(invalid'
step bc-halt 'uncore.efi boot-check install --min-bw 100000 -d 0.2 --on-fail halt'
expect bc-halt rc zero
boot_stop 'uncore-boot: the check failed and its policy is halt'
# The check's lines come before the Shell's banner, on every boot it ran.
boot_check bc-before-shell 'for p in 2 3 4 5; do awk -v p="@@PASS $p" '"'"'$0 == p {on = 1} on && /^uncore-boot: boot [0-9]+: / {ok = 1}
	on && /UEFI Interactive Shell/ {exit !ok} END {if (!on) exit 1}'"'"' "$dir/serial.txt" || { echo "pass $p"; exit 1; }; done'
boot_check bc-records '"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" | grep -c "^UncoreBoot" | grep -qx 3'
# The corrupt configuration's boot: why, and the time it took.
boot_check bc-corrupt-boot 'grep -q "^uncore-boot: error: UncoreBootCfg: not a boot check configuration (6 bytes)$" "$dir/serial.txt" &&
	grep -Eq "^uncore-boot: boot 5: not run; record UncoreBoot5 stored, last 3 kept; in [0-9]+\.[0-9] s$" "$dir/serial.txt"'
# The error record names the machine (SMBIOS), as every record does, and says the check did not pass.
boot_check bc-error-id '"$TOP/build/uncore_decode" --openmetrics --vars "$dir/vars.fd" UncoreBoot5 > "$dir/b5.prom";
	grep -q "^uncore_boot_sequence{system=\"Standard PC (Q35 + ICH9, 2009)\",.*} 5$" "$dir/b5.prom" &&
	grep -q "^uncore_check_passed{check=\"not run\",system=\"Standard PC (Q35 + ICH9, 2009)\",.*} 0$" "$dir/b5.prom"'
# The halted boot: its verdict, the policy's line, and no Shell after them.
boot_check bc-halted 'sed -n "/^@@DONE$/,\$p" "$dir/serial.txt" > "$dir/halt.txt" &&
	grep -q "^uncore-boot: boot 6: FAILED; record UncoreBoot6 stored, last 3 kept; in [0-9.]* s$" "$dir/halt.txt" &&
	grep -q "^uncore-boot: the check failed and its policy is halt: this machine stops here$" "$dir/halt.txt" &&
	! grep -q "UEFI Interactive Shell" "$dir/halt.txt"'
boot_check bc-setup-boot bootcheck_setup
QEMU_TIMEOUT=$((QEMU_TIMEOUT * 2)) boot_run # seven firmware boots in one run

# The longest boots after these: two-socket Sapphire Rapids, two-socket Granite
# Rapids (with the Ice Lake-SP steps) and Sapphire Rapids (with Emerald
# Rapids' and Sierra Forest's), described here so that they start early.
# Two-socket Sapphire Rapids at full size (QEMU with 2 sockets of one
# processor each): per socket a discovery table in the notes' order (60 and
# 40 CHAs, 65 units of other types, 8 iMC channels) and a UBox 8086:3250
# whose node ID the driver looks up in GIDNIDMAP to tie the table to its
# socket (node IDs 3 and 4: not the socket numbers). Sockets count at
# different rates (--socket-rate): bw, per socket and per channel, within
# 0.5% of 8 x 10M x 64 + 8 x 6M x 64 read and 8 x 5M x 64 + 8 x 3M x 64
# written. The CHAs are per-package MSRs at the same numbers on each
# socket: socket 1's are programmed, read and restored by package 1's
# processor (info names both packages; MSR 0x2FFE reads 40 there, 60 here),
# so each socket's CHA rows count that socket's own rate; a #GP on package
# 1 is caught by the guard as on the BSP, and the emulator counts each
# package's MSR accesses and says so at unload.
boot_begin spr2s Skylake-Client,model=143 -smp 2,sockets=2,cores=1,threads=1
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/build/ebs.efi"
step spr2s-load 'uncore-emu.efi --sockets 2 --chas 60,40 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M --socket-rate 1:UNC_M_CAS_COUNT.RD=6M --socket-rate 1:UNC_M_CAS_COUNT.WR=3M --rate UNC_CHA_CLOCKTICKS=1G --socket-rate 1:UNC_CHA_CLOCKTICKS=500M'
expect spr2s-load rc zero
step spr2s-info 'uncore.efi info'
expect spr2s-info rc zero
expect spr2s-info has '^packages: +2 of 2 processors, from CPUID leaf 0xB \(package shift 0\) and MP services'
expect spr2s-info has '^  package 0: processor 0 \(this one\)$'
expect spr2s-info has '^  package 1: processor 1( \(MP services: package 0\))?$'
expect spr2s-info has '^discovery: +2 tables, 246 units kept, 0 entries skipped \(devices 8086:09a7\)$'
expect spr2s-info has '^  sockets: +2, by the UBox of each bus \(8086:3250,'
expect spr2s-info has '^  table 0: 00:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe000000, socket 0, 133 units: 60 cha \(type 0\), 12 type 1, 12 type 2, 12 type 3, 15 type 11, 4 type 8, 4 type 9, 4 type 7, 1 type 4, 1 type 5, 8 imc \(type 6\)$'
expect spr2s-info has '^  table 1: 20:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe100000, socket 1, 113 units: 40 cha \(type 0\), 12 type 1, 12 type 2, 12 type 3, 15 type 11, 4 type 8, 4 type 9, 4 type 7, 1 type 4, 1 type 5, 8 imc \(type 6\)$'
expect spr2s-info has '^  ubox 1e:00\.0: node ID 3, GIDNIDMAP 0x447d63: socket 0$'
expect spr2s-info has '^  ubox 3e:00\.0: node ID 4, GIDNIDMAP 0x447d63: socket 1$'
expect spr2s-info has '^imc: +16 boxes programmable of 16 found; 4 counters, 48 bits'
expect spr2s-info has '^cha: +100 boxes programmable of 100 found; 4 counters, 48 bits, controls at \+0x2, counters at \+0x8 \(MSR\)$'
expect spr2s-info has '^  CHA count from MSR 0x2FFE, each socket.s read by a processor of its package: socket 0: 60, socket 1: 40$'
expect spr2s-info lacks 'CHA count differs'
expect spr2s-info has '^verdict: +uncore PMU usable: ready$'
step spr2s-msr1 'uncore.efi msr read --pkg 1 0x2ffe'
expect spr2s-msr1 rc zero
expect spr2s-msr1 has '^msr 0x2ffe .*on package 1 = 0x0000000000000028$'
step spr2s-gp1 'uncore.efi msr write --pkg 1 0x6e1 0x100000000'
expect spr2s-gp1 rc nonzero
expect spr2s-gp1 has 'wrmsr 0x6e1.* on package 1 value 0x100000000: .*fault'
step spr2s-nopkg 'uncore.efi msr read --pkg 2 0x2ffe'
expect spr2s-nopkg rc nonzero
expect spr2s-nopkg has '^uncore: error: --pkg 2: no processor of package 2 can be reached'
step spr2s-bench 'uncore.efi bench -n 100'
expect spr2s-bench rc zero
expect spr2s-bench has '^package 1 trip \(rdmsr 0x10 by processor 1\): 100 trips, [0-9]+ TSC cycles each \([0-9.]+ ns\)$'
step spr2s-regs0 'uncore.efi regs'
expect spr2s-regs0 rc zero
expect spr2s-regs0 has '^0xfe12c04c imc box 7 CTL3 \(socket 1\) +0x0000000000000000$'
step spr2s-bw 'uncore.efi bw -d 1'
expect spr2s-bw rc zero
expect spr2s-bw has 'IMC counters in 16 iMC boxes of the uncore discovery table'
expect spr2s-bw bw read 8192 0.5
expect spr2s-bw bw write 4096 0.5
expect spr2s-bw bw total 12288 0.5
step spr2s-bw-pb 'uncore.efi bw -d 1 --per-box'
expect spr2s-bw-pb rc zero
expect spr2s-bw-pb count '^socket[01]\.ch[0-7] +read' 16
expect spr2s-bw-pb pbw socket0:read 5120 0.5
expect spr2s-bw-pb pbw socket0:write 2560 0.5
expect spr2s-bw-pb pbw socket1:read 3072 0.5
expect spr2s-bw-pb pbw socket1:write 1536 0.5
expect spr2s-bw-pb pbw socket0.ch0:read 640 0.5
expect spr2s-bw-pb pbw socket0.ch7:write 320 0.5
expect spr2s-bw-pb pbw socket1.ch0:read 384 0.5
expect spr2s-bw-pb pbw socket1.ch7:write 192 0.5
# Each socket's CHAs on its own package: 60 at 1G/s and 40 at 500M/s.
step spr2s-cha 'uncore.efi stat -e cha/event=0x01/ --per-box -d 1'
expect spr2s-cha rc zero
expect spr2s-cha rate cha/event=0x01/ 80000000000 0.5
expect spr2s-cha rate cha/event=0x01/@socket0.cha0 1000000000 0.5
expect spr2s-cha rate cha/event=0x01/@socket0.cha59 1000000000 0.5
expect spr2s-cha rate cha/event=0x01/@socket1.cha0 500000000 0.5
expect spr2s-cha rate cha/event=0x01/@socket1.cha39 500000000 0.5
expect spr2s-cha count '@socket0\.cha[0-9]+ ' 60
expect spr2s-cha count '@socket1\.cha[0-9]+ ' 40
expect spr2s-cha lacks '@socket1\.cha40 '
step spr2s-regs1 'uncore.efi regs'
expect spr2s-regs1 same-written spr2s-regs0
# A child takes processor 1 (MP services' StartupThisAP, which OVMF runs
# with INIT-SIPI-SIPI) while it serves package 1's trips: the next trip is
# never taken; it fails once after about 10^10 TSC cycles with one line, and
# every later trip to package 1 (the reads and the restore) fails at once.
step spr2s-taken 'uncore.efi stat -e cha/event=0x01/ -- fs0:\ebs.efi --take 1'
expect spr2s-taken rc nonzero
expect spr2s-taken has '^ebs: processor 1 taken: status 0x0$'
expect spr2s-taken count '^uncore: error: package 1: processor 1 did not answer within 10\^10 TSC cycles: its MSRs are refused from now on$' 1
step spr2s-unload 'uncore-emu.efi --unload'
expect spr2s-unload rc zero
expect spr2s-unload has '^uncore-emu: MSR accesses by package: 0: [0-9]+, 1: [1-9][0-9]*$'
expect spr2s-unload lacks 'behind the model'
boot_run

# Two-socket Granite Rapids (family 6 model 0xAD; QEMU with 2 sockets), 12
# iMC channels a socket (Xeon 6900-series, PCM initBHSiMCPMUs(12)): the
# emulator chooses the discovery-table uncore by the model; GNR has no UBox
# rule in Linux, so the tables are numbered in table order, which info
# says; SCH0 and SCH1 CAS counts (events 0x05 and 0x06) at different rates
# and socket 1 at its own, counted raw and summed by bw; an all-ones entry
# and a second table of another unit type (no socket row), both named by
# info. All 24 channels counted.
boot_begin gnr Skylake-Client,model=173 -smp 2,sockets=2,cores=1,threads=1
boot_file "$TOP/build/uncore-emu.efi"
# Two-socket Ice Lake-SP (model 0x6A): the iMC in MMIO, found through
# 8086:3451 beside each socket's UBox; two active channels in each of the
# four controllers (the third box reads 0 and ignores writes), each at 10M
# reads and 5M writes a second (socket 1: 6M and 3M); beside them each
# socket's CHAs (40 and 36, CAPID6 and CAPID7 of the PCU function on its
# UBox's bus) counted on its own package.
# (its steps run in the Granite Rapids boot, before its own, the emulator's
# CPUID leaf 1 saying model 0x6A: one firmware boot fewer)
step icx-load 'uncore-emu.efi --cpuid 1:0=0x000606A1,0x00010800,0x80000000,0x10000000 --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M --socket-rate 1:UNC_M_CAS_COUNT.RD=6M --socket-rate 1:UNC_M_CAS_COUNT.WR=3M --chas 40,36 --rate UNC_CHA_TOR_INSERTS.IA_MISS=3M --socket-rate 1:UNC_CHA_TOR_INSERTS.IA_MISS=6M'
expect icx-load rc zero
expect icx-load has '^uncore-emu: emulating a Xeon Ice Lake-SP iMC, 2 sockets \(UBox 8086:3450 and 8086:3451 at buses 0x7e, 0xfe 00\.0/00\.1\), 8 active channels of 12 boxes per socket, 4 rates, iMC faults: none, icx CHAs on 2 sockets \(40,36\), cpuid 0x1:0, faults: none$'
step icx-info 'uncore.efi info'
expect icx-info rc zero
expect icx-info has '^cpu: +GenuineIntel family 0x6 model 0x6a'
expect icx-info has '^uncore: +supported: Xeon Scalable 3rd generation, Ice Lake-SP$'
expect icx-info has '^imc: +2 sockets, 16 channels \(MMIO of device 8086:3451\); 4 counters, 48 bits$'
expect icx-info has '^  box 2 of each controller not programmed \(PCM counts 2 channels a controller here;'
expect icx-info has "^  sockets numbered by their buses' UBoxes \\(8086:3450: CPUNODEID 0xc0 in GIDNIDMAP 0xd4\\) \\(2 UBoxes found\\)$"
expect icx-info has '^  socket 0: 8086:3451 at 7e:00\.1, BAR 0xfd000000, controllers 0 at \+0x40000, 1 at \+0x80000, 2 at \+0xc0000, 3 at \+0x100000; 8 channels$'
expect icx-info has '^  socket 1: 8086:3451 at fe:00\.1, BAR 0xfd800000, controllers 0 at \+0x40000, 1 at \+0x80000, 2 at \+0xc0000, 3 at \+0x100000; 8 channels$'
expect icx-info lacks 'missing'
expect icx-info has '^pmu in use: +no \(80 event selects all zero\)$'
expect icx-info has '^verdict: +PMUs usable: ready$'
expect icx-info has '^cha: +2 sockets, 76 CHAs \(MSRs of each package: CHA n at 0xb60 \+ Linux.s icx_cha_msr_offsets\[n\]\); 4 counters each, 48 bits$'
expect icx-info has '^  count: popcount of CAPID6 \(0x9c\) and CAPID7 \(0xa0\) of each socket.s PCU function 8086:345b \(device 30, function 3\)$'
expect icx-info has '^  socket 0 \(bus 0x7e\): 40 CHAs \(CAPID6 0x5555ffff, CAPID7 0x55555555\)$'
expect icx-info has '^  socket 1 \(bus 0xfe\): 36 CHAs$'
step icx-regs0 'uncore.efi regs'
expect icx-regs0 rc zero
expect icx-regs0 has '^0xfd92684c +MC3_CH1_PMON_CTL3 \(socket 1\) +0x0000000000000000$'
step icx-bw 'uncore.efi bw -d 1'
expect icx-bw rc zero
expect icx-bw has "IMC counters in 16 channels of 2 sockets' 8086:3451 MMIO \(CAS_COUNT\.RD and \.WR\)"
expect icx-bw bw read 8192 0.5
expect icx-bw bw write 4096 0.5
expect icx-bw bw total 12288 0.5
step icx-bw-pb 'uncore.efi bw -d 1 --per-box'
expect icx-bw-pb rc zero
expect icx-bw-pb count '^socket[01]\.ch([0-9]|1[01]) +read' 16
expect icx-bw-pb pbw socket0:read 5120 0.5
expect icx-bw-pb pbw socket0:write 2560 0.5
expect icx-bw-pb pbw socket1:read 3072 0.5
expect icx-bw-pb pbw socket1:write 1536 0.5
expect icx-bw-pb pbw socket0.ch0:read 640 0.5
expect icx-bw-pb pbw socket0.ch10:write 320 0.5
expect icx-bw-pb pbw socket1.ch0:read 384 0.5
expect icx-bw-pb pbw socket1.ch10:write 192 0.5
expect icx-bw-pb lacks '^socket[01]\.ch(2|5|8|11) '
step icx-stat 'uncore.efi stat -e UNC_M_CAS_COUNT.RD,imc/event=0x04,umask=0x3f/,UNC_M_HCLOCKTICKS --per-box -d 1'
expect icx-stat rc zero
expect icx-stat rate UNC_M_CAS_COUNT.RD 128000000 0.5
expect icx-stat rate UNC_M_CAS_COUNT.RD@socket0.ch4 10000000 0.5
expect icx-stat rate UNC_M_CAS_COUNT.RD@socket1.ch10 6000000 0.5
expect icx-stat rate imc/event=0x04,umask=0x3f/ 192000000 0.5
expect icx-stat rate UNC_M_HCLOCKTICKS@socket1.ch3 800000000 0.5
# the CHAs of each socket, counted on its own package
step icx-cha 'uncore.efi stat -e UNC_CHA_TOR_INSERTS.IA_MISS --per-box -d 2'
expect icx-cha rc zero
expect icx-cha rate UNC_CHA_TOR_INSERTS.IA_MISS 336000000 0.5
expect icx-cha rate UNC_CHA_TOR_INSERTS.IA_MISS@socket0.cha39 3000000 0.5
expect icx-cha rate UNC_CHA_TOR_INSERTS.IA_MISS@socket1.cha35 6000000 0.5
expect icx-cha count '@socket0\.cha[0-9]+ ' 40
expect icx-cha count '@socket1\.cha[0-9]+ ' 36
step icx-regs1 'uncore.efi regs'
expect icx-regs1 same-written icx-regs0
step icx-bar 'uncore.efi pci read fe:00.1 0xd0'
expect icx-bar has '^pci fe:00\.1 \[0x0d0\] = 0x000001fb$'
step icx-unload 'uncore-emu.efi --unload'
expect icx-unload rc zero
# Controller 1 of socket 0 without its offset (cfg 0xdc reads 0): named,
# warned of, and the other 14 channels counted.
step icx-load-mz 'uncore-emu.efi --cpuid 1:0=0x000606A1,0x00010800,0x80000000,0x10000000 --sockets 2 --icx-fault mem-zero --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M'
expect icx-load-mz rc zero
step icx-info-mz 'uncore.efi info'
expect icx-info-mz has '^imc: +2 sockets, 14 channels \('
expect icx-info-mz has '^  missing: socket 0 controller 1 \(channels 3-5\): its offset reads 0 \(0xdc\)$'
expect icx-info-mz has '^verdict: +PMUs usable: ready, but socket 0 controller 1 \(channels 3-5\)'
step icx-bw-mz 'uncore.efi bw -d 1'
expect icx-bw-mz rc zero
expect icx-bw-mz has '^uncore: warning: socket 0 controller 1 \(channels 3-5\): its offset reads 0 \(0xdc\): not counted'
expect icx-bw-mz bw read 8960 0.5
expect icx-bw-mz bw write 4480 0.5
step icx-unload-mz 'uncore-emu.efi --unload'
expect icx-unload-mz rc zero
step gnr-load 'uncore-emu.efi --sockets 2 --channels 12 --chas 2 --rate UNC_M_CAS_COUNT_SCH0.RD=6M --rate UNC_M_CAS_COUNT_SCH1.RD=4M --rate UNC_M_CAS_COUNT_SCH0.WR=2M --rate UNC_M_CAS_COUNT_SCH1.WR=1M --socket-rate 1:UNC_M_CAS_COUNT_SCH0.RD=3M --socket-rate 1:UNC_M_CAS_COUNT_SCH1.RD=2M --rate UNC_CHA_CLOCKTICKS=2G --disc-fault all-ones --disc-fault second-table'
expect gnr-load rc zero
step gnr-info 'uncore.efi info'
expect gnr-info rc zero
expect gnr-info has '^uncore: +supported: Xeon uncore discovery, Granite Rapids$'
expect gnr-info has '^discovery: +3 tables, 159 units kept, 1 entry skipped \(devices 8086:09a7\)$'
expect gnr-info has '^  sockets: +2, socket numbers by table order: no UBox device$'
expect gnr-info has '^  table 0: 00:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe000000, socket 0, 79 units: 2 cha \(type 0\), .*, 12 imc \(type 6\)$'
expect gnr-info has '^  table 1: 00:0b\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe900000, no socket \(no iMC or CHA unit\), 1 unit: 1 type 12$'
expect gnr-info has '^  table 2: 20:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe100000, socket 1, 79 units: 2 cha \(type 0\), .*, 12 imc \(type 6\)$'
expect gnr-info has '^  skipped: table 0 entry 79 \(type 65535, box 65535\): all-ones qword$'
expect gnr-info has '^imc: +24 boxes programmable of 24 found'
expect gnr-info lacks 'CHA count from MSR'
expect gnr-info has '^verdict: +uncore PMU usable: ready$'
step gnr-regs0 'uncore.efi regs'
expect gnr-regs0 rc zero
expect gnr-regs0 has '^0xfe13c04c imc box 11 CTL3 \(socket 1\) +0x0000000000000000$'
step gnr-stat 'uncore.efi -e imc/event=0x05,umask=0xcf/,UNC_M_CAS_COUNT_SCH1.RD --per-box -d 1'
expect gnr-stat rc zero
expect gnr-stat rate imc/event=0x05,umask=0xcf/ 108000000 0.5
expect gnr-stat rate UNC_M_CAS_COUNT_SCH1.RD 72000000 0.5
expect gnr-stat rate UNC_M_CAS_COUNT_SCH1.RD@socket0.ch11 4000000 0.5
expect gnr-stat rate UNC_M_CAS_COUNT_SCH1.RD@socket1.ch5 2000000 0.5
# bw sums both sub-channels: socket 0 12 x (6M + 4M) x 64 bytes read,
# socket 1 12 x (3M + 2M) x 64; each 12 x (2M + 1M) x 64 written.
step gnr-bw 'uncore.efi bw -d 1'
expect gnr-bw rc zero
expect gnr-bw bw read 11520 0.5
expect gnr-bw bw write 4608 0.5
expect gnr-bw bw total 16128 0.5
expect gnr-bw lacks 'sub-channel'
expect gnr-bw has '^uncore bw: IMC counters in 24 iMC boxes of the uncore discovery table \(CAS_COUNT_SCH0 and SCH1, \.RD and \.WR\)'
# Stored (every one of the 24 channels: record layout 3) and shown again.
step gnr-bw-pb 'uncore.efi bw -d 1 --per-box -o var:GnrBw'
expect gnr-bw-pb rc zero
expect gnr-bw-pb has '^uncore: results stored in EFI variable GnrBw: '
expect gnr-bw-pb pbw socket0:read 7680 0.5
expect gnr-bw-pb pbw socket0:write 2304 0.5
expect gnr-bw-pb pbw socket1:read 3840 0.5
expect gnr-bw-pb pbw socket1:write 2304 0.5
expect gnr-bw-pb pbw socket0.ch0:read 640 0.5
expect gnr-bw-pb pbw socket1.ch11:read 320 0.5
expect gnr-bw-pb pbw socket1.ch11:write 192 0.5
expect gnr-bw-pb count '^socket[01]\.ch([0-9]|1[01]) +read' 24
step gnr-show 'uncore.efi var show GnrBw'
expect gnr-show rc zero
expect gnr-show has '^record GnrBw: `bw` by uncore\.efi'
expect gnr-show count '^socket[01]\.ch([0-9]|1[01]) +read' 24
expect gnr-show pbw socket1:read 3840 0.5
expect gnr-show pbw socket0.ch0:read 640 0.5
expect gnr-show pbw socket1.ch11:read 320 0.5
expect gnr-show pbw socket1.ch11:write 192 0.5
# Six iMC events on four counters take turns on all 24 channels: each
# channel's slice is charged from its own start, so every channel's rate is
# the emulator's within 0.5% (before, it grew from ch0 to the last channel).
step gnr-mux 'uncore.efi -e UNC_M_CAS_COUNT_SCH0.RD,UNC_M_CAS_COUNT_SCH1.RD,UNC_M_CAS_COUNT_SCH0.WR,UNC_M_CAS_COUNT_SCH1.WR,imc/event=0x01/,imc/event=0x02/ --per-box -d 2'
expect gnr-mux rc zero
expect gnr-mux has 'multiplex'
for c in 0 1 2 3 4 5 6 7 8 9 10 11; do
	expect gnr-mux rate "UNC_M_CAS_COUNT_SCH0.RD@socket0.ch$c" 6000000 0.5
	expect gnr-mux rate "UNC_M_CAS_COUNT_SCH1.RD@socket0.ch$c" 4000000 0.5
	expect gnr-mux rate "UNC_M_CAS_COUNT_SCH0.RD@socket1.ch$c" 3000000 0.5
	expect gnr-mux rate "UNC_M_CAS_COUNT_SCH1.WR@socket1.ch$c" 1000000 0.5
done
step gnr-regs1 'uncore.efi regs'
expect gnr-regs1 same-written gnr-regs0
# One socket's table on a two-package machine (the emulator serves one
# socket, QEMU has two): bw counts what it found, warns, and fails; info's
# verdict says so.
step gnr-unload 'uncore-emu.efi --unload'
expect gnr-unload rc zero
step gnr-load1 'uncore-emu.efi --sockets 1 --channels 12 --rate UNC_M_CAS_COUNT_SCH0.RD=6M --rate UNC_M_CAS_COUNT_SCH1.RD=4M --rate UNC_M_CAS_COUNT_SCH0.WR=2M --rate UNC_M_CAS_COUNT_SCH1.WR=1M'
expect gnr-load1 rc zero
step gnr-bw1 'uncore.efi bw -d 0.5'
expect gnr-bw1 rc nonzero
expect gnr-bw1 has 'uncore: warning: discovery tables of 1 socket found for 2 packages \(only PCI segment 0 is read\): the others are not counted, nor any CHA$'
expect gnr-bw1 has 'uncore: error: the Xeon uncore discovery probe found part of the machine only'
expect gnr-bw1 bw read 7680 0.5
expect gnr-bw1 has '^uncore bw: IMC counters in 12 iMC boxes of 1 discovery table; rows per table, not per socket'
step gnr-info1 'uncore.efi info'
expect gnr-info1 rc zero
expect gnr-info1 has '^verdict: +uncore PMU usable: ready, but discovery tables of 1 socket found for 2 packages'
# A table per die (--dies 2: two a socket, each with 6 channels and one
# CHA), as on Granite Rapids: no rule ties a table to its package before
# the OS (Linux uses the NUMA node), so the rows are per table, which
# info, the header and the warning say, and no CHA is programmed.
step gnr-unload1 'uncore-emu.efi --unload'
expect gnr-unload1 rc zero
step gnr-load2 'uncore-emu.efi --sockets 2 --dies 2 --channels 12 --chas 2 --rate UNC_M_CAS_COUNT_SCH0.RD=6M --rate UNC_M_CAS_COUNT_SCH1.RD=4M --rate UNC_M_CAS_COUNT_SCH0.WR=2M --rate UNC_M_CAS_COUNT_SCH1.WR=1M --socket-rate 1:UNC_M_CAS_COUNT_SCH0.RD=3M --socket-rate 1:UNC_M_CAS_COUNT_SCH1.RD=2M'
expect gnr-load2 rc zero
step gnr-info2 'uncore.efi info'
expect gnr-info2 rc zero
expect gnr-info2 has '^discovery: +4 tables, '
expect gnr-info2 has '^  sockets: +not known: 4 tables in table order for 2 packages, '
expect gnr-info2 has '^  table 1: 20:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe100000, rows table1, 72 units: 1 cha \(type 0\), .*, 6 imc \(type 6\)$'
expect gnr-info2 has '^cha: +0 boxes programmable of 4 found'
expect gnr-info2 has '^verdict: +uncore PMU usable: ready, but 4 discovery tables for 2 packages, none tied to its package: iMC rows are per table, and no CHA is programmed$'
step gnr-bw2 'uncore.efi bw -d 1 --per-box'
expect gnr-bw2 rc zero
expect gnr-bw2 has 'uncore: warning: 4 discovery tables for 2 packages'
expect gnr-bw2 has '^uncore bw: IMC counters in 24 iMC boxes of 4 discovery tables; rows per table, not per socket'
expect gnr-bw2 bw read 11520 0.5
expect gnr-bw2 bw write 4608 0.5
expect gnr-bw2 pbw table0:read 3840 0.5
expect gnr-bw2 pbw table1:read 3840 0.5
expect gnr-bw2 pbw table2:read 1920 0.5
expect gnr-bw2 pbw table3:write 1152 0.5
expect gnr-bw2 pbw table3.ch5:read 320 0.5
expect gnr-bw2 count '^table[0-3]\.ch[0-5] +read' 24
expect gnr-bw2 lacks '^socket'
step gnr-cha2 'uncore.efi -e UNC_CHA_CLOCKTICKS -d 0.2'
expect gnr-cha2 rc nonzero
expect gnr-cha2 has 'cannot count UNC_CHA_CLOCKTICKS: a discovery table tied to its package \(4 tables for 2 packages, and no rule ties them on this model\) reports no CHA'
boot_run

# Sapphire Rapids (family 6 model 0x8F): the uncore from the discovery
# table the emulator presents (00:0a.0, 8086:09a7), 8 iMC channels in MMIO
# reading CAS_COUNT.RD 10M/s and .WR 5M/s each, one CHA in MSRs (a TOR
# event with a UMaskExt, its extension in select bits 63:32, at 3M/s), and
# an iMC entry with no counter offset, which info names as skipped.
boot_begin spr Skylake-Client,model=143
boot_file "$TOP/build/uncore-emu.efi"
step spr-load 'uncore-emu.efi --uncore disc --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M --rate UNC_CHA_CLOCKTICKS=1G --rate UNC_CHA_TOR_INSERTS.IA_MISS=3M --disc-fault no-ctr-offset'
expect spr-load rc zero
step spr-info 'uncore.efi info'
expect spr-info rc zero
expect spr-info has '^cpu: +GenuineIntel family 0x6 model 0x8f'
expect spr-info has '^uncore: +supported: Xeon uncore discovery, Sapphire Rapids$'
expect spr-info has '^discovery: +1 table, 74 units kept, 1 entry skipped \(devices 8086:09a7\)$'
expect spr-info has '^  sockets: +1, by the UBox of each bus \(8086:3250,'
expect spr-info has '^  table 0: 00:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe000000, socket 0, 74 units: 1 cha \(type 0\), 12 type 1, 12 type 2, 12 type 3, 15 type 11, 4 type 8, 4 type 9, 4 type 7, 1 type 4, 1 type 5, 8 imc \(type 6\)$'
expect spr-info has '^  ubox 1e:00\.0: node ID 3, GIDNIDMAP 0x447d63: socket 0$'
expect spr-info has '^  skipped: table 0 entry 74 \(imc \(type 6\), box 8\): no counter offset$'
expect spr-info has '^imc: +8 boxes programmable of 8 found; 4 counters, 48 bits, controls at \+0x40, counters at \+0x8 \(MMIO\)$'
expect spr-info has '^  CHA count from MSR 0x2FFE, each socket.s read by a processor of its package: socket 0: 1$'
expect spr-info has '^verdict: +uncore PMU usable: ready$'
step spr-regs0 'uncore.efi regs'
expect spr-regs0 rc zero
expect spr-regs0 has '^0xfe02c04c imc box 7 CTL3 \(socket 0\) +0x0000000000000000$'
expect spr-regs0 has '^0x2008 cha box 0 CTR0 \(socket 0\) +0x0000000000000000  \(never written\)$'
step spr-stat 'uncore.efi -e UNC_M_CAS_COUNT.RD,imc/event=0x05,umask=0xf0/,cha/event=0x01/,UNC_CHA_TOR_INSERTS.IA_MISS --per-box -d 1'
expect spr-stat rc zero
expect spr-stat has '^uncore stat: 4 events in 1 group, 8 channels, 1 CHA, msr access: emulated'
expect spr-stat rate UNC_M_CAS_COUNT.RD 80000000 1
expect spr-stat rate UNC_M_CAS_COUNT.RD@socket0.ch0 10000000 1
expect spr-stat rate UNC_M_CAS_COUNT.RD@socket0.ch7 10000000 1
expect spr-stat rate imc/event=0x05,umask=0xf0/ 40000000 1
expect spr-stat rate imc/event=0x05,umask=0xf0/@socket0.ch3 5000000 1
expect spr-stat rate cha/event=0x01/ 1000000000 1
expect spr-stat rate UNC_CHA_TOR_INSERTS.IA_MISS 3000000 1
step spr-bw 'uncore.efi bw -d 2'
expect spr-bw rc zero
expect spr-bw bw read 5120 1
expect spr-bw bw write 2560 1
expect spr-bw bw total 7680 1
step spr-bw-pb 'uncore.efi bw -d 1 --per-box'
expect spr-bw-pb rc zero
expect spr-bw-pb has '^socket0 +read +5[01][0-9][0-9]\.[0-9]+ MB/s'
expect spr-bw-pb has '^socket0\.ch0 +read +6[34][0-9]\.[0-9]+ MB/s +write +3[12][0-9]\.[0-9]+ MB/s'
expect spr-bw-pb has '^socket0\.ch7 +read +6[34][0-9]\.[0-9]+ MB/s +write +3[12][0-9]\.[0-9]+ MB/s'
step spr-regs1 'uncore.efi regs'
expect spr-regs1 same-written spr-regs0
# Counters that ignore writes and resets (the iMC's and the CHA's): none is
# written, and their box reset (RST_CTRS, as Linux's) leaves them as they
# were: the run counts from the values read, with no note, the counts right.
step spr-unload 'uncore-emu.efi --unload'
expect spr-unload rc zero
step spr-ro-load 'uncore-emu.efi --uncore disc --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_CHA_CLOCKTICKS=1G --fault ro-counters=imc --fault ro-counters=cha'
expect spr-ro-load rc zero
step spr-ro-warm 'uncore.efi -e UNC_M_CAS_COUNT.RD,cha/event=0x01/ -d 0.2'
expect spr-ro-warm rc zero
step spr-ro-regs0 'uncore.efi regs'
expect spr-ro-regs0 rc zero
step spr-ro 'uncore.efi -e UNC_M_CAS_COUNT.RD,cha/event=0x01/ -d 1'
expect spr-ro rc zero
expect spr-ro lacks 'ignores writes'
expect spr-ro rate UNC_M_CAS_COUNT.RD 80000000 0.5
expect spr-ro rate cha/event=0x01/ 1000000000 0.5
step spr-ro-regs1 'uncore.efi regs'
expect spr-ro-regs1 same-written spr-ro-regs0
# A BIR dword with bit 3 set: discovery stops, and info says why as the
# other commands do (its verdict and its in-use line), exiting non-zero.
step spr-ro-unload 'uncore-emu.efi --unload'
expect spr-ro-unload rc zero
step spr-bir-load 'uncore-emu.efi --uncore disc --disc-fault bir'
expect spr-bir-load rc zero
step spr-bir-info 'uncore.efi info'
expect spr-bir-info rc nonzero
expect spr-bir-info has '^pmu in use: +unknown \(not checked: uncore discovery: 00:0a\.0 capability at 0x100 has BIR dword 0x00000008 \(bits 31:3 must be 0\)\)$'
expect spr-bir-info has '^verdict: +uncore PMU unusable: uncore discovery: 00:0a\.0 capability at 0x100 has BIR dword 0x00000008 \(bits 31:3 must be 0\)$'
step spr-bir-regs 'uncore.efi regs'
expect spr-bir-regs rc nonzero
expect spr-bir-regs has 'has BIR dword 0x00000008 \(bits 31:3 must be 0\)'
step spr-bir-unload 'uncore-emu.efi --unload'
expect spr-bir-unload rc zero
# Emerald Rapids (family 6 model 0xCF, the emulator's CPUID leaf 1 in the
# same QEMU start: one firmware boot fewer): Sapphire Rapids' events (Intel's
# EMR file), 8 channels, a raw iMC event and a CHA event by name.
step emr-load 'uncore-emu.efi --cpuid 1:0=0x000C06F1,0x00010800,0x80000000,0x10000000 --uncore disc --rate UNC_M_CAS_COUNT.RD=8M --rate UNC_M_CAS_COUNT.WR=3M --rate UNC_CHA_CLOCKTICKS=1G'
expect emr-load rc zero
step emr-info 'uncore.efi info'
expect emr-info rc zero
expect emr-info has '^cpu: +GenuineIntel family 0x6 model 0xcf'
expect emr-info has '^uncore: +supported: Xeon uncore discovery, Emerald Rapids$'
expect emr-info has '^imc: +8 boxes programmable of 8 found'
expect emr-info has '^verdict: +uncore PMU usable: ready$'
step emr-regs0 'uncore.efi regs'
expect emr-regs0 rc zero
step emr-stat 'uncore.efi -e imc/event=0x05,umask=0xf0/,UNC_CHA_CLOCKTICKS --per-box -d 1'
expect emr-stat rc zero
expect emr-stat rate imc/event=0x05,umask=0xf0/ 24000000 1
expect emr-stat rate imc/event=0x05,umask=0xf0/@socket0.ch6 3000000 1
expect emr-stat rate UNC_CHA_CLOCKTICKS 1000000000 1
step emr-bw 'uncore.efi bw -d 1 --per-box'
expect emr-bw rc zero
expect emr-bw bw read 4096 1
expect emr-bw bw write 1536 1
expect emr-bw has '^uncore bw: IMC counters in 8 iMC boxes of the uncore discovery table \(CAS_COUNT\.RD and \.WR\)'
expect emr-bw has '^socket0\.ch7 +read +5[01][0-9]\.[0-9]+ MB/s +write +19[0-9]\.[0-9]+ MB/s'
step emr-regs1 'uncore.efi regs'
expect emr-regs1 same-written emr-regs0
step emr-unload 'uncore-emu.efi --unload'
expect emr-unload rc zero

# Sierra Forest (family 6 model 0xAF, as Emerald Rapids): Granite Rapids'
# sub-channel events (Intel's SRF file), summed by bw.
step srf-load 'uncore-emu.efi --cpuid 1:0=0x000A06F1,0x00010800,0x80000000,0x10000000 --rate UNC_M_CAS_COUNT_SCH0.RD=3M --rate UNC_M_CAS_COUNT_SCH1.RD=5M --rate UNC_M_CAS_COUNT_SCH0.WR=1M --rate UNC_M_CAS_COUNT_SCH1.WR=2M --rate UNC_CHA_CLOCKTICKS=1G'
expect srf-load rc zero
step srf-info 'uncore.efi info'
expect srf-info rc zero
expect srf-info has '^cpu: +GenuineIntel family 0x6 model 0xaf'
expect srf-info has '^uncore: +supported: Xeon uncore discovery, Sierra Forest$'
expect srf-info has '^imc: +8 boxes programmable of 8 found'
expect srf-info has '^verdict: +uncore PMU usable: ready$'
step srf-regs0 'uncore.efi regs'
expect srf-regs0 rc zero
step srf-stat 'uncore.efi -e imc/event=0x06,umask=0xf0/,UNC_CHA_CLOCKTICKS --per-box -d 1'
expect srf-stat rc zero
expect srf-stat rate imc/event=0x06,umask=0xf0/ 16000000 1
expect srf-stat rate imc/event=0x06,umask=0xf0/@socket0.ch2 2000000 1
expect srf-stat rate UNC_CHA_CLOCKTICKS 1000000000 1
step srf-bw 'uncore.efi bw -d 1 --per-box'
expect srf-bw rc zero
expect srf-bw bw read 4096 1
expect srf-bw bw write 1536 1
expect srf-bw has '^socket0\.ch0 +read +5[01][0-9]\.[0-9]+ MB/s +write +19[0-9]\.[0-9]+ MB/s'
step srf-list 'uncore.efi list'
expect srf-list rc zero
expect srf-list has '^imc +0x06 +0xcf +0,1,2,3 +UNC_M_CAS_COUNT_SCH1\.RD '
expect srf-list lacks 'UNC_M_CAS_COUNT\.RD|UNC_M_RDB_INSERTS\.SCH0|UNC_CHA_TOR_INSERTS\.IA_MISS_DRD '
expect srf-list has '^cha +0x35 +0x01 +0,1,2,3 +UNC_CHA_TOR_INSERTS\.IA_MISS_DRD_OPT +\[UMaskExt 0x00c827fe\] '
expect srf-list has '^226 events, 0 free-running counters, in 2 PMUs'
step srf-regs1 'uncore.efi regs'
expect srf-regs1 same-written srf-regs0
boot_run


# Multiplexing (boots stat and p6): the share of the counted time each group
# had, against what the run's own multiplexing allows (printed: G groups,
# K switches, the elapsed time E).
# The groups take turns in K + 1 slices, and over the last rounds the engine
# gives each group the time that evens them out, so what stays uneven is at
# most one slice, on average 1/(K + 1) of the run (1/K here), plus the time
# the run went on past -d (E - D: a guest woken late at the end), which the
# last group alone counted. The counted time is the groups' running
# percentages summed: the gaps of the switches count for none. So each
# group's share is within 1/K + (E - D)/E of 1/G, however loaded the host.
mux_shares() { # STEP D EVENT... (one event of each group, in the step's output)
	step_output "$dir/serial.txt" "$1" | tr -d '\r' | awk -v d="$2" -v evs="${*:3}" '
		match($0, / in [0-9]+ groups/) { g = substr($0, RSTART + 4, RLENGTH - 11) + 0 }
		/^elapsed: / { e = $2 + 0; if (match($0, /[0-9]+ switches$/)) k = substr($0, RSTART, RLENGTH - 9) + 0 }
		{ for (i = 1; i <= n; i++) if ($1 == ev[i]) { p[i] = $NF; sub(/%$/, "", p[i]); p[i] += 0 } }
		BEGIN { n = split(evs, ev, " ") }
		END {
			if (g != n || k < 1 || !e) { printf "groups %d (want %d), %d switches, elapsed %s s\n", g, n, k, e; exit 1 }
			for (i = 1; i <= n; i++) { if (p[i] <= 0) { print ev[i] " did not run"; exit 1 } sum += p[i] }
			tol = 1 / k + (e > d ? (e - d) / e : 0)
			for (i = 1; i <= n; i++) {
				share = p[i] / sum; dev = share - 1 / n; if (dev < 0) dev = -dev
				printf "%s: %.2f%% running, %.4f of the counted time; 1/%d +- %.4f (%d switches, %.6f s past %s s)\n",
					ev[i], p[i], share, n, tol, k, e - d, d
				if (dev > tol) bad = 1
			}
			exit bad
		}'
}

# MCHBAR at 0x7fffff8000 (the emulator's --fault mchbar-high) on a client
# identity with QEMU's default 40 physical-address bits: inside the width,
# but memory OVMF never mapped (a load there page-faulted the firmware).
# The MMIO check at the seam refuses it in one line naming the address and
# why, nothing is read there, the exit status is non-zero, and the firmware
# takes no exception (a dump would end the boot). Added to each client boot
# after its last step, while the emulator is unloaded; with `info`, info too
# (its verdict names the refusal).
mchbar_high_steps() {
	local p=${MH_PRE:-} # (MH_PRE, MH_EMU: the step names' prefix and the emulator's
	# other options, for a generation whose steps run in another's boot)
	step ${p}load-high "uncore-emu.efi ${MH_EMU:+$MH_EMU }--fault mchbar-high"
	expect ${p}load-high rc zero
	step ${p}bw-high 'uncore.efi bw -d 0.3'
	expect ${p}bw-high rc nonzero
	expect ${p}bw-high has '^uncore: error: IMC counters at MCHBAR 0x7ffff[0-9a-f]{5} \+ 0x(5040|d840) refused: the firmware has not mapped 0x7ffff[0-9a-f]{5} \((no GCD memory space descriptor covers it|GCD: non-existent, 0x[0-9a-f]+-0x[0-9a-f]+)\)$'
	expect ${p}bw-high lines 1
	if [ "${1:-}" = info ]; then
		step ${p}info-high 'uncore.efi info'
		expect ${p}info-high rc nonzero
		expect ${p}info-high has '^verdict: +.* unusable: IMC counters at .*refused: the firmware has not mapped 0x7ffff[0-9a-f]{5}'
	fi
	step ${p}unload-high 'uncore-emu.efi --unload'
	expect ${p}unload-high rc zero
}

# MCHBAR disabled (the emulator's fault) at 0x4000000: info is unusable,
# naming the raw value, on every client generation alike.
mchbar_disabled_steps() {
	local p=${MH_PRE:-} # (as mchbar_high_steps)
	step ${p}load-off "uncore-emu.efi ${MH_EMU:+$MH_EMU }--mchbar 0x4000000 --fault mchbar-disabled"
	expect ${p}load-off rc zero
	step ${p}info-off 'uncore.efi info'
	expect ${p}info-off rc nonzero
	expect ${p}info-off has '^verdict: +.* unusable: MCHBAR is disabled: 00:00\.0 offsets 0x4C:0x48 read 0x0000000004000000 \(bit 0 clear\); uncore\.efi never enables it$'
	step ${p}unload-off 'uncore-emu.efi --unload'
	expect ${p}unload-off rc zero
}

boot_begin skl Skylake-Client
step info 'uncore.efi info'
expect info rc nonzero
expect info has '^uncore: +supported: Skylake-client, Skylake \(desktop\)$'
expect info has '^cpu: +GenuineIntel family 0x6 model 0x5e'
expect info has 'NO_CBO_BANKS 0, CBo count 0'
expect info has '^msr access: +native$'
expect info has '^pmu in use: +no '
expect info has '^host bridge: +00:00.0 vendor 0x8086 device 0x29c0'
expect info has '^MCHBAR: +raw 0x0000000000000000 .*disabled'
expect info has '^tsc: +[1-9][0-9]*\.[0-9]{3} MHz, measured against the ACPI PM timer \(6 windows within [0-9]+ ppm\)$'
expect info has '^verdict: +uncore PMU unusable: MSR_UNC_CBO_CONFIG reports no CBo$'
expect info has '^faults: +none$'
step info-json 'uncore.efi info -j'
expect info-json rc nonzero
expect info-json has '^\{"cpu":\{"vendor":"GenuineIntel",.*"cbo_count":0\}.*"usable":false.*\}$'
step gp 'uncore.efi msr write 0x6E1 0x100000000'
expect gp rc nonzero
expect gp has '^uncore: error: wrmsr 0x6e1 value 0x100000000: general-protection fault$'
expect gp lacks '^event +count'
step after-gp 'uncore.efi msr read 0x396'
expect after-gp rc zero
expect after-gp has '^msr 0x396 \(MSR_UNC_CBO_CONFIG\) = 0x0000000000000000$'
# RDPMC: QEMU's TCG raises #UD for it (not #GP); the guard on vector 6
# catches it, the error says so, and the next command runs.
# QEMU's TCG reports CPUID leaf 0xA version 0: no architectural core PMU.
step no-arch 'uncore.efi -e INST_RETIRED.ANY'
expect no-arch rc nonzero
expect no-arch has '^uncore: error: INST_RETIRED\.ANY is a cpu_fixed event; this CPU has no cpu_fixed PMU \(CPUID leaf 0xA reports version 0 or is absent: no architectural PMU\)$'
expect no-arch lines 1
step pmc-ud 'uncore.efi pmc read 0'
expect pmc-ud rc nonzero
expect pmc-ud has '^uncore: error: rdpmc 0x0: invalid opcode \(#UD\): RDPMC is not available on this processor$'
expect pmc-ud lines 1
step after-pmc 'uncore.efi msr read 0x396'
expect after-pmc rc zero
expect after-pmc has '^msr 0x396 \(MSR_UNC_CBO_CONFIG\) = 0x0000000000000000$'
step pci 'uncore.efi pci read 0:0.0 0'
expect pci rc zero
expect pci has '^pci 00:00.0 \[0x000\] = 0x29c08086$'
step mmio-range 'uncore.efi mmio read 0x10000000000'
expect mmio-range rc nonzero
expect mmio-range has 'above the CPU.s 40-bit physical address width'
# Below the 40-bit width but unmapped by OVMF's page tables (a #PF that hung
# the firmware): no memory map descriptor covers it, so it is refused.
step mmio-unmapped 'uncore.efi mmio read 0xFFFFFFF000'
expect mmio-unmapped rc nonzero
expect mmio-unmapped has '^uncore: error: mmio read 0xfffffff000: no UEFI memory map descriptor covers it, so it may be unmapped and a load would fault the firmware; --force reads it anyway$'
expect mmio-unmapped lines 1
# Covered addresses still read: 00:00.0's ID through OVMF's PCIe ECAM window
# (a reserved descriptor at 0xB0000000), as `pci read` gives it.
# --force does not make it load: the seam's MMIO check finds no GCD memory
# space descriptor there, refuses, and the firmware takes no page fault.
step mmio-unmapped-force 'uncore.efi mmio read 0xFFFFFFF000 --force'
expect mmio-unmapped-force rc nonzero
expect mmio-unmapped-force has '^uncore: error: mmio read 0xfffffff000: the firmware has not mapped 0xfffffff000 \((no GCD memory space descriptor covers it|GCD: non-existent, 0x[0-9a-f]+-0x[0-9a-f]+)\)$'
expect mmio-unmapped-force lines 1
# RAM is not MMIO: the memory map covers it, the GCD map calls it system memory.
step mmio-ram 'uncore.efi mmio read 0x100000'
expect mmio-ram rc nonzero
expect mmio-ram has '^uncore: error: mmio read 0x100000: 0x100000 is system memory, not MMIO \(GCD: 0x[0-9a-f]+-0x[0-9a-f]+\)$'
expect mmio-ram lines 1
step mmio-ecam 'uncore.efi mmio read 0xB0000000'
expect mmio-ecam rc zero
expect mmio-ecam has '^mmio 0xb0000000 = 0x29c08086$'
expect mmio-ecam lines 1
# The local APIC is mapped but OVMF's map does not describe it: --force.
step mmio-apic 'uncore.efi mmio read 0xFEE00030'
expect mmio-apic rc nonzero
expect mmio-apic has '^uncore: error: mmio read 0xfee00030: no UEFI memory map descriptor covers it'
step mmio-apic-force 'uncore.efi mmio read 0xFEE00030 --force'
expect mmio-apic-force rc zero
expect mmio-apic-force has '^uncore: warning: mmio read 0xfee00030: no UEFI memory map descriptor covers it; reading it because of --force$'
expect mmio-apic-force has '^mmio 0xfee00030 = 0x000[0-9a-f]{5}$'
step bad-verb 'uncore.efi frobnicate'
expect bad-verb rc nonzero
expect bad-verb has "^uncore: error: unknown command 'frobnicate'"
expect bad-verb lines 1
step bad-addr 'uncore.efi msr read 0x39G'
expect bad-addr rc nonzero
expect bad-addr has "^uncore: error: bad MSR address '0x39G'"
expect bad-addr lines 1
step no-value 'uncore.efi msr write 0x394'
expect no-value rc nonzero
expect no-value has "^uncore: error: 'msr write' needs an MSR address and a value$"
expect no-value lines 1
step overlong "uncore.efi msr read $long"
expect overlong rc nonzero
expect overlong has '^uncore: error: argument 3 is too long \(more than 255 characters\)$'
expect overlong lines 1
step help 'uncore.efi help'
expect help rc zero
expect help has '^usage: uncore.efi COMMAND'
# The Shell turns a -? into its own help command, so at the prompt a
# command's usage is `help COMMAND` (the parser's -? is a unit test).
step help-cmd 'uncore.efi help stat'
expect help-cmd rc zero
expect help-cmd has '^usage: uncore.efi stat \[OPTIONS\]$'
expect help-cmd has '^  -d SECONDS +run this long'
step help-op 'uncore.efi help msr'
expect help-op rc zero
expect help-op has '^usage: uncore.efi msr read ADDR \[OPTIONS\]$'
expect help-op has '^usage: uncore.efi msr write ADDR VALUE \[OPTIONS\]$'
expect help-op count '^  --pkg N +by a processor of physical package N' 2
# Lab mode from a Shell: `uncore.efi lab CONFIG` runs the file's lines as
# without one, and (the default ending with a Shell) returns to it. info
# fails on plain QEMU (no CBo), so the run fails.
boot_file "$TOP/tests/qemu/lab/shell.cfg"
step lab-shell 'uncore.efi lab \shell.cfg'
expect lab-shell rc nonzero
expect lab-shell has '^UNCORE-LAB START board="[^"]*" serial="[^"]*" config=\\shell\.cfg$'
expect lab-shell has '^UNCORE-LAB RESULT name=info result=error$'
expect lab-shell has '^UNCORE-LAB END result=fail passed=0 failed=1$'
expect lab-shell has '^uncore: lab: results in \\uncore\\shellrun\\[0-9]{8}-[0-9]{6}-'
step lab-shell-after 'uncore.efi msr read 0x396'
expect lab-shell-after rc zero
# uncore.efi with one byte of its packed application changed (efi/image.md):
# the outer image refuses it in one line, and nothing of it runs.
mkdir -p "$WORK"
zoff=$(objdump -h "$TOP/build/uncore.efi" | awk '$2 == ".zimage" {print $6}')
cp "$TOP/build/uncore.efi" "$WORK/corrupt.efi"
printf '\x5a' | dd of="$WORK/corrupt.efi" bs=1 seek=$((16#${zoff:-0} + 32 + 20000)) conv=notrunc status=none
boot_file "$WORK/corrupt.efi"
step corrupt 'corrupt.efi info'
expect corrupt rc nonzero
expect corrupt has '^uncore: error: the packed image(.s stream is corrupt| does not match its CRC)$'
expect corrupt lines 1
# The #PF guard on MMIO (drivers/base/hw.md, MMIO): unmapped.efi makes
# 0xFED40000 MMIO in the GCD map but not present in the page tables, as
# real firmware may leave an MMIO range (tests/child/unmapped.c). The map
# checks pass (--force: no memory map descriptor covers it), the load
# page-faults, the guard steps over it: one error, no exception, and the
# firmware goes on (the next command runs).
boot_file "$TOP/build/unmapped.efi"
step unmap 'unmapped.efi'
expect unmap rc zero
expect unmap has '^unmapped: 0xfed40000 is MMIO in the GCD map and not present in the page tables$'
step pf 'uncore.efi mmio read 0xFED40000 --force'
expect pf rc nonzero
expect pf has '^uncore: error: mmio read 0xfed40000: not MMIO that the firmware maps$'
expect pf lacks '^mmio 0x'
step after-pf 'uncore.efi msr read 0x396'
expect after-pf rc zero
# On firmware with EFI_MEMORY_ATTRIBUTE_PROTOCOL (OVMF here has none: a
# stand-in, tests/child/memattr.c, which says what it is asked), the outer
# image makes the code's pages executable and read-only before the
# application runs, and read-write again after, all on the code's pages
# (the code size in the packed image's header, rounded up to pages); a
# firmware that keeps them non-executable gets a one-line refusal, and
# nothing of the application runs.
boot_file "$TOP/build/memattr.efi"
boot_file "$TOP/build/memattr-keep-xp.efi"
code_pages=$(( ($(od -A n -t u4 -j 24 -N 4 "$TOP/build/uncore.zimg") + 4095) / 4096 ))
step memattr-load '!load fs0:\memattr.efi'
expect memattr-load rc zero
step memattr 'uncore.efi msr read 0x396'
expect memattr rc zero
boot_check memattr-calls '[ "$(step_output "$dir/serial.txt" memattr)" = "memattr: clear XP at +0x0, '"$code_pages"' pages
memattr: get: none at +0x0, '"$code_pages"' pages
memattr: set RO at +0x0, '"$code_pages"' pages
msr 0x396 (MSR_UNC_CBO_CONFIG) = 0x0000000000000000
memattr: clear RO at +0x0, '"$code_pages"' pages" ] || { step_output "$dir/serial.txt" memattr; exit 1; }'
step memattr-keep-load '!load fs0:\memattr-keep-xp.efi'
expect memattr-keep-load rc zero
step memattr-keep 'uncore.efi msr read 0x396'
expect memattr-keep rc nonzero
boot_check memattr-keep-refused '[ "$(step_output "$dir/serial.txt" memattr-keep)" = "memattr: clear XP at +0x0, '"$code_pages"' pages
memattr: get: XP at +0x0, '"$code_pages"' pages
uncore: error: the firmware keeps the application'"'"'s code pages non-executable" ] || { step_output "$dir/serial.txt" memattr-keep; exit 1; }'
boot_run

boot_begin epyc EPYC
step info 'uncore.efi info'
expect info rc nonzero
expect info has '^cpu: +AuthenticAMD family 0x17'
expect info has '^uncore: +unsupported: not an Intel CPU \(vendor AuthenticAMD\)$'
# No driver matches: no driver's registers are read, so no driver lines.
expect info lacks '^MSR_UNC_CBO_CONFIG'
expect info lacks '^host bridge:'
expect info has '^verdict: +uncore PMU unusable: not an Intel CPU$'
step info-json 'uncore.efi info -j'
expect info-json rc nonzero
expect info-json has '"vendor":"AuthenticAMD".*"supported":false.*"drivers":\[\],'
# Events are resolved against the drivers this CPU has: an event of a PMU
# it lacks is refused by name, before any register is touched.
step absent 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET'
expect absent rc nonzero
expect absent has '^uncore: error: UNC_CBO_CACHE_LOOKUP\.ANY_MESI is a cbox event; this CPU has no cbox PMU$'
expect absent lacks '^uncore stat:'
step absent-imc 'uncore.efi -e imc/data_reads/'
expect absent-imc rc nonzero
expect absent-imc has '^uncore: error: imc/data_reads/ is an imc event; this CPU has no imc PMU$'
step list-none 'uncore.efi list'
expect list-none rc zero
expect list-none has '^no driver matches this CPU: no events'
step list-all 'uncore.efi list --all'
expect list-all rc zero
expect list-all has '^cbox PMU \(Skylake-client, skl-client-uncore\); raw: cbox/event=N,umask=N'
expect list-all has '^cbox +0x34 +0x8f +0,1 +UNC_CBO_CACHE_LOOKUP\.ANY_MESI '
boot_run

# The P6 core PMU (MMX Technology Developer's Guide, chapter 6) on QEMU's Pentium III (family 6 model 7): first
# plain QEMU, whose P6 MSRs drop writes; then emulated.
boot_begin p6 'pentium3,+lm,+sse2,+nx,+pae' -smp 2 -m 512
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/build/child.efi"
boot_file "$TOP/tests/qemu/clobber.nsh"
step info 'uncore.efi info'
expect info has '^uncore: +supported: P6 family, Pentium III \(Katmai\)$'
expect info has '^verdict: +P6 core PMU usable: ready$'
step plain 'uncore.efi -e INST_RETIRED'
expect plain rc nonzero
expect plain has '^uncore: error: PerfEvtSel0 \(0x186\) reads 0x0 after writing 0x300c0: the P6 core PMU ignored the programming$'
# bench times a core counter read both ways; QEMU's RDPMC raises #UD.
step bench-plain 'uncore.efi bench -n 1000'
expect bench-plain rc zero
expect bench-plain has '^p6 rdmsr 0xc1 \(PerfCtr0\): 1000 reads, [0-9]+ TSC cycles each \([0-9.]+ ns\); native$'
expect bench-plain has '^p6 rdpmc 0x0: not available \(it raised #UD\)$'
step load 'uncore-emu.efi --rate CPU_CLK_UNHALTED=1G --rate INST_RETIRED=500M --rate L2_LD.M=3M --rate MUL=7M --rate FLOPS=11M'
expect load rc zero
# PerfCtr1 found with a count of its own (below 2^31, which a P6 counter
# can take back): a restore that is missing shows.
step preset 'uncore.efi msr write 0xC2 0x1234'
expect preset rc zero
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 has '^0xc2 +PerfCtr1 +0x0000000000001234$'
step count 'uncore.efi -e INST_RETIRED,CPU_CLK_UNHALTED,L2_LD.M -d 2'
expect count rc zero
expect count has '^uncore stat: 3 events in 2 groups \(multiplexed\), msr access: emulated'
expect count rate INST_RETIRED 500000000 1
expect count rate CPU_CLK_UNHALTED 1000000000 1
expect count rate L2_LD.M 3000000 1
boot_check count-shares 'mux_shares count 2 INST_RETIRED L2_LD.M'
step regs1 'uncore.efi regs'
expect regs1 same regs0
step no-mux 'uncore.efi -e FLOPS,CYCLES_DIV_BUSY --no-multiplex'
expect no-mux rc nonzero
expect no-mux has '^uncore: error: the events need 2 rounds of counters \(P6: 2 counters, events 0x10 and 0x14 and 0xc1 only counter 0, events 0x11 and 0x12 and 0x13 only counter 1\); without --no-multiplex they take turns$'
step fit 'uncore.efi -e FLOPS,MUL --no-multiplex -d 1'
expect fit rc zero
expect fit has '^uncore stat: 2 events in 1 group, msr access: emulated'
expect fit rate FLOPS 11000000 1
expect fit rate MUL 7000000 1
# Someone else during the run: PerfEvtSel1 cleared (each sample reads the
# selects in use), PerfCtr1 set to 0x7fffffff at once (a jump of 2^30 from
# the run's start, where MUL adds at most one a cycle at 2^31 Hz).
step clob-sel1 'uncore.efi -e INST_RETIRED,MUL -- fs0:\clobber.nsh 0x187 0'
expect clob-sel1 rc 0xD
expect clob-sel1 has '^uncore: error: PerfEvtSel1 \(0x187\) reads 0x0, not the 0x30012 this run wrote: written by someone else during the run$'
step clob-ctr1 'uncore.efi -e INST_RETIRED,MUL -- fs0:\uncore.efi msr write 0xC2 0x7fffffff'
expect clob-ctr1 rc 0xD
expect clob-ctr1 has '^uncore: error: PerfCtr1 \(0xc2\) went from 0x40[0-9a-f]{6} to 0x[0-9a-f]+ within [0-9.]+ ms: written by someone else during the run'
step clob-regs 'uncore.efi regs'
expect clob-regs same regs0
# A child image measured with core events: it runs on the processor that counts.
step child 'uncore.efi -e INST_RETIRED,CPU_CLK_UNHALTED -- fs0:\child.efi 300 0'
expect child rc zero
expect child rate INST_RETIRED 500000000 1
expect child rate CPU_CLK_UNHALTED 1000000000 1
expect child has '^child: fs0:\\child\.efi 300 0 returned EFI_SUCCESS'
step bench 'uncore.efi bench -n 1000'
expect bench rc zero
expect bench has '^p6 rdmsr 0xc1 \(PerfCtr0\): 1000 reads, [0-9]+ TSC cycles each \([0-9.]+ ns\); emulated$'
expect bench has '^p6 rdpmc 0x0: 1000 reads, [0-9]+ TSC cycles each \([0-9.]+ ns\); emulated$'
# Core events count on this processor only: with the load on both, the header says so.
step load-both 'uncore.efi -e INST_RETIRED --load read --cpus all -d 1'
expect load-both rc zero
expect load-both has "^core events count on the processor running uncore.efi only, not on the load's other 1$"
expect load-both has "^  \\(core events count on the processor running uncore.efi only, not on the load's other 1\\)$"
step load-json 'uncore.efi -e INST_RETIRED --load read --cpus all -d 0.5 -j'
expect load-json rc zero
expect load-json has '"load":\{"kind":"read","nt":false,"cpus":2,.*"core_events_cpus":1\}'

step regs2 'uncore.efi regs'
expect regs2 same regs0
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# PerfCtr0/1 ignoring writes (--fault ro-counters=p6): the SDM's counters are
# written, so the run finds the starts ignored, says so once, and counts on.
step ro-load 'uncore-emu.efi --rate CPU_CLK_UNHALTED=1G --rate INST_RETIRED=500M --fault ro-counters=p6'
expect ro-load rc zero
step ro-regs0 'uncore.efi regs'
expect ro-regs0 rc zero
step ro-count 'uncore.efi -e INST_RETIRED,CPU_CLK_UNHALTED -d 1'
expect ro-count rc zero
expect ro-count count 'ignores writes' 1
expect ro-count rate INST_RETIRED 500000000 0.5
expect ro-count rate CPU_CLK_UNHALTED 1000000000 0.5
step ro-regs1 'uncore.efi regs'
expect ro-regs1 same-except ro-regs0 'PerfCtr[01] '
step ro-unload 'uncore-emu.efi --unload'
expect ro-unload rc zero
boot_run

# The Knights Corner core PMU (Intel 327357-001) on a family 0xB model 1 CPU. Real
# cards boot their own uOS, not UEFI: this checks the manual's table.
boot_begin knc 'qemu64,vendor=GenuineIntel,family=11,model=1'
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/tests/qemu/clobber.nsh"
step info 'uncore.efi info'
expect info has '^uncore: +supported: Knights Corner, Knights Corner \(Xeon Phi coprocessor\)$'
step plain 'uncore.efi -e CPU_CLK_UNHALTED'
expect plain rc nonzero
expect plain has 'the Knights Corner core PMU ignored the programming$'
step load 'uncore-emu.efi --rate CPU_CLK_UNHALTED=1G --rate INSTRUCTIONS_EXECUTED=600M --rate VPU_ELEMENTS_ACTIVE=5G'
expect load rc zero
# SPFLT_CONTROL found with both gates set and the user preference clear:
# nothing would count unless the run clears the gates, and it puts them back.
step spflt 'uncore.efi msr write 0x2C 0x3'
expect spflt rc zero
step regs0 'uncore.efi msr read 0x2C'
expect regs0 has '^msr 0x2c \(PERF_SPFLT_CONTROL\) = 0x0000000000000003$'
step count 'uncore.efi -e INSTRUCTIONS_EXECUTED,CPU_CLK_UNHALTED,VPU_ELEMENTS_ACTIVE -d 2'
expect count rc zero
expect count rate INSTRUCTIONS_EXECUTED 600000000 1
expect count rate CPU_CLK_UNHALTED 1000000000 1
expect count rate VPU_ELEMENTS_ACTIVE 5000000000 1
step regs1 'uncore.efi msr read 0x2C'
expect regs1 same regs0
# IA32_PerfEvtSel1 cleared by someone else mid-run: each sample reads it.
step clob-sel1 'uncore.efi -e INSTRUCTIONS_EXECUTED,CPU_CLK_UNHALTED -- fs0:\clobber.nsh 0x29 0'
expect clob-sel1 rc 0xD
expect clob-sel1 has '^uncore: error: IA32_PerfEvtSel1 \(0x29\) reads 0x0, not the 0x43002a this run wrote: written by someone else during the run$'
step clob-sel1-after 'uncore.efi msr read 0x29'
expect clob-sel1-after has '^msr 0x29 \(IA32_PerfEvtSel1\) = 0x0000000000000000$'
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# IA32_PerfCnt0/1 ignoring writes (--fault ro-counters=knc): RW by 327357-001,
# so the run finds the starts ignored, says so once, and counts on.
step ro-load 'uncore-emu.efi --rate CPU_CLK_UNHALTED=1G --rate INSTRUCTIONS_EXECUTED=600M --fault ro-counters=knc'
expect ro-load rc zero
step ro-sel0 'uncore.efi msr read 0x28'
expect ro-sel0 rc zero
step ro-count 'uncore.efi -e INSTRUCTIONS_EXECUTED,CPU_CLK_UNHALTED -d 1'
expect ro-count rc zero
expect ro-count count 'ignores writes' 1
expect ro-count rate INSTRUCTIONS_EXECUTED 600000000 0.5
expect ro-count rate CPU_CLK_UNHALTED 1000000000 0.5
step ro-sel0-after 'uncore.efi msr read 0x28'
expect ro-sel0-after same ro-sel0
step ro-unload 'uncore-emu.efi --unload'
expect ro-unload rc zero
boot_run

# The Xeon E5-2600 iMC (Intel 327043-001) as the emulator serves it: SandyBridge
# model 45 is family 6 model 0x2D, so uncore-emu.efi serves the iMC channel
# functions (device 16, functions 0, 1, 4, 5) on buses 0x3F and 0x7F
# through UNC_EMU_PROTOCOL's PciRead32/PciWrite32, and no Skylake-client MSR.
boot_begin e5 SandyBridge,model=45
boot_file "$TOP/build/uncore-emu.efi"
step e5-bad-fault 'uncore-emu.efi --fault pci-missing=3f:10.2'
expect e5-bad-fault rc nonzero
expect e5-bad-fault has "^uncore-emu: error: --fault pci-missing=3f:10.2: not an emulated iMC channel function"
expect e5-bad-fault lines 1
step e5-wrong-uncore 'uncore-emu.efi --cbo-config 3'
expect e5-wrong-uncore rc nonzero
expect e5-wrong-uncore has '^uncore-emu: error: --cbo-config is for the Skylake-client uncore, but the emulator serves the Xeon E5-2600 iMC \(CPUID leaf 1, or --uncore\)$'
# Two sockets of four channels, CAS_COUNT.RD at 10M/s and .WR at 5M/s in
# every channel, DCLK 800 MHz (the emulator's default).
step e5-load 'uncore-emu.efi --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate CAS_COUNT.WR=5M'
expect e5-load rc zero
expect e5-load has '^uncore-emu: emulating a Xeon E5-2600 iMC, 2 sockets \(buses 0x3f, 0x7f\), 8 channels, DCLK 800\.000 MHz, 2 iMC rates, faults: none$'
step e5-id0 'uncore.efi pci read 3f:10.0 0x0'
expect e5-id0 rc zero
expect e5-id0 has '^pci 3f:10\.0 \[0x000\] = 0x3cb08086$'
step e5-id7 'uncore.efi pci read 7f:10.5 0x0'
expect e5-id7 rc zero
expect e5-id7 has '^pci 7f:10\.5 \[0x000\] = 0x3cb58086$'
# Not an iMC function: the real (QEMU) bus answers, which has nothing there.
step e5-not-imc 'uncore.efi pci read 3f:10.2 0x0'
expect e5-not-imc has '^pci 3f:10\.2 \[0x000\] = 0xffffffff$'
# No Skylake-client MSR is emulated: 0x396 is QEMU's, which reads 0 (the
# Skylake-client model would answer NO_CBO_BANKS 5).
step e5-no-skl 'uncore.efi msr read 0x396'
expect e5-no-skl rc zero
expect e5-no-skl has '^msr 0x396 = 0x0000000000000000$'
step e5-info 'uncore.efi info'
expect e5-info rc zero
expect e5-info has '^msr access: +emulated'
expect e5-info has '^emulator: +Xeon E5-2600 iMC, 2 sockets \(buses 0x3f, 0x7f\), 8 channels, DCLK 800\.000 MHz, 2 iMC rates, faults: none$'
expect e5-info has '^cpu: +GenuineIntel family 0x6 model 0x2d'
expect e5-info has '^uncore: +supported: Xeon E5-2600, Sandy Bridge-EP$'
expect e5-info has '^imc: +2 sockets, 8 channels '
expect e5-info has "^  sockets numbered by their UBoxes' node IDs \\(8086:3ce0, CPUNODEID 0x40, GIDNIDMAP 0x54\\)$"
expect e5-info has '^  socket 0 \(bus 0x3f\): channels 0, 1, 2, 3$'
expect e5-info has '^  socket 1 \(bus 0x7f\): channels 0, 1, 2, 3$'
expect e5-info has '^verdict: +iMC PMU usable: ready$'
step e5-regs0 'uncore.efi regs'
expect e5-regs0 rc zero
expect e5-regs0 has '^7f:10\.5\+0xe4 +MC_CH3_PCI_PMON_CTL3 \(socket 1\) +0x0000000000000000$'
step e5-stat 'uncore.efi -e UNC_M_CAS_COUNT.RD,UNC_M_CAS_COUNT.WR,UNC_M_DCLOCKTICKS --per-box'
expect e5-stat rc zero
expect e5-stat has '^uncore stat: 3 events in 1 group, 8 channels, msr access: emulated'
expect e5-stat rate UNC_M_CAS_COUNT.RD 80000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket0.ch0 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket0.ch1 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket0.ch2 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket0.ch3 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket1.ch0 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket1.ch1 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket1.ch2 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.RD@socket1.ch3 10000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR 40000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket0.ch0 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket0.ch1 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket0.ch2 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket0.ch3 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket1.ch0 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket1.ch1 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket1.ch2 5000000 1
expect e5-stat rate UNC_M_CAS_COUNT.WR@socket1.ch3 5000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS 6400000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket0.ch0 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket0.ch1 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket0.ch2 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket0.ch3 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket1.ch0 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket1.ch1 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket1.ch2 800000000 1
expect e5-stat rate UNC_M_DCLOCKTICKS@socket1.ch3 800000000 1
expect e5-stat lines 31
# The guide's short names.
step e5-short 'uncore.efi -e CAS_COUNT.RD -d 1'
expect e5-short rc zero
expect e5-short rate UNC_M_CAS_COUNT.RD 80000000 1
# bw: 8 channels x 10M x 64 bytes read, 8 x 5M x 64 written.
step e5-bw 'uncore.efi bw -d 2'
expect e5-bw rc zero
expect e5-bw bw read 5120 1
expect e5-bw bw write 2560 1
expect e5-bw bw total 7680 1
step e5-bw-pass 'uncore.efi bw -d 1 --min-bw 7000 -o var:E5Pass'
expect e5-bw-pass rc zero
expect e5-bw-pass has 'PASS'
step e5-bw-fail 'uncore.efi bw -d 1 --min-bw 8000 --per-box'
expect e5-bw-fail rc nonzero
expect e5-bw-fail has 'FAIL'
step e5-bw-json 'uncore.efi bw -d 1 --per-box -j'
expect e5-bw-json rc zero
expect e5-bw-json has '"per_group":\[\{"name":"socket0",'
expect e5-bw-json has '\{"name":"socket1\.ch3",'
step e5-bw-csv 'uncore.efi bw -d 1 -x ,'
expect e5-bw-csv rc zero
expect e5-bw-csv has ',dram_read_bandwidth@socket1,'
step e5-bw-show 'uncore.efi var show E5Pass'
expect e5-bw-show rc zero
expect e5-bw-show has 'PASS'
step e5-regs1 'uncore.efi regs'
expect e5-regs1 same e5-regs0
step e5-ctl-after 'uncore.efi pci read 3f:10.0 0xd8'
expect e5-ctl-after has '^pci 3f:10\.0 \[0x0d8\] = 0x00000000$'
step e5-fctl-after 'uncore.efi pci read 7f:10.5 0xf0'
expect e5-fctl-after has '^pci 7f:10\.5 \[0x0f0\] = 0x00000000$'
step e5-unload1 'uncore-emu.efi --unload'
expect e5-unload1 rc zero
# A missing channel: info names it, and the run counts the other seven.
step e5-load-missing 'uncore-emu.efi --rate UNC_M_CAS_COUNT.RD=10M --rate CAS_COUNT.WR=5M --fault pci-missing=7f:10.1'
expect e5-load-missing rc zero
step e5-missing 'uncore.efi pci read 7f:10.1 0x0'
expect e5-missing has '^pci 7f:10\.1 \[0x000\] = 0xffffffff$'
step e5-info-missing 'uncore.efi info'
expect e5-info-missing has '^imc: +2 sockets, 7 channels '
expect e5-info-missing has '^  socket 1 \(bus 0x7f\): channel 1 \(10\.1\) missing$'
expect e5-info-missing has '^verdict: +iMC PMU usable: ready, but socket 1 \(bus 0x7f\) channel 1 \(10\.1\) missing: not counted'
step e5-stat-missing 'uncore.efi -e UNC_M_CAS_COUNT.RD --per-box -d 1'
expect e5-stat-missing rc zero
expect e5-stat-missing has '^uncore stat: 1 event in 1 group, 7 channels, msr access: emulated'
expect e5-stat-missing rate UNC_M_CAS_COUNT.RD 70000000 1
expect e5-stat-missing lacks 'socket1\.ch1 '
expect e5-stat-missing has '^uncore: warning: socket 1 \(bus 0x7f\) channel 1 \(10\.1\) missing: not counted'
step e5-bw-missing 'uncore.efi bw -d 1'
expect e5-bw-missing rc zero
expect e5-bw-missing has '^uncore: warning: socket 1 \(bus 0x7f\) channel 1 \(10\.1\) missing: not counted'
step e5-unload2 'uncore-emu.efi --unload'
expect e5-unload2 rc zero
# A function whose writes do not stick: the run stops naming the register,
# and every register is as it was found.
step e5-load-ignore 'uncore-emu.efi --rate UNC_M_CAS_COUNT.RD=10M --fault pci-ignore-write=7f:10.4'
expect e5-load-ignore rc zero
step e5-regs2 'uncore.efi regs'
expect e5-regs2 rc zero
step e5-ignored 'uncore.efi -e UNC_M_CAS_COUNT.RD -d 1'
expect e5-ignored rc nonzero
expect e5-ignored has '^uncore: error: MC_CH2_PCI_PMON_CTL0 \(socket 1\) \(7f:10\.4\+0xd8\) reads 0x0 after writing 0x[0-9a-f]+: the iMC PMU ignored the programming$'
step e5-regs3 'uncore.efi regs'
expect e5-regs3 same e5-regs2
step e5-ctl-ignored 'uncore.efi pci read 3f:10.0 0xd8'
expect e5-ctl-ignored has '^pci 3f:10\.0 \[0x0d8\] = 0x00000000$'
step e5-unload 'uncore-emu.efi --unload'
expect e5-unload rc zero
step e5-gone 'uncore.efi pci read 3f:10.0 0x0'
expect e5-gone has '^pci 3f:10\.0 \[0x000\] = 0xffffffff$'
# Counters that ignore writes (both iMC units): writable by the guide, so
# the run writes their starts, finds them ignored, says so once, and counts
# on from the values read.
step e5-ro-load 'uncore-emu.efi --rate UNC_M_CAS_COUNT.RD=10M --fault ro-counters=imc --fault ro-counters=imc_fixed'
expect e5-ro-load rc zero
step e5-ro-regs0 'uncore.efi regs'
expect e5-ro-regs0 rc zero
step e5-ro 'uncore.efi -e UNC_M_CAS_COUNT.RD,UNC_M_DCLOCKTICKS -d 1'
expect e5-ro rc zero
expect e5-ro count 'ignores writes' 1
expect e5-ro rate UNC_M_CAS_COUNT.RD 80000000 0.5
expect e5-ro rate UNC_M_DCLOCKTICKS 6400000000 0.5
step e5-ro-regs1 'uncore.efi regs'
expect e5-ro-regs1 same-except e5-ro-regs0 'PMON_(FIXED_)?CTR[0-9]* '
step e5-ro-unload 'uncore-emu.efi --unload'
expect e5-ro-unload rc zero
boot_run

# Two root bridges, as a two-socket board may have: a pxb-pcie expander
# makes OVMF give buses 0x40 and up to a second EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL
# (its root port, 1b36:000c, at 40:00.0); the first stops at 0x3F. Each bus
# is read through the bridge that decodes it, so the iMC scan reaches every
# bus and socket 1's channels (bus 0x7F) are counted.
boot_begin e5-pxb SandyBridge,model=45 -device pxb-pcie,id=pxb1,bus_nr=64,bus=pcie.0 \
	-device pcie-root-port,id=rp1,bus=pxb1,chassis=9,slot=0
boot_file "$TOP/build/uncore-emu.efi"
step pxb-port 'uncore.efi pci read 40:00.0 0x0'
expect pxb-port rc zero
expect pxb-port has '^pci 40:00\.0 \[0x000\] = 0x000c1b36$'
step pxb-host 'uncore.efi pci read 0:0.0 0x0'
expect pxb-host has '^pci 00:00\.0 \[0x000\] = 0x29c08086$'
step pxb-load 'uncore-emu.efi --rate UNC_M_CAS_COUNT.RD=10M'
expect pxb-load rc zero
step pxb-info 'uncore.efi info'
expect pxb-info rc zero
expect pxb-info has '^imc: +2 sockets, 8 channels '
expect pxb-info has '^  socket 1 \(bus 0x7f\): channels 0, 1, 2, 3$'
expect pxb-info has '^verdict: +iMC PMU usable: ready$'
step pxb-stat 'uncore.efi -e UNC_M_CAS_COUNT.RD,UNC_M_DCLOCKTICKS -d 1'
expect pxb-stat rc zero
expect pxb-stat has '^uncore stat: 2 events in 1 group, 8 channels, msr access: emulated'
expect pxb-stat has '^UNC_M_CAS_COUNT\.RD +[1-9][0-9]* '
expect pxb-stat has '^UNC_M_DCLOCKTICKS +[1-9][0-9]* '
boot_run

# The Xeon iMC from Ivy Bridge-EP on (driver pci-imc) as the emulator serves
# it: Haswell model 63 is Haswell-EP, two controllers of four channels a
# socket (Linux's hswep_uncore_pci_ids 8086:2FB0.. and 2FD0.. at PCM's
# 14.0/14.1/15.0/15.1 and 17.0/17.1/18.0/18.1), the UBox 8086:2F1E on each
# socket's bus. Counters are reset through the box control's rst_ctrs and
# never written, so regs compares what a run writes. bw within 0.5% of
# 16 x 10M x 64 bytes read and 16 x 5M x 64 written. Events by the names of
# Intel's file for each model (HSX, IVT, BDX).
boot_begin hswep Haswell,model=63
boot_file "$TOP/build/uncore-emu.efi"
step hsx-load 'uncore-emu.efi --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M'
expect hsx-load rc zero
expect hsx-load has '^uncore-emu: emulating a Xeon iMC \(Haswell-EP\), 2 sockets \(buses 0x3f, 0x7f\), 16 channels, DCLK 800\.000 MHz, 2 iMC rates, faults: none$'
step hsx-regs0 'uncore.efi regs'
expect hsx-regs0 rc zero
expect hsx-regs0 has '^7f:18\.1\+0xe4 +MC_CH7_PCI_PMON_CTL3 \(socket 1\) +0x0000000000000000$'
step hsx-info 'uncore.efi info'
expect hsx-info rc zero
expect hsx-info has '^uncore: +supported: Xeon iMC \(Ivy Bridge-EP to Cooper Lake\), Haswell-EP$'
expect hsx-info has '^imc: +2 sockets, 16 channels \(PCI functions 14\.0, 14\.1, 15\.0, 15\.1, 17\.0, 17\.1, 18\.0, 18\.1 = channels 0-7, 8086:2fb0/2fb1/2fb4/2fb5/2fd0/2fd1/2fd4/2fd5\); '
expect hsx-info has "^  sockets numbered by their UBoxes' node IDs \\(8086:2f1e, CPUNODEID 0x40, GIDNIDMAP 0x54\\)$"
expect hsx-info has '^  socket 1 \(bus 0x7f\): channels 0, 1, 2, 3, 4, 5, 6, 7$'
expect hsx-info has '^verdict: +iMC PMU usable: ready$'
# bw --per-box over 2 s (a late read of one channel weighs half as much): its
# totals, each socket and channels
step hsx-bw-pb 'uncore.efi bw -d 2 --per-box'
expect hsx-bw-pb rc zero
expect hsx-bw-pb bw read 10240 0.5
expect hsx-bw-pb bw write 5120 0.5
expect hsx-bw-pb bw total 15360 0.5
expect hsx-bw-pb count '^socket[01]\.ch[0-7] +read' 16
expect hsx-bw-pb pbw socket0:read 5120 0.5
expect hsx-bw-pb pbw socket1:write 2560 0.5
expect hsx-bw-pb pbw socket0.ch0:read 640 0.5
expect hsx-bw-pb pbw socket1.ch7:write 320 0.5
step hsx-stat 'uncore.efi -e UNC_M_CAS_COUNT.RD,UNC_M_DCLOCKTICKS -d 2'
expect hsx-stat rc zero
expect hsx-stat has '^uncore stat: 2 events in 1 group, 16 channels, msr access: emulated'
expect hsx-stat rate UNC_M_CAS_COUNT.RD 160000000 0.5
expect hsx-stat rate UNC_M_DCLOCKTICKS 12800000000 0.5
step hsx-regs1 'uncore.efi regs'
expect hsx-regs1 same-written hsx-regs0
step hsx-unload 'uncore-emu.efi --unload'
expect hsx-unload rc zero
# Ivy Bridge-EP in the same QEMU start, by the emulator's CPUID leaf 1 (uncore.efi
# reads the model there): its channel functions and UBox, bw per channel.
step ivb-load 'uncore-emu.efi --cpuid 1:0=0x000306E4,0x00010800,0x80000000,0x10000000 --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M'
expect ivb-load rc zero
expect ivb-load has '^uncore-emu: emulating a Xeon iMC \(Ivy Bridge-EP\), 2 sockets \(buses 0x3f, 0x7f\), 16 channels, '
step ivb-regs0 'uncore.efi regs'
expect ivb-regs0 rc zero
step ivb-info 'uncore.efi info'
expect ivb-info rc zero
expect ivb-info has '^uncore: +supported: Xeon iMC \(Ivy Bridge-EP to Cooper Lake\), Ivy Bridge-EP$'
expect ivb-info has '^imc: +2 sockets, 16 channels \(PCI functions .* = channels 0-7, 8086:0eb4/0eb5/0eb0/0eb1/0ef4/0ef5/0ef0/0ef1\); '
expect ivb-info has '^verdict: +iMC PMU usable: ready$'
step ivb-bw-pb 'uncore.efi bw -d 2 --per-box'
expect ivb-bw-pb rc zero
expect ivb-bw-pb bw read 10240 0.5
expect ivb-bw-pb bw write 5120 0.5
expect ivb-bw-pb count '^socket[01]\.ch[0-7] +read' 16
expect ivb-bw-pb pbw socket1.ch7:read 640 0.5
# Intel's IVT file: UNC_M_DCLOCKTICKS is event 0x00 on a general counter
step ivb-stat 'uncore.efi -e UNC_M_CAS_COUNT.WR,UNC_M_DCLOCKTICKS -d 2'
expect ivb-stat rc zero
expect ivb-stat rate UNC_M_CAS_COUNT.WR 80000000 0.5
expect ivb-stat rate UNC_M_DCLOCKTICKS 12800000000 0.5
step ivb-regs1 'uncore.efi regs'
expect ivb-regs1 same-written ivb-regs0
step ivb-unload 'uncore-emu.efi --unload'
expect ivb-unload rc zero
# Broadwell-EP in the same QEMU start, by the emulator's CPUID leaf 1 (uncore.efi
# reads the model there): its channel functions and UBox, bw per channel.
step bdx-load 'uncore-emu.efi --cpuid 1:0=0x000406F1,0x00010800,0x80000000,0x10000000 --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M'
expect bdx-load rc zero
expect bdx-load has '^uncore-emu: emulating a Xeon iMC \(Broadwell-EP\), 2 sockets \(buses 0x3f, 0x7f\), 16 channels, '
step bdx-regs0 'uncore.efi regs'
expect bdx-regs0 rc zero
step bdx-info 'uncore.efi info'
expect bdx-info rc zero
expect bdx-info has '^uncore: +supported: Xeon iMC \(Ivy Bridge-EP to Cooper Lake\), Broadwell-EP$'
expect bdx-info has '^imc: +2 sockets, 16 channels \(PCI functions .* = channels 0-7, 8086:6fb0/6fb1/6fb4/6fb5/6fd0/6fd1/6fd4/6fd5\); '
expect bdx-info has '^verdict: +iMC PMU usable: ready$'
step bdx-bw-pb 'uncore.efi bw -d 2 --per-box'
expect bdx-bw-pb rc zero
expect bdx-bw-pb bw read 10240 0.5
expect bdx-bw-pb bw write 5120 0.5
expect bdx-bw-pb count '^socket[01]\.ch[0-7] +read' 16
expect bdx-bw-pb pbw socket1.ch7:read 640 0.5
# Intel's BDX file: UNC_M_CLOCKTICKS the fixed counter, UNC_M_CLOCKTICKS_P a general one
step bdx-stat 'uncore.efi -e UNC_M_CAS_COUNT.WR,UNC_M_CLOCKTICKS,UNC_M_CLOCKTICKS_P -d 2'
expect bdx-stat rc zero
expect bdx-stat rate UNC_M_CAS_COUNT.WR 80000000 0.5
expect bdx-stat rate UNC_M_CLOCKTICKS 12800000000 0.5
expect bdx-stat rate UNC_M_CLOCKTICKS_P 12800000000 0.5
step bdx-regs1 'uncore.efi regs'
expect bdx-regs1 same-written bdx-regs0
step bdx-unload 'uncore-emu.efi --unload'
expect bdx-unload rc zero
boot_run

# Skylake-SP (model 85 stepping 4; Cascade Lake and Cooper Lake are its
# later steppings): two controllers of three channels a socket at 10.2,
# 10.6, 11.2, 12.2, 12.6, 13.2 (Linux's skx_uncore_pci_ids, PCM), the UBox
# 8086:2014 at 8.2 one bus below (SKX_CPUNODEID 0xc0, SKX_GIDNIDMAP 0xd4),
# Intel's skylakex_uncore.json events. Then a channel hidden by the
# firmware (its function reads all ones): info names it, bw counts the rest.
# QEMU with 2 sockets: beside the iMC, each socket's CHAs (28 and 26, from
# CAPID6 of the PCU function on its UBox's bus) at its own rate, counted per
# box on its own package within 0.5%; every register as found afterwards.
boot_begin skx Skylake-Server,model=85,stepping=4 -smp 2,sockets=2,cores=1,threads=1
boot_file "$TOP/build/uncore-emu.efi"
step skx-load 'uncore-emu.efi --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M --chas 28,26 --rate UNC_CHA_REQUESTS.READS=5M --socket-rate 1:UNC_CHA_REQUESTS.READS=7M'
expect skx-load rc zero
expect skx-load has '^uncore-emu: emulating a Xeon iMC \(Skylake-SP\), 2 sockets \(buses 0x3f, 0x7f\), 12 channels, '
step skx-regs0 'uncore.efi regs'
expect skx-regs0 rc zero
expect skx-regs0 count ' CHA [0-9]+ CTL[0-3] \(socket [01]\) ' 216
# the CHAs of each socket, counted on its own package
step skx-cha 'uncore.efi stat -e UNC_CHA_REQUESTS.READS --per-box -d 2'
expect skx-cha rc zero
expect skx-cha has '^uncore stat: 1 event in 1 group, 54 CHAs, '
expect skx-cha rate UNC_CHA_REQUESTS.READS 322000000 0.5
expect skx-cha rate UNC_CHA_REQUESTS.READS@socket0.cha27 5000000 0.5
expect skx-cha rate UNC_CHA_REQUESTS.READS@socket1.cha25 7000000 0.5
expect skx-cha count '@socket0\.cha[0-9]+ ' 28
expect skx-cha count '@socket1\.cha[0-9]+ ' 26
step skx-info 'uncore.efi info'
expect skx-info rc zero
expect skx-info has '^uncore: +supported: Xeon iMC \(Ivy Bridge-EP to Cooper Lake\), Skylake-SP$'
expect skx-info has '^imc: +2 sockets, 12 channels \(PCI functions a\.2, a\.6, b\.2, c\.2, c\.6, d\.2 = channels 0-5, 8086:2042/2046/204a\); '
expect skx-info has "^  sockets numbered by their UBoxes' node IDs \\(8086:2014, CPUNODEID 0xc0, GIDNIDMAP 0xd4\\)$"
expect skx-info has '^  socket 0 \(bus 0x3f\): channels 0, 1, 2, 3, 4, 5$'
expect skx-info has '^verdict: +PMUs usable: ready$'
expect skx-info has '^cha: +2 sockets, 54 CHAs \(MSRs of each package: CHA n at 0xe00 \+ 0x10 n\); 4 counters each, 48 bits$'
expect skx-info has '^  count: popcount of CAPID6 \(0x9c\) bits 27:0 of each socket.s PCU function 8086:2083 \(device 30, function 3\)$'
expect skx-info has '^  socket 0 \(bus 0x3e\): 28 CHAs \(CAPID6 0xffffffff\)$'
expect skx-info has '^  socket 1 \(bus 0x7e\): 26 CHAs$'
# bw --per-box over 2 s (a late read of one channel weighs half as much): its
# totals, each socket and channels
step skx-bw-pb 'uncore.efi bw -d 2 --per-box'
expect skx-bw-pb rc zero
expect skx-bw-pb bw read 7680 0.5
expect skx-bw-pb bw write 3840 0.5
expect skx-bw-pb bw total 11520 0.5
expect skx-bw-pb count '^socket[01]\.ch[0-5] +read' 12
expect skx-bw-pb pbw socket0:read 3840 0.5
expect skx-bw-pb pbw socket1:write 1920 0.5
expect skx-bw-pb pbw socket1.ch5:read 640 0.5
step skx-stat 'uncore.efi -e UNC_M_CAS_COUNT.RD,UNC_M_CLOCKTICKS -d 2'
expect skx-stat rc zero
expect skx-stat rate UNC_M_CAS_COUNT.RD 120000000 0.5
expect skx-stat rate UNC_M_CLOCKTICKS 9600000000 0.5
step skx-regs1 'uncore.efi regs'
expect skx-regs1 same-written skx-regs0
# A processor of package 1 reads at its own "now": a counter of socket 1
# (CHA 0's, counting UNC_CHA_REQUESTS.READS, 7 M/s) read there before and
# after the Shell waits 0.2 s (no emulated access by the BSP between) has
# moved by nearly its rate over that wait, 1,400,000 (bound 1,300,000; the
# second uncore.efi's start adds to the wait; an AP's clock held still
# gives 0) (the unload drops the select).
step skx-now-sel 'uncore.efi msr write --pkg 1 0xe01 0x400350'
expect skx-now-sel rc zero
step skx-now-a 'uncore.efi msr read --pkg 1 0xe08'
expect skx-now-a rc zero
step skx-now-wait '!stall 200000'
expect skx-now-wait rc zero
step skx-now-b 'uncore.efi msr read --pkg 1 0xe08'
expect skx-now-b above skx-now-a 1300000
step skx-unload 'uncore-emu.efi --unload'
expect skx-unload rc zero
expect skx-unload lacks 'behind the model'
step skx-load-hidden 'uncore-emu.efi --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=5M --fault pci-missing=7f:0d.2'
expect skx-load-hidden rc zero
step skx-info-hidden 'uncore.efi info'
expect skx-info-hidden has '^  socket 1 \(bus 0x7f\): channel 5 \(d\.2\) missing$'
expect skx-info-hidden has '^verdict: +PMUs usable: ready, but socket 1 \(bus 0x7f\) channel 5 \(d\.2\) missing: not counted'
step skx-bw-hidden 'uncore.efi bw -d 1'
expect skx-bw-hidden rc zero
expect skx-bw-hidden bw read 7040 0.5
expect skx-bw-hidden bw write 3520 0.5
expect skx-bw-hidden has '^uncore: warning: socket 1 \(bus 0x7f\) channel 5 \(d\.2\) missing: not counted'
step skx-unload2 'uncore-emu.efi --unload'
expect skx-unload2 rc zero
# Cascade Lake (stepping 7) in the same QEMU start, by the emulator's CPUID
# leaf 1: both drivers name it and take Intel's cascadelakex events.
step clx-load 'uncore-emu.efi --cpuid 1:0=0x00050657,0x00010800,0x80000000,0x10000000 --sockets 2 --rate UNC_M_CAS_COUNT.RD=10M --chas 24 --rate UNC_CHA_REQUESTS.READS=5M'
expect clx-load rc zero
step clx-info 'uncore.efi info'
expect clx-info rc zero
expect clx-info has '^uncore: +supported: Xeon iMC \(Ivy Bridge-EP to Cooper Lake\), Cascade Lake$'
expect clx-info has '^uncore: +supported: Skylake-SP CHA, Cascade Lake$'
expect clx-info has '^cha: +2 sockets, 48 CHAs '
expect clx-info has '^verdict: +PMUs usable: ready$'
step clx-stat 'uncore.efi stat -e UNC_M_CAS_COUNT.RD,UNC_CHA_REQUESTS.READS -d 2'
expect clx-stat rc zero
expect clx-stat rate UNC_M_CAS_COUNT.RD 120000000 0.5
expect clx-stat rate UNC_CHA_REQUESTS.READS 240000000 0.5
step clx-unload 'uncore-emu.efi --unload'
expect clx-unload rc zero
boot_run

# The emulated uncore (uncore-emu.efi), several configurations in one boot:
# each is loaded, examined with `uncore.efi info`, and unloaded.
# Model 0x9E (Kaby/Coffee Lake desktop), whose 6- and 8-core parts have more
# CBos than the manual's four: the 8-CBo steps below need it.
boot_begin emu Skylake-Client,model=158
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/tests/qemu/clobber.nsh"
boot_file "$TOP/build/ebs.efi"
step bad-option 'uncore-emu.efi --cbo-config 16'
expect bad-option rc nonzero
expect bad-option has "^uncore-emu: error: bad value '16' for --cbo-config"
expect bad-option lines 1
step bad-rate 'uncore-emu.efi --rate UNC_CBO_NOPE=5'
expect bad-rate rc nonzero
expect bad-rate has "^uncore-emu: error: unknown event 'UNC_CBO_NOPE' in --rate$"
expect bad-rate lines 1
step rate-twice 'uncore-emu.efi --rate UNC_ARB_TRK_REQUESTS.ALL=1M --rate unc_arb_trk_requests.all=2M'
expect rate-twice rc nonzero
expect rate-twice has '^uncore-emu: error: --rate for UNC_ARB_TRK_REQUESTS.ALL given twice$'
expect rate-twice lines 1
# Options for what is not served: refused naming it, nothing installed.
step not-served-rate 'uncore-emu.efi --rate FLOPS=1M'
expect not-served-rate rc nonzero
expect not-served-rate has '^uncore-emu: error: --rate FLOPS is an event of the P6 core PMU, but the emulator serves the architectural core PMU \(CPUID leaf 1, --core-pmu\)$'
expect not-served-rate lines 1
step not-served-none 'uncore-emu.efi --core-pmu none --rate INST_RETIRED.ANY=1G'
expect not-served-none rc nonzero
expect not-served-none has '^uncore-emu: error: --rate INST_RETIRED.ANY is an event of the architectural core PMU, but the emulator serves no core PMU \(CPUID leaf 1, --core-pmu\)$'
step not-served-cbo 'uncore-emu.efi --fault stuck=cbo7.1'
expect not-served-cbo rc nonzero
expect not-served-cbo has '^uncore-emu: error: --fault stuck=cbo7.1: CBo 7 is not emulated \(NO_CBO_BANKS 5: 4 CBos\)$'
step not-served-leaf 'uncore-emu.efi --cpuid 0xA:0=0,0,0,0 --core-pmu arch'
expect not-served-leaf rc nonzero
expect not-served-leaf has '^uncore-emu: error: --cpuid 0xa:0 overrides CPUID leaf 0xA of the architectural PMU served \(version 4, 4 general, 3 fixed counters\): give its shape with --arch-pmu, or --core-pmu none$'
step not-served-zero 'uncore-emu.efi --rate DRAM_DATA_READS=0'
expect not-served-zero rc nonzero
expect not-served-zero has '^uncore-emu: error: a rate of 0 for DRAM_DATA_READS: '
step unload-extra 'uncore-emu.efi --unload extra'
expect unload-extra rc nonzero
expect unload-extra has "^uncore-emu: error: --unload takes nothing else: unexpected 'extra'$"
expect unload-extra lines 1
step nothing-installed 'uncore.efi info'
expect nothing-installed has '^msr access: +native$'
expect nothing-installed has 'NO_CBO_BANKS 0, CBo count 0'
step unload-none 'uncore-emu.efi --unload'
expect unload-none rc nonzero
expect unload-none has '^uncore-emu: error: no uncore emulator is installed$'

step load5 'uncore-emu.efi --cbo-config 5'
expect load5 rc zero
expect load5 has '^uncore-emu: emulating a 6th-gen Core uncore: NO_CBO_BANKS 5, UCLK 800.000 MHz'
step info5 'uncore.efi info'
expect info5 rc zero
expect info5 has '^msr access: +emulated$'
expect info5 has '^emulator: +NO_CBO_BANKS 5, UCLK 800.000 MHz, 0 event rates, 0 IMC rates, core arch v4 4x48-bit \+ 3 fixed x48-bit full-width, 0 core rates, faults: none$'
# the model's own core PMU by default (Kaby/Coffee Lake: version 4, 4 + 3 counters of 48 bits)
expect info5 has '^uncore: +supported: Intel architectural core PMU, architectural PMU version 4$'
expect info5 has 'raw 0x5, NO_CBO_BANKS 5, CBo count 4 \(manual: subtract one\)$'
expect info5 has '^pmu in use: +no \(global control 0x0, 11 event selects all zero\)$'
expect info5 has '^MCHBAR: +raw 0x00000000[0-9a-f]{8} \(0x4C:0x48\), enable 1, base 0x[0-9a-f]+ \(mask 0x7FFFFF8000\): enabled$'
expect info5 has '^verdict: +PMUs usable: ready$'
# only what the emulator answered is named: MSRs, and the core PMU's CPUID leaves and RDPMC
expect info5 has '^cpuid: +leaf 0xa emulated$'
expect info5 has '^rdpmc: +emulated$'
expect info5 lacks '^pci config:'
step info5-json 'uncore.efi info -j'
expect info5-json rc zero
expect info5-json has '"msr_access":"emulated","emulator":"NO_CBO_BANKS 5, .*"cbo_count":4\}.*"usable":true'
step twice 'uncore-emu.efi --cbo-config 3'
expect twice rc nonzero
expect twice has '^uncore-emu: error: an uncore emulator is already installed$'
step unload5 'uncore-emu.efi --unload'
expect unload5 rc zero

step load2 'uncore-emu.efi --cbo-config 2 --uclk-mhz 1000'
expect load2 rc zero
step info2 'uncore.efi info'
expect info2 rc zero
expect info2 has 'raw 0x2, NO_CBO_BANKS 2, CBo count 1 \(manual: subtract one\)$'
expect info2 has '^pmu in use: +no \(global control 0x0, 5 event selects all zero\)$'
expect info2 has '^emulator: +NO_CBO_BANKS 2, UCLK 1000.000 MHz'
step unload2 'uncore-emu.efi --unload'
expect unload2 rc zero
expect unload2 has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

# MSR_UNC_CBO_CONFIG with its reserved bits 63:4 all set: only bits 3:0 count.
step load-rsvd 'uncore-emu.efi --cbo-config 5 --cbo-config-reserved 0xfffffffffffffff0'
expect load-rsvd rc zero
step info-rsvd 'uncore.efi info'
expect info-rsvd rc zero
expect info-rsvd has 'raw 0xfffffffffffffff5, NO_CBO_BANKS 5, CBo count 4 \(manual: subtract one\)$'
expect info-rsvd has '^emulator: +NO_CBO_BANKS 5 \(bits 63:4 0xfffffffffffffff0\), UCLK 800.000 MHz'
expect info-rsvd has '^verdict: +PMUs usable: ready$'
step unload-rsvd 'uncore-emu.efi --unload'
expect unload-rsvd rc zero
# Eight CBos (boxes 4-6 at the stride of 0x10, box 7 at 0xF70/0xF76 as in
# Linux), each counted; more than eight is said, not capped silently.
step load9 'uncore-emu.efi --cbo-config 9 --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M'
expect load9 rc zero
step info9 'uncore.efi info'
expect info9 rc zero
expect info9 has '^uncore: +supported: Skylake-client, Kaby/Coffee Lake \(desktop\)$'
expect info9 has '^cpu: +GenuineIntel family 0x6 model 0x9e'
expect info9 has 'raw 0x9, NO_CBO_BANKS 9, CBo count 8 \(manual: subtract one\)$'
expect info9 has '^pmu in use: +no \(global control 0x0, 19 event selects all zero\)$'
expect info9 lacks 'implies'
step stat8 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI --per-box'
expect stat8 rc zero
expect stat8 has '^uncore stat: 1 event in 1 group, 8 CBos, msr access: emulated \(NO_CBO_BANKS 9'
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI 16000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo0 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo1 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo2 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo4 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo5 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo6 2000000 1
expect stat8 rate UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo7 2000000 1
step regs8 'uncore.efi regs'
expect regs8 rc zero
expect regs8 has '^0x767 MSR_UNC_CBO_6_PERFCTR1 +0x0000000000000000$'
expect regs8 has '^0xf70 MSR_UNC_CBO_7_PERFEVTSEL0 +0x0000000000000000$'
expect regs8 has '^0xf71 MSR_UNC_CBO_7_PERFEVTSEL1 +0x0000000000000000$'
expect regs8 has '^0xf76 MSR_UNC_CBO_7_PERFCTR0 +0x[0-9a-f]{16}$'
expect regs8 has '^0xf77 MSR_UNC_CBO_7_PERFCTR1 +0x0000000000000000$'
expect regs8 lacks '^0x77'
expect regs8 lines 54
step unload9 'uncore-emu.efi --unload'
expect unload9 rc zero
step load15 'uncore-emu.efi --cbo-config 15'
expect load15 rc zero
# 14 CBos reported, MSRs known for 8: a CBo event is refused naming the
# limit (counting 8 would undercount), the clock alone still counts.
step stat15 'uncore.efi -e UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI'
expect stat15 rc nonzero
expect stat15 has '^uncore: error: cannot count UNC_CBO_CACHE_LOOKUP\.ANY_MESI: MSR_UNC_CBO_CONFIG reports 14 CBos; CBo MSRs are known for 8 \(Table 2-1, Linux.s CFL_UNC_CBO_7\): at most 8 can be counted$'
expect stat15 lacks '^uncore stat:'
step clock15 'uncore.efi -e UNC_CLOCK.SOCKET -d 0.2'
expect clock15 rc zero
step info15 'uncore.efi info'
expect info15 has '^  warning: NO_CBO_BANKS 15 implies 14 CBos; at most 8 can be programmed, so CBo events are refused$'
expect info15 has '^verdict: +.*ready, but no CBo event can be counted: MSR_UNC_CBO_CONFIG reports 14 CBos'
step unload15 'uncore-emu.efi --unload'
expect unload15 rc zero

# Protocol revision 2: --cpuid answers CPUID leaf 1 instead of the processor
# (QEMU's is model 0x9E here; the emulator says 0x5E, Skylake desktop), and
# info names the emulated path; a malformed --cpuid is refused.
step bad-cpuid 'uncore-emu.efi --cpuid 1=0x506E3,0,0,0'
expect bad-cpuid rc nonzero
expect bad-cpuid has "^uncore-emu: error: bad --cpuid '1=0x506E3,0,0,0' \\(want LEAF:SUBLEAF=EAX,EBX,ECX,EDX\\)$"
expect bad-cpuid lines 1
step load-cpuid 'uncore-emu.efi --cpuid 1:0=0x000506E3,0x00010800,0x80000000,0x10000000 --core-pmu none'
expect load-cpuid rc zero
expect load-cpuid has '^uncore-emu: emulating a 6th-gen Core uncore: .*, cpuid 0x1:0, faults: none;'
step info-cpuid 'uncore.efi info'
expect info-cpuid rc zero
expect info-cpuid has '^cpu: +GenuineIntel family 0x6 model 0x5e stepping 3 \(under a hypervisor\)$'
expect info-cpuid has '^uncore: +supported: Skylake-client, Skylake \(desktop\)$'
expect info-cpuid has '^cpuid: +leaf 0x1 emulated$'
expect info-cpuid has '^emulator: +NO_CBO_BANKS 5, .*, cpuid 0x1:0, faults: none$'
expect info-cpuid lacks '^(pci config|rdpmc):'
step info-cpuid-json 'uncore.efi info -j'
expect info-cpuid-json rc zero
expect info-cpuid-json has '"model":94,.*"emulated":\{"cpuid_leaves":\[1\],"pci":\[\],"mmio_pages":\[\],"rdpmc":false\}'
# with --core-pmu none nothing emulates RDPMC: the emulator passes it to the processor (#UD under TCG)
step pmc-emu 'uncore.efi pmc read 0'
expect pmc-emu rc nonzero
expect pmc-emu has '^uncore: error: rdpmc 0x0: invalid opcode \(#UD\): RDPMC is not available on this processor$'
expect pmc-emu lines 1
step unload-cpuid 'uncore-emu.efi --unload'
expect unload-cpuid rc zero
step cpuid-native 'uncore.efi info'
expect cpuid-native has '^cpu: +GenuineIntel family 0x6 model 0x9e'
expect cpuid-native lacks '^cpuid:'

step load-mchbar 'uncore-emu.efi --fault mchbar-disabled'
expect load-mchbar rc zero
step info-mchbar 'uncore.efi info'
expect info-mchbar has '^MCHBAR: +raw 0x[0-9a-f]{16} \(0x4C:0x48\), enable 0, base 0x[1-9a-f][0-9a-f]* .*: disabled \(bit 0 clear\)$'
step unload-mchbar 'uncore-emu.efi --unload'
expect unload-mchbar rc zero
expect unload-mchbar has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

step load-gp 'uncore-emu.efi --fault msr-gp=0x396'
expect load-gp rc zero
step info-gp 'uncore.efi info'
expect info-gp rc nonzero
expect info-gp has '^MSR_UNC_CBO_CONFIG \(0x396\): read failed: general-protection fault$'
expect info-gp has '^fault: +rdmsr 0x396 \(MSR_UNC_CBO_CONFIG\) raised #GP$'
expect info-gp has '^pmu in use: +unknown'
expect info-gp has '^verdict: +PMUs unusable: an uncore MSR faulted$'
step msr-gp 'uncore.efi msr read 0x396'
expect msr-gp rc nonzero
expect msr-gp has '^uncore: error: rdmsr 0x396 \(MSR_UNC_CBO_CONFIG\): general-protection fault$'
step unload-gp 'uncore-emu.efi --unload'
expect unload-gp rc zero
expect unload-gp has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

step load-busy 'uncore-emu.efi --fault pmu-in-use'
expect load-busy rc zero
step info-busy 'uncore.efi info'
expect info-busy has '^pmu in use: +yes$'
expect info-busy has '^  MSR_UNC_PERF_GLOBAL_CTRL \(0xe01\) = 0x20000000$'
expect info-busy has '^  MSR_UNC_CBO_0_PERFEVTSEL0 \(0x700\) = 0x408f34$'
step unload-busy 'uncore-emu.efi --unload'
expect unload-busy rc zero

# A child that unloads the emulator while uncore.efi uses it: refused, with
# the reason, and the run says its child failed (no call through freed memory).
step load-held 'uncore-emu.efi --cbo-config 5'
expect load-held rc zero
step held 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\uncore-emu.efi --unload'
expect held rc 0xF
expect held has '^uncore-emu: error: the emulator is in use by .*uncore\.efi.*: not unloaded$'
expect held has '^child: fs0:\\uncore-emu.efi --unload FAILED: EFI_ACCESS_DENIED \(0x800000000000000f\) after '
step held-info 'uncore.efi info'
expect held-info has '^msr access: +emulated$'
# an uncore.efi run as the child of another shares the emulator it holds
step held-nested 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\uncore.efi info'
expect held-nested has '^msr access: +emulated$'
expect held-nested lacks 'warning: cannot hold'
step unload-held 'uncore-emu.efi --unload'
expect unload-held rc zero
expect unload-held has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

step restored 'uncore.efi info'
expect restored has '^msr access: +native$'
expect restored has '^MCHBAR: +raw 0x0000000000000000 '
# The architectural core PMU emulated beside the uncore (CPUID leaf 0xA
# version 4, 4 general and 3 fixed 48-bit counters): core, uncore and IMC
# events in one -e, each within 1% of its rate; then every register as found.
step load-arch 'uncore-emu.efi --core-pmu arch --rate CPU_CLK_UNHALTED.THREAD=2G --rate INST_RETIRED.ANY=1500M --rate LONGEST_LAT_CACHE.MISS=4M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M --rate DRAM_DATA_READS=10M'
expect load-arch rc zero
step arch-info 'uncore.efi info'
expect arch-info has '^uncore: +supported: Intel architectural core PMU, architectural PMU version 4$'
expect arch-info has '^uncore: +supported: Skylake-client, Kaby/Coffee Lake \(desktop\)$'
# the emulator serves IA32_PERF_CAPABILITIES (bit 13: full-width writes) and says so in leaf 1 (PDCM)
expect arch-info has 'counters written at IA32_A_PMCx'
# Registers found with values of their own (the general counters' enable
# bits in IA32_PERF_GLOBAL_CTRL, counts in IA32_PMC1 and fixed counter 2),
# so that a restore that is missing shows.
step arch-preset 'uncore.efi msr write 0x38F 0xF'
expect arch-preset rc zero
step arch-preset2 'uncore.efi msr write 0xC2 0x1234'
expect arch-preset2 rc zero
step arch-preset3 'uncore.efi msr write 0x30B 0x5678'
expect arch-preset3 rc zero
step arch-regs0 'uncore.efi regs'
expect arch-regs0 rc zero
expect arch-regs0 has '^0x38f +IA32_PERF_GLOBAL_CTRL +0x000000000000000f$'
expect arch-regs0 has '^0xc2 +IA32_PMC1 +0x0000000000001234$'
step arch-mix 'uncore.efi -e INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD,INST_RETIRED.ANY_P,LONGEST_LAT_CACHE.MISS,UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI,imc/data_reads/ -d 2'
expect arch-mix rc zero
expect arch-mix rate INST_RETIRED.ANY 1500000000 1
expect arch-mix rate CPU_CLK_UNHALTED.THREAD 2000000000 1
expect arch-mix rate INST_RETIRED.ANY_P 1500000000 1
expect arch-mix rate LONGEST_LAT_CACHE.MISS 4000000 1
expect arch-mix rate UNC_CBO_CACHE_LOOKUP.ANY_MESI 8000000 1
expect arch-mix rate DRAM_DATA_READS 10000000 1
step arch-regs1 'uncore.efi regs'
expect arch-regs1 same arch-regs0
# IA32_FIXED_CTR_CTRL cleared by someone else mid-run: each sample reads it.
step arch-fctl 'uncore.efi -e INST_RETIRED.ANY -- fs0:\clobber.nsh 0x38D 0'
expect arch-fctl rc 0xD
expect arch-fctl has '^uncore: error: IA32_FIXED_CTR_CTRL \(0x38d\) reads 0x0, not the 0x3 this run wrote: written by someone else during the run$'
step arch-regs2 'uncore.efi regs'
expect arch-regs2 same arch-regs0
step unload-arch 'uncore-emu.efi --unload'
expect unload-arch rc zero
# IA32_PERF_CAPABILITIES faulting on read says nothing of full-width
# writes: IA32_A_PMC0 answers, so counters holding more than 32 bits are
# written there and come back whole, with no note.
step load-caps 'uncore-emu.efi --core-pmu arch --fault msr-gp=0x345 --rate INST_RETIRED.ANY=1500M'
expect load-caps rc zero
step caps-preset 'uncore.efi msr write 0x4C1 0x123456789A'
expect caps-preset rc zero
step caps-preset2 'uncore.efi msr write 0x4C4 0x423456789A'
expect caps-preset2 rc zero
step caps-regs0 'uncore.efi regs'
expect caps-regs0 has '^0xc1 +IA32_PMC0 +0x000000123456789a$'
step caps-run 'uncore.efi -e INST_RETIRED.ANY_P,CPU_CLK_UNHALTED.THREAD_P,INST_RETIRED.ANY -d 1'
expect caps-run rc zero
expect caps-run lacks 'after it was put back'
step caps-regs1 'uncore.efi regs'
expect caps-regs1 same caps-regs0
step unload-caps 'uncore-emu.efi --unload'
expect unload-caps rc zero
# A child that exits boot services while the counters are programmed (as an
# OS loader does) finds every register as it was before the run: the run's
# ExitBootServices notification put them back. The child reads them through
# the emulator before and after, ends the step itself (no Shell after
# ExitBootServices) and shuts the machine down: the boot's last step.
step ebs-load 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=8M'
expect ebs-load rc zero
step ebs-preset 'uncore.efi msr write 0x706 0x1234'
expect ebs-preset rc zero
step ebs 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET -- fs0:\ebs.efi ebs 0xE01 0x700 0x706 0x394 0x395'
expect ebs rc zero
expect ebs has '^ebs: before ExitBootServices: 0xe01=0x[0-9a-f]*[1-9a-f][0-9a-f]* 0x700=0x[0-9a-f]*[1-9a-f][0-9a-f]* 0x706=0x[0-9a-f]+ 0x394=0x[0-9a-f]*[1-9a-f][0-9a-f]* 0x395=0x[0-9a-f]+$'
expect ebs has '^ebs: after ExitBootServices: 0xe01=0x0 0x700=0x0 0x706=0x1234 0x394=0x0 0x395=0x0$'
boot_run

# Counting against the emulated uncore at configured rates (per CBo for CBo
# events). After each run, `regs` shows every register exactly as before.
boot_begin stat Skylake-Client
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/tests/qemu/clobber.nsh"
step native 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL'
expect native rc nonzero
expect native has '^uncore: error: MSR_UNC_ARB_PERFEVTSEL0 \(0x3b2\) reads 0x0 after writing 0x500181: the uncore PMU ignored the programming$'
step load 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M --rate UNC_CBO_CACHE_LOOKUP.READ_I=1M --rate UNC_ARB_TRK_REQUESTS.ALL=3M --rate UNC_ARB_TRK_OCCUPANCY.ALL=1.2G'
expect load rc zero
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 lines 38
step single 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL'
expect single rc zero
expect single has '^uncore stat: 1 event in 1 group, 4 CBos, msr access: emulated \(NO_CBO_BANKS 5'
expect single rate UNC_ARB_TRK_REQUESTS.ALL 3000000 1
expect single has '^elapsed: 1\.0[0-9]{8} s measured \([0-9]+ TSC ticks at [0-9]+\.[0-9]{3} MHz\)$'
# A 1 ms run has a long run's edges: the counts start from what the
# counters read after the unfreeze, with the clock read as a sample reads it
# (902.6M/s for the 800 MHz UCLK before).
step short 'uncore.efi stat -e UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI -d 0.001'
expect short rc zero
expect short rate UNC_CLOCK.SOCKET 800000000 1
step regs1 'uncore.efi regs'
expect regs1 same regs0
step mixed 'uncore.efi stat -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET -e unc_cbo_cache_lookup.read_i -d 1.5'
expect mixed rc zero
expect mixed rate UNC_CBO_CACHE_LOOKUP.ANY_MESI 8000000 1
expect mixed rate UNC_CBO_CACHE_LOOKUP.READ_I 4000000 1
expect mixed rate UNC_ARB_TRK_REQUESTS.ALL 3000000 1
expect mixed rate UNC_CLOCK.SOCKET 800000000 1
expect mixed has '^elapsed: [0-9]+\.[0-9]{9} s'
boot_check mixed-elapsed 'elapsed_not_early mixed 1.5'
step per-box 'uncore.efi -e cbo/event=0x34,umask=0x8f/ --per-box'
expect per-box rc zero
expect per-box rate 'cbo/event=0x34,umask=0x8f/' 8000000 1
expect per-box rate 'cbo/event=0x34,umask=0x8f/@cbo0' 2000000 1
expect per-box rate 'cbo/event=0x34,umask=0x8f/@cbo3' 2000000 1
step csv 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET -I 200 -n 5 -x ,'
expect csv rc zero
expect csv has '^# uncore stat: 2 events in 1 group, 4 CBos, msr access: emulated'
expect csv rows UNC_CBO_CACHE_LOOKUP.ANY_MESI 5
expect csv rows UNC_CLOCK.SOCKET 5
expect csv has '^[0-9]+\.[0-9]{9},[0-9]+,,UNC_CBO_CACHE_LOOKUP.ANY_MESI,[0-9]+,100\.00$'
boot_check csv-times 'intervals_on_time csv UNC_CBO_CACHE_LOOKUP.ANY_MESI 200 5'
expect csv csvrate UNC_CBO_CACHE_LOOKUP.ANY_MESI 8000000 1
expect csv csvrate UNC_CLOCK.SOCKET 800000000 1
step human-iv 'uncore.efi -e UNC_CLOCK.SOCKET -I 250 -n 2'
expect human-iv rc zero
expect human-iv has '^ +0\.[0-9]{9}  UNC_CLOCK.SOCKET +[0-9]+ +[0-9.]+  cycles  100\.00%$'
expect human-iv has '^total:$'
boot_check human-iv-times 'intervals_on_time human-iv UNC_CLOCK.SOCKET 250 2'
# -d not a multiple of -I: the last interval, shorter, printed and marked, so the intervals add up to the total.
step iv-short 'uncore.efi -e UNC_CLOCK.SOCKET -I 100 -d 0.25'
expect iv-short rc zero
expect iv-short has '^ +0\.[0-9]{9}  UNC_CLOCK\.SOCKET +[0-9]+ '
# STEP EVENT MS: EVENT's interval counts sum to its total; the last interval,
# the n-th, is marked shorter, with its length, exactly when it ended before
# n x MS (before its boundary: on an idle host the third, at 0.25 s; a guest
# woken late past 0.3 s ends the run with a full one, unmarked).
# STEP EVENT MS N: EVENT's N interval rows (text or CSV), each stamped at
# or after its boundary (k x MS: the time is the measured elapsed time,
# never early) and after the one before, however late a loaded host woke
# the guest.
intervals_on_time() {
	step_output "$dir/serial.txt" "$1" | tr -d '\r' | tr ',' ' ' | awk -v ev="$2" -v iv="$3" -v want="$4" '
		($2 == ev || $3 == ev || $4 == ev) && $1 ~ /^[0-9]+\.[0-9]+$/ {
			n++
			if ($1 < n * iv / 1000 || $1 <= t) { print "interval " n " stamped " $1 " s (after " t " s, boundary " n * iv / 1000 " s)"; bad = 1 }
			t = $1
		}
		END {
			if (n != want) { print n " interval rows, want " want; exit 1 }
			if (!bad) print n " intervals, each at or after its boundary, the last at " t " s"
			exit bad
		}'
}

# STEP D: the run's elapsed line, the measured time, is at least the -d it
# was given (never early; a loaded host may make it later).
elapsed_not_early() {
	step_output "$dir/serial.txt" "$1" | tr -d '\r' | awk -v d="$2" '
		/^elapsed: / { e = $2 }
		END {
			if (e == "" || e + 0 < d + 0) { print "elapsed " e " s, -d " d " s"; exit 1 }
			print "elapsed " e " s for -d " d " s"
		}'
}

intervals_add_up() {
	step_output "$dir/serial.txt" "$1" | tr -d '\r' | awk -v ev="$2" -v iv="$3" '
		$2 == ev && $1 ~ /^[0-9]+\.[0-9]+$/ { n++; prev = t; t = $1; s += $3 }
		$1 == ev { total = $2 }
		$2 == "last" && $3 == "interval," { marks++; mt = $1; ml = $4 }
		END {
			if (!total || s != total) { print "the intervals sum to " s ", the total is " total; exit 1 }
			short = t < n * iv / 1000
			if (marks != short) { print marks " marks; the last interval, the " n "th, ends at " t " s"; exit 1 }
			d = ml - (t - prev); if (d < 0) d = -d
			if (short && (mt != t || d > 2e-9)) { print "marked " ml " s at " mt ", the interval is " t - prev " s at " t; exit 1 }
			print n " intervals summing to " total (short ? ", the last " ml " s, marked shorter" : "")
		}'
}
boot_check iv-short-sum 'intervals_add_up iv-short UNC_CLOCK.SOCKET 100'
step json 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET -j'
expect json rc zero
expect json has '^\{"tool":"uncore.efi","msr_access":"emulated","emulator":"NO_CBO_BANKS 5.*"events":\[\{"event":"UNC_ARB_TRK_REQUESTS.ALL","unit":"events","pmu":"arb","encoding":"0x400181","count":[0-9]+,.*\}\]\}$'
step mux 'uncore.efi -e UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,UNC_ARB_TRK_REQUESTS.ALL -d 2'
expect mux rc zero
expect mux has 'in 2 groups \(multiplexed\)'
expect mux rate UNC_ARB_TRK_OCCUPANCY.ALL 1200000000 5
expect mux rate UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST 800000000 5
expect mux rate UNC_ARB_TRK_REQUESTS.ALL 3000000 5
expect mux has '^UNC_ARB_TRK_OCCUPANCY.ALL +[0-9]+ +[0-9.]+  events   [0-9]{2}\.[0-9]{2}%$'
expect mux has '; 2 groups multiplexed, [0-9]+ switches$'
boot_check mux-shares 'mux_shares mux 2 UNC_ARB_TRK_OCCUPANCY.ALL UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST'
step no-mux 'uncore.efi -e UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST --no-multiplex'
expect no-mux rc nonzero
expect no-mux has '^uncore: error: the events need 2 rounds of counters'
expect no-mux lines 1
# Raw ARB event 0x83 needs counter 0 as 0x80 does (Linux snb_uncore_arb_constraints).
step no-mux-83 'uncore.efi -e arb/event=0x83,umask=0x01/,arb/event=0x80,umask=0x01/ --no-multiplex'
expect no-mux-83 rc nonzero
expect no-mux-83 has '^uncore: error: the events need 2 rounds of counters \(ARB: 2 counters, events 0x80 and 0x83 only counter 0\)'
expect no-mux-83 lines 1
step mux-83 'uncore.efi -e arb/event=0x83,umask=0x01/,arb/event=0x80,umask=0x01/'
expect mux-83 rc zero
expect mux-83 has 'in 2 groups \(multiplexed\)'
expect mux-83 rate 'arb/event=0x80,umask=0x01/' 1200000000 5
expect mux-83 has '^arb/event=0x83,umask=0x01/ +[0-9]+ +[0-9.]+  events   [0-9]{2}\.[0-9]{2}%$'
boot_check mux-83-shares 'mux_shares mux-83 1 arb/event=0x83,umask=0x01/ arb/event=0x80,umask=0x01/'
step bad-event 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,arb/event=0x80,thresh=40/'
expect bad-event rc nonzero
expect bad-event has "^uncore: error: bad value '40' for 'thresh' in 'arb/event=0x80,thresh=40/' \(at most 0x1f: Table 2-7\)$"
expect bad-event lines 1
step regs2 'uncore.efi regs'
expect regs2 same regs0
step list 'uncore.efi list'
expect list rc zero
expect list has '^cbox PMU \(Skylake-client, skl-client-uncore\); raw: cbox/event=N,umask=N'
expect list has '^cbox +0x34 +0x8f +0,1 +UNC_CBO_CACHE_LOOKUP.ANY_MESI '
expect list has '^cpu +0xc0 +0x00 +0,1,2,3 +INST_RETIRED\.ANY_P '
expect list has '^imc +free +DRAM_DATA_READS '
expect list has '^30 events, 5 free-running counters, in 6 PMUs \(this CPU.s; --all lists every driver.s\)\.'
step unload 'uncore-emu.efi --unload'
expect unload rc zero
expect unload has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

# Someone else's measurement (frozen, so its registers do not move).
step load-busy 'uncore-emu.efi --fault pmu-in-use'
expect load-busy rc zero
expect load-busy has '^uncore-emu: emulating a 6th-gen Core uncore: '
step busy-regs0 'uncore.efi regs'
expect busy-regs0 rc zero
expect busy-regs0 lines 38
expect busy-regs0 has '^0xe01 MSR_UNC_PERF_GLOBAL_CTRL +0x0000000020000000$'
step busy 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI'
expect busy rc nonzero
expect busy has '^uncore: error: the uncore PMU is in use \(MSR_UNC_PERF_GLOBAL_CTRL = 0x20000000\); --force takes it over and restores it$'
step busy-regs1 'uncore.efi regs'
expect busy-regs1 same busy-regs0
step force 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CLOCK.SOCKET --force'
expect force rc zero
expect force rate UNC_CLOCK.SOCKET 800000000 1
expect force has '^uncore: note: the PMU was in use \(--force\)'
step busy-regs2 'uncore.efi regs'
expect busy-regs2 same busy-regs0
expect busy-regs2 has '^0x700 MSR_UNC_CBO_0_PERFEVTSEL0 +0x0000000000408f34$'
expect busy-regs2 has '^0xe01 MSR_UNC_PERF_GLOBAL_CTRL +0x0000000020000000$'
# ESC on the keyboard, one interval into a 60-second run: the counts so far,
# EFI_ABORTED (0x15), the other measurement's registers back, and a record
# that says how the run ended.
step esc 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET --force -I 500 -d 60 -o var:Aborted'
press esc '^ +0\.5[0-9]+  UNC_CLOCK\.SOCKET ' esc
expect esc rc 0x15
expect esc has '^ +0\.5[0-9]{8}  UNC_CLOCK\.SOCKET '
expect esc has '^total:$'
expect esc has '^elapsed: [0-9]\.[0-9]{9} s measured'
expect esc has '^uncore: stopped by ESC; the counts above cover the time until then$'
expect esc has '^uncore: results stored in EFI variable Aborted: '
step esc-regs 'uncore.efi regs'
expect esc-regs same busy-regs0
step esc-show 'uncore.efi var show Aborted'
expect esc-show rc zero
expect esc-show has '^record Aborted: `stat` by uncore.efi [0-9.]+ at .*, exit status: stopped by the user$'
expect esc-show has '^UNC_CLOCK.SOCKET +[1-9][0-9]+ '
step unload-busy 'uncore-emu.efi --unload'
expect unload-busy rc zero
expect unload-busy has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

# A #GP on CBo 1's second event select, half-way through programming.
step load-gp 'uncore-emu.efi --fault msr-gp-write=0x711 --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M'
expect load-gp rc zero
expect load-gp has '^uncore-emu: emulating a 6th-gen Core uncore: '
step gp-regs0 'uncore.efi regs'
expect gp-regs0 rc zero
expect gp-regs0 lines 38
step gp 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CBO_CACHE_LOOKUP.READ_I'
expect gp rc nonzero
expect gp has '^uncore: error: wrmsr 0x711 \(MSR_UNC_CBO_1_PERFEVTSEL1\) value 0x501834: general-protection fault$'
expect gp lacks '^event +count'
step gp-regs1 'uncore.efi regs'
expect gp-regs1 same gp-regs0
step unload-gp 'uncore-emu.efi --unload'
expect unload-gp rc zero
expect unload-gp has '^uncore-emu: unloaded; MSR access is native again and MCHBAR is as it was$'

# Someone else writes the counters mid-run: a child script writing
# MSR_UNC_PERF_FIXED_CTR or MSR_UNC_CBO_0_PERFCTR0 after 500 ms, or at
# once (before the first sample: the counters start at 2^46 and 2^42, so
# one set to a small value goes backwards), and a nested stat --force
# (which zeroes them, then puts back what it found). No wrap explains the
# step: the run stops, names the counter, prints no count, restores.
step load-clob 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M'
expect load-clob rc zero
step clob-regs0 'uncore.efi regs'
expect clob-regs0 rc zero
step clob-fixed 'uncore.efi -e UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI -- fs0:\clobber.nsh 0x395 0'
expect clob-fixed rc 0xD
expect clob-fixed has '^uncore: error: MSR_UNC_PERF_FIXED_CTR \(0x395\) went from 0x[0-9a-f]+ to 0x[0-9a-f]+ within [0-9]+\.[0-9] ms: written by someone else during the run \(no wrap moves it that far\)$'
expect clob-fixed lacks '^UNC_CLOCK\.SOCKET +[0-9]'
step clob-regs1 'uncore.efi regs'
expect clob-regs1 same clob-regs0
step clob-cbo 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI -- fs0:\clobber.nsh 0x706 0'
expect clob-cbo rc 0xD
expect clob-cbo has '^uncore: error: MSR_UNC_CBO_0_PERFCTR0 \(0x706\) went from 0x[0-9a-f]+ to 0x[0-9a-f]+ within [0-9.]+ ms: written by someone else during the run'
step clob-early 'uncore.efi stat -e UNC_CLOCK.SOCKET -- fs0:\uncore.efi msr write 0x395 7'
expect clob-early rc 0xD
expect clob-early has '^uncore: error: MSR_UNC_PERF_FIXED_CTR \(0x395\) went from 0x4000[0-9a-f]{8} to 0x[0-9a-f]+ within [0-9.]+ ms: written by someone else during the run \(no wrap moves it that far\)$'
expect clob-early lacks '^UNC_CLOCK\.SOCKET +[0-9]'
# 2^36 added to a CBo counter (it holds its start, 2^42, and what it
# counted): no CBo event adds more than one a UCLK cycle (2^33 Hz at most).
step clob-2e36 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI -- fs0:\clobber.nsh 0x706 0x41000000000'
expect clob-2e36 rc 0xD
expect clob-2e36 has '^uncore: error: MSR_UNC_CBO_0_PERFCTR0 \(0x706\) went from 0x4000[0-9a-f]{7} to 0x41000[0-9a-f]{6} within [0-9.]+ ms: written by someone else during the run'
# An event select or the fixed counter's control cleared mid-run: each
# sample reads every select and control of the counters in use.
step clob-sel 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI -- fs0:\clobber.nsh 0x700 0'
expect clob-sel rc 0xD
expect clob-sel has '^uncore: error: MSR_UNC_CBO_0_PERFEVTSEL0 \(0x700\) reads 0x0, not the 0x508f34 this run wrote: written by someone else during the run$'
expect clob-sel lacks '^UNC_CBO_CACHE_LOOKUP\.ANY_MESI +[0-9]'
step clob-fctl 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\clobber.nsh 0x394 0'
expect clob-fctl rc 0xD
expect clob-fctl has '^uncore: error: MSR_UNC_PERF_FIXED_CTRL \(0x394\) reads 0x0, not the 0x500000 this run wrote: written by someone else during the run$'
step clob-regs3 'uncore.efi regs'
expect clob-regs3 same clob-regs0
step clob-nested 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\uncore.efi -e UNC_CLOCK.SOCKET --force -d 1'
expect clob-nested rc 0xD
expect clob-nested has '^uncore: note: the PMU was in use \(--force\)'
# (a sample that lands while the nested run has EN clear sees GLOBAL_CTRL first)
expect clob-nested has '^uncore: error: (MSR_UNC_PERF_FIXED_CTR \(0x395\) went from 0x[0-9a-f]+ to 0x[0-9a-f]+ within [0-9.]+ ms: written by someone else during the run|MSR_UNC_PERF_GLOBAL_CTRL \(0xe01\) reads 0x[0-9a-f]+, not the 0x[0-9a-f]+ this run wrote: .*written by someone else\) during the run)'
step clob-regs2 'uncore.efi regs'
expect clob-regs2 same clob-regs0
# JSON Lines under -I: every line one object (checked by the harness).
step clob-jsonl 'uncore.efi -e UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI -I 200 -n 3 -j'
expect clob-jsonl rc zero
expect clob-jsonl lines 4
step unload-clob 'uncore-emu.efi --unload'
expect unload-clob rc zero

# Counters that never move: the uncore clock cannot be idle (an error,
# EFI_NOT_READY); any other event can (a note), per CBo when others move.
step load-still 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M --fault stuck=fixed --fault stuck=cbo1.0'
expect load-still rc zero
step still-clock 'uncore.efi -e UNC_CLOCK.SOCKET'
expect still-clock rc 0x6
expect still-clock has '^uncore: error: UNC_CLOCK\.SOCKET did not change in the whole run: it counts a clock, which never stops while its PMU counts, so the counter is stuck; its count is no measurement$'
step still-cbo 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL --per-box'
expect still-cbo rc zero
expect still-cbo has '^note: UNC_CBO_CACHE_LOOKUP\.ANY_MESI did not change on CBo 1 during the run while the other CBos counted it \(a stuck counter\?\)$'
expect still-cbo has '^note: UNC_ARB_TRK_REQUESTS\.ALL did not change during the run \(an idle source, or a stuck counter\)$'
expect still-cbo has '^UNC_CBO_CACHE_LOOKUP\.ANY_MESI@cbo1 +0 '
step unload-still 'uncore-emu.efi --unload'
expect unload-still rc zero

# GLOBAL_CTRL found as Linux writes it but with FRZ_ON_PMI for EN
# (0x8000001F), and the ARB's occupancy at 5 * 10^11/s (within its bound of
# 64 a UCLK at 2^33 Hz): its 44-bit counter, started at 2^42, wraps after
# about 26.4 s. The run clears FRZ_ON_PMI and the PMI selects, so the wrap
# (with OVF_EN) freezes nothing: 30 s within 1%, and 0xE01 comes back.
step load-frz 'uncore-emu.efi --global-ctrl 0x8000001F --rate UNC_ARB_TRK_OCCUPANCY.ALL=500G'
expect load-frz rc zero
expect load-frz has 'GLOBAL_CTRL 0x8000001f, faults: none'
step frz-regs0 'uncore.efi regs'
expect frz-regs0 rc zero
expect frz-regs0 has '^0xe01 MSR_UNC_PERF_GLOBAL_CTRL +0x000000008000001f$'
step frz-wrap 'uncore.efi -e UNC_ARB_TRK_OCCUPANCY.ALL,UNC_CLOCK.SOCKET -d 30'
expect frz-wrap rc zero
expect frz-wrap rate UNC_ARB_TRK_OCCUPANCY.ALL 500000000000 1
expect frz-wrap rate UNC_CLOCK.SOCKET 800000000 1
expect frz-wrap has '^elapsed: 30\.[0-9]{9} s measured'
step frz-e01 'uncore.efi msr read 0xE01'
expect frz-e01 rc zero
expect frz-e01 has '^msr 0xe01 \(MSR_UNC_PERF_GLOBAL_CTRL\) = 0x000000008000001f$'
step frz-regs1 'uncore.efi regs'
expect frz-regs1 same frz-regs0
step unload-frz 'uncore-emu.efi --unload'
expect unload-frz rc zero
# Counters that ignore writes (--fault ro-counters) on every unit of the
# Skylake-client uncore and of the architectural core PMU. All are writable
# by their documents (Tables 2-5 and 2-8, the SDM), so the run writes their
# starts, reads them back ignored, says so once, and counts on from the
# values read; the controls are put back, the counters keep their counts.
step ro-load 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1.5M --rate UNC_ARB_TRK_REQUESTS.ALL=5M --rate INST_RETIRED.ANY=500M --fault ro-counters=cbox --fault ro-counters=arb --fault ro-counters=clock --fault ro-counters=cpu --fault ro-counters=cpu_fixed'
expect ro-load rc zero
expect ro-load has 'faults: ro-counters=cbox ro-counters=arb ro-counters=clock ro-counters=cpu ro-counters=cpu_fixed;'
step ro-regs0 'uncore.efi regs'
expect ro-regs0 rc zero
step ro-stat 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,INST_RETIRED.ANY,INST_RETIRED.ANY_P -d 1'
expect ro-stat rc zero
expect ro-stat count 'ignores writes' 1
expect ro-stat has '^uncore: note: MSR_UNC_CBO_0_PERFCTR0 \(0x706\) reads 0x0 after writing 0x40000000000 with counting stopped: it ignores writes; its unit is counted from the values read$'
expect ro-stat rate UNC_CBO_CACHE_LOOKUP.ANY_MESI 6000000 0.5
expect ro-stat rate UNC_ARB_TRK_REQUESTS.ALL 5000000 0.5
expect ro-stat rate UNC_CLOCK.SOCKET 800000000 0.5
expect ro-stat rate INST_RETIRED.ANY 500000000 0.5
expect ro-stat rate INST_RETIRED.ANY_P 500000000 0.5
step ro-regs1 'uncore.efi regs'
expect ro-regs1 same-except ro-regs0 '(PERFCTR[01]|_FIXED_CTR|IA32_PMC[0-9]|IA32_FIXED_CTR[0-9]) '
step ro-unload 'uncore-emu.efi --unload'
expect ro-unload rc zero
boot_run

# DRAM bandwidth from the IMC counters in the emulated MCHBAR.
boot_begin bw Skylake-Client
boot_file "$TOP/build/uncore-emu.efi"
step native 'uncore.efi bw'
expect native rc nonzero
expect native has '^uncore: error: MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x0000000000000000 \(bit 0 clear\); uncore.efi never enables it$'
step native-regs 'uncore.efi pci read 0:0.0 0x48'
expect native-regs has '^pci 00:00.0 \[0x048\] = 0x00000000$'
# moderate: 1,000 MB/s of reads, 500 MB/s of writes
step load 'uncore-emu.efi --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500 --rate DRAM_IA_REQUESTS=20M --rate DRAM_GT_REQUESTS=2M --rate DRAM_IO_REQUESTS=1M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M'
expect load rc zero
step moderate 'uncore.efi bw -d 2'
expect moderate rc zero
expect moderate has '^uncore bw: IMC counters at MCHBAR 0x[0-9a-f]+ \(host bridge 8086:29c0\), emulated uncore \(NO_CBO_BANKS 5'
expect moderate bw read 1000 1
expect moderate bw write 500 1
expect moderate bw total 1500 1
expect moderate has '^requests:  GT [0-9]+ \(8\.[0-9]{2}%\)  IA [0-9]+ \(8[0-9]\.[0-9]{2}%\)  IO [0-9]+ \(4\.[0-9]{2}%\)$'
expect moderate has 'overstate traffic'
expect moderate has '^elapsed: 2\.0[0-9]{8} s measured .*exact up to 1374389 MB/s per counter$'
# A push from a machine without a NIC: the record is stored first, then one line.
step no-nic 'uncore.efi bw -d 0.2 -o var:NoNic -o http://10.0.2.100:9091/metrics/job/uncore'
expect no-nic rc 0xE
expect no-nic has '^uncore: results stored in EFI variable NoNic: '
expect no-nic has '^uncore: error: push to http://10\.0\.2\.100:9091/metrics/job/uncore failed: no NIC: the firmware has no HTTP service binding$'
step unknown-id 'uncore.efi bw -d 0.5'
expect unknown-id has '^uncore: warning: host bridge 8086:29c0 is not one uncore.efi knows'
step mixed 'uncore.efi -e DRAM_DATA_READS,UNC_CBO_CACHE_LOOKUP.ANY_MESI,imc/data_writes/,UNC_CLOCK.SOCKET'
expect mixed rc zero
expect mixed rate DRAM_DATA_READS 15625000 1
expect mixed rate DRAM_DATA_WRITES 7812500 1
expect mixed rate UNC_CBO_CACHE_LOOKUP.ANY_MESI 4000000 1
expect mixed has '^DRAM_DATA_READS +[0-9]+ +[0-9.]+  lines   100\.00%  = [0-9]+ bytes$'
step mixed-csv 'uncore.efi -e DRAM_DATA_READS,UNC_CLOCK.SOCKET -x , -I 250 -n 2'
expect mixed-csv csvrate DRAM_DATA_READS 15625000 1
expect mixed-csv has '^[0-9]+\.[0-9]{9},[0-9]+,lines,DRAM_DATA_READS,[0-9]+,100\.00$'
boot_check mixed-csv-times 'intervals_on_time mixed-csv DRAM_DATA_READS 250 2'
step bw-json 'uncore.efi bw -j'
expect bw-json rc zero
expect bw-json has '^\{"tool":"uncore.efi","command":"bw","imc":"emulated",.*"read":\{"lines":[0-9]+,"bytes":[0-9]+,"mb_per_s":(99[0-9]|100[0-9])\.[0-9]{3},'
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# A constant 20,000 MB/s of reads and 5,000 of writes: every 50 ms interval
# within 1% (the emulator answers each MMIO read of its counters exactly,
# however late its timer runs), not only the average.
step load-iv 'uncore-emu.efi --rate DRAM_DATA_READS=312500000 --rate DRAM_DATA_WRITES=78125000'
expect load-iv rc zero
step iv 'uncore.efi bw -I 50 -n 20'
expect iv rc zero
expect iv ivbw read 20000 1
expect iv ivbw write 5000 1
expect iv ivbw total 25000 1
step unload-iv 'uncore-emu.efi --unload'
expect unload-iv rc zero
# 150,000 MB/s of reads for 6 s: the 32-bit counter wraps 3.3 times
step load-fast 'uncore-emu.efi --rate DRAM_DATA_READS=2343750000 --rate DRAM_DATA_WRITES=781250000'
expect load-fast rc zero
step fast 'uncore.efi bw -d 6'
expect fast rc zero
expect fast bw read 150000 1
expect fast bw write 50000 1
expect fast has '^read +[0-9.]+ MB/s +[0-9.]+ MiB/s +[0-9]+ bytes +14[01][0-9]{8} lines$'
step fast-iv 'uncore.efi bw -I 2000 -n 2'
expect fast-iv rc zero
expect fast-iv has '^ +2\.0[0-9]{8}  read +1(49[0-9]{3}|50[0-9]{3})\.[0-9]{3} MB/s'
expect fast-iv has '^ +4\.0[0-9]{8}  read +1(49[0-9]{3}|50[0-9]{3})\.[0-9]{3} MB/s'
step unload-fast 'uncore-emu.efi --unload'
expect unload-fast rc zero
# The time base: every gBS->Stall 50% longer than asked (an SMI, a
# preempted vCPU). The TSC is measured against the ACPI PM timer read at
# both ends of each window, so the rates do not move.
step load-slow 'uncore-emu.efi --fault slow-stall=50 --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500'
expect load-slow rc zero
expect load-slow has '^uncore-emu: emulating .*faults: slow-stall=50%'
expect load-slow has '^uncore-emu: model time: TSC at [0-9]+\.[0-9]{3} MHz, measured against the ACPI PM timer \(6 windows within [0-9]+ ppm\)$'
step slow-info 'uncore.efi info -j'
expect slow-info has '"tsc":\{"source":"the ACPI PM timer","measured_against":"the ACPI PM timer","windows":6,"spread_ppm":[0-9]+,'
step slow-bw 'uncore.efi bw -d 2'
expect slow-bw rc zero
expect slow-bw bw read 1000 1
expect slow-bw bw write 500 1
step slow-clock 'uncore.efi stat -e UNC_CLOCK.SOCKET -d 1'
expect slow-clock rc zero
expect slow-clock rate UNC_CLOCK.SOCKET 800000000 1
step unload-slow 'uncore-emu.efi --unload'
expect unload-slow rc zero
# CPUID 0x15 that lies (a 96 MHz TSC): the measurement wins, with a warning.
step load-lie 'uncore-emu.efi --cpuid 0:0=0x16,0x756e6547,0x6c65746e,0x49656e69 --cpuid 0x15:0=1,4,24000000,0 --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500'
expect load-lie rc zero
step lie 'uncore.efi bw -d 1'
expect lie rc zero
expect lie has '^uncore: warning: CPUID 0x15 gives the TSC 96\.000 MHz but it runs at [0-9]+\.[0-9]{3} MHz against the ACPI PM timer; using the measurement$'
expect lie bw read 1000 1
step unload-lie 'uncore-emu.efi --unload'
expect unload-lie rc zero
step load-stuck 'uncore-emu.efi --rate DRAM_DATA_READS=1M --fault stuck=DRAM_DATA_WRITES'
expect load-stuck rc zero
step stuck 'uncore.efi bw'
expect stuck rc nonzero
expect stuck has '^write  DRAM_DATA_WRITES did not change: stuck, or no DRAM traffic; no bandwidth$'
expect stuck has '^uncore: error: DRAM_DATA_WRITES did not change in the whole run'
expect stuck lacks '^write +0\.000 MB/s'
step unload-stuck 'uncore-emu.efi --unload'
expect unload-stuck rc zero
step load-off 'uncore-emu.efi --fault mchbar-disabled'
expect load-off rc zero
step off 'uncore.efi bw'
expect off rc nonzero
expect off has '^uncore: error: MCHBAR is disabled: 00:00.0 offsets 0x4C:0x48 read 0x[0-9a-f]{16} \(bit 0 clear\); uncore.efi never enables it$'
step off-still 'uncore.efi info'
expect off-still has '^MCHBAR: .*enable 0, .*disabled \(bit 0 clear\)$'
step unload-off 'uncore-emu.efi --unload'
expect unload-off rc zero
step load-zero 'uncore-emu.efi --fault mchbar-zero'
expect load-zero rc zero
step zero 'uncore.efi bw'
expect zero rc nonzero
expect zero has '^uncore: error: MCHBAR base is zero: 00:00.0 offsets 0x4C:0x48 read 0x0000000000000001$'
step zero-mix 'uncore.efi -e UNC_CLOCK.SOCKET,DRAM_DATA_READS'
expect zero-mix rc nonzero
expect zero-mix has '^uncore: error: MCHBAR base is zero'
step unload-zero 'uncore-emu.efi --unload'
expect unload-zero rc zero
mchbar_high_steps info
# MCHBAR above the physical address width (a 36-bit CPU: the emulator's
# CPUID leaf 0x80000008 says 36 bits, as QEMU's -cpu ...,phys-bits=36 does;
# in this boot: one firmware boot fewer).
step bw36-load 'uncore-emu.efi --cpuid 0x80000008:0=0x3024,0,0,0 --fault mchbar-high'
expect bw36-load rc zero
step bw36-high 'uncore.efi bw'
expect bw36-high rc nonzero
expect bw36-high has "^uncore: error: MCHBAR base 0x7fffff8000 \(00:00.0 offsets 0x4C:0x48 read 0x0000007fffff8001\) is above the CPU's 36-bit physical address width$"
step bw36-info 'uncore.efi info'
expect bw36-info has '^MCHBAR: .*: enabled but base is above the physical address width$'
boot_run

# Alder Lake (family 6 model 0x97): the emulator shows an ADL host bridge
# (8086:4660) and both memory controllers' 64-bit free-running counters at
# MCHBAR + 0xd840/0xd858/0xd8a0 and + 0x10000; the MSR uncore under 0x2ff0.
# MC0 reads 600 MB/s and writes 300, MC1 400 and 200. MCHBAR at 0x4000000
# (--mchbar), so that raw reads can name the counters' addresses. The
# programmable IMC counters (MCHBAR + 0xd900, + 0x10000): CAS reads 10^6 a
# second per channel (every channel of both controllers with Intel's event,
# mask 0: 8 * 10^6), CAS writes 2.5 * 10^6 (mask 0x3: 2 channels, 10^7).
boot_begin adl Skylake-Client,model=151
boot_file "$TOP/build/uncore-emu.efi"
step load 'uncore-emu.efi --mchbar 0x4000000 --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --rate UNC_MC0_WRCAS_COUNT_FREERUN=4687500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=6250000 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3125000 --rate UNC_MC0_TOTAL_REQCOUNT_FREERUN=20M --rate imc/mc1_data_total/=10M --rate UNC_ARB_TRK_REQUESTS.ALL=1M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M --rate UNC_M_CAS_COUNT_RD=1M --rate UNC_M_CAS_COUNT_WR=2500000'
expect load rc zero
expect load has '^uncore-emu: emulating a client uncore: Alder/Raptor Lake uncore, host bridge 8086:4660, .*; MCHBAR 0x4000001 \(region 0x4000000\)$'
step mmio0 'uncore.efi mmio read 0x400d858'
expect mmio0 rc zero
expect mmio0 has '^mmio 0x400d858 = 0x[0-9a-f]{8}$'
step mmio1 'uncore.efi mmio read 0x400d858'
expect mmio1 rc zero
expect mmio1 above mmio0
step info 'uncore.efi info'
expect info rc zero
expect info has 'Alder Lake \(desktop\)'
expect info has '^host bridge: +8086:4660 \(Alder Lake\); MCHBAR 0x4000001, base 0x4000000 \(mask 0x7fffff0000\)$'
expect info has '^pmu in use: +no \(global control 0x0, 25 event selects all zero\)$'
step info-json 'uncore.efi info -j'
expect info-json rc zero
expect info-json has '"generation":"Alder Lake"'
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 has '^0x2ff0 +ADL_UNC_PERF_GLOBAL_CTL +0x0000000000000000$'
expect regs0 has '^0x400d9d0 ADL_UNCORE_IMC_CTRL0 \(MC0\) +0x0000000000000000$'
expect regs0 has '^0x401da08 ADL_UNCORE_IMC_CTR4 \(MC1\) +0x0000000000000000  \(never written\)$'
step bw 'uncore.efi bw -d 2 --per-box'
expect bw rc zero
expect bw has '^uncore bw: IMC counters at MCHBAR 0x4000000, MC1 at \+0x10000 \(host bridge 8086:4660, Alder Lake\), emulated'
expect bw bw read 1000 1
expect bw bw write 500 1
expect bw bw total 1500 1
expect bw has '^mc0 +read +(59[4-9]|60[0-5])\.[0-9]{3} MB/s  write +(29[7-9]|30[0-2])\.[0-9]{3} MB/s  total +(89[1-9]|90[0-8])\.[0-9]{3} MB/s$'
expect bw has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s  write +(19[8-9]|20[0-1])\.[0-9]{3} MB/s  total +(59[4-9]|60[0-5])\.[0-9]{3} MB/s$'
expect bw has '^requests:  MC0 [0-9]+ \(66\.[0-9]{2}%\)  MC1 [0-9]+ \(33\.[0-9]{2}%\)$'
expect bw has '; sampled every 100 ms at most: the 64-bit counters cannot wrap between samples at any real bandwidth$'
step bw-iv 'uncore.efi bw -I 100 -n 5'
expect bw-iv rc zero
expect bw-iv ivbw read 1000 1
expect bw-iv ivbw write 500 1
step bw-json 'uncore.efi bw -j --per-box -d 0.5'
expect bw-json rc zero
expect bw-json has '"per_box":\[\{"name":"mc0","read":\{"lines":[0-9]+,"bytes":[0-9]+,"mb_per_s":(59[4-9]|60[0-5])\.[0-9]{3},'
expect bw-json lacks '"per_group"'
expect bw-json has '"counters":"at MCHBAR 0x4000000, MC1 at \+0x10000 \(host bridge 8086:4660, Alder Lake\)"'
step bw-csv 'uncore.efi bw -x , --per-box -d 0.5'
expect bw-csv rc zero
expect bw-csv has '^(39[6-9]|40[0-3])\.[0-9]{3},MB/s,dram_read_bandwidth@mc1,'
step bw-iv-json 'uncore.efi bw -j --per-box -I 100 -n 2'
expect bw-iv-json rc zero
step stat 'uncore.efi stat -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,UNC_MC1_RDCAS_COUNT_FREERUN,cbox/event=0x34,umask=0x8f/ -d 1'
expect stat rc zero
expect stat rate UNC_ARB_TRK_REQUESTS.ALL 2000000 1
expect stat rate UNC_CLOCK.SOCKET 800000000 1
expect stat rate UNC_MC1_RDCAS_COUNT_FREERUN 6250000 1
expect stat rate 'cbox/event=0x34,umask=0x8f/' 5000000 1
step stat-imc 'uncore.efi stat -e UNC_M_CAS_COUNT_RD,imc_prog/event=0x23,chmask=0x3/ -d 1'
expect stat-imc rc zero
expect stat-imc rate UNC_M_CAS_COUNT_RD 8000000 1
expect stat-imc rate 'imc_prog/event=0x23,chmask=0x3/' 10000000 1
# Skylake's name for what cbox/ counts here: not in this generation's table, the PMU here.
step skl-name 'uncore.efi stat -e UNC_CBO_CACHE_LOOKUP.ANY_MESI -d 0.1'
expect skl-name rc nonzero
expect skl-name has "^uncore: error: UNC_CBO_CACHE_LOOKUP\\.ANY_MESI is a Skylake-client cbox event, not in the Alder/Raptor Lake table \\(adl-client-uncore\\); this CPU's cbox PMU takes raw events \\(see 'uncore\\.efi list'\\)$"
expect skl-name lines 1
step regs1 'uncore.efi regs'
expect regs1 same-written regs0
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# A description longer than 160 characters reaches the bw header whole.
step load-long 'uncore-emu.efi --rate UNC_MC0_RDCAS_COUNT_FREERUN=1M --rate UNC_MC0_WRCAS_COUNT_FREERUN=1M --rate UNC_MC1_RDCAS_COUNT_FREERUN=1M --rate UNC_MC1_WRCAS_COUNT_FREERUN=1M --fault ro-counters=cbox --fault ro-counters=arb --fault ro-counters=clock'
expect load-long rc zero
step bw-long 'uncore.efi bw -d 0.2'
expect bw-long rc zero
expect bw-long has '^uncore bw: .*, emulated uncore \(Alder/Raptor Lake uncore, host bridge 8086:4660, .*, faults: ro-counters=cbox ro-counters=arb ro-counters=clock\)$'
step unload-long 'uncore-emu.efi --unload'
expect unload-long rc zero
mchbar_high_steps info
mchbar_disabled_steps
# Raptor Lake (0xB7): its host bridge (8086:a700) and MCHBAR's bits 41:17.
# A desktop part's 12 CBos (0x396 = 12, every box programmed: box 11 at
# 0x2058/0x205a, Linux's ADL_UNC_CBO_0_* + 8 * 11), each counting 10^6 a
# second: 12 * 10^6 in all within 0.5%, 12 per-box rows, and every CBo
# register as found afterwards.
# (its steps run in the Alder Lake boot, the emulator's CPUID leaf 1 saying
# model 0xB7: one firmware boot fewer)
step rpl-load 'uncore-emu.efi --cpuid 1:0=0x000B0671,0x00010800,0x80000000,0x10000000 --cbo-config 12 --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M --rate UNC_MC0_RDCAS_COUNT_FREERUN=7812500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=7812500 --rate UNC_MC0_WRCAS_COUNT_FREERUN=3906250 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3906250'
expect rpl-load rc zero
step rpl-info 'uncore.efi info'
expect rpl-info has 'Raptor Lake \(desktop\)'
expect rpl-info has '^host bridge: +8086:a700 \(Raptor Lake\); MCHBAR 0x[0-9a-f]+, base 0x[0-9a-f]+ \(mask 0x3fffffe0000\)$'
expect rpl-info has '^0x396: +12 CBos, 12 programmed$'
expect rpl-info has '^pmu in use: +no \(global control 0x0, 39 event selects all zero\)$'
step rpl-regs0 'uncore.efi regs'
expect rpl-regs0 rc zero
expect rpl-regs0 has '^0x2058 +ADL_UNC_CBO_11_PERFEVTSEL0 +0x0000000000000000$'
expect rpl-regs0 has '^0x205b +ADL_UNC_CBO_11_PER_CTR1 +0x[0-9a-f]{16}( +\(never written\))?$'
expect rpl-regs0 lacks '^0x2060 '
step rpl-cbo12 'uncore.efi stat -e cbox/event=0x34,umask=0x8f/ -d 1 --per-box'
expect rpl-cbo12 rc zero
expect rpl-cbo12 has '^uncore stat: 1 event in 1 group, 12 CBos, msr access: emulated'
expect rpl-cbo12 rate 'cbox/event=0x34,umask=0x8f/' 12000000 0.5
for b in 0 1 2 3 4 5 6 7 8 9 10 11; do
	expect cbo12 rate "cbox/event=0x34,umask=0x8f/@cbo$b" 1000000 0.5
done
expect rpl-cbo12 lacks '@cbo12'
step rpl-regs1 'uncore.efi regs'
expect rpl-regs1 same-written rpl-regs0
step rpl-bw 'uncore.efi bw -d 1'
expect rpl-bw rc zero
expect rpl-bw bw read 1000 1
expect rpl-bw bw write 500 1
step rpl-unload 'uncore-emu.efi --unload'
expect rpl-unload rc zero
MH_PRE=rpl- MH_EMU='--cpuid 1:0=0x000B0671,0x00010800,0x80000000,0x10000000' mchbar_high_steps
boot_run

# Tiger Lake TGL-L (0x8C): host bridge 8086:9a14, the IMC block at MCHBAR +
# 0x5000 (counters at 0x5040/0x5058/0x50a0, MC1 + 0x10000), the MSR uncore
# under 0xe01 (CBo 0x700 + 8 per box, ARB 0x3b0/0x3b2, fixed 0x394/0x395).
boot_begin tgl Skylake-Client,model=140
boot_file "$TOP/build/uncore-emu.efi"
step load 'uncore-emu.efi --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --rate UNC_MC0_WRCAS_COUNT_FREERUN=4687500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=6250000 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3125000 --rate UNC_MC0_TOTAL_REQCOUNT_FREERUN=20M --rate UNC_MC1_TOTAL_REQCOUNT_FREERUN=10M --rate UNC_ARB_TRK_REQUESTS.ALL=1M'
expect load rc zero
expect load has '^uncore-emu: emulating a client uncore: Tiger Lake uncore, host bridge 8086:9a14, '
step info 'uncore.efi info'
expect info rc zero
expect info has 'Tiger Lake \(TGL-L, UP3/UP4\)'
expect info has '^host bridge: +8086:9a14 \(Tiger Lake\); MCHBAR 0x[0-9a-f]+, base 0x[0-9a-f]+ \(mask 0x3fffffe0000\)$'
expect info has '^pmu in use: +no \(global control 0x0, 13 event selects all zero\)$'
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 has '^0xe01 +SNB_UNC_PERF_GLOBAL_CTL +0x0000000000000000$'
step bw 'uncore.efi bw -d 2 --per-box'
expect bw rc zero
expect bw has '^uncore bw: IMC counters at MCHBAR 0x[0-9a-f]+ \+ 0x5000, MC1 at \+0x10000 \(host bridge 8086:9a14, Tiger Lake\), emulated'
expect bw bw read 1000 1
expect bw bw write 500 1
expect bw bw total 1500 1
expect bw has '^mc0 +read +(59[4-9]|60[0-5])\.[0-9]{3} MB/s  write +(29[7-9]|30[0-2])\.[0-9]{3} MB/s  total +(89[1-9]|90[0-8])\.[0-9]{3} MB/s$'
expect bw has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s  write +(19[8-9]|20[0-1])\.[0-9]{3} MB/s  total +(59[4-9]|60[0-5])\.[0-9]{3} MB/s$'
# bw reads the free-running IMC counters only: every register exactly as found.
step regs-bw 'uncore.efi regs'
expect regs-bw same regs0
step stat 'uncore.efi stat -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,UNC_MC0_WRCAS_COUNT_FREERUN -d 1'
expect stat rc zero
expect stat rate UNC_ARB_TRK_REQUESTS.ALL 1000000 1
expect stat rate UNC_CLOCK.SOCKET 800000000 1
expect stat rate UNC_MC0_WRCAS_COUNT_FREERUN 4687500 1
step regs1 'uncore.efi regs'
expect regs1 same-written regs0
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# A fault the Tiger Lake model cannot apply is refused, not listed and ignored.
step load-stuck 'uncore-emu.efi --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --fault stuck=DRAM_DATA_READS'
expect load-stuck rc nonzero
expect load-stuck has '^uncore-emu: error: --fault stuck=DRAM_DATA_READS is a counter of the Skylake-client uncore \(and of the Ice Lake and Rocket Lake IMC\), but the emulator serves the tgl uncore \(CPUID leaf 1, or --uncore\)$'
# 0x396 reporting 15: CBo 14 would be 0x770 (IA32_PM_ENABLE), so a CBo
# event is refused naming the limit rather than counted on 14 boxes.
step load15 'uncore-emu.efi --cbo-config 15'
expect load15 rc zero
step cbo15 'uncore.efi stat -e cbox/event=0x34,umask=0x8f/ -d 0.2'
expect cbo15 rc nonzero
expect cbo15 has '^uncore: error: cannot count cbox/event=0x34,umask=0x8f/: ICL_UNC_CBO_CONFIG reports 15 CBos; CBo 14 would be MSR 0x770 \(IA32_PM_ENABLE, Intel SDM Vol\. 4\): at most 14 can be counted$'
expect cbo15 lines 1
step info15 'uncore.efi info'
expect info15 has '^0x396: +15 CBos, 14 programmed$'
expect info15 has '^  warning: ICL_UNC_CBO_CONFIG reports 15 CBos; CBo 14 would be MSR 0x770 \(IA32_PM_ENABLE, Intel SDM Vol\. 4\): at most 14 can be counted; CBo events are refused$'
expect info15 has '^verdict: +uncore PMU usable: ready, but no CBo event can be counted: ICL_UNC_CBO_CONFIG reports 15 CBos'
step unload15 'uncore-emu.efi --unload'
expect unload15 rc zero
mchbar_high_steps
# Tiger Lake TGL-H (0x8D, the emulator's CPUID leaf 1 in the TGL-L boot:
# one firmware boot fewer): host bridge 8086:9a36, the IMC block at MCHBAR +
# 0xd800 (counters at 0xd840/0xd858/0xd8a0).
step tglh-load 'uncore-emu.efi --cpuid 1:0=0x000806D1,0x00010800,0x80000000,0x10000000 --rate UNC_MC0_RDCAS_COUNT_FREERUN=7812500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=7812500 --rate UNC_MC0_WRCAS_COUNT_FREERUN=3906250 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3906250'
expect tglh-load rc zero
step tglh-info 'uncore.efi info'
expect tglh-info has 'Tiger Lake \(TGL-H\)'
expect tglh-info has '^host bridge: +8086:9a36 \(Tiger Lake\)'
step tglh-bw 'uncore.efi bw -d 1'
expect tglh-bw rc zero
expect tglh-bw has '^uncore bw: IMC counters at MCHBAR 0x[0-9a-f]+ \+ 0xd800, MC1 at \+0x10000 \(host bridge 8086:9a36, Tiger Lake\)'
expect tglh-bw bw read 1000 1
expect tglh-bw bw write 500 1
step tglh-unload 'uncore-emu.efi --unload'
expect tglh-unload rc zero
# Lunar Lake (0xBD): host bridge 8086:6400 (chipsec lnl.xml), MCHBAR's
# bits 38:16, the global control 0x240e, 4 CBos whatever 0x396 says, 2 ARB
# boxes (12 selects), no clock box; the IMC as Meteor Lake's, its
# programmable counters too (10 event controls): CAS reads 10^6 a second
# per channel (mask 0: 8 * 10^6), RD_DATA 2 * 10^6 32-byte chunks per
# channel (1.6 * 10^7), CAS writes 2.5 * 10^6 (mask 0x3: 10^7). MCHBAR at
# 0x4000000 (--mchbar), so that the registers' addresses can be named;
# regs lists the event controls and counters, a raw read the box controls.
# (its steps run in the Tiger Lake boot, the emulator's CPUID leaf 1 saying
# model 0xBD: one firmware boot fewer)
step lnl-load 'uncore-emu.efi --cpuid 1:0=0x000B06D1,0x00010800,0x80000000,0x10000000 --mchbar 0x4000000 --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --rate UNC_MC0_WRCAS_COUNT_FREERUN=4687500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=6250000 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3125000 --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M --rate UNC_M_CAS_COUNT_RD=1M --rate UNC_M_RD_DATA=2M --rate UNC_M_CAS_COUNT_WR=2500000'
expect lnl-load rc zero
expect lnl-load has '^uncore-emu: emulating a client uncore: Lunar Lake uncore, host bridge 8086:6400, '
step lnl-info 'uncore.efi info'
expect lnl-info rc zero
expect lnl-info has '^uncore: +supported: Lunar Lake, Lunar Lake \(mobile\)$'
expect lnl-info has '^CBos: +4 \(fixed on Lunar Lake\), 4 programmed$'
expect lnl-info has '^host bridge: +8086:6400 \(Lunar Lake\); MCHBAR 0x4000001, base 0x4000000 \(mask 0x7fffff0000\)$'
expect lnl-info has '^pmu in use: +no \(global control 0x0, 22 event selects all zero\)$'
step lnl-regs0 'uncore.efi regs'
expect lnl-regs0 rc zero
expect lnl-regs0 has '^0x240e +LNL_UNC_MSR_GLOBAL_CTL +0x0000000000000000$'
expect lnl-regs0 has '^0x400d9d0 ADL_UNCORE_IMC_CTRL0 \(MC0\) +0x0000000000000000$'
expect lnl-regs0 has '^0x401d9e0 ADL_UNCORE_IMC_CTRL4 \(MC1\) +0x0000000000000000$'
step lnl-bw 'uncore.efi bw -d 1 --per-box'
expect lnl-bw rc zero
expect lnl-bw has '^uncore bw: IMC counters at MCHBAR 0x4000000, MC1 at \+0x10000 \(host bridge 8086:6400, Lunar Lake\), emulated'
expect lnl-bw bw read 1000 1
expect lnl-bw bw write 500 1
expect lnl-bw has '^mc0 +read +(59[4-9]|60[0-5])\.[0-9]{3} MB/s  write +(29[7-9]|30[0-2])\.[0-9]{3} MB/s  total +(89[1-9]|90[0-8])\.[0-9]{3} MB/s$'
expect lnl-bw has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s  write +(19[8-9]|20[0-1])\.[0-9]{3} MB/s  total +(59[4-9]|60[0-5])\.[0-9]{3} MB/s$'
step lnl-stat 'uncore.efi stat -e cbox/event=0x34,umask=0x8f/,UNC_MC0_RDCAS_COUNT_FREERUN -d 1'
expect lnl-stat rc zero
expect lnl-stat rate 'cbox/event=0x34,umask=0x8f/' 4000000 1
expect lnl-stat rate UNC_MC0_RDCAS_COUNT_FREERUN 9375000 1
step lnl-stat-imc 'uncore.efi stat -e UNC_M_CAS_COUNT_RD,UNC_M_RD_DATA,imc_prog/event=0x23,chmask=0x3/ -d 1'
expect lnl-stat-imc rc zero
expect lnl-stat-imc rate UNC_M_CAS_COUNT_RD 8000000 1
expect lnl-stat-imc rate UNC_M_RD_DATA 16000000 1
expect lnl-stat-imc rate 'imc_prog/event=0x23,chmask=0x3/' 10000000 1
step lnl-box1 'uncore.efi mmio read 0x401d9c4'
expect lnl-box1 rc zero
expect lnl-box1 has '^mmio 0x401d9c4 = 0x00000000$'
step lnl-list 'uncore.efi list'
expect lnl-list rc zero
expect lnl-list has '^cbox PMU \(Lunar Lake, lnl-client-uncore\); raw: cbox/event=N,umask=N'
expect lnl-list has '^imc_prog +0x22 +0x00 +[0-9,-]+ +UNC_M_CAS_COUNT_RD '
expect lnl-list has '^9 events, 6 free-running counters, in 4 PMUs'
step lnl-regs1 'uncore.efi regs'
expect lnl-regs1 same-written lnl-regs0
step lnl-unload 'uncore-emu.efi --unload'
expect lnl-unload rc zero
MH_PRE=lnl- MH_EMU='--cpuid 1:0=0x000B06D1,0x00010800,0x80000000,0x10000000' mchbar_high_steps
MH_PRE=lnl- MH_EMU='--cpuid 1:0=0x000B06D1,0x00010800,0x80000000,0x10000000' mchbar_disabled_steps
boot_run

# Ice Lake client (0x7E): host bridge 8086:8a12, MCHBAR's bits 38:16, the
# Skylake-style 32-bit IMC counters at MCHBAR + 0x5040...0x5054 (one
# controller); the MSR uncore with no global control (EN in each select),
# the ARB's one counter at 0x3b1/0x3b3. Reads 1000 MB/s, writes 500.
boot_begin icl Skylake-Client,model=126
boot_file "$TOP/build/uncore-emu.efi"
step load 'uncore-emu.efi --mchbar 0x4000000 --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500 --rate DRAM_IA_REQUESTS=20M --rate UNC_ARB_TRK_REQUESTS.ALL=1M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M'
expect load rc zero
expect load has '^uncore-emu: emulating a client uncore: Ice Lake uncore, host bridge 8086:8a12, '
step info 'uncore.efi info'
expect info rc zero
expect info has 'Ice Lake \(mobile\)'
expect info has '^host bridge: +8086:8a12 \(Ice Lake\); MCHBAR 0x4000001, base 0x4000000 \(mask 0x7fffff0000\)$'
expect info has '^pmu in use: +no \(12 event selects all zero\)$'
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 has '^0x3b3 +ICL_UNC_ARB_PERFEVTSEL +0x0000000000000000$'
expect regs0 lacks '0xe01'
step list 'uncore.efi list'
expect list rc zero
expect list has '^arb +0x81 +0x01 +1 +UNC_ARB_TRK_REQUESTS\.ALL '
expect list has '^imc +free +DRAM_DATA_READS '
step bw 'uncore.efi bw -d 1'
expect bw rc zero
expect bw has '^uncore bw: IMC counters at MCHBAR 0x4000000 \(host bridge 8086:8a12, Ice Lake\), emulated'
expect bw bw read 1000 1
expect bw bw write 500 1
expect bw bw total 1500 1
step stat 'uncore.efi stat -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,DRAM_DATA_READS,cbox/event=0x34,umask=0x8f/ -d 1'
expect stat rc zero
expect stat rate UNC_ARB_TRK_REQUESTS.ALL 1000000 1
expect stat rate UNC_CLOCK.SOCKET 800000000 1
expect stat rate DRAM_DATA_READS 15625000 1
expect stat rate 'cbox/event=0x34,umask=0x8f/' 5000000 1
step regs1 'uncore.efi regs'
expect regs1 same-written regs0
step unload 'uncore-emu.efi --unload'
expect unload rc zero
mchbar_high_steps
mchbar_disabled_steps
# Rocket Lake (0xA7): host bridge 8086:4c43, Tiger Lake's MSR uncore under
# 0xe01 (bit 29 only while counting), the Skylake-style IMC as Ice Lake's.
# (its steps run in the Ice Lake boot, the emulator's CPUID leaf 1 saying
# model 0xA7: one firmware boot fewer)
step rkl-load 'uncore-emu.efi --cpuid 1:0=0x000A0671,0x00010800,0x80000000,0x10000000 --mchbar 0x4000000 --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500 --rate UNC_ARB_TRK_REQUESTS.ALL=1M'
expect rkl-load rc zero
expect rkl-load has '^uncore-emu: emulating a client uncore: Rocket Lake uncore, host bridge 8086:4c43, '
step rkl-info 'uncore.efi info'
expect rkl-info rc zero
expect rkl-info has 'Rocket Lake'
expect rkl-info has '^host bridge: +8086:4c43 \(Rocket Lake\); MCHBAR 0x4000001, base 0x4000000 \(mask 0x7fffff0000\)$'
expect rkl-info has '^pmu in use: +no \(global control 0x0, 13 event selects all zero\)$'
step rkl-regs0 'uncore.efi regs'
expect rkl-regs0 rc zero
expect rkl-regs0 has '^0xe01 +SNB_UNC_PERF_GLOBAL_CTL +0x0000000000000000$'
step rkl-bw 'uncore.efi bw -d 1'
expect rkl-bw rc zero
expect rkl-bw has '^uncore bw: IMC counters at MCHBAR 0x4000000 \(host bridge 8086:4c43, Rocket Lake\), emulated'
expect rkl-bw bw read 1000 1
expect rkl-bw bw write 500 1
step rkl-stat 'uncore.efi stat -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,DRAM_DATA_WRITES -d 1'
expect rkl-stat rc zero
expect rkl-stat rate UNC_ARB_TRK_REQUESTS.ALL 1000000 1
expect rkl-stat rate UNC_CLOCK.SOCKET 800000000 1
expect rkl-stat rate DRAM_DATA_WRITES 7812500 1
step rkl-regs1 'uncore.efi regs'
expect rkl-regs1 same-written rkl-regs0
step rkl-unload 'uncore-emu.efi --unload'
expect rkl-unload rc zero
MH_PRE=rkl- MH_EMU='--cpuid 1:0=0x000A0671,0x00010800,0x80000000,0x10000000' mchbar_high_steps
MH_PRE=rkl- MH_EMU='--cpuid 1:0=0x000A0671,0x00010800,0x80000000,0x10000000' mchbar_disabled_steps
boot_run

# Meteor Lake (0xAA): host bridge 8086:7d00, MCHBAR's bits 38:16, both
# memory controllers' 64-bit counters at MCHBAR + 0xd840/0xd858/0xd8a0 and
# + 0x10000 (MC0 reads 600 MB/s and writes 300, MC1 400 and 200); the MSR
# uncore enabled through the cNCU and sNCU box controls 0x240e/0x200e (5
# CBos, 2 ARB, 2 HAC_ARB, 2 HAC_CBO boxes of 2 selects, the cNCU's fixed
# control: 23 selects), the HAC units counting only with the sNCU's enable.
# The programmable IMC counters (MCHBAR + 0xd900, + 0x10000; 10 event
# controls): CAS reads 10^6 a second per channel (Intel's event, mask 0:
# every channel of both controllers, 8 * 10^6), CAS writes 2.5 * 10^6 (mask
# 0x3: 2 channels, 10^7).
boot_begin mtl Skylake-Client,model=170
boot_file "$TOP/build/uncore-emu.efi"
step load 'uncore-emu.efi --mchbar 0x4000000 --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --rate UNC_MC0_WRCAS_COUNT_FREERUN=4687500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=6250000 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3125000 --rate UNC_HAC_ARB_TRANSACTIONS.READS=1M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M --rate UNC_M_CAS_COUNT_RD=1M --rate UNC_M_CAS_COUNT_WR=2500000'
expect load rc zero
expect load has '^uncore-emu: emulating a client uncore: Meteor/Arrow Lake uncore, host bridge 8086:7d00, '
step info 'uncore.efi info'
expect info rc zero
expect info has 'Meteor Lake \(mobile\)'
expect info has '^0x396: +5 CBos, 5 programmed$'
expect info has '^host bridge: +8086:7d00 \(Meteor Lake\); MCHBAR 0x4000001, base 0x4000000 \(mask 0x7fffff0000\)$'
expect info has '^pmu in use: +no \(global control 0x0, 33 event selects all zero\)$'
step info-json 'uncore.efi info -j'
expect info-json rc zero
expect info-json has '"cbo_count":5,"host_bridge":"0x7d00","generation":"Meteor Lake"'
step regs0 'uncore.efi regs'
expect regs0 rc zero
expect regs0 has '^0x240e +MTL_UNC_CNCU_BOX_CTL +0x0000000000000000$'
expect regs0 has '^0x200e +MTL_UNC_SNCU_BOX_CTL +0x0000000000000000$'
expect regs0 has '^0x[0-9a-f]+d9d0 ADL_UNCORE_IMC_CTRL0 \(MC0\) +0x0000000000000000$'
expect regs0 has '^0x[0-9a-f]+da08 ADL_UNCORE_IMC_CTR4 \(MC1\) +0x0000000000000000  \(never written\)$'
step bw 'uncore.efi bw -d 1 --per-box'
expect bw rc zero
expect bw has '^uncore bw: IMC counters at MCHBAR 0x4000000, MC1 at \+0x10000 \(host bridge 8086:7d00, Meteor Lake\), emulated'
expect bw bw read 1000 1
expect bw bw write 500 1
expect bw has '^mc0 +read +(59[4-9]|60[0-5])\.[0-9]{3} MB/s  write +(29[7-9]|30[0-2])\.[0-9]{3} MB/s  total +(89[1-9]|90[0-8])\.[0-9]{3} MB/s$'
expect bw has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s  write +(19[8-9]|20[0-1])\.[0-9]{3} MB/s  total +(59[4-9]|60[0-5])\.[0-9]{3} MB/s$'
step stat 'uncore.efi stat -e UNC_HAC_ARB_TRANSACTIONS.READS,UNC_CLOCK.SOCKET,UNC_MC1_RDCAS_COUNT_FREERUN,cbox/event=0x34,umask=0x8f/ -d 1'
expect stat rc zero
expect stat rate UNC_HAC_ARB_TRANSACTIONS.READS 2000000 1
expect stat rate UNC_CLOCK.SOCKET 800000000 1
expect stat rate UNC_MC1_RDCAS_COUNT_FREERUN 6250000 1
expect stat rate 'cbox/event=0x34,umask=0x8f/' 5000000 1
step stat-imc 'uncore.efi stat -e UNC_M_CAS_COUNT_RD,imc_prog/event=0x23,chmask=0x3/ -d 1'
expect stat-imc rc zero
expect stat-imc rate UNC_M_CAS_COUNT_RD 8000000 1
expect stat-imc rate 'imc_prog/event=0x23,chmask=0x3/' 10000000 1
step list 'uncore.efi list'
expect list rc zero
expect list has '^hac_arb PMU \(Meteor Lake, mtl-client-uncore\); raw: hac_arb/event=N,umask=N'
expect list has '^imc_prog +0x3a +0x00 +[0-9,-]+ +UNC_M_RD_DATA '
expect list has '^pmu       code  umask  counters   event                            description$'
expect list has '^hac_arb   0x8a  0x02   0,1        UNC_HAC_ARB_TRANSACTIONS\.READS   Number of all CMI reads$'
expect list has '^hac_cbox  0x35  0x08   0,1        UNC_HAC_CBO_TOR_ALLOCATION\.ALL   Number of all entries'
expect list has '^imc +free +UNC_MC1_WRCAS_COUNT_FREERUN '
step bw-var 'uncore.efi bw -d 0.5 --per-box -o var:MtlBw'
expect bw-var rc zero
step bw-show 'uncore.efi var show MtlBw'
expect bw-show rc zero
expect bw-show has '^uncore bw: IMC counters at MCHBAR 0x4000000, MC1 at \+0x10000 \(host bridge 8086:7d00, Meteor Lake\), emulated'
expect bw-show has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s'
step regs1 'uncore.efi regs'
expect regs1 same-written regs0
step unload 'uncore-emu.efi --unload'
expect unload rc zero
# Counters that ignore writes on every unit of Meteor Lake: none is ever
# written (Linux writes no client counter, nor imc_prog's), so the run is
# as without the fault: no note, the counts right.
step ro-load 'uncore-emu.efi --rate UNC_HAC_ARB_TRANSACTIONS.READS=1M --rate UNC_HAC_CBO_TOR_ALLOCATION.ALL=2M --rate UNC_ARB_DAT_OCCUPANCY.RD=3M --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=1M --rate UNC_M_CAS_COUNT_RD=1M --fault ro-counters=cbox --fault ro-counters=arb --fault ro-counters=clock --fault ro-counters=hac_arb --fault ro-counters=hac_cbox --fault ro-counters=imc_prog'
expect ro-load rc zero
step ro-regs0 'uncore.efi regs'
expect ro-regs0 rc zero
step ro-stat 'uncore.efi stat -e UNC_HAC_ARB_TRANSACTIONS.READS,UNC_HAC_CBO_TOR_ALLOCATION.ALL,UNC_ARB_DAT_OCCUPANCY.RD,UNC_CLOCK.SOCKET,cbox/event=0x34,umask=0x8f/,UNC_M_CAS_COUNT_RD -d 1'
expect ro-stat rc zero
expect ro-stat lacks 'ignores writes'
expect ro-stat rate UNC_HAC_ARB_TRANSACTIONS.READS 2000000 0.5
expect ro-stat rate UNC_HAC_CBO_TOR_ALLOCATION.ALL 4000000 0.5
expect ro-stat rate UNC_ARB_DAT_OCCUPANCY.RD 6000000 0.5
expect ro-stat rate UNC_CLOCK.SOCKET 800000000 0.5
expect ro-stat rate 'cbox/event=0x34,umask=0x8f/' 5000000 0.5
expect ro-stat rate UNC_M_CAS_COUNT_RD 8000000 0.5
step ro-regs1 'uncore.efi regs'
expect ro-regs1 same-written ro-regs0
step ro-unload 'uncore-emu.efi --unload'
expect ro-unload rc zero
mchbar_high_steps
# Arrow Lake-H (0xC5): host bridge 8086:7d06 (chipsec arlh.xml), MCHBAR's
# bits 41:17, Meteor Lake's registers and IMC.
# (its steps run in the Meteor Lake boot, the emulator's CPUID leaf 1 saying
# model 0xC5: one firmware boot fewer)
step arl-load 'uncore-emu.efi --cpuid 1:0=0x000C0651,0x00010800,0x80000000,0x10000000 --rate UNC_MC0_RDCAS_COUNT_FREERUN=9375000 --rate UNC_MC0_WRCAS_COUNT_FREERUN=4687500 --rate UNC_MC1_RDCAS_COUNT_FREERUN=6250000 --rate UNC_MC1_WRCAS_COUNT_FREERUN=3125000 --rate UNC_HAC_CBO_TOR_ALLOCATION.ALL=3M'
expect arl-load rc zero
expect arl-load has '^uncore-emu: emulating a client uncore: Meteor/Arrow Lake uncore, host bridge 8086:7d06, '
step arl-info 'uncore.efi info'
expect arl-info rc zero
expect arl-info has 'Arrow Lake-H'
expect arl-info has '^host bridge: +8086:7d06 \(Arrow Lake\); MCHBAR 0x[0-9a-f]+, base 0x[0-9a-f]+ \(mask 0x3fffffe0000\)$'
step arl-regs0 'uncore.efi regs'
expect arl-regs0 rc zero
step arl-bw 'uncore.efi bw -d 1 --per-box'
expect arl-bw rc zero
expect arl-bw has '^uncore bw: IMC counters at MCHBAR 0x[0-9a-f]+, MC1 at \+0x10000 \(host bridge 8086:7d06, Arrow Lake\), emulated'
expect arl-bw bw read 1000 1
expect arl-bw bw write 500 1
expect arl-bw has '^mc0 +read +(59[4-9]|60[0-5])\.[0-9]{3} MB/s  write +(29[7-9]|30[0-2])\.[0-9]{3} MB/s  total +(89[1-9]|90[0-8])\.[0-9]{3} MB/s$'
expect arl-bw has '^mc1 +read +(39[6-9]|40[0-3])\.[0-9]{3} MB/s  write +(19[8-9]|20[0-1])\.[0-9]{3} MB/s  total +(59[4-9]|60[0-5])\.[0-9]{3} MB/s$'
step arl-stat 'uncore.efi stat -e UNC_HAC_CBO_TOR_ALLOCATION.ALL,UNC_CLOCK.SOCKET,UNC_MC0_WRCAS_COUNT_FREERUN -d 1'
expect arl-stat rc zero
expect arl-stat rate UNC_HAC_CBO_TOR_ALLOCATION.ALL 6000000 1
expect arl-stat rate UNC_CLOCK.SOCKET 800000000 1
expect arl-stat rate UNC_MC0_WRCAS_COUNT_FREERUN 4687500 1
step arl-regs1 'uncore.efi regs'
expect arl-regs1 same-written arl-regs0
step arl-unload 'uncore-emu.efi --unload'
expect arl-unload rc zero
MH_PRE=arl- MH_EMU='--cpuid 1:0=0x000C0651,0x00010800,0x80000000,0x10000000' mchbar_high_steps
boot_run

# Results that outlive the boot: stored in EFI variables, then read back on
# the host from the VARS image with tools/uncore_decode.
#
# The console output of a step (less uncore.efi's own notes, "uncore: ...")
# must equal the decoder's output for the record, less its first line.
decoded_equals() { # STEP NAME [decoder options]
	local id=$1 name=$2
	shift 2
	diff <(step_output "$dir/serial.txt" "$id" | grep -v '^uncore: ') \
		<("$TOP/build/uncore_decode" "$@" --vars "$dir/vars.fd" "$name" | tail -n +2)
}

# The whole run's read bytes/s of an OpenMetrics file, rounded to MB/s with three decimals,
# is the bw step's read figure.
metrics_read_is_console() {
	local bps mb
	bps=$(sed -n 's/^uncore_dram_read_bytes_per_second{[^}]*msr_access="emulated"} \([0-9]*\)$/\1/p' "$1" | head -n 1)
	mb=$(step_output "$dir/serial.txt" bw | sed -n 's/^read  *\([0-9.]*\) MB\/s .*/\1/p')
	[ -n "$bps" ] && [ "$(printf '%d.%03d' $(((bps + 500) / 1000 / 1000)) $((((bps + 500) / 1000) % 1000)))" = "$mb" ]
}

ours=7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63
boot_begin vars Skylake-Client
boot_file "$TOP/build/uncore-emu.efi"
step load 'uncore-emu.efi --rate UNC_CBO_CACHE_LOOKUP.ANY_MESI=2M --rate UNC_ARB_TRK_REQUESTS.ALL=3M --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500 --rate DRAM_IA_REQUESTS=20M'
expect load rc zero
# Someone else's variable with a 600-character name, ahead of every record
# in the store: GetNextVariableName wants a larger buffer for it, and `var
# list` (below) must retry with that, not stop there.
step foreign-long "!setvar $(printf 'N%.0s' $(seq 1 600)) -guid 0b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d -bs -rt -nv =01"
expect foreign-long rc zero
step stat 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET --per-box -o var -o fs0:\results.json'
expect stat rc zero
expect stat has '^uncore: results stored in EFI variable UncoreResults: [0-9]+ bytes \(vendor GUID 7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63\)$'
expect stat has '^uncore: results written to fs0:\\results.json: [0-9]+ bytes of JSON$'
step json '!type fs0:\results.json'
expect json has '^\{"tool":"uncore.efi","msr_access":"emulated",.*"event":"UNC_CBO_CACHE_LOOKUP.ANY_MESI@cbo3"'
step bw 'uncore.efi bw -o var:BwRun -o metrics:fs0:\bw.prom'
expect bw rc zero
expect bw has '^uncore: results stored in EFI variable BwRun: '
expect bw has '^uncore: results written to fs0:\\bw.prom: [0-9]+ bytes of OpenMetrics text$'
step metrics '!type fs0:\bw.prom'
expect metrics rc zero
expect metrics has '^uncore_dram_read_bytes_per_second\{system="Standard PC \(Q35 \+ ICH9, 2009\)",.*,msr_access="emulated"\} [0-9]+$'
expect metrics has '^# EOF$'
# An interval run for the HTML report (decoded after the boot, below).
step bw-iv 'uncore.efi bw -I 200 -n 10 -o var:BwIv'
expect bw-iv rc zero
expect bw-iv has '^uncore: results stored in EFI variable BwIv: '
# A 2.5 s run with --progress 1 prints two progress lines on standard error
# (the Shell's 2>a puts them in a file) and none in its -x output (the
# default period, 10 s, is the host tests' test_app_stat.progress_lines).
step progress 'uncore.efi bw -d 2.5 --progress 1 -x , 2>a fs0:\progress.txt'
expect progress rc zero
expect progress lacks ' s of 2.500 s'
expect progress has '^[0-9.]+,MB/s,dram_read_bandwidth,2[45][0-9]{8},100\.00$'
step progress-err '!type fs0:\progress.txt'
expect progress-err has '^   1 s of 2\.500 s: read (99[0-9]|100[0-9]) MB/s, write (49[0-9]|50[0-9]) MB/s \(last 1 s\)$'
expect progress-err has '^   2 s of 2\.500 s: read (99[0-9]|100[0-9]) MB/s, write (49[0-9]|50[0-9]) MB/s \(last 1 s\)$'
step long 'uncore.efi -e UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_ARB_TRK_REQUESTS.ALL -I 10 -n 600 -x , -o var:Long'
expect long rc zero
expect long has '^uncore: results stored in EFI variable Long: [0-9]+ bytes in [0-9]+ chunks Long\.0001\.\.'
step show 'uncore.efi var show BwRun'
expect show rc zero
expect show has '^record BwRun: `bw` by uncore.efi [0-9.]+ at 20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9:]{8}, exit status: success$'
expect show bw read 1000 1
step temp 'uncore.efi info -o var:Temp'
expect temp rc zero
expect temp has '^uncore: results stored in EFI variable Temp: '
# -o PATH replaces a file, never a directory, empty or not
step mkdir-out '!mkdir fs0:\outdir'
expect mkdir-out rc zero
step out-dir 'uncore.efi info -o fs0:\outdir'
expect out-dir rc nonzero
expect out-dir has '^uncore: error: fs0:\\outdir not written: fs0:\\outdir is a directory \(-o wants a file path\)$'
expect out-dir lacks 'results written'
step out-dir-kept '!ls fs0:\'
expect out-dir-kept has '<DIR> +[0-9]+  outdir$'
step mkdir-sub '!mkdir fs0:\outdir\sub'
expect mkdir-sub rc zero
step out-full-dir 'uncore.efi info -o fs0:\outdir'
expect out-full-dir rc nonzero
expect out-full-dir has '^uncore: error: fs0:\\outdir not written: fs0:\\outdir is a directory \(-o wants a file path\)$'
step out-full-dir-kept '!ls fs0:\outdir'
expect out-full-dir-kept has '<DIR> +[0-9]+  sub$'
step list 'uncore.efi var list'
expect list rc zero
expect list has '^UncoreResults +[0-9]+  stat '
expect list has '^BwRun +[0-9]+  bw '
expect list has '^Long +[0-9]+  stat .*  3$'
expect list has '^Temp +[0-9]+  info '
expect list has '^BwIv +[0-9]+  bw '
expect list has '^5 records \(vendor GUID 7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63\)$'
expect list lacks '\.0001'
step delete 'uncore.efi var delete Temp'
expect delete rc zero
expect delete has '^deleted Temp$'
step delete-again 'uncore.efi var delete Temp'
expect delete-again rc nonzero
expect delete-again has '^uncore: error: no stored record named Temp$'
step show-bad 'uncore.efi var show Bad/Name'
expect show-bad rc nonzero
expect show-bad has "^uncore: error: bad variable name 'Bad/Name'"
# far more than the store holds: refused, the console output kept
step full 'uncore.efi -e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CBO_CACHE_LOOKUP.READ_I,UNC_CBO_CACHE_LOOKUP.ANY_I,UNC_ARB_TRK_REQUESTS.ALL,UNC_ARB_TRK_REQUESTS.WRITES,UNC_ARB_COH_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET,DRAM_DATA_READS -I 10 -n 1200 -x , -o var:Huge'
expect full rc nonzero
expect full has '^uncore: error: results not stored in Huge: the variable store has [0-9]+ bytes free; the record needs about [0-9]+: not stored$'
expect full has '^# elapsed '
step list-after 'uncore.efi var list'
expect list-after has '^4 records '
expect list-after lacks '^(Temp|Huge) '
# Chunks left behind, made with the Shell's own dmpstore: a delete cut short
# after the index and the first chunk went (Tail), and a chunk lost in the
# middle (Gap). Both show in `var list`; `var delete` takes every chunk.
step tail-store 'uncore.efi info -o var:Tail --var-chunk 64'
expect tail-store has '^uncore: results stored in EFI variable Tail: [0-9]+ bytes in [0-9]+ chunks Tail\.0001\.\.'
step gap-store 'uncore.efi info -o var:Gap --var-chunk 64'
expect gap-store has '^uncore: results stored in EFI variable Gap: [0-9]+ bytes in [0-9]+ chunks Gap\.0001\.\.'
step tail-cut "!dmpstore -d Tail -guid $ours"
expect tail-cut has 'Tail.: Success$'
step tail-cut1 "!dmpstore -d Tail.0001 -guid $ours"
expect tail-cut1 has 'Tail\.0001.: Success$'
step gap-cut "!dmpstore -d Gap.0003 -guid $ours"
expect gap-cut has 'Gap\.0003.: Success$'
step orphans 'uncore.efi var list'
expect orphans rc zero
expect orphans has '^Tail \(orphan chunks: [1-9][0-9]*\)$'
expect orphans has '^Gap +- +unreadable: truncated chunk set: Gap\.0003 is missing \(the index names [0-9]+ chunks\)$'
expect orphans has '^5 records '
step tail-show 'uncore.efi var show Tail'
expect tail-show rc nonzero
expect tail-show has '^uncore: error: Tail: no stored record named Tail; [0-9]+ orphan chunks Tail\.nnnn are left, `var delete Tail` removes them$'
step tail-delete 'uncore.efi var delete Tail'
expect tail-delete rc zero
expect tail-delete has '^deleted Tail: [1-9][0-9]* orphan chunks$'
step gap-delete 'uncore.efi var delete Gap'
expect gap-delete rc zero
expect gap-delete has '^deleted Gap and its [1-9][0-9]* chunks$'
step orphans-gone 'uncore.efi var list'
expect orphans-gone rc zero
expect orphans-gone has '^4 records '
expect orphans-gone lacks '^(Tail|Gap)|orphan'
boot_check decode-stat 'decoded_equals stat UncoreResults'
boot_check decode-bw 'decoded_equals bw BwRun'
# -o metrics: the file is the decoder's --openmetrics text of the same record, which the strict
# OpenMetrics parser, Prometheus' and promtool accept; its read bandwidth is the console's MB/s
# in bytes/s; the machine's SMBIOS identity (QEMU's type 1) labels it.
boot_check metrics-file '"$TOP/build/uncore_decode" --openmetrics --vars "$dir/vars.fd" BwRun > "$dir/bw.prom" &&
	[ "$(step_output "$dir/serial.txt" metrics)" = "$(cat "$dir/bw.prom")" ] &&
	/usr/bin/python3 "$TOP/tests/om_check.py" "$dir/bw.prom" && metrics_read_is_console "$dir/bw.prom" &&
	grep -q "^uncore_info{.*,system_vendor=\"QEMU\"," "$dir/bw.prom"'
boot_check progress-two-lines '[ "$(step_output "$dir/serial.txt" progress-err | grep -c " s of 2.500 s: ")" = 2 ]'
# The HTML page of the interval run: it parses, each polyline has one point
# per interval, and its figures are the console's interval rows.
boot_check html-bw-intervals '"$TOP/build/uncore_decode" --html "$dir/bwiv.html" --vars "$dir/vars.fd" BwIv &&
	python3 "$TOP/tests/html_check.py" --points 10 --values "$dir/bwiv.html" > "$dir/bwiv.values" &&
	diff "$dir/bwiv.values" <(step_output "$dir/serial.txt" bw-iv | awk '"'"'$4 == "MB/s" { v[$2] = v[$2] " " $3 }
		END { print "read:" v["read"]; print "write:" v["write"]; print "total:" v["total"] }'"'"')'
# Every record of the image on one page, an index of their verdicts first.
boot_check html-all-records '"$TOP/build/uncore_decode" --html "$dir/all.html" --vars "$dir/vars.fd" &&
	python3 "$TOP/tests/html_check.py" --outline "$dir/all.html" > "$dir/all.outline" &&
	[ "$(grep -c "<a href=\"#rec-" "$dir/all.html")" = 4 ] && grep -q "^  h2 .*\`bw\`: BwIv$" "$dir/all.outline"'
boot_check decode-long-chunked 'decoded_equals long Long -x ,'
boot_check decode-json '[ "$(step_output "$dir/serial.txt" json)" = "$("$TOP/build/uncore_decode" -j --vars "$dir/vars.fd")" ]'
boot_check vars-image-after-delete '"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" > "$dir/list.txt" &&
	grep -q "^Long " "$dir/list.txt" && ! grep -Eq "^(Temp|Huge)" "$dir/list.txt" &&
	! LC_ALL=C grep -qa "H.u.g.e" "$dir/vars.fd"'
boot_check vars-image-no-orphans '"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" > "$dir/list2.txt" &&
	grep -q "^Long " "$dir/list2.txt" && ! grep -E "^(Tail|Gap)" "$dir/list2.txt"'
boot_run

# Measuring something: the built-in load on two processors, a child image,
# bandwidth checks, and QEMU's SMBIOS (which gives no data width).
boot_begin measure Skylake-Client -smp 2 -m 512 -smbios type=17,speed=3200
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/build/child.efi"
boot_file "$TOP/tests/child/quiet.nsh"
step load 'uncore-emu.efi --rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500 --rate UNC_ARB_TRK_REQUESTS.ALL=3M'
expect load rc zero
step copy 'uncore.efi bw --load copy --cpus all -d 1'
expect copy rc zero
expect copy has '^load: copy on 2 processors, 64 MiB working set: [1-9][0-9]+ bytes moved \(STREAM counts 16 per element\) = [0-9.]+ MB/s$'
expect copy has '^cross-check: the IMC moved [0-9]+ bytes \(read [0-9]+ \+ write [0-9]+\) in the same window: [0-9.]+ x the load.s count$'
expect copy has 'write-allocate'
expect copy has 'the IMC is emulated'
expect copy has '^peak: unknown: 1 of 1 populated memory devices report no data width, so no peak is guessed$'
# ESC during a 60-second check with the load on both processors: no verdict
# (neither PASS nor FAIL), EFI_ABORTED, and the AP free for the next run.
step esc 'uncore.efi bw --load copy --cpus all -I 500 -d 60 --min-bw 1000 -o var:EscBw'
press esc '^ +0\.5[0-9]+  read ' esc
expect esc rc 0x15
expect esc has '^load: copy on 2 processors, 64 MiB working set: [1-9][0-9]+ bytes moved'
expect esc has '^ +0\.5[0-9]{8}  read '
expect esc has '^elapsed: [0-9]\.[0-9]{9} s measured'
expect esc has '^NO VERDICT: the run was stopped early; read\+write bandwidth [0-9]+\.[0-9]{3} MB/s until then, 1000\.000 MB/s required$'
expect esc lacks '^(PASS|FAIL)'
expect esc has '^uncore: stopped by ESC; the counts above cover the time until then$'
step esc-show 'uncore.efi var show EscBw -j'
expect esc-show rc zero
expect esc-show has '"check":\{"verdict":"none","measured_mb_per_s":[0-9.]+,"required_mb_per_s":1000\.000\}'
step after-esc 'uncore.efi bw --load copy --cpus all -d 0.5'
expect after-esc rc zero
expect after-esc has '^load: copy on 2 processors, '
step triad-nt 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL --load triad --nt --cpus 1 --size 24 -d 0.5'
expect triad-nt rc zero
expect triad-nt has '^load: triad with non-temporal stores on 1 processor, 24 MiB working set: [1-9][0-9]+ bytes moved \(STREAM counts 24 per element\)'
expect triad-nt has '^DRAM_DATA_READS '
# write stores 32 bytes at a time where a processor has the AVX state enabled
# (each processor chooses for itself), else with rep stosq or SSE2.
step write-both 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL --load write --cpus all --size 24 -d 0.5'
expect write-both rc zero
expect write-both has '^load: write on 2 processors, 24 MiB working set: [1-9][0-9]+ bytes moved \(STREAM counts 8 per element\)'
step write-nt 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL --load write --nt --cpus all --size 24 -d 0.5'
expect write-nt rc zero
expect write-nt has '^load: write with non-temporal stores on 2 processors, 24 MiB working set: [1-9][0-9]+ bytes moved \(STREAM counts 8 per element\)'
step pass 'uncore.efi bw -d 1 --min-bw 1000'
expect pass rc zero
expect pass has '^PASS: read\+write bandwidth 1[45][0-9]{2}\.[0-9]{3} MB/s >= the required 1000\.000 MB/s$'
step fail 'uncore.efi bw -d 1 --min-read-bw 1.5k -o var:Verdict'
expect fail rc nonzero
expect fail has '^FAIL: read bandwidth (99[0-9]|100[0-9])\.[0-9]{3} MB/s < the required 1500\.000 MB/s$'
expect fail has '^uncore: results stored in EFI variable Verdict: '
step fail-rc 'uncore.efi bw -d 0.2 --min-write-bw 100000'
expect fail-rc has '^FAIL: write bandwidth '
step fail-rc-show '!echo %lasterror%'
expect fail-rc-show has '^0x21$'
# A child that fails: said plainly with its status decoded and named, the
# run's exit status is the child's own (EFIERR(7) reads 0x7 in %lasterror%),
# and the stored record carries it. The run's time covers the Shell loading
# the child too: at least the child's 500 ms, and how much more is the host's
# speed, which no check asserts (the rate check ties the time to the counts).
step child 'uncore.efi -e UNC_ARB_TRK_REQUESTS.ALL,UNC_CLOCK.SOCKET -o var:ChildFail -- fs0:\child.efi 500 7'
expect child rc 0x7
expect child has '^child: spun 500 ms, returning 7$'
expect child has '^child: fs0:\\child.efi 500 7 FAILED: EFI_DEVICE_ERROR \(0x8000000000000007\) after ([5-9][0-9]{2}|[1-9][0-9]{3,}) ms$'
expect child has '^uncore: error: the child failed with EFI_DEVICE_ERROR; the exit status is its own$'
expect child rate UNC_ARB_TRK_REQUESTS.ALL 3000000 1
expect child lacks 'UEFI Interactive Shell'
step child-show 'uncore.efi var show ChildFail'
expect child-show rc zero
expect child-show has '^record ChildFail: `stat` by uncore.efi .*, exit status: the child failed$'
expect child-show has '^child: fs0:\\child.efi 500 7 FAILED: EFI_DEVICE_ERROR \(0x8000000000000007\) after ([5-9][0-9]{2}|[1-9][0-9]{3,}) ms$'
step child-ok 'uncore.efi bw -- fs0:\child.efi 300 0'
expect child-ok rc zero
expect child-ok has '^child: fs0:\\child.efi 300 0 returned EFI_SUCCESS after '
expect child-ok bw read 1000 2
# -j with every kind of extra but the load: one document, the extras inside
# (the harness parses it; before, {"extras":...} came as a second document).
step json-extras 'uncore.efi bw -j --min-bw 1000 -- fs0:\child.efi 200 0'
expect json-extras rc zero
expect json-extras has '^\{"tool":"uncore\.efi","command":"bw",.*,"extras":\{"peak_mb_per_s":0,"peak_note":"unknown: .*,"check":\{"verdict":"PASS",.*,"child":\{"command":"fs0:\\\\child\.efi 200 0","status":"0x0"\}\}\}$'
expect json-extras lacks '^\{"extras"'
# found as the Shell finds it: with .efi added, along %path%
step child-path 'uncore.efi -e UNC_CLOCK.SOCKET -- child 100 0'
expect child-path rc zero
expect child-path has '^child: spun 100 ms, returning 0$'
expect child-path has '^child: child 100 0 returned EFI_SUCCESS after '
# Scripts: the Shell's Execute reports no status for them; the script's own
# (its %lasterror%) is the child's status.
step mk-fail-nsh '!echo "fs0:\child.efi 200 9" > fs0:\fail.nsh'
expect mk-fail-nsh lines 0
step script-fail 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\fail.nsh'
expect script-fail rc 0x9
expect script-fail has '^child: spun 200 ms, returning 9$'
expect script-fail has '^child: fs0:\\fail.nsh FAILED: EFI_OUT_OF_RESOURCES \(0x8000000000000009\) after '
step mk-ok-nsh '!echo "fs0:\child.efi 200 0" > fs0:\ok.nsh'
expect mk-ok-nsh lines 0
step script-ok 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\ok.nsh'
expect script-ok rc zero
expect script-ok has '^child: fs0:\\ok.nsh returned EFI_SUCCESS after '
step script-quiet 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\quiet.nsh'
expect script-quiet rc 0x18
expect script-quiet has '^child: fs0:\\quiet.nsh ran for [0-9]+ ms; its status is UNKNOWN: the Shell left no %lasterror% for it$'
# What the Shell cannot run is refused before anything runs: one line, no
# report, the PMU untouched.
step missing 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\nothere.efi'
expect missing rc 0xE
expect missing has "^uncore: error: child 'fs0:\\\\nothere.efi': no such file, nor with .nsh or .efi added \(looked as given and along %path%\)$"
expect missing lines 1
step unknown 'uncore.efi -e UNC_CLOCK.SOCKET -- frobnicate 1 2'
expect unknown rc 0xE
expect unknown has "^uncore: error: child 'frobnicate': no such file, nor with .nsh or .efi added \(looked as given and along %path%\)$"
expect unknown lines 1
step mkdir '!mkdir fs0:\tools'
expect mkdir rc zero
step dir 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\tools'
expect dir rc 0x2
expect dir has "^uncore: error: child 'fs0:\\\\tools': a directory, not an EFI image or a .nsh script$"
expect dir lines 1
step mk-not-image '!echo "not an image" > fs0:\notimage.efi'
expect mk-not-image lines 0
step not-image 'uncore.efi -e UNC_CLOCK.SOCKET -- fs0:\notimage.efi'
expect not-image rc 0x2
expect not-image has "^uncore: error: child 'fs0:\\\\notimage.efi': FS0:\\\\notimage.efi is not an image this firmware can load \(EFI_UNSUPPORTED\)$"
expect not-image lines 1
step refused-regs 'uncore.efi regs'
expect refused-regs has '^0xe01 MSR_UNC_PERF_GLOBAL_CTRL +0x0000000000000000$'
expect refused-regs has '^0x394 MSR_UNC_PERF_FIXED_CTRL +0x0000000000000000$'
step bad-load 'uncore.efi bw --load scale'
expect bad-load rc nonzero
expect bad-load has "^uncore: error: unknown load 'scale' for --load \(read, write, copy or triad\)$"
expect bad-load lines 1
step bad-cpus 'uncore.efi bw --load read --cpus 9'
expect bad-cpus rc nonzero
expect bad-cpus has '^uncore: error: --load: --cpus 9: 2 processors are enabled$'
boot_check decode-verdict 'decoded_equals fail Verdict'
boot_check decode-child-failed '"$TOP/build/uncore_decode" --vars "$dir/vars.fd" ChildFail |
	grep -Eq "^child: fs0:.child.efi 500 7 FAILED: EFI_DEVICE_ERROR \(0x8000000000000007\) after "'
boot_run


# ---- Lab mode: no Shell and no startup.nsh; the firmware boots a USB stick
# image as removable media and uncore.efi ends the boot itself ----
# PASS and FAIL, and the per-board choice: LabBoard-7.cfg, not uncore.cfg
# (which would reboot). The emulator, info, a bw PASS and a bw FAIL.
lab_begin lab Skylake-Client -smp 2 -smbios type=2,product=LabBoard-7 -smbios type=1,serial=SN-1234
lab_config "$lab/decoy.cfg"
lab_file "$lab/passfail.cfg" ::/uncore/LabBoard-7.cfg
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
boot_check start 'lab_line "UNCORE-LAB START board=\"LabBoard-7\" serial=\"SN-1234\" config=\uncore\LabBoard-7.cfg"'
boot_check results '[ "$(grep -c "^UNCORE-LAB RESULT " "$dir/serial.txt")" = 4 ] &&
	lab_line "UNCORE-LAB RESULT name=emulator result=pass" && lab_line "UNCORE-LAB RESULT name=info result=pass" &&
	grep -Ex "UNCORE-LAB RESULT name=bw_pass result=pass measurement=[0-9]+\.[0-9]+ units=MB/s" "$dir/serial.txt" &&
	grep -Ex "UNCORE-LAB RESULT name=bw_fail result=fail measurement=[0-9]+\.[0-9]+ units=MB/s" "$dir/serial.txt"'
boot_check measured 'lab_measured bw_pass 1500 1 && lab_measured bw_fail 1500 1'
# LAVA's test monitor, with drivers/lab/lab.md's pattern, over the serial line as it came.
boot_check lava 'python3 "$TOP/tests/qemu/lab_check.py" lava "$TOP/drivers/lab/lab.md" "$dir/serial.log"'
# bw-pass has -I: its json is one array of the intervals' objects.
boot_check json-intervals 'python3 -c "import json, sys; c = json.load(open(sys.argv[1]))[\"cases\"][2]
assert c[\"id\"] == \"bw_pass\" and isinstance(c[\"json\"], list) and len(c[\"json\"]) >= 3, c[\"json\"]" "$(run_dir)/results.json"'
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=3 failed=1"'
boot_check folder 'basename "$(run_dir)" | grep -Ex "[0-9]{8}-[0-9]{6}-SN-1234"'
boot_check junit 'python3 "$TOP/tests/qemu/lab_check.py" junit "$(run_dir)/junit.xml" 4 1 0'
boot_check json 'python3 "$TOP/tests/qemu/lab_check.py" agree "$dir/serial.txt" "$(run_dir)/results.json" "$(run_dir)/junit.xml"'
# report.html: the three records (info, bw-pass, bw-fail) on one page that
# parses, each linked from the index; the console says where it is.
boot_check report-html 'h=$(run_dir)/report.html; python3 "$TOP/tests/html_check.py" --outline "$h" > "$dir/report.outline" &&
	[ "$(grep -c "<a href=\"#rec-Lab00" "$h")" = 6 ] && grep -q "FAIL" "$h" && grep -q "PASS" "$h" &&
	head -n 4 "$dir/report.outline" | tr "\n" "|" | grep -qx "h1 Lab run|  h2 Cases|h1 Records|  h2 .*|" &&
	grep -q "<p class=\"verdict fail\">FAIL</p>" "$h" && grep -q "<tr><th>board</th><td>LabBoard-7</td></tr>" "$h" &&
	grep -q "<tr><th>serial</th><td>SN-1234</td></tr>" "$h" && [ "$(grep -c "<tr id=\"case-" "$h")" = 4 ] &&
	grep -Eq "^uncore: lab: report: .uncore.results.[0-9]{8}-[0-9]{6}-SN-1234.report\.html \(3 records\)" "$dir/serial.txt" &&
	grep -q "^uncore: lab: report: " "$(run_dir)/console.txt"'
# bw-fail's -o metrics:bw-fail.prom, in the results folder: OpenMetrics text that passes the
# parsers and promtool, the failed check said as 0 and the run's status, every series with the
# board's SMBIOS identity and the case's name.
boot_check metrics 'm=$(run_dir)/bw-fail.prom; /usr/bin/python3 "$TOP/tests/om_check.py" "$m" &&
	l="board=\"LabBoard-7\",system=\"Standard PC (Q35 + ICH9, 2009)\",serial=\"SN-1234\",bios=\"0.0.0\",cpu=\"Intel Core Processor (Skylake)\",msr_access=\"emulated\",case=\"bw-fail\"" &&
	grep -qx "uncore_check_passed{check=\"read+write\",$l} 0" "$m" &&
	grep -qx "uncore_check_required_bytes_per_second{check=\"read+write\",$l} 2000000000" "$m" &&
	grep -qx "uncore_exit_status{status=\"bandwidth check failed\",$l} 11" "$m"'
boot_check console 'c=$(run_dir)/console.txt; grep -q "^uncore-emu: emulating a 6th-gen Core uncore" "$c" &&
	grep -q "^UNCORE-LAB START board=\"LabBoard-7\"" "$c" && grep -qx "UNCORE-LAB END result=fail passed=3 failed=1" "$c"'
boot_run

# The stick `make image` built, as it is: its default configuration on plain
# QEMU, where info and bw fail (no CBo, MCHBAR disabled): on-fail halt keeps
# the verdict on the screen, and the run is on the stick.
lab_begin image Skylake-Client
lab_image "$TOP/build/uncore-usb.img"
lab_end stop '^UNCORE-LAB END '
# No type 2 structure on QEMU: the board is type 1's product.
boot_check start 'lab_line "UNCORE-LAB START board=\"Standard PC (Q35 + ICH9, 2009)\" serial=\"\" config=\uncore\uncore.cfg"'
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=0 failed=2"'
boot_check folder 'basename "$(run_dir)" | grep -Ex "[0-9]{8}-[0-9]{6}-noserial"'
boot_check junit 'python3 "$TOP/tests/qemu/lab_check.py" junit "$(run_dir)/junit.xml" 2 0 2'
# fsck.fat finds no fault in the partition, as built and as the guest left it.
boot_check fat 'for i in "$TOP/build/uncore-usb.img" "$dir/usb.img"; do
	dd if="$i" of="$dir/part.img" bs=1M skip=1 status=none && fsck.fat -n "$dir/part.img" || exit 1; done'
boot_run

# A bad line: one error line naming the file, the line and the problem; the
# run fails and on-fail shutdown ends it, with no prompt.
lab_begin badcfg Skylake-Client
lab_config "$lab/bad.cfg"
boot_check error '[ "$(grep -c "^uncore: error: " "$dir/serial.txt")" = 1 ] &&
	grep -Ex "uncore: error: \\\\uncore\\\\uncore\.cfg line 3: .*many.*" "$dir/serial.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=0 failed=1"'
boot_check no-prompt '! grep -q "Shell>" "$dir/serial.txt"'
boot_check junit 'python3 "$TOP/tests/qemu/lab_check.py" junit "$(run_dir)/junit.xml" 1 0 1'
boot_run

# No configuration at all: the error names the file looked for; with no
# on-fail line, a run with no Shell ends by shutting down.
lab_begin nocfg Skylake-Client
lab_config ''
boot_check error 'grep -Ex "uncore: error: .*\\\\uncore\\\\uncore\.cfg.*" "$dir/serial.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=0 failed=1"'
boot_check no-prompt '! grep -q "Shell>" "$dir/serial.txt"'
boot_run

# A write-protected stick: the console says so, the results go to EFI
# variables only, and nothing is written on the stick.
lab_begin readonly Skylake-Client
lab_readonly
lab_config "$lab/readonly.cfg"
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
boot_check said 'grep -Eq "^uncore: lab: cannot write .*read-only.*EFI variables only" "$dir/serial.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=pass passed=2 failed=0"'
boot_check nothing-written '[ -z "$(ls -A "$dir/results" 2>/dev/null)" ] && ! grep -q "^uncore: lab: results in " "$dir/serial.txt"'
boot_check variables '"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" > "$dir/list.txt" && grep -q "Lab" "$dir/list.txt"'
boot_run

# Hostile configurations. 10,000 comment lines (40 KB, under the 64 KB
# limit): every file of the run is still written. Lab mode started inside
# itself (`run \EFI\BOOT\BOOTX64.EFI lab`) is refused as a `lab` line is,
# with one START and one END. Two names LAVA would make one id get two ids.
# `-o NAME` goes into the run's folder.
mkdir -p "$WORK"
{ yes '# x' | head -n 10000; cat "$lab/hostile.cfg"; } > "$WORK/hostile.cfg"
lab_begin hostile Skylake-Client
lab_config "$WORK/hostile.cfg"
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
lab_end shutdown
boot_check refused '[ "$(grep -c "^uncore: error: .lab. cannot run inside lab mode (a lab run is going on)$" "$dir/serial.txt")" = 1 ] &&
	[ "$(grep -c "^UNCORE-LAB START " "$dir/serial.txt")" = 1 ] && [ "$(grep -c "^UNCORE-LAB END " "$dir/serial.txt")" = 1 ]'
boot_check results 'lab_line "UNCORE-LAB RESULT name=nested_lab result=error" &&
	lab_line "UNCORE-LAB RESULT name=nested_lab_2 result=error" && lab_line "UNCORE-LAB RESULT name=info result=pass" &&
	lab_line "UNCORE-LAB RESULT name=plant result=pass" && lab_line "UNCORE-LAB RESULT name=no_record result=error" &&
	lab_line "UNCORE-LAB END result=fail passed=3 failed=3"'
# report.html: the run first, every case with its result (errors too);
# Lab006 is the planted variable, not no_record's record.
boot_check report 'h=$(run_dir)/report.html && grep -q "<p class=\"verdict fail\">FAIL</p>" "$h" &&
	[ "$(grep -c "<tr id=\"case-" "$h")" = 6 ] && grep -q "<tr id=\"case-nested_lab\"><td>nested_lab</td>.*ERROR" "$h" &&
	grep -q "<tr id=\"case-no_record\">.*<td>none</td></tr>" "$h" && ! grep -q "#rec-Lab006" "$h" &&
	grep -q "^uncore: lab: report: .* (1 record)" "$dir/serial.txt"'
boot_check files 'd=$(run_dir) && for f in results.json junit.xml console.txt report.html info.json; do
	[ -s "$d/$f" ] || { echo "no $f"; exit 1; }; done && ! grep -q "cannot write" "$dir/serial.txt" &&
	python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$d/info.json" &&
	grep -q "uncore: results written to info.json: " "$d/console.txt"'
boot_check junit 'python3 "$TOP/tests/qemu/lab_check.py" junit "$(run_dir)/junit.xml" 6 0 3'
boot_check lava 'python3 "$TOP/tests/qemu/lab_check.py" lava "$TOP/drivers/lab/lab.md" "$dir/serial.log"'
boot_check fat 'dd if="$dir/usb.img" of="$dir/part.img" bs=1M skip=1 status=none && fsck.fat -n "$dir/part.img"'
boot_run

# -o with a path (the boot image here) is refused before anything runs:
# one error line, and the stick still boots the same image.
lab_begin escape Skylake-Client
lab_config "$lab/escape.cfg"
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
boot_check error '[ "$(grep -c "^uncore: error: " "$dir/serial.txt")" = 1 ] &&
	grep -Fqx "uncore: error: \uncore\uncore.cfg line 3: -o \EFI\BOOT\BOOTX64.EFI: in lab mode -o takes a plain file name, written in the run'"'"'s results folder" "$dir/serial.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=fail passed=0 failed=1"'
boot_check image-kept 'lab_cat /EFI/BOOT/BOOTX64.EFI | cmp - "$TOP/build/uncore.efi"'
boot_run

# A stick with no free space: said at the start, nothing created on it
# (fsck.fat finds it clean), the records in their variables.
lab_begin full Skylake-Client
lab_full
lab_config "$lab/full.cfg"
lab_file "$TOP/build/uncore-emu.efi" ::/uncore/uncore-emu.efi
boot_check said 'grep -Eq "^uncore: lab: cannot write .uncore.results.[0-9]{8}-[0-9]{6}-noserial \(EFI_VOLUME_FULL\): the volume is full; the run goes on with its results in EFI variables only$" "$dir/serial.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=pass passed=2 failed=0"'
boot_check nothing-created '! mdir -i "$dir/usb.img@@1M" ::/uncore/results >/dev/null 2>&1'
boot_check fat 'dd if="$dir/usb.img" of="$dir/part.img" bs=1M skip=1 status=none && fsck.fat -n "$dir/part.img"'
boot_check variables '"$TOP/build/uncore_decode" --list --vars "$dir/vars.fd" | grep -q "^Lab002 "'
boot_run

# Secure Boot (OVMF with a test key enrolled): uncore.efi and uncore-emu.efi
# signed with it by make sign run, the emulator's driver too; unsigned, the
# firmware refuses uncore.efi, and its Shell, so nothing runs.
mkdir -p "$WORK"
sb_cert=/usr/share/ovmf/PkKek-1-snakeoil.pem
openssl rsa -passin pass:snakeoil -in /usr/share/ovmf/PkKek-1-snakeoil.key -out "$WORK/snakeoil.key" 2>/dev/null
env -u MAKEFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory sign KEY="$WORK/snakeoil.key" CERT="$sb_cert" > "$WORK/sign.txt" 2>&1
lab_begin secure Skylake-Client
lab_secure
lab_efi "$TOP/build/signed/uncore.efi"
lab_config "$lab/secure.cfg"
lab_file "$TOP/build/signed/uncore-emu.efi" ::/uncore/uncore-emu.efi
boot_check signed-clean 'sed "s/^/make sign: /" "$WORK/sign.txt"; [ -s "$WORK/sign.txt" ] && ! grep -qv "^  [A-Z]* " "$WORK/sign.txt"'
boot_check end 'lab_line "UNCORE-LAB END result=pass passed=2 failed=0"'
boot_check measured 'lab_measured bw_check 1500 1'
boot_run

lab_begin unsigned Skylake-Client
lab_secure
lab_config "$lab/secure.cfg"
lab_end stop 'No bootable option or device was found'
boot_check refused 'grep -q "^BdsDxe: failed to load Boot0001 .*: Access Denied$" "$dir/serial.txt" &&
	grep -q "^BdsDxe: failed to start Boot0002 \"EFI Internal Shell\" .*: Security Violation$" "$dir/serial.txt"'
boot_check nothing-ran '! grep -Eq "^(uncore|UNCORE-LAB)" "$dir/serial.txt"'
boot_run

# Four-socket Sapphire Rapids (QEMU with 4 sockets), 4 channels and 2 CHAs
# a socket, each socket at its own read rate: the UBox rule ties each
# table to its socket; bw per socket within 0.5% (4 x R x 64 MB/s).
boot_begin spr4s Skylake-Client,model=143 -smp 4,sockets=4,cores=1,threads=1
boot_file "$TOP/build/uncore-emu.efi"
boot_file "$TOP/build/ebs.efi"
step spr4s-load 'uncore-emu.efi --sockets 4 --channels 4 --chas 2 --rate UNC_M_CAS_COUNT.RD=10M --rate UNC_M_CAS_COUNT.WR=2M --socket-rate 1:UNC_M_CAS_COUNT.RD=8M --socket-rate 2:UNC_M_CAS_COUNT.RD=6M --socket-rate 3:UNC_M_CAS_COUNT.RD=4M'
expect spr4s-load rc zero
step spr4s-info 'uncore.efi info'
expect spr4s-info rc zero
expect spr4s-info has '^discovery: +4 tables, 284 units kept, 0 entries skipped \(devices 8086:09a7\)$'
expect spr4s-info has '^  sockets: +4, by the UBox of each bus'
expect spr4s-info has '^  table 3: 60:0a\.0 \(8086:09a7\) capability 0x100, BIR 0, BAR 0xfe300000, socket 3, 71 units: 2 cha \(type 0\), .*, 4 imc \(type 6\)$'
expect spr4s-info has '^  ubox 7e:00\.0: node ID 6, GIDNIDMAP 0x447d63: socket 3$'
expect spr4s-info has '^imc: +16 boxes programmable of 16 found'
expect spr4s-info has '^cha: +8 boxes programmable of 8 found'
step spr4s-regs0 'uncore.efi regs'
expect spr4s-regs0 rc zero
step spr4s-bw-pb 'uncore.efi bw -d 1 --per-box'
expect spr4s-bw-pb rc zero
expect spr4s-bw-pb bw read 7168 0.5
expect spr4s-bw-pb pbw socket0:read 2560 0.5
expect spr4s-bw-pb pbw socket1:read 2048 0.5
expect spr4s-bw-pb pbw socket2:read 1536 0.5
expect spr4s-bw-pb pbw socket3:read 1024 0.5
expect spr4s-bw-pb pbw socket3:write 512 0.5
expect spr4s-bw-pb pbw socket3.ch3:read 256 0.5
expect spr4s-bw-pb count '^socket[0-3]\.ch[0-3] +read' 16
step spr4s-regs1 'uncore.efi regs'
expect spr4s-regs1 same-written spr4s-regs0
# ExitBootServices with per-package CHA MSRs and MMIO iMC registers
# programmed (the boot's last step: the child shuts the machine down).
# Before: package 0's CHA 0 select and both sockets' iMC box 0 selects read
# programmed (package 1's are not read then: processor 1, its only one,
# serves uncore.efi's trips). After: every one reads as regs showed before
# the run, package 1's CHA box control and select read by processor 1 in
# the child's own notification, after uncore.efi's (tests/child/ebs.c); a
# restore that misses package 1 leaves its select programmed (0x1).
expect spr4s-regs0 has '^0x2002 cha box 0 CTL0 \(socket 1\) +0x0000000000000000$'
expect spr4s-regs0 has '^0xfe110040 imc box 0 CTL0 \(socket 1\) +0x0000000000000000$'
step spr4s-boxctl 'uncore.efi msr read --pkg 1 0x2000'
expect spr4s-boxctl has '^msr 0x2000 .*on package 1 = 0x0000000000000000$'
step spr4s-ebs 'uncore.efi -e cha/event=0x01/,UNC_M_CAS_COUNT.RD -- fs0:\ebs.efi spr4s-ebs 0x2002 c1:0x2000 c1:0x2002 m:0xfe010040 m:0xfe110040'
expect spr4s-ebs rc zero
expect spr4s-ebs has '^ebs: before ExitBootServices: 0x2002=0x[0-9a-f]*[1-9a-f][0-9a-f]* c1:0x2000=- c1:0x2002=- m:0xfe010040=0x[0-9a-f]*[1-9a-f][0-9a-f]* m:0xfe110040=0x[0-9a-f]*[1-9a-f][0-9a-f]*$'
expect spr4s-ebs has '^ebs: after ExitBootServices: 0x2002=0x0 c1:0x2000=0x0 c1:0x2002=0x0 m:0xfe010040=0x0 m:0xfe110040=0x0$'
boot_run



# The boot check under Secure Boot. The snakeoil firmware (a test key
# enrolled) refuses its own Shell under Secure Boot, so the Shell boot runs
# with OVMF's SecureBootEnable variable set to 0 in a copy of the snakeoil
# VARS (sb_enable: the byte of its data, in the store's active record) and
# writes the options there: an unsigned uncore-boot.efi as Driver0000, the
# check (signed by make sign above) behind it. Then bootcheck_sb turns
# Secure Boot back on and boots those VARS: the firmware refuses the
# unsigned driver, runs the signed check (no emulator: the check fails,
# MCHBAR being off, and stores its record), and the boot goes on to its
# boot options.
sb_enable() { # VARS 0|1
	python3 - "$1" "$2" <<'PY'
import sys
path, on = sys.argv[1], int(sys.argv[2])
d = bytearray(open(path, "rb").read())
name = "SecureBootEnable".encode("utf-16-le") + b"\0\0"
hits = [i for i in range(len(d)) if d.startswith(name, i) and d[i - 60:i - 58] == b"\xaa\x55" and d[i - 58] == 0x3F]
if len(hits) != 1:
    sys.exit("%s: %d active SecureBootEnable records" % (path, len(hits)))
d[hits[0] + len(name)] = on
open(path, "wb").write(d)
PY
}
bootcheck_sb() {
	cp "$dir/vars.fd" "$dir/sb-vars.fd" && sb_enable "$dir/sb-vars.fd" 1 && cp "$dir/esp.img" "$dir/sb-esp.img" &&
		mmd -D s -i "$dir/sb-esp.img" ::/EFI ::/EFI/uncore &&
		mcopy -i "$dir/sb-esp.img" "$TOP/build/signed/uncore-boot.efi" ::/EFI/uncore/uncore-boot.efi || return 1
	: > "$dir/sb.log"
	timeout 300 qemu-system-x86_64 -machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on \
		-accel tcg -cpu Skylake-Client -m 256 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="${OVMF_CODE%.fd}.snakeoil.fd" \
		-drive if=pflash,format=raw,unit=1,file="$dir/sb-vars.fd" -drive format=raw,file="$dir/sb-esp.img" \
		-display none -nodefaults -no-reboot -serial file:"$dir/sb.log" </dev/null >/dev/null 2>&1 &
	local pid=$! t=0
	until clean_log "$dir/sb.log" | grep -q 'BdsDxe: No bootable option' || [ $((t += 1)) -gt 600 ]; do sleep 0.5; done
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	clean_log "$dir/sb.log" > "$dir/sb.txt"
	grep "uncore-boot\|BdsDxe" "$dir/sb.txt"
	grep -q '^BdsDxe: failed to start Boot0002 "EFI Internal Shell" .*: Security Violation$' "$dir/sb.txt" && # it is on
		[ "$(grep -c '^uncore-boot: boot [0-9]*: ' "$dir/sb.txt")" = 2 ] && # the signed one's two lines only
		grep -q '^uncore-boot: boot 1: FAILED; record UncoreBoot1 stored, last 3 kept; in [0-9.]* s$' "$dir/sb.txt" &&
		sed -n '/^uncore-boot: boot 1: FAILED/,$p' "$dir/sb.txt" | grep -q '^BdsDxe: loading Boot' &&
		"$TOP/build/uncore_decode" --list --vars "$dir/sb-vars.fd" | grep -c '^UncoreBoot' | grep -qx 1
}
boot_begin bootcheck-sb Skylake-Client
cp "${OVMF_VARS%.fd}.snakeoil.fd" "$WORK/sb-off-vars.fd" && sb_enable "$WORK/sb-off-vars.fd" 0
boot_vars "$WORK/sb-off-vars.fd"
cp "$TOP/build/uncore-boot.efi" "$WORK/unsigned-boot.efi"
boot_file "$WORK/unsigned-boot.efi"
boot_file "$TOP/build/signed/uncore-boot.efi"
step sb-unsigned '!bcfg driver add 0 fs0:\unsigned-boot.efi "unsigned"'
expect sb-unsigned has '^bcfg: Add Driver0000 as 0$'
step sb-install 'uncore.efi boot-check install --min-bw 1000 -d 0.2'
expect sb-install rc zero
expect sb-install has '^boot-check: installed Driver0001 '
boot_check secure-boot 'bootcheck_sb'
boot_run

boot_wait
