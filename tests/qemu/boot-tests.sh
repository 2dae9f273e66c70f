#!/usr/bin/env bash
# The QEMU/OVMF scenarios. Each step runs fs0:\uncore.efi as a user would.
set -u
. "$(dirname "$0")/lib.sh"

long=$(printf 'x%.0s' $(seq 1 300))

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
expect info has '^tsc: +[1-9][0-9]*\.[0-9]{3} MHz$'
expect info has '^verdict: +uncore PMU unusable: MSR_UNC_CBO_CONFIG reports no CBo$'
expect info has '^faults: +none$'
step info-json 'uncore.efi info -j'
expect info-json rc nonzero
expect info-json has '^\{"cpu":\{"vendor":"GenuineIntel",.*"cbo_count":0\}.*"usable":false.*\}$'
step gp 'uncore.efi msr write 0x6E1 0x100000000'
expect gp rc nonzero
expect gp has '^uncore: error: wrmsr 0x6e1 value 0x100000000: general-protection fault$'
expect gp lines 1
step after-gp 'uncore.efi msr read 0x396'
expect after-gp rc zero
expect after-gp has '^msr 0x396 \(MSR_UNC_CBO_CONFIG\) = 0x0000000000000000$'
step pci 'uncore.efi pci read 0:0.0 0'
expect pci rc zero
expect pci has '^pci 00:00.0 \[0x000\] = 0x29c08086$'
step mmio-range 'uncore.efi mmio read 0x10000000000'
expect mmio-range rc nonzero
expect mmio-range has 'above the CPU.s 40-bit physical address width'
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
boot_run

boot_begin epyc EPYC
step info 'uncore.efi info'
expect info rc nonzero
expect info has '^cpu: +AuthenticAMD family 0x17'
expect info has '^uncore: +unsupported: not an Intel CPU \(vendor AuthenticAMD\)$'
expect info has '^MSR_UNC_CBO_CONFIG: not read \(unsupported CPU\)$'
expect info has '^host bridge: +00:00.0 vendor 0x8086 device 0x29c0'
expect info has '^verdict: +uncore PMU unusable: not an Intel CPU$'
step info-json 'uncore.efi info -j'
expect info-json rc nonzero
expect info-json has '"vendor":"AuthenticAMD".*"supported":false.*"cbo_config":null'
boot_run
