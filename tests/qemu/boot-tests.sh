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

# The emulated uncore (uncore-emu.efi), several configurations in one boot:
# each is loaded, examined with `uncore.efi info`, and unloaded.
boot_begin emu Skylake-Client
boot_file "$TOP/build/uncore-emu.efi"
step bad-option 'uncore-emu.efi --cbo-config 16'
expect bad-option rc nonzero
expect bad-option has "^uncore-emu: error: bad value '16' for --cbo-config"
expect bad-option lines 1
step bad-rate 'uncore-emu.efi --rate UNC_CBO_NOPE=5'
expect bad-rate rc nonzero
expect bad-rate has "^uncore-emu: error: unknown event 'UNC_CBO_NOPE' in --rate$"
expect bad-rate lines 1
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
expect info5 has '^emulator: +NO_CBO_BANKS 5, UCLK 800.000 MHz, 0 event rates, 0 IMC rates, faults: none$'
expect info5 has 'raw 0x5, NO_CBO_BANKS 5, CBo count 4 \(manual: subtract one\)$'
expect info5 has '^pmu in use: +no \(global control 0x0, 11 event selects all zero\)$'
expect info5 has '^MCHBAR: +raw 0x00000000[0-9a-f]{8} \(0x4C:0x48\), enable 1, base 0x[0-9a-f]+ \(mask 0x7FFFFF8000\): enabled$'
expect info5 has '^verdict: +uncore PMU usable: ready$'
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

step load-mchbar 'uncore-emu.efi --fault mchbar-disabled'
expect load-mchbar rc zero
step info-mchbar 'uncore.efi info'
expect info-mchbar has '^MCHBAR: +raw 0x[0-9a-f]{16} \(0x4C:0x48\), enable 0, base 0x[1-9a-f][0-9a-f]* .*: disabled \(bit 0 clear\)$'
step unload-mchbar 'uncore-emu.efi --unload'

step load-gp 'uncore-emu.efi --fault msr-gp=0x396'
expect load-gp rc zero
step info-gp 'uncore.efi info'
expect info-gp rc nonzero
expect info-gp has '^MSR_UNC_CBO_CONFIG \(0x396\): read failed: general-protection fault$'
expect info-gp has '^fault: +rdmsr 0x396 \(MSR_UNC_CBO_CONFIG\) raised #GP$'
expect info-gp has '^pmu in use: +unknown'
expect info-gp has '^verdict: +uncore PMU unusable: an uncore MSR faulted$'
step msr-gp 'uncore.efi msr read 0x396'
expect msr-gp rc nonzero
expect msr-gp has '^uncore: error: rdmsr 0x396 \(MSR_UNC_CBO_CONFIG\): general-protection fault$'
step unload-gp 'uncore-emu.efi --unload'

step load-busy 'uncore-emu.efi --fault pmu-in-use'
expect load-busy rc zero
step info-busy 'uncore.efi info'
expect info-busy has '^pmu in use: +yes$'
expect info-busy has '^  MSR_UNC_PERF_GLOBAL_CTRL \(0xe01\) = 0x20000000$'
expect info-busy has '^  MSR_UNC_CBO_0_PERFEVTSEL0 \(0x700\) = 0x408f34$'
step unload-busy 'uncore-emu.efi --unload'
expect unload-busy rc zero

step restored 'uncore.efi info'
expect restored has '^msr access: +native$'
expect restored has '^MCHBAR: +raw 0x0000000000000000 '
boot_run
