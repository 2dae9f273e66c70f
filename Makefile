# uncore: a UEFI application that reads Intel uncore performance counters.
#
#   make            build/uncore.efi
#   make check      install what is missing, run host unit tests (ASan+UBSan) and QEMU boot tests
#   make demo       install what the demo needs (QEMU, OVMF, gnu-efi, mtools), boot QEMU/OVMF on the
#                   emulated uncore and run `uncore.efi` info, stat, intervals, bw and bw with the load,
#                   then decode the stored record
#   make unit [T=SUITE.CASE]     host unit tests (T: one case, or one binary's)
#   make boot [BOOTS="skl e5"]   QEMU boot tests (BOOTS: those alone)
#   make bench      figures: sizes, sample costs, the load kernels against STREAM's loops
#   make V=1        show the commands

V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-7s %s\n' $(1) $(2);)

BUILD     := build
EFI_INC   := /usr/include/efi
EFI_LIB   := /usr/lib
EFI_LDS   := efi/image.lds
EFI_CRT0  := $(EFI_LIB)/crt0-efi-x86_64.o

CC        ?= cc
LD        := ld
OBJCOPY   := objcopy
NM        := nm

WARN      := -std=gnu11 -Wall -Wextra -Werror
EFI_CFLAGS := $(WARN) -g0 -fpic -fvisibility=hidden -ffreestanding -fno-stack-protector -fno-stack-check \
	-fshort-wchar -mno-red-zone -maccumulate-outgoing-args -fno-strict-aliasing \
	-ffunction-sections -fdata-sections -DGNU_EFI_USE_MS_ABI -DGNU_EFI_USE_EXTERNAL_STDARG \
	-I$(EFI_INC) -I$(EFI_INC)/x86_64 -MMD -MP
EFI_LDFLAGS := -nostdlib -znocombreloc -z pack-relative-relocs -shared -Bsymbolic --gc-sections -T $(EFI_LDS) -L$(EFI_LIB)

HOST_CFLAGS := $(WARN) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all -MMD -MP
HOST_LDFLAGS := -fsanitize=address,undefined

