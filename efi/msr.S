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

	.section .note.GNU-stack, "", @progbits
