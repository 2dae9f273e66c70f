#!/usr/bin/env bash
# Installs the Debian packages missing from a set; safe to run again.
#   deps.sh demo    what `make` and `make demo` need: the compiler, gnu-efi,
#                   zlib, QEMU, OVMF and mtools (`make demo`)
#   deps.sh bench   those and valgrind (`make bench`)
#   deps.sh         everything: those and what only the tests use (`make check`,
#                   `make deps`, `make boot`)
set -eu
set_=${1:-check}
case $set_ in
demo | bench | check) ;;
*) echo "usage: tests/deps.sh [demo|bench]" >&2; exit 2 ;;
esac
need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
[ "$set_" = bench ] && ! have_cmd valgrind && need+=(valgrind)
have_cmd gcc || need+=(gcc)
# (installed without the packages they only recommend: gcc's libc6-dev named here)
[ -f /usr/include/stdio.h ] && [ -f /usr/lib/x86_64-linux-gnu/libc.a ] || need+=(libc6-dev)
have_cmd make || need+=(make)
have_cmd objcopy || need+=(binutils)
# zlib's deflate packs the images' .data (tools/pack.c).
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
have_cmd timeout || need+=(coreutils)
[ -f /usr/include/efi/efi.h ] && [ -f /usr/lib/libgnuefi.a ] || need+=(gnu-efi)
have_cmd qemu-system-x86_64 || need+=(qemu-system-x86)
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] && [ -f /usr/share/OVMF/OVMF_VARS_4M.fd ] || need+=(ovmf)
# mtools builds and reads FAT images (the demo's and the boot tests' ESP, `make image`).
have_cmd mformat && have_cmd mcopy && have_cmd mdir || need+=(mtools)
# The sanitizer runtimes come with gcc's libgcc-*-dev (the build runs the
# event-table generator built with them); check that they link.
if have_cmd gcc && ! echo 'int main(void){return 0;}' | gcc -x c -fsanitize=address,undefined -o /dev/null - 2>/dev/null; then
	need+=(libasan8 libubsan1)
fi
if [ "$set_" = check ]; then
	# Python's json module checks every -j output of the tests (tests/json_check.py).
	have_cmd python3 || need+=(python3)
	# pexpect replays a lab run's serial log the way LAVA's test monitor reads it.
	have_cmd python3 && python3 -c 'import pexpect' 2>/dev/null || need+=(python3-pexpect)
	# The snakeoil pair has a test key enrolled as PK, KEK and db (Secure Boot tests).
	[ -f /usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd ] && [ -f /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd ] &&
		[ -f /usr/share/ovmf/PkKek-1-snakeoil.key ] || need+=(ovmf)
	# dosfstools' fsck.fat checks the image `make image` writes.
	have_cmd fsck.fat || need+=(dosfstools)
	# The linux boot: Debian's kernel (efivarfs as a module) and a static busybox
	# for its initramfs, packed by cpio.
	ls /boot/vmlinuz-* >/dev/null 2>&1 || need+=(linux-image-amd64)
	dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
	have_cmd cpio || need+=(cpio)
	# Its Linux makes and removes Driver#### options with efibootmgr (copied with its libraries).
	have_cmd efibootmgr || need+=(efibootmgr)
	# systemd-analyze verifies the systemd unit of the docs (tests/systemd.sh).
	have_cmd systemd-analyze || need+=(systemd)
	# node_exporter's textfile collector reads the unit's file (tests/node_exporter.sh).
	have_cmd prometheus-node-exporter || need+=(prometheus-node-exporter)
	# sbsigntool signs for Secure Boot (`make sign`, the Secure Boot boot test).
	have_cmd sbsign && have_cmd sbverify || need+=(sbsigntool)
	# openssl takes the passphrase off the snakeoil test key for the Secure Boot boot, and makes
	# the push boot's throwaway CA and TLS server certificate.
	have_cmd openssl || need+=(openssl)
	# promtool (Prometheus) checks the example configuration and rules in tools/prometheus and
	# lints every OpenMetrics text the tests make; Prometheus' Python client parses that text with
	# the strict OpenMetrics parser (tests/om_check.py, Debian's python3).
	have_cmd promtool || need+=(prometheus)
	/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || need+=(python3-prometheus-client)
	# libFuzzer (the fuzz harnesses in tests/fuzz) comes with clang and its runtime.
	if ! have_cmd clang; then
		need+=(clang libclang-rt-14-dev)
	elif ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' |
		clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
		need+=(libclang-rt-14-dev)
	fi
fi
[ ${#need[@]} -eq 0 ] && exit 0
# (each package once: ovmf may be asked for twice)
mapfile -t need < <(printf '%s\n' "${need[@]}" | awk '!seen[$0]++')

echo "deps: installing ${need[*]}"
sudo=
if [ "$(id -u)" -ne 0 ]; then
	if have_cmd sudo; then sudo=sudo; else
		echo "deps: error: need root (or sudo) to install: ${need[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