# drivers/: the seam's interface and base helpers (base/), the engine
# (engine/), reports, records and stored variables (output/), lab mode's
# rules (lab/), and one driver per PMU family (pmu/NAME*.c with its events
# in events/NAME.json, or in events/NAME/: one of Intel's files per CPU
# model, with events/NAME/units naming the Units kept). The
# list of drivers is generated from events/*.json and events/*/: adding a PMU edits no
# list here (see "Adding a PMU" in drivers/README.md).
GEN       := $(BUILD)/gen
EVENT_DIRS := $(patsubst events/%/units,%,$(wildcard events/*/units))
PMU_NAMES := $(sort $(basename $(notdir $(wildcard events/*.json))) $(EVENT_DIRS))
LIB_SRCS  := $(foreach d,base engine output lab pmu,$(sort $(wildcard drivers/$d/*.c)))
GEN_SRCS  := $(addprefix $(GEN)/,$(addsuffix _events.c,$(PMU_NAMES))) $(GEN)/pmu_registry.c $(GEN)/pmu_event_index.c
# The command layer (drivers/cmd/: the parser, the command table, the
# commands, the stat/bw run): linked by the application and by the host
# tests that run commands, not part of libuncore.a. Adding a command edits
# no list here (see "Adding a command" in drivers/cmd/README.md).
CMD_SRCS  := $(sort $(wildcard drivers/cmd/*.c))
APP_SRCS  := $(LIB_SRCS) \
	$(CMD_SRCS) efi/main.c efi/hw_core.c efi/hw_native.c efi/hw_mmio.c efi/hw_pkg.c efi/console.c efi/libc.c efi/efilib.c efi/shell.c efi/status_efi.c efi/vars.c efi/measure.c efi/lab_edge.c
APP_SRCS  += efi/lab_vol.c efi/http.c efi/bootcheck.c
APP_OBJS  := $(patsubst %.c,$(BUILD)/efi/%.o,$(APP_SRCS)) $(BUILD)/efi/efi/msr.o \
	$(patsubst $(GEN)/%.c,$(BUILD)/efi/gen/%.o,$(GEN_SRCS))
# The application is built for size (-Oz: 1.6 KB less than -Os; the counts
# of a run, which reports read, too), except the sampling path, which stays
# -O2: the engine's sampling loop (drivers/engine/stat_sample.c and the
# common sample's stat_fast.c, the free-running counters' stat_freerun.c,
# the rotation's stat_mux.c, other packages' trips in stat_pkg.c, and the
# register access in stat.c; its
# plan, programming, journal and compiled lists are -Oz), the drivers'
# reads (drivers/pmu/, but for what they add to `info` and to old records),
# 64-bit arithmetic and the native seam, without the padding -O2 puts
# before functions, loops and jump targets (0.8 KB). Their functions that
# run only before or after sampling, on an error or for the tests' emulator
# are marked UNC_COLD (drivers/base/status.h): GCC optimises those for size
# (8.9 KB less than all -O2; all -Oz would save 5.9 KB more but slow the
# sampling path). The emulator and the child image stay -O2 (their size
# does not ship). Every function and object has a section of its own, and
# the link drops those nothing uses (--gc-sections).
EFI_HOT   := $(addprefix drivers/engine/,stat.c stat_sample.c stat_watch.c stat_fast.c stat_freerun.c stat_mux.c stat_pkg.c) drivers/base/arith.c \
	$(filter-out %_info.c %_rec.c %_table.c,$(wildcard drivers/pmu/*.c)) efi/hw_core.c efi/hw_native.c efi/hw_mmio.c efi/hw_pkg.c
EFI_COLD  := $(filter-out $(EFI_HOT),$(APP_SRCS))
EFI_OPT    = $(if $(filter $(EFI_COLD),$*.c),-Oz,-O2 -falign-functions=1 -falign-jumps=1 -falign-loops=1 -falign-labels=1)
# The load generator's kernels (drivers/engine/load.c) have flags of their own.
# `make bench` links this very object (build/efi/drivers/engine/load.o) and
# measures it against STREAM's way of building the same loops.
LOAD_OPT  := -O2
$(BUILD)/efi/drivers/engine/load.o: EFI_OPT = $(LOAD_OPT)
# An EFI object's command: EFI_OPT is the object's own (above, or set on the
# object's rule below).
EFI_CC     = $(CC) $(EFI_CFLAGS) $(EFI_OPT)

# Every object is rebuilt when the command that builds it changes (another
# LOAD_OPT, CC, or a flag edited here), and only then: OBJ.o.flags beside it
# holds the command, is rewritten only when that differs, and is a
# prerequisite of OBJ.o. Make compares it first, so that no shell runs when
# nothing changed; the shell compares again before writing (make's read can
# come back short when a job ends during it). tests/build-flags.sh checks it.
str_eq = $(and $(findstring x$(1),x$(2)),$(findstring x$(2),x$(1)))
squote = '$(subst ','\'',$(1))'
flags_file = $(if $(call str_eq,$(1),$(file <$@)),,@mkdir -p $(dir $@); printf '%s\n' $(call squote,$(1)) | cmp -s - $@ || \
	printf '%s\n' $(call squote,$(1)) > $@)

# The emulator: a resident driver (the model plus the native seam for PCI
# and time), embedded in the application the user runs, which checks the
# options and starts it (see tests/emu/launcher.c).
# The emulator's tables are its own (tests/emu/pmu_skl.c), typed from the manual:
# it links neither the application's event table nor drivers/pmu/.
# The uncores the emulator serves, one register table each.
EMU_UNCORES := tests/emu/pmu_skl.c tests/emu/pmu_adl.c tests/emu/pmu_mtl.c tests/emu/pmu_snbep.c tests/emu/pmu_disc.c tests/emu/pmu_icx.c tests/emu/pmu_xcha.c
EMU_CORE := tests/emu/pmu_core.c tests/emu/pmu_p6.c tests/emu/pmu_knc.c tests/emu/pmu_arch.c
EMU_COMMON := tests/emu/model.c $(EMU_UNCORES) $(EMU_CORE) tests/emu/options.c drivers/base/status.c drivers/base/fmt.c drivers/base/parse.c drivers/base/arith.c \
	efi/console.c efi/libc.c efi/status_efi.c
EMU_DRV_SRCS := tests/emu/driver.c efi/hw_core.c efi/hw_native.c efi/hw_mmio.c efi/hw_pkg.c drivers/base/tsc.c drivers/base/pcibus.c drivers/base/cpu.c $(EMU_COMMON)
EMU_DRV_OBJS := $(patsubst %.c,$(BUILD)/efi/%.o,$(EMU_DRV_SRCS)) $(BUILD)/efi/efi/msr.o
EMU_SRCS  := tests/emu/launcher.c efi/shell.c $(EMU_COMMON)
EMU_OBJS  := $(patsubst %.c,$(BUILD)/efi/%.o,$(EMU_SRCS)) $(BUILD)/efi/emu-drv-blob.o

.PHONY: all check demo deps unit boot qemu clean fuzz bench image sign FORCE
all: $(BUILD)/uncore.efi $(BUILD)/uncore-boot.efi $(BUILD)/uncore-emu.efi $(BUILD)/uncore_decode $(BUILD)/uncore_decode-static \
	$(BUILD)/host/uncore_decode $(BUILD)/child.efi $(BUILD)/ebs.efi $(BUILD)/memattr.efi $(BUILD)/memattr-keep-xp.efi \
	$(BUILD)/unmapped.efi

$(BUILD)/efi/%.o: %.c $(BUILD)/efi/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(EFI_CC) -c $< -o $@

# The generated tables. (A variable set on a target holds for everything it
# is built from too: the objects' flags are kept off the targets that other
# objects are built for.)
EFI_GEN_CC = $(CC) $(EFI_CFLAGS) -Os -Idrivers/engine
$(BUILD)/efi/gen/%.o: $(GEN)/%.c $(BUILD)/efi/gen/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(EFI_GEN_CC) -c $< -o $@
$(BUILD)/efi/gen/%.o.flags: FORCE
	$(call flags_file,$(EFI_GEN_CC))

$(BUILD)/efi/%.o: %.S $(BUILD)/efi/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,AS,$<)$(EFI_CC) -c $< -o $@

$(BUILD)/efi/%.o.flags: FORCE
	$(call flags_file,$(EFI_CC))

# The .so must resolve every symbol itself: an undefined one would be a null
# call at run time, since nothing loads a UEFI image's dependencies.
# Its relative relocations are packed (DT_RELR: 8 bytes a word-bitmap of 63
# pointers, where DT_RELA takes 24 bytes each), applied by efi/reloc.c in
# place of gnu-efi's _relocate (efi/start.c, which first unpacks .data):
# every image links EFI_RELOC. Its layout is efi/image.lds.
$(BUILD)/%.so: $(EFI_LDS)
	$(call say,LD,$@)$(LD) $(EFI_LDFLAGS) $(EFI_CRT0) $(filter %.o,$^) -o $@ $(EFI_LIBS)
	$(Q)undef="$$($(NM) --undefined-only $@)"; if [ -n "$$undef" ]; then \
		echo "error: $@ has undefined symbols:"; echo "$$undef"; rm -f $@; exit 1; fi

EFI_RELOC := $(BUILD)/efi/efi/reloc.o $(BUILD)/efi/efi/start.o $(BUILD)/efi/drivers/base/unpack.o
# The decoder runs before .data is there: a jump table or a vector's
# constants (in .rodata, which is in .data) would be read before they are
# unpacked. Its object must have bytes in its code alone. It runs once:
# built for size.
$(BUILD)/efi/drivers/base/unpack.o: EFI_OPT = -Oz -fno-jump-tables -fno-tree-vectorize
$(BUILD)/efi/drivers/base/unpack.o: drivers/base/unpack.c $(BUILD)/efi/drivers/base/unpack.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(EFI_CC) -c $< -o $@
	$(Q)data=$$(LC_ALL=C objdump -h $@ | awk '/^ *[0-9]+ / && $$2 !~ /^\.text/ && $$2 !~ /^\.(note|comment|eh_frame)/ && $$3 != "00000000" {print $$2}'); \
		if [ -n "$$data" ]; then echo "error: $@ has data the decoder would read before it is unpacked: $$data"; rm -f $@; exit 1; fi
# gnu-efi's libraries, for the emulator only: the application and the child
# image take the few libefi functions they call from efi/efilib.c.
EFI_LIBS := -lefi -lgnuefi
$(BUILD)/uncore.so $(BUILD)/child.so: EFI_LIBS :=
$(BUILD)/uncore.so: $(APP_OBJS) $(BUILD)/efi/efi/reloc.o $(BUILD)/efi/efi/start-in-place.o
$(BUILD)/uncore-emu.so: $(EMU_OBJS) $(EFI_RELOC)
# A child image for the boot tests of `uncore.efi -- COMMAND`.
CHILD_SRCS := tests/child/child.c efi/shell.c efi/console.c efi/libc.c efi/efilib.c drivers/base/fmt.c drivers/base/parse.c drivers/base/arith.c
$(BUILD)/child.so: $(patsubst %.c,$(BUILD)/efi/%.o,$(CHILD_SRCS)) $(EFI_RELOC)
# A child that exits boot services, for the ExitBootServices notification's boot test.
$(BUILD)/ebs.so: $(patsubst %.c,$(BUILD)/efi/%.o,tests/child/ebs.c $(filter-out tests/child/child.c,$(CHILD_SRCS))) $(EFI_RELOC)
$(BUILD)/ebs.so: EFI_LIBS :=
$(BUILD)/uncore-emu-drv.so: $(EMU_DRV_OBJS) $(EFI_RELOC)
# A stand-in for the firmware's memory attribute protocol, for the boot
# tests of uncore.efi's outer image (tests/child/memattr.c), and the same
# keeping pages non-executable.
MEMATTR_SRCS := efi/console.c efi/libc.c efi/efilib.c drivers/base/fmt.c drivers/base/arith.c
$(BUILD)/memattr.so: $(patsubst %.c,$(BUILD)/efi/%.o,tests/child/memattr.c $(MEMATTR_SRCS)) $(EFI_RELOC)
$(BUILD)/memattr-keep-xp.so: $(patsubst %.c,$(BUILD)/efi/%.o,$(MEMATTR_SRCS)) $(BUILD)/efi/tests/child/memattr-keep-xp.o $(EFI_RELOC)
$(BUILD)/memattr.so $(BUILD)/memattr-keep-xp.so: EFI_LIBS :=
$(BUILD)/memattr.efi $(BUILD)/memattr-keep-xp.efi: SUBSYSTEM = 11
# A page that the GCD map calls MMIO and the page tables leave unmapped,
# for the boot test of the #PF guard on MMIO (tests/child/unmapped.c).
$(BUILD)/unmapped.so: $(patsubst %.c,$(BUILD)/efi/%.o,tests/child/unmapped.c $(MEMATTR_SRCS)) $(EFI_RELOC)
$(BUILD)/unmapped.so: EFI_LIBS :=
$(BUILD)/efi/tests/child/memattr-keep-xp.o: EFI_OPT = -O2 -DMEMATTR_KEEP_XP
$(BUILD)/efi/tests/child/memattr-keep-xp.o: tests/child/memattr.c $(BUILD)/efi/tests/child/memattr-keep-xp.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(EFI_CC) -c $< -o $@

$(BUILD)/efi/emu-drv-blob.o: $(BUILD)/uncore-emu-drv.efi
	$(call say,BLOB,$@)cd $(BUILD) && $(LD) -r -b binary -z noexecstack -o efi/emu-drv-blob.o uncore-emu-drv.efi

# A guard against an image that grows by accident: 224 KiB, on the file
# that ships, uncore.efi's outer image, which stores the application
# (build/uncore.so) packed whole (drivers/base/zimage.h, efi/image.md). The
# application stores no zero-filled statics (.bss: large buffers come from
# the pool at run time anyway). Every other image stores its .data packed
# (drivers/base/unpack.h). The figures change with every driver, so none is
# written here: `make bench` prints uncore.efi's size and its headroom under
# the guard, the size of each section of both images, the largest symbols,
# the packed sizes and the time to unpack.
EFI_SIZE_LIMIT := 229376

# --strip-all: no COFF symbol table after the sections, so the file is its
# headers and sections with no gap, as Authenticode hashes it (sbsign and
# sbverify warn "gaps between PE/COFF sections?" otherwise).
# Subsystem 10 is an application, 11 a boot-service driver (stays resident).
SUBSYSTEM = 10
$(BUILD)/uncore-emu-drv.efi: SUBSYSTEM = 11
# .data is stored packed (drivers/base/unpack.h): build/pack packs the section's
# bytes into .zdata and marks .data as holding none in the file, so that
# the PE section keeps its size but no raw data; efi/start.c unpacks it
# before relocating.
define efi_from_so
	$(call say,PACK,$@)$(BUILD)/pack $< $@.so $@.zdata
	$(call say,OBJCOPY,$@)$(OBJCOPY) --strip-all -j .text -j .reloc -j .zimage -j .data -j .relr -j .bss -j .zdata \
		--update-section .zdata=$@.zdata --target efi-app-x86_64 --subsystem=$(SUBSYSTEM) $@.so $@
	$(Q)rm -f $@.so $@.zdata
	$(Q)size=$$(stat -c %s $@); if [ $$size -gt $(EFI_SIZE_LIMIT) ]; then \
		echo "error: $@ is $$size bytes; the limit is $(EFI_SIZE_LIMIT) bytes"; rm -f $@; exit 1; fi
endef
$(BUILD)/%.efi: $(BUILD)/%.so Makefile $(BUILD)/pack
	$(efi_from_so)

# uncore.efi is a small outer image (efi/stub.c) that carries the
# application packed whole (drivers/base/zimage.h, efi/image.md): build/uncore.so
# is the application as it runs, build/uncore.zimg its memory image packed
# (build/pack --image: code and data as raw DEFLATE, the code through a
# branch filter first), build/uncore-stub.so the outer image around it.
# The stub unpacks it into pages it allocates and calls its entry point
# with its own image handle; the application relocates itself as any image
# does (efi/start.c). `make bench` prints the sizes of both and the time
# to unpack.
$(BUILD)/uncore.zimg: $(BUILD)/uncore.so $(BUILD)/pack
	$(call say,PACK,$@)$(BUILD)/pack --image $< $@
ZIMAGE_CC = $(CC) $(EFI_CFLAGS) -DZIMAGE='"$(BUILD)/uncore.zimg"'
$(BUILD)/efi/efi/zimage.o: efi/zimage.S $(BUILD)/uncore.zimg $(BUILD)/efi/efi/zimage.o.flags
	@mkdir -p $(dir $@)
	$(call say,AS,$<)$(ZIMAGE_CC) -c $< -o $@
$(BUILD)/efi/efi/zimage.o.flags: FORCE
	$(call flags_file,$(ZIMAGE_CC))
# The application's start (efi/start.c) without the .data decoder: the stub
# unpacks the whole application, .data included.
$(BUILD)/efi/efi/start-in-place.o: EFI_OPT = -Oz -DUNC_DATA_IN_PLACE
$(BUILD)/efi/efi/start-in-place.o: efi/start.c $(BUILD)/efi/efi/start-in-place.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(EFI_CC) -c $< -o $@
STUB_SRCS := efi/stub.c drivers/base/zimage.c drivers/base/crc32.c
$(BUILD)/uncore-stub.so: $(patsubst %.c,$(BUILD)/efi/%.o,$(STUB_SRCS)) $(BUILD)/efi/efi/zimage.o $(EFI_RELOC)
$(BUILD)/uncore-stub.so: EFI_LIBS :=
$(BUILD)/uncore.efi: $(BUILD)/uncore-stub.so Makefile $(BUILD)/pack
	$(efi_from_so)
# The boot check (drivers/cmd/bootcheck.md): the same outer image and
# application as a boot-service driver, which the boot manager starts from
# a Driver#### option; the application tells by its image's code type.
$(BUILD)/uncore-boot.efi: $(BUILD)/uncore-stub.so Makefile $(BUILD)/pack
	$(efi_from_so)
$(BUILD)/uncore-boot.efi: SUBSYSTEM = 11

# ---- Secure Boot: make sign KEY=db.key CERT=db.crt -> build/signed/ ----
# The emulator embeds its driver and starts it with LoadImage from memory,
# which Secure Boot checks too: the signed emulator embeds the signed driver.
# Signing is redone on every make sign, so another KEY or CERT always takes.
SIGNED := $(BUILD)/signed
SIGN_FILES := $(SIGNED)/uncore.efi $(SIGNED)/uncore-boot.efi $(SIGNED)/uncore-emu.efi
sign: $(SIGN_FILES)

sign-args:
	$(Q)if [ -z '$(KEY)' ] || [ -z '$(CERT)' ]; then \
		echo "error: signing needs KEY=FILE and CERT=FILE (a PEM private key and its X.509 certificate)"; exit 1; fi
	$(Q)for f in '$(KEY)' '$(CERT)'; do [ -f "$$f" ] || { echo "error: no such file: $$f"; exit 1; }; done
.PHONY: sign-args

# Signs $< into $@, then verifies it against CERT. Any message but sbsign's
# "Signing Unsigned original image" and sbverify's "Signature verification
# OK" (a warning about the PE layout, say) fails the build.
define sign_efi
	@mkdir -p $(dir $@)
	$(call say,SIGN,$@)out=$$(sbsign --key '$(KEY)' --cert '$(CERT)' --output $@ $< 2>&1) && \
	out=$$(printf '%s\n' "$$out" | grep -vx 'Signing Unsigned original image'; \
	       sbverify --cert '$(CERT)' $@ 2>&1 | grep -vx 'Signature verification OK'; \
	       sbverify --cert '$(CERT)' $@ >/dev/null 2>&1 || echo "sbverify --cert $(CERT) $@ failed"); \
	if [ -n "$$out" ]; then printf '%s\n' "$$out"; echo "error: signing $< was not clean"; rm -f $@; exit 1; fi
endef

$(SIGNED)/uncore.efi: $(BUILD)/uncore.efi sign-args FORCE
	$(sign_efi)
$(SIGNED)/uncore-boot.efi: $(BUILD)/uncore-boot.efi sign-args FORCE
	$(sign_efi)
$(SIGNED)/drv/uncore-emu-drv.efi: $(BUILD)/uncore-emu-drv.efi sign-args FORCE
	$(sign_efi)
$(SIGNED)/drv/emu-drv-blob.o: $(SIGNED)/drv/uncore-emu-drv.efi
	$(call say,BLOB,$@)cd $(SIGNED)/drv && $(LD) -r -b binary -z noexecstack -o emu-drv-blob.o uncore-emu-drv.efi
$(SIGNED)/drv/uncore-emu.so: $(filter-out $(BUILD)/efi/emu-drv-blob.o,$(EMU_OBJS)) $(EFI_RELOC) $(SIGNED)/drv/emu-drv-blob.o
$(SIGNED)/uncore-emu.efi: $(SIGNED)/drv/uncore-emu.efi sign-args FORCE
	$(sign_efi)

# ---- make image [CONFIG=FILE] [KEY=FILE CERT=FILE]: a USB stick image ----
# FAT on an MBR partition, \EFI\BOOT\BOOTX64.EFI and \uncore\uncore.cfg
# (tools/mkimage.sh; CONFIG: tools/uncore.cfg unless told otherwise); rebuilt
# on every make image, since CONFIG, KEY and CERT may change between runs.
CONFIG ?= tools/uncore.cfg
IMAGE := $(BUILD)/uncore-usb.img
IMAGE_EFI := $(if $(KEY)$(CERT),$(SIGNED)/uncore.efi,$(BUILD)/uncore.efi)
image: $(IMAGE)
$(IMAGE): $(IMAGE_EFI) FORCE
	$(call say,IMAGE,$@)tools/mkimage.sh $@ $(IMAGE_EFI) '$(CONFIG)'
	$(Q)echo "$@: $$(stat -c %s $@) bytes, \\EFI\\BOOT\\BOOTX64.EFI from $(IMAGE_EFI), \\uncore\\uncore.cfg from $(CONFIG)"

# ---- host tools and unit tests (ASan + UBSan); each test links only what it tests ----
HOST := $(BUILD)/host
$(HOST)/%.o: %.c $(HOST)/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)$(CC) $(HOST_CFLAGS) -c $< -o $@

$(HOST)/gen/%.o: $(GEN)/%.c $(HOST)/gen/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)$(CC) $(HOST_CFLAGS) -Idrivers/engine -c $< -o $@

$(HOST)/%.o.flags: FORCE
	$(call flags_file,$(CC) $(HOST_CFLAGS))
$(HOST)/gen/%.o.flags: FORCE
	$(call flags_file,$(CC) $(HOST_CFLAGS) -Idrivers/engine)

# Event tables: generated from events/*.json, never edited by hand.
$(HOST)/gen_events: $(HOST)/tools/gen_events.o $(HOST)/tools/gen_json.o $(HOST)/drivers/base/parse.o $(HOST)/drivers/base/arith.o
	$(call say,HOSTLD,$@)$(CC) $(HOST_LDFLAGS) $^ -o $@

# GEN_EVENTS_FLAGS_NAME: the Units of Intel's file that the driver does not
# program, left out (-x UNIT; events/README.md says why for each).
GEN_EVENTS_FLAGS_lnl := -x SANTA
$(GEN)/%_events.c: events/%.json $(HOST)/gen_events Makefile
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)$(HOST)/gen_events $(GEN_EVENTS_FLAGS_$*) $*_events $< $@
# events/NAME/: every file of it, the Units of events/NAME/units kept.
define event_dir
$(GEN)/$(1)_events.c: $(sort $(wildcard events/$(1)/*.json)) events/$(1)/units $(HOST)/gen_events Makefile
	@mkdir -p $$(dir $$@)
	$$(call say,GEN,$$@)$(HOST)/gen_events --units=$$$$(cat events/$(1)/units) $(1)_events $$@ $(sort $(wildcard events/$(1)/*.json))
endef
$(foreach d,$(EVENT_DIRS),$(eval $(call event_dir,$(d))))

# The registry: every driver named by an events/NAME.json, as pmu_driver_NAME.
# The list of names is kept in a file rewritten only when it changes, so
# that a removed or renamed events file regenerates the registry too.
$(GEN)/pmu_names: FORCE
	@mkdir -p $(dir $@)
	$(Q)echo '$(PMU_NAMES)' | cmp -s - $@ || echo '$(PMU_NAMES)' > $@
FORCE:
$(GEN)/pmu_registry.c: Makefile $(GEN)/pmu_names
	@mkdir -p $(dir $@)
	$(call say,GEN,$@){ echo '/* Generated by the Makefile from the files in events/. Do not edit. */'; \
	  echo '#include "pmu.h"'; \
	  for n in $(PMU_NAMES); do echo "extern const struct pmu_driver pmu_driver_$$n;"; done; \
	  echo 'const struct pmu_driver *const pmu_drivers[] = {'; \
	  for n in $(PMU_NAMES); do echo "	&pmu_driver_$$n,"; done; \
	  echo '	0,'; echo '};'; } > $@
# Each table's name index, apart from the registry (tests that make up their
# own pmu_drivers still find the real tables' indexes).
$(GEN)/pmu_event_index.c: Makefile $(GEN)/pmu_names
	@mkdir -p $(dir $@)
	$(call say,GEN,$@){ echo '/* Generated by the Makefile from the files in events/. Do not edit. */'; \
	  echo '#include "pmu.h"'; \
	  for n in $(PMU_NAMES); do echo "extern const struct event_desc $${n}_events[];"; \
	    echo "extern const uint16_t $${n}_events_by_hash[];"; done; \
	  echo 'const struct pmu_event_index pmu_event_index[] = {'; \
	  for n in $(PMU_NAMES); do echo "	{ $${n}_events, $${n}_events_by_hash },"; done; \
	  echo '	{ 0, 0 },'; echo '};'; } > $@

hobj = $(patsubst %.c,$(HOST)/%.o,$(1))
T_FAKE := tests/unit/fake_hw.c tests/unit/t.c tests/unit/run_help.c

# Everything in drivers/ as one archive: a program links the objects it
# uses and no others (the decoder, for one, never pulls in the engine).
LIB_OBJS := $(call hobj,$(LIB_SRCS)) $(patsubst $(GEN)/%.c,$(HOST)/gen/%.o,$(GEN_SRCS))
$(HOST)/libuncore.a: $(LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
LIB := $(HOST)/libuncore.a

# The host decoder of stored results: build/uncore_decode is the release
# build users install (optimised, no sanitizers), build/uncore_decode-static
# the same linked statically (for a DUT's initramfs); the tests run a copy
# built like them, with sanitizers (build/host/uncore_decode).
DECODE_SRCS := tools/uncore_decode.c tools/varsrc.c
$(HOST)/uncore_decode: $(call hobj,$(DECODE_SRCS)) $(LIB)
	$(call say,HOSTLD,$@)$(CC) $(HOST_LDFLAGS) $^ -o $@
REL := $(BUILD)/rel
REL_CFLAGS := $(WARN) -O2 -MMD -MP
$(REL)/%.o: %.c $(REL)/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(REL_CFLAGS) -c $< -o $@
$(REL)/gen/%.o: $(GEN)/%.c $(REL)/gen/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(REL_CFLAGS) -Idrivers/engine -c $< -o $@
$(REL)/%.o.flags: FORCE
	$(call flags_file,$(CC) $(REL_CFLAGS))
$(REL)/gen/%.o.flags: FORCE
	$(call flags_file,$(CC) $(REL_CFLAGS) -Idrivers/engine)
$(REL)/libuncore.a: $(patsubst %.c,$(REL)/%.o,$(LIB_SRCS)) $(patsubst $(GEN)/%.c,$(REL)/gen/%.o,$(GEN_SRCS))
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
# The packer of the images' .data (tools/pack.c), built like a release tool.
$(BUILD)/pack: $(REL)/tools/pack.o $(REL)/drivers/base/unpack.o $(REL)/drivers/base/zimage.o $(REL)/drivers/base/crc32.o
	$(call say,LD,$@)$(CC) $^ -lz -o $@
$(BUILD)/uncore_decode: $(patsubst %.c,$(REL)/%.o,$(DECODE_SRCS)) $(REL)/libuncore.a
	$(call say,LD,$@)$(CC) $^ -o $@
$(BUILD)/uncore_decode-static: $(patsubst %.c,$(REL)/%.o,$(DECODE_SRCS)) $(REL)/libuncore.a
	$(call say,LD,$@)$(CC) -static $^ -o $@

MODEL_SRCS := tests/emu/model.c $(EMU_UNCORES) $(EMU_CORE) tests/emu/options.c tests/emu/emu_hw.c

UNIT_TESTS := test_fmt test_parse test_cli test_cpu test_info test_app test_model test_gen_events test_stat test_evsel test_app_stat test_imc test_record test_decode test_var test_load test_smbios
APP_TEST := $(CMD_SRCS) tests/unit/app_run.c tests/unit/fake_vars.c
$(HOST)/test_fmt: $(call hobj,tests/unit/test_fmt.c tests/unit/t.c)
$(HOST)/test_parse: $(call hobj,tests/unit/test_parse.c tests/unit/t.c)
$(HOST)/test_cli: $(call hobj,tests/unit/test_cli.c tests/unit/t.c $(APP_TEST))
$(HOST)/test_cpu: $(call hobj,tests/unit/test_cpu.c $(T_FAKE))
$(HOST)/test_info: $(call hobj,tests/unit/test_info.c $(T_FAKE))
$(HOST)/test_app: $(call hobj,tests/unit/test_app.c $(T_FAKE) $(APP_TEST))
$(HOST)/test_model: $(call hobj,tests/unit/test_model.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_stat: $(call hobj,tests/unit/test_stat.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_evsel: $(call hobj,tests/unit/test_evsel.c tests/unit/t.c)
$(HOST)/test_app_stat: $(call hobj,tests/unit/test_app_stat.c $(T_FAKE) $(MODEL_SRCS) $(APP_TEST))
$(HOST)/test_imc: $(call hobj,tests/unit/test_imc.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_record: $(call hobj,tests/unit/test_record.c tests/unit/t.c tests/unit/fake_vars.c)
$(HOST)/test_decode: $(call hobj,tests/unit/test_decode.c tests/unit/t.c tests/unit/fake_vars.c) | $(HOST)/uncore_decode
$(HOST)/test_var: $(call hobj,tests/unit/test_var.c tests/unit/t.c $(APP_TEST))
$(HOST)/test_load: $(call hobj,tests/unit/test_load.c tests/unit/t.c)
$(HOST)/test_smbios: $(call hobj,tests/unit/test_smbios.c tests/unit/t.c)
UNIT_TESTS += test_openmetrics test_push
$(HOST)/test_push: $(call hobj,tests/unit/test_push.c $(T_FAKE) $(MODEL_SRCS) $(APP_TEST))
UNIT_TESTS += test_bootcheck
$(HOST)/test_bootcheck: $(call hobj,tests/unit/test_bootcheck.c $(T_FAKE) $(APP_TEST))
$(HOST)/test_openmetrics: $(call hobj,tests/unit/test_openmetrics.c $(T_FAKE) $(MODEL_SRCS) $(APP_TEST))
$(HOST)/test_gen_events: $(call hobj,tests/unit/test_gen_events.c tests/unit/t.c) | $(HOST)/gen_events
UNIT_TESTS += test_status
UNIT_TESTS += test_conformance
UNIT_TESTS += test_emu_core
UNIT_TESTS += test_knc
UNIT_TESTS += test_p6
$(HOST)/test_p6: $(call hobj,tests/unit/test_p6.c $(T_FAKE))
UNIT_TESTS += test_arch
$(HOST)/test_arch: $(call hobj,tests/unit/test_arch.c $(T_FAKE) $(MODEL_SRCS))
UNIT_TESTS += test_emu_core_pmus
UNIT_TESTS += test_emu_snbep
$(HOST)/test_emu_snbep: $(call hobj,tests/unit/test_emu_snbep.c $(T_FAKE) $(MODEL_SRCS))
UNIT_TESTS += test_pciimc
$(HOST)/test_pciimc: $(call hobj,tests/unit/test_pciimc.c $(T_FAKE) $(MODEL_SRCS))
UNIT_TESTS += test_lab
UNIT_TESTS += test_tsc
$(HOST)/test_tsc: $(call hobj,tests/unit/test_tsc.c tests/unit/t.c)
$(HOST)/test_lab: $(call hobj,tests/unit/test_lab.c tests/unit/t.c tests/unit/fake_vars.c)
$(HOST)/test_emu_core_pmus: $(call hobj,tests/unit/test_emu_core_pmus.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_emu_core: $(call hobj,tests/unit/test_emu_core.c tests/unit/t.c tests/emu/model.c $(EMU_UNCORES) $(EMU_CORE))
$(HOST)/test_conformance: $(call hobj,tests/unit/test_conformance.c tests/unit/t.c $(EMU_UNCORES) tests/emu/model.c $(EMU_CORE))
$(HOST)/test_status: $(call hobj,tests/unit/test_status.c tests/unit/t.c)
$(HOST)/test_knc: $(call hobj,tests/unit/test_knc.c $(T_FAKE))
UNIT_TESTS += test_adl
$(HOST)/test_adl: $(call hobj,tests/unit/test_adl.c tests/unit/fake_hw.c tests/unit/t.c tests/unit/run_help.c $(MODEL_SRCS))
UNIT_TESTS += test_mtl
$(HOST)/test_mtl: $(call hobj,tests/unit/test_mtl.c tests/unit/fake_hw.c tests/unit/t.c tests/unit/run_help.c $(MODEL_SRCS))
UNIT_TESTS += test_snbep
$(HOST)/test_snbep: $(call hobj,tests/unit/test_snbep.c $(T_FAKE))
UNIT_TESTS += test_engine_groups
UNIT_TESTS += test_pkg
$(HOST)/test_pkg: $(call hobj,tests/unit/test_pkg.c $(T_FAKE))
$(HOST)/test_engine_groups: $(call hobj,tests/unit/test_engine_groups.c $(T_FAKE) $(APP_TEST))
UNIT_TESTS += test_html
UNIT_TESTS += test_pcibus
$(HOST)/test_pcibus: $(call hobj,tests/unit/test_pcibus.c tests/unit/t.c)
UNIT_TESTS += test_reloc
UNIT_TESTS += test_pack
$(HOST)/test_pack: $(call hobj,tests/unit/test_pack.c tests/unit/t.c drivers/base/unpack.c)
$(HOST)/test_pack: HOST_LIBS := -lz
UNIT_TESTS += test_zimage
$(HOST)/test_zimage: $(call hobj,tests/unit/test_zimage.c tests/unit/t.c)
$(HOST)/test_zimage: HOST_LIBS := -lz
UNIT_TESTS += test_disc
$(HOST)/test_disc: $(call hobj,tests/unit/test_disc.c tests/unit/t.c)
UNIT_TESTS += test_disc_drv
UNIT_TESTS += test_emu_disc
UNIT_TESTS += test_icx
$(HOST)/test_icx: $(call hobj,tests/unit/test_icx.c $(T_FAKE) $(MODEL_SRCS))
UNIT_TESTS += test_xcha
$(HOST)/test_xcha: $(call hobj,tests/unit/test_xcha.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_emu_disc: $(call hobj,tests/unit/test_emu_disc.c $(T_FAKE) $(MODEL_SRCS))
$(HOST)/test_disc_drv: $(call hobj,tests/unit/test_disc_drv.c $(T_FAKE))
UNIT_TESTS += test_many_boxes
$(HOST)/test_many_boxes: $(call hobj,tests/unit/test_many_boxes.c $(T_FAKE) $(APP_TEST))
$(HOST)/test_reloc: $(call hobj,tests/unit/test_reloc.c tests/unit/t.c efi/reloc.c)
$(HOST)/test_html: $(call hobj,tests/unit/test_html.c tests/unit/t.c) | $(HOST)/uncore_decode

$(addprefix $(HOST)/,$(UNIT_TESTS)): $(LIB)
	$(call say,HOSTLD,$@)$(CC) $(HOST_LDFLAGS) $(filter %.o,$^) $(LIB) $(HOST_LIBS) -o $@

# ---- fuzzing (libFuzzer, clang): make fuzz FUZZ_SECONDS=60 ----
FUZZ_SECONDS ?= 60
# make check runs each fuzzer for a fixed time and says how many inputs it ran.
FUZZ_CHECK_SECONDS ?= 30
FUZZ_LIB := $(LIB_SRCS) $(GEN_SRCS)
# The harnesses share one sanitized build of the library: each file compiled
# once with the fuzzer's coverage (fuzzer-no-link), then both linked with it.
# The formatter (fmt.c) is built with the same sanitizers but no coverage:
# what it prints is not what the fuzzers explore, and tracing each of its
# comparisons for libFuzzer was an eighth of fuzz_evsel's time.
FUZZ_SAN = fuzzer-no-link,address,undefined
FUZZ_CFLAGS = -std=gnu11 -Wall -Wextra -Werror -g -O1 -fsanitize=$(FUZZ_SAN) \
	-fno-sanitize-recover=all -Idrivers/engine -MMD -MP
fuzzobj = $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(1))
$(call fuzzobj,drivers/base/fmt.c): FUZZ_SAN = address,undefined
$(BUILD)/fuzz/obj/%.o: %.c $(BUILD)/fuzz/obj/%.o.flags
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$@)clang $(FUZZ_CFLAGS) -c $< -o $@
$(BUILD)/fuzz/obj/%.o.flags: FORCE
	$(call flags_file,clang $(FUZZ_CFLAGS))
# The library as an archive: each harness links only the files it reaches,
# so libFuzzer's per-input walk of the coverage counters covers those alone
# (fuzz_evsel: 9,611 counters instead of 11,868).
$(BUILD)/fuzz/libfuzz.a: $(call fuzzobj,$(FUZZ_LIB))
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
$(BUILD)/fuzz/fuzz_evsel: $(call fuzzobj,tests/fuzz/fuzz_evsel.c) $(BUILD)/fuzz/libfuzz.a
	$(call say,FUZZLD,$@)clang -fsanitize=fuzzer,address,undefined $^ -o $@

$(BUILD)/fuzz/fuzz_decode: $(call fuzzobj,tests/fuzz/fuzz_decode.c tools/varsrc.c) $(BUILD)/fuzz/libfuzz.a
	$(call say,FUZZLD,$@)clang -fsanitize=fuzzer,address,undefined $^ -o $@

FUZZERS := $(BUILD)/fuzz/fuzz_evsel $(BUILD)/fuzz/fuzz_decode
# `make fuzz` runs each harness for FUZZ_SECONDS (make check for FUZZ_CHECK_SECONDS).
fuzz: $(FUZZERS)
	$(Q)tests/fuzz/run.sh $(BUILD)/fuzz/fuzz_evsel tests/fuzz/corpus/evsel -max_total_time=$(FUZZ_SECONDS)
	$(Q)tests/fuzz/run.sh $(BUILD)/fuzz/fuzz_decode tests/fuzz/corpus/decode -max_total_time=$(FUZZ_SECONDS)

# ---- benchmarks: figures, never pass/fail ----
$(BUILD)/bench/bench_imc: tests/bench/bench_imc.c $(LIB_SRCS) $(GEN_SRCS)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(WARN) -O2 -g -Idrivers/engine $^ -o $@

# Per PMU family, over the emulator's model (which stands for the hardware).
$(BUILD)/bench/bench_sample: tests/bench/bench_sample.c $(LIB_SRCS) $(GEN_SRCS) $(MODEL_SRCS) $(T_FAKE)
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(WARN) -O2 -g -Idrivers/engine $^ -o $@

# The least a sample making the same tests can cost (a yardstick).
$(BUILD)/bench/bench_floor: tests/bench/bench_floor.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(WARN) -O2 -g $^ -o $@

# The load kernels: the object the application links (build/efi/drivers/engine/load.o,
# EFI_CFLAGS and LOAD_OPT), against the same kernels as plain C loops built the
# way STREAM is built.
REF_CFLAGS := $(WARN) -O3 -march=native -fopenmp -MMD -MP
$(BUILD)/bench/load_ref.o: tests/bench/load_ref.c $(BUILD)/bench/load_ref.o.flags
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(REF_CFLAGS) -c $< -o $@
$(BUILD)/bench/load_ref.o.flags: FORCE
	$(call flags_file,$(CC) $(REF_CFLAGS))
$(BUILD)/bench/bench_load: tests/bench/bench_load.c $(BUILD)/efi/drivers/engine/load.o $(BUILD)/bench/load_ref.o drivers/base/parse.c drivers/base/arith.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(WARN) -O2 -g -fopenmp -Idrivers/engine $^ -o $@

# The unpacking of uncore.efi's application, with its decoder, filter and
# CRC built for size as in the stub.
$(BUILD)/bench/bench_unpack: tests/bench/bench_unpack.c drivers/base/unpack.c drivers/base/zimage.c drivers/base/crc32.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(WARN) -Oz -fno-jump-tables -fno-tree-vectorize -g $^ -lz -o $@

bench:
	$(Q)tests/deps.sh bench
	$(Q)$(MAKE) --no-print-directory all $(BUILD)/bench/bench_imc $(BUILD)/bench/bench_sample $(BUILD)/bench/bench_floor $(BUILD)/bench/bench_load \
		$(BUILD)/bench/bench_unpack $(BUILD)/uncore.zimg
	$(Q)tests/bench/run.sh

# What is missing, of the Debian packages: `make deps` everything (the tests'
# too: linux-image-amd64, busybox-static, cpio, sbsigntool, clang...), `make
# demo` only what it needs (tests/deps.sh).
deps:
	$(Q)tests/deps.sh

# make unit T=SUITE.CASE runs that one case of build/host/test_SUITE (T=SUITE:
# that binary's cases); the binaries take case names and --list themselves
# (tests/README.md).
T_SUITE = test_$(firstword $(subst ., ,$(T)))
$(if $(T),$(if $(filter $(T_SUITE),$(UNIT_TESTS)),,$(error T=$(T): no unit test $(T_SUITE) (UNIT_TESTS))))
unit: $(addprefix $(HOST)/,$(if $(T),$(T_SUITE),$(UNIT_TESTS)))
	$(Q)$(if $(T),$< $(if $(findstring .,$(T)),$(T)),tests/run-unit.sh $^ tests/build-flags.sh tests/prometheus.sh tests/systemd.sh tests/node_exporter.sh)

# make boot BOOTS="skl e5": the QEMU boots named (all without BOOTS; BOOTS=list names them).
boot: deps
	$(Q)$(MAKE) --no-print-directory all image
	$(Q)BOOTS='$(BOOTS)' tests/qemu/boot-tests.sh

# make check builds on every core unless make was given -j itself.
CHECK_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
check: deps
	$(Q)$(MAKE) --no-print-directory $(CHECK_JOBS) all $(addprefix $(HOST)/,$(UNIT_TESTS)) $(FUZZERS) image
	$(Q)FUZZ_CHECK_SECONDS=$(FUZZ_CHECK_SECONDS) tests/run-all.sh $(addprefix $(HOST)/,$(UNIT_TESTS)) tests/build-flags.sh tests/prometheus.sh tests/systemd.sh tests/node_exporter.sh

demo:
	$(Q)tests/deps.sh demo
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/qemu/demo.sh

clean:
	rm -rf $(BUILD)

# The objects' flags files (see flags_file) are kept, not removed as intermediate.
.PRECIOUS: $(BUILD)/efi/%.o.flags $(BUILD)/efi/gen/%.o.flags $(HOST)/%.o.flags $(HOST)/gen/%.o.flags \
	$(REL)/%.o.flags $(REL)/gen/%.o.flags $(BUILD)/fuzz/obj/%.o.flags

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
