#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, if any is missing.
# Used by `make check` and `make demo`; safe to run again. `deps.sh valgrind`
# adds what `make bench` needs.
set -eu
need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
[ "${1:-}" = valgrind ] && ! have_cmd valgrind && need+=(valgrind)
have_cmd gcc || need+=(gcc)
# Python's json module checks every -j output of the tests (tests/json_check.py).
have_cmd python3 || need+=(python3)
# pexpect replays a lab run's serial log the way LAVA's test monitor reads it.
python3 -c 'import pexpect' 2>/dev/null || need+=(python3-pexpect)
have_cmd make || need+=(make)
have_cmd objcopy || need+=(binutils)
# zlib's deflate packs the images' .data (tools/pack.c).
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
have_cmd timeout || need+=(coreutils)
[ -f /usr/include/efi/efi.h ] && [ -f /usr/lib/libgnuefi.a ] || need+=(gnu-efi)
have_cmd qemu-system-x86_64 || need+=(qemu-system-x86)
# The snakeoil pair has a test key enrolled as PK, KEK and db (Secure Boot tests).
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] && [ -f /usr/share/OVMF/OVMF_VARS_4M.fd ] &&
	[ -f /usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd ] && [ -f /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd ] &&
	[ -f /usr/share/ovmf/PkKek-1-snakeoil.key ] || need+=(ovmf)
# mtools builds and reads FAT images (the boot tests, `make image`);
# dosfstools' fsck.fat checks the image `make image` writes.
have_cmd mformat && have_cmd mcopy && have_cmd mdir || need+=(mtools)
have_cmd fsck.fat || need+=(dosfstools)
# The linux boot: Debian's kernel (efivarfs as a module) and a static busybox
# for its initramfs, packed by cpio.
ls /boot/vmlinuz-* >/dev/null 2>&1 || need+=(linux-image-amd64)
dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
have_cmd cpio || need+=(cpio)
# sbsigntool signs for Secure Boot (`make sign`, the Secure Boot boot test).
have_cmd sbsign && have_cmd sbverify || need+=(sbsigntool)
# openssl takes the passphrase off the snakeoil test key for the Secure Boot boot.
have_cmd openssl || need+=(openssl)
# The sanitizer runtimes come with gcc's libgcc-*-dev; check that they link.
if have_cmd gcc && ! echo 'int main(void){return 0;}' | gcc -x c -fsanitize=address,undefined -o /dev/null - 2>/dev/null; then
	need+=(libasan8 libubsan1)
fi
# libFuzzer (the fuzz harnesses in tests/fuzz) comes with clang and its runtime.
if ! have_cmd clang; then
	need+=(clang libclang-rt-14-dev)
elif ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' |
	clang -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
	need+=(libclang-rt-14-dev)
fi
[ ${#need[@]} -eq 0 ] && exit 0

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
$sudo apt-get install -y -qq "${need[@]}" >/dev/null
