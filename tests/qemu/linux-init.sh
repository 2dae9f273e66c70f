#!/bin/busybox sh
# /init of the initramfs of the linux boot (tests/qemu/boot-tests.sh):
# efivarfs mounted as a distribution does it (the module, then the mount),
# and the decoder run on it between the harness's marker lines.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
[ -f /efivarfs.ko ] && insmod /efivarfs.ko
mount -t efivarfs efivarfs /sys/firmware/efi/efivars
d=/sys/firmware/efi/efivars
g=7c3a5e91-2b4d-4f86-9e1a-5d0c8b7f2a63
echo "@@STEP list"; uncore_decode --list $d; echo "@@RC list $?"
echo "@@STEP csv"; uncore_decode -x , $d LinuxRead; echo "@@RC csv $?"
echo "@@STEP info"; uncore_decode $d/Lab003-$g; echo "@@RC info $?"
echo "@@STEP om"; uncore_decode --openmetrics $d LinuxRead; echo "@@RC om $?"
echo "@@STEP sizes"; for f in $d/*-$g; do echo "${f#$d/} $(cat "$f" | wc -c)"; done; echo "@@RC sizes 0"
echo "@@DONE"
poweroff -f
