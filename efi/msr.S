/* rdmsr/wrmsr/rdpmc at known addresses, so the #GP and #UD handlers in
 * hw_native.c can recognise a fault on exactly these instructions and step
 * over them. All three are two bytes long (0F 32, 0F 30, 0F 33). SysV calling
 * convention: the rest of the application is compiled that way. */
	.text

/* uint64_t unc_asm_rdmsr(uint32_t msr) */
	.globl unc_asm_rdmsr
	.type unc_asm_rdmsr, @function
unc_asm_rdmsr:
	movl %edi, %ecx
	xorl %eax, %eax
	xorl %edx, %edx
	.globl unc_rdmsr_insn
unc_rdmsr_insn:
	rdmsr
	shlq $32, %rdx
	orq %rdx, %rax
	ret
	.size unc_asm_rdmsr, . - unc_asm_rdmsr

/* void unc_asm_wrmsr(uint32_t msr, uint64_t value) */
	.globl unc_asm_wrmsr
	.type unc_asm_wrmsr, @function
unc_asm_wrmsr:
	movl %edi, %ecx
	movl %esi, %eax
	movq %rsi, %rdx
	shrq $32, %rdx
	.globl unc_wrmsr_insn
unc_wrmsr_insn:
	wrmsr
	ret
	.size unc_asm_wrmsr, . - unc_asm_wrmsr

/* uint64_t unc_asm_rdpmc(uint32_t index) */
	.globl unc_asm_rdpmc
	.type unc_asm_rdpmc, @function
unc_asm_rdpmc:
	movl %edi, %ecx
	xorl %eax, %eax
	xorl %edx, %edx
	.globl unc_rdpmc_insn
unc_rdpmc_insn:
	rdpmc
	shlq $32, %rdx
	orq %rdx, %rax
	ret
	.size unc_asm_rdpmc, . - unc_asm_rdpmc

/* uint32_t unc_asm_mmio_read32(uint64_t phys), void unc_asm_mmio_write32(uint64_t phys,
 * uint32_t value): one 32-bit load or store at a known address, so that the
 * #PF handler in hw_native.c can step over exactly these two-byte
 * instructions (8B 07, 89 37) when the firmware has not mapped the page. */
	.globl unc_asm_mmio_read32
	.type unc_asm_mmio_read32, @function
unc_asm_mmio_read32:
	xorl %eax, %eax
	.globl unc_mmio_load_insn
unc_mmio_load_insn:
	movl (%rdi), %eax
	ret
	.size unc_asm_mmio_read32, . - unc_asm_mmio_read32

	.globl unc_asm_mmio_write32
	.type unc_asm_mmio_write32, @function
unc_asm_mmio_write32:
	.globl unc_mmio_store_insn
unc_mmio_store_insn:
	movl %esi, (%rdi)
	ret
	.size unc_asm_mmio_write32, . - unc_asm_mmio_write32

	.section .note.GNU-stack, "", @progbits
