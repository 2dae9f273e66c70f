#!/usr/bin/env bash
# Builds a USB stick image that UEFI firmware boots as removable media:
#
#   mkimage.sh IMAGE BOOTX64.EFI CONFIG [FILE ::DEST]...
#
# IMAGE is 16 MiB: an MBR partition table with one EFI system partition
# (type 0xEF) from 1 MiB to the end, formatted FAT16 (4 sectors a cluster) by mtools, holding
# \EFI\BOOT\BOOTX64.EFI, \uncore\uncore.cfg (CONFIG: `make image` gives
# tools/uncore.cfg unless told otherwise; none if CONFIG is "", as the tests
# of a missing configuration want) and any further FILEs at
# their DESTs (e.g. build/uncore-emu.efi ::/uncore/uncore-emu.efi). The
# partition is IMAGE@@1M for mtools (mdir -i IMAGE@@1M ::/uncore).
set -eu
if [ $# -lt 3 ] || [ $(($# % 2)) -eq 0 ]; then
	echo "usage: $0 IMAGE BOOTX64.EFI CONFIG [FILE ::DEST]..." >&2
	exit 2
fi
img=$1 efi=$2 cfg=$3
shift 3
for f in "$efi" ${cfg:+"$cfg"}; do
	[ -f "$f" ] || { echo "mkimage: error: no such file: $f" >&2; exit 1; }
done

size_mib=16
start=2048                              # the partition's first sector (1 MiB)
count=$((size_mib * 2048 - start))      # its sectors, to the end of the image

# The MBR's four bytes of a little-endian number, as printf escapes.
le32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }

tmp=$img.tmp
rm -f "$tmp"
truncate -s "${size_mib}M" "$tmp"
# One partition entry at 0x1BE: not active, CHS fields saturated (LBA
# only), type 0xEF, first sector, sector count; then the 0x55AA signature.
# shellcheck disable=SC2059
printf "\\000\\376\\377\\377\\357\\376\\377\\377$(le32 $start)$(le32 $count)" |
	dd of="$tmp" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$tmp" bs=1 seek=510 conv=notrunc status=none
part="$tmp@@$((start * 512))"
# -H: the sectors before the partition, as its boot sector must say.
mformat -i "$part" -T "$count" -h 64 -s 32 -c 4 -H "$start" -v UNCORE ::
mmd -i "$part" ::/EFI ::/EFI/BOOT ::/uncore
mcopy -i "$part" "$efi" ::/EFI/BOOT/BOOTX64.EFI
[ -z "$cfg" ] || mcopy -i "$part" "$cfg" ::/uncore/uncore.cfg
while [ $# -gt 0 ]; do
	mcopy -i "$part" "$1" "$2"
	shift 2
done
mv "$tmp" "$img"
