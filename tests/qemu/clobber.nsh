@echo -off
# A child for the boot tests: waits 500 ms (so that the parent has sampled
# its counters), then writes one MSR as someone else would: clobber.nsh MSR VALUE
stall 500000
fs0:\uncore.efi msr write %1 %2
