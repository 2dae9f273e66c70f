/* The packed application (drivers/base/zimage.h) in uncore.efi's outer
 * image (efi/stub.c): ZIMAGE is the blob's file, build/uncore.zimg. */
	.section .zimage, "a"
	.globl zimage_start, zimage_end
	.hidden zimage_start, zimage_end
zimage_start:
	.incbin ZIMAGE
zimage_end:
	.section .note.GNU-stack, "", @progbits
