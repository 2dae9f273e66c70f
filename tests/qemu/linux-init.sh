#!/bin/busybox sh
# /init of the initramfs of the linux boot (tests/qemu/boot-tests.sh,
# tests/qemu/linux.sh): efivarfs and the virtio disk's modules loaded and
# efivarfs mounted as a distribution does it, then the steps of the pass the
# kernel's command line names (uncore=install or uncore=run) between the
# harness's marker lines.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules/order); do insmod /modules/$m || echo "insmod $m failed"; done
mount -t efivarfs efivarfs /sys/firmware/efi/efivars
d=/sys/firmware/efi/efivars
g=7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63
cfg=UncoreBootCfg-3f1d6b2e-8c47-4a59-b0e3-91d2c6a8f514
t=/var/lib/prometheus/node-exporter
step() { echo "@@STEP $1"; }
rc() { echo "@@RC $1 $?"; }
# The number of the Driver#### option described as $1.
option() { efibootmgr --driver | sed -n "s/^Driver\([0-9A-F]\{4\}\)\*\{0,1\} $1\$/\1/p"; }
case $(cat /proc/cmdline) in
*uncore=install*)
	step list; uncore_decode --list $d; rc list
	step csv; uncore_decode -x , $d LinuxRead; rc csv
	step info; uncore_decode $d/Lab003-$g; rc info
	step om; uncore_decode --openmetrics $d LinuxRead; rc om
	step sizes; for f in $d/*-$g; do echo "${f#$d/} $(cat "$f" | wc -c)"; done; echo "@@RC sizes 0"
	# --create puts the new option first in DriverOrder: the check's
	# option, then the emulator's, which so runs before it.
	step drv-add
	efibootmgr -q --driver --create -d /dev/vda -p 1 -L 'uncore boot check' -l '\uncore\uncore-boot.efi' &&
		efibootmgr -q --driver --create -d /dev/vda -p 1 -L uncore-emu -l '\uncore\uncore-emu-drv.efi' \
			--append-binary-args /emu.opt
	rc drv-add
	step drv-show; efibootmgr --driver -v; rc drv-show
	step cfg-write; dd if=/boot.cfg of=$d/$cfg bs=4096 2>/dev/null; rc cfg-write
	;;
*uncore=run*)
	# The systemd unit's command (tools/uncore-boot-check.service) as
	# systemd runs it, then its textfile: on the latest record, the failed
	# check UncoreBoot2 (status 3, the file kept); with that record removed,
	# on UncoreBoot1 that passed.
	unit() { sh -c "$(sed -n "s/^ExecStart=\/bin\/sh -c '\(.*\)'\$/\1/p" /uncore-boot-check.service | sed 's/\$\$/$/g')"; }
	# First the record uncore-boot.efi stored at this boot (the latest),
	# then without it the lab run's two.
	step unit-boot; unit; rc unit-boot
	step prom-boot; cat $t/uncore.prom; rc prom-boot
	n=$(ls $d | sed -n "s/^UncoreBoot\([0-9]*\)-$g\$/\1/p" | sort -n | tail -n 1)
	step rm-boot; chattr -i $d/UncoreBoot$n-$g && rm $d/UncoreBoot$n-$g; rc rm-boot
	step unit-fail; unit; rc unit-fail
	step prom-fail; cat $t/uncore.prom; rc prom-fail
	step rm-fail; r=0
	for f in $d/UncoreBoot2*-$g; do chattr -i "$f" && rm "$f" || r=1; done
	(exit $r); rc rm-fail
	step unit; unit; rc unit
	step prom; cat $t/uncore.prom; rc prom
	step textdir; ls $t; rc textdir
	step cfg-remove; chattr -i $d/$cfg && rm $d/$cfg; rc cfg-remove
	step drv-show; efibootmgr --driver -v; rc drv-show
	step drv-remove
	r=0
	for o in uncore-emu 'uncore boot check'; do
		n=$(option "$o") && [ -n "$n" ] && efibootmgr -q --driver -b "$n" -B || { echo "no option $o removed"; r=1; }
	done
	(exit $r); rc drv-remove
	step drv-gone; efibootmgr --driver -v; rc drv-gone
	;;
esac
echo "@@DONE"
poweroff -f
