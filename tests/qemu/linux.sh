# The linux boot's Linux runs (sourced by boot-tests.sh): Debian's kernel
# booted by OVMF with a VARS image and the lab run's stick as a virtio disk,
# and a busybox initramfs (tests/qemu/linux-init.sh as /init) holding the
# static decoder, Debian's efibootmgr and e2fsprogs' chattr with the
# libraries ldd names, and the modules Debian builds as such that it needs:
# efivarfs and the virtio disk's.
LINUX_MODULES="drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev
	drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci drivers/block/virtio_blk fs/efivarfs/efivarfs"

# The emulator's options, as the data of its Driver#### option (UCS-2, NUL-terminated).
LINUX_EMU_ARGS="--rate DRAM_DATA_READS=15625000 --rate DRAM_DATA_WRITES=7812500"
# The boot check's configuration, UncoreBootCfg under its GUID, as Linux
# writes it through efivarfs (tools/boot-check-linux.md): "UNCB", u16
# version 1, u8 keep (3), u8 on_fail (0: the boot goes on), u16 length, the
# check's command line, u32 CRC-32 of all before it, little-endian; the
# efivarfs file has the attributes first (u32 7: non-volatile, boot
# service and runtime access).
LINUX_CFG_FILE=UncoreBootCfg-3f1d6b2e-8c47-4a59-b0e3-91d2c6a8f514
linux_cfg_bytes() {
	python3 -c 'import struct, sys, zlib
t = b"bw -d 0.5 --min-bw 900"; b = b"UNCB" + struct.pack("<HBBH", 1, 3, 0, len(t)) + t
sys.stdout.buffer.write(b + struct.pack("<I", zlib.crc32(b)))'
}

linux_kernel() { ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1; }

linux_initramfs() { # KVER OUT.gz
	local root="$dir/initramfs" m ko b l
	rm -rf "$root" && mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/modules" || return 1
	cp /bin/busybox "$root/bin/busybox" && cp "$TOP/build/uncore_decode-static" "$root/bin/uncore_decode" &&
		cp "$TOP/tests/qemu/linux-init.sh" "$root/init" && cp "$TOP/tools/uncore-boot-check.service" "$root/" &&
		mkdir -p "$root/usr/local/bin" "$root/var/lib/prometheus/node-exporter" &&
		ln -s /bin/uncore_decode "$root/usr/local/bin/uncore_decode" || return 1
	for b in efibootmgr chattr; do
		b=$(command -v $b) || { echo "no $b (tests/deps.sh installs it)"; return 1; }
		cp "$b" "$root/bin/" || return 1
		for l in $(ldd "$b" | grep -o '/[^ ]*'); do
			mkdir -p "$root${l%/*}" && cp -L "$l" "$root$l" || return 1
		done
	done
	for m in $LINUX_MODULES; do
		ko=$(ls "/lib/modules/$1/kernel/$m".ko* 2>/dev/null | head -n 1)
		case $ko in
		*.ko) cp "$ko" "$root/modules/" ;;
		*.ko.xz) xz -dc "$ko" > "$root/modules/${m##*/}.ko" ;;
		*.ko.zst) zstd -qdc "$ko" > "$root/modules/${m##*/}.ko" ;;
		*) echo "no module $m for Linux $1"; return 1 ;;
		esac
		echo "${m##*/}.ko" >> "$root/modules/order"
	done
	printf '%s\0' "$LINUX_EMU_ARGS" | iconv -f ASCII -t UTF-16LE > "$root/emu.opt" &&
		{ printf '\007\000\000\000' && linux_cfg_bytes; } > "$root/boot.cfg" || return 1
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$2"
}

# One Linux run: PASS (the init's uncore= argument) on VARS, the stick
# linux-disk.img as /dev/vda, a Skylake client processor (the emulator's
# uncore, which the check measures before Linux); its serial log cleaned
# into linux-PASS.txt.
linux_run() { # PASS VARS
	timeout 300 qemu-system-x86_64 -machine q35 -accel tcg -cpu Skylake-Client -m 512 \
		-drive if=pflash,format=raw,unit=0,readonly=on,file="$OVMF_CODE" \
		-drive if=pflash,format=raw,unit=1,file="$2" \
		-drive if=none,id=esp,format=raw,file="$dir/linux-disk.img" -device virtio-blk-pci,drive=esp \
		-kernel "$(linux_kernel)" -initrd "$dir/initramfs.gz" \
		-append "console=ttyS0 quiet loglevel=0 panic=-1 uncore=$1" \
		-display none -nodefaults -no-reboot -serial file:"$dir/linux-$1.log" </dev/null >/dev/null 2>&1
	clean_log "$dir/linux-$1.log" > "$dir/linux-$1.txt"
	grep -q "^@@DONE" "$dir/linux-$1.txt" || { echo "Linux ($1) did not finish:"; tail -n 20 "$dir/linux-$1.txt"; return 1; }
}

# The Driver#### options efibootmgr made under Linux, as the VARS image
# holds them: DriverOrder runs the emulator's first, then the check's,
# both short-form paths (HD: the stick's partition 1 at sector 0x800,
# 0x7800 sectors) to their files, the emulator's options as its data.
linux_options_installed() { # VARS
	local order emu boot hd='HD\(1,MBR,0x[0-9a-f]+,0x800,0x7800\)' data
	python3 "$TOP/tests/qemu/efivars.py" "$1" > "$dir/linux-vars-installed.txt" || return 1
	order=($(sed -n 's/^DriverOrder-[-0-9a-f]* [0-9]* //p' "$dir/linux-vars-installed.txt"))
	[ ${#order[@]} = 2 ] || { echo "DriverOrder: ${order[*]:-none}, want two options"; return 1; }
	emu=$(grep "^Driver${order[0]}-" "$dir/linux-vars-installed.txt")
	boot=$(grep "^Driver${order[1]}-" "$dir/linux-vars-installed.txt")
	data=$(printf '%s\0' "$LINUX_EMU_ARGS" | iconv -f ASCII -t UTF-16LE | od -An -v -tx1 | tr -d ' \n')
	grep -Eqx "Driver${order[0]}-8be4df61-93ca-11d2-aa0d-00e098032b8c [0-9]+ attr=0x1 desc=uncore-emu path=$hd/File\(\\\\uncore\\\\uncore-emu-drv.efi\) data=$data" <<<"$emu" &&
		grep -Eqx "Driver${order[1]}-8be4df61-93ca-11d2-aa0d-00e098032b8c [0-9]+ attr=0x1 desc=uncore boot check path=$hd/File\(\\\\uncore\\\\uncore-boot.efi\) data=" <<<"$boot" ||
		{ echo "the options in DriverOrder (${order[*]}):"; printf '%s\n' "$emu" "$boot"; return 1; }
}

# The unit's command under Linux (step unit$1, textfile step prom$1): exit
# status $2, uncore_check_passed $3, the text the host decodes from VARS.
linux_textfile() { # -SUFFIX STATUS PASSED VARS
	local f="$dir/uncore${1:+-$1}.prom" s
	step_output "$dir/linux-run.txt" prom${1:+-$1} > "$f"
	"$TOP/build/uncore_decode" --openmetrics --vars "$4" > "$f.host"; s=$?
	[ "$(step_rc "$dir/linux-run.txt" unit${1:+-$1})" = "$2" ] && [ $s = "$2" ] && diff "$f" "$f.host" &&
		grep -Eqx "uncore_check_passed\{.*\} $3" "$f" && promtool check metrics < "$f" &&
		/usr/bin/python3 "$TOP/tests/om_check.py" "$f" ||
		{ echo "the unit's command gave status $(step_rc "$dir/linux-run.txt" unit${1:+-$1}) (host $s, want $2) and textfile:"; head -n 20 "$f"; return 1; }
}

# After linux_efivarfs (its install pass): the options as efibootmgr shows
# them and as the VARS image holds them; then a second Linux run on that
# image, where the firmware's boot manager starts them before the kernel,
# and Linux removes them with efibootmgr: none left in the image.
linux_drivers() {
	local id
	for id in drv-add drv-show; do
		[ "$(step_rc "$dir/linux.txt" $id)" = 0 ] || { echo "under Linux, $id failed:"; step_output "$dir/linux.txt" $id; return 1; }
	done
	step_output "$dir/linux.txt" drv-show | grep -Eq '^Driver[0-9A-F]{4}\* uncore-emu	HD\(1,MBR,0x[0-9a-f]+,0x800,0x7800\)/File\(\\uncore\\uncore-emu-drv.efi\)' ||
		{ echo "efibootmgr --driver -v shows:"; step_output "$dir/linux.txt" drv-show; return 1; }
	linux_options_installed "$dir/linux-vars.fd" || return 1
	[ "$(step_rc "$dir/linux.txt" cfg-write)" = 0 ] &&
		[ "$(python3 "$TOP/tests/qemu/efivars.py" "$dir/linux-vars.fd" UncoreBootCfg)" = \
			"$LINUX_CFG_FILE $(linux_cfg_bytes | wc -c) $(linux_cfg_bytes | od -An -v -tx1 | tr -d ' \n')" ] ||
		{ echo "the configuration written through efivarfs is not in the VARS image as written:";
		  step_output "$dir/linux.txt" cfg-write; python3 "$TOP/tests/qemu/efivars.py" "$dir/linux-vars.fd" UncoreBootCfg; return 1; }
	cp "$dir/linux-vars.fd" "$dir/linux-vars-installed.fd"
	linux_run run "$dir/linux-vars.fd" || return 1
	# The unit's textfile, each time what the host decodes from the image
	# holding the same records, passing promtool and tests/om_check.py: on
	# the failed check UncoreBoot2 (status 3, uncore_check_passed 0), then
	# with it removed on UncoreBoot1 (status 0, uncore_check_passed 1), the
	# file alone in its directory.
	for id in prom-fail rm-fail prom textdir cfg-remove; do
		[ "$(step_rc "$dir/linux-run.txt" $id)" = 0 ] || { echo "under Linux, $id failed:"; step_output "$dir/linux-run.txt" $id; return 1; }
	done
	# Before Linux, the boot manager started the emulator's option with
	# the options efibootmgr wrote as its data (UCS-2 text), then
	# uncore-boot.efi's, with the configuration Linux wrote: its check
	# measured the emulated 1000 + 500 MB/s and passed (--min-bw 900), and
	# it stored the record of boot N, the latest; the unit's command on it
	# exits 0 and its textfile has the figures, emulated and passed.
	sed -n '/^@@STEP /q; p' "$dir/linux-run.txt" > "$dir/linux-before.txt"
	local n; n=$(sed -n 's/^uncore-boot: boot \([0-9]*\): bw -d 0.5 --min-bw 900$/\1/p' "$dir/linux-before.txt")
	in_order "$dir/linux-before.txt" '^uncore-emu: emulating ' "^uncore-boot: boot $n: bw -d 0.5 --min-bw 900\$" \
		'^read +(1000|999)[.][0-9]+ MB/s' '^write +(500|499)[.][0-9]+ MB/s' \
		'^PASS: read[+]write bandwidth 1(500|499)[.][0-9]+ MB/s >= the required 900[.]000 MB/s$' \
		"^uncore-boot: boot $n: passed; record UncoreBoot$n stored, last 3 kept; in [0-9.]+ s\$" &&
		[ "$(step_rc "$dir/linux-run.txt" unit-boot)" = 0 ] && [ "$(step_rc "$dir/linux-run.txt" rm-boot)" = 0 ] &&
		step_output "$dir/linux-run.txt" prom-boot > "$dir/uncore-boot.prom" &&
		grep -Eqx "uncore_boot_sequence\{.*\} $n" "$dir/uncore-boot.prom" && grep -q '^uncore_info{tool="uncore-boot.efi [^"]*",command="bw",' "$dir/uncore-boot.prom" &&
		grep -Eq '^uncore_check_passed\{.*msr_access="emulated".*\} 1$' "$dir/uncore-boot.prom" &&
		grep -Eq '^uncore_dram_read_bytes_per_second\{[^}]*\} 1000[0-9]{6}$|^uncore_dram_read_bytes_per_second\{[^}]*\} 999[0-9]{6}$' "$dir/uncore-boot.prom" &&
		promtool check metrics < "$dir/uncore-boot.prom" && /usr/bin/python3 "$TOP/tests/om_check.py" "$dir/uncore-boot.prom" ||
		{ echo "uncore-boot.efi's record (boot ${n:-none}) before Linux and under Linux:"; grep '^uncore' "$dir/linux-before.txt" | head -n 12
		  step_output "$dir/linux-run.txt" unit-boot; head -n 12 "$dir/uncore-boot.prom"; return 1; }
	linux_textfile fail 3 0 "$dir/linux-vars-installed.fd" && linux_textfile "" 0 1 "$dir/linux-vars.fd" &&
		[ "$(step_output "$dir/linux-run.txt" textdir)" = uncore.prom ] ||
		{ echo "the textfile directory holds: $(step_output "$dir/linux-run.txt" textdir)"; return 1; }
	! python3 "$TOP/tests/qemu/efivars.py" "$dir/linux-vars.fd" UncoreBootCfg | grep -q . ||
		{ echo "UncoreBootCfg is left after chattr -i and rm"; return 1; }
	for id in drv-show drv-remove drv-gone; do
		[ "$(step_rc "$dir/linux-run.txt" $id)" = 0 ] || { echo "under Linux, $id failed:"; step_output "$dir/linux-run.txt" $id; return 1; }
	done
	! step_output "$dir/linux-run.txt" drv-gone | grep -q '^Driver[0-9A-F]' &&
		python3 "$TOP/tests/qemu/efivars.py" "$dir/linux-vars.fd" > "$dir/linux-vars-removed.txt" &&
		! grep -Eq '^Driver[0-9A-F]{4}-|^DriverOrder-[-0-9a-f]* [1-9]' "$dir/linux-vars-removed.txt" ||
		{ echo "left after efibootmgr -B:"; grep '^Driver' "$dir/linux-vars-removed.txt"; step_output "$dir/linux-run.txt" drv-gone; return 1; }
	echo "efibootmgr --driver: two options made, run by the firmware before Linux (the check measured and passed), removed"
}
