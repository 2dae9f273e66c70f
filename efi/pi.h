/* PI-specification protocols that gnu-efi does not declare (UEFI PI 1.7,
 * Volume 2, section 12.3: EFI_CPU_ARCH_PROTOCOL). */
#ifndef UNC_PI_H
#define UNC_PI_H

#include <efi.h>

#define UNC_EFI_CPU_ARCH_PROTOCOL_GUID \
	{ 0x26baccb1, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

struct _UNC_EFI_CPU_ARCH_PROTOCOL;

typedef VOID(EFIAPI *UNC_EFI_CPU_INTERRUPT_HANDLER)(EFI_EXCEPTION_TYPE InterruptType, EFI_SYSTEM_CONTEXT SystemContext);

typedef struct _UNC_EFI_CPU_ARCH_PROTOCOL {
	EFI_STATUS(EFIAPI *FlushDataCache)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This, EFI_PHYSICAL_ADDRESS Start,
					   UINT64 Length, INTN FlushType);
	EFI_STATUS(EFIAPI *EnableInterrupt)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This);
	EFI_STATUS(EFIAPI *DisableInterrupt)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This);
	EFI_STATUS(EFIAPI *GetInterruptState)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This, BOOLEAN *State);
	EFI_STATUS(EFIAPI *Init)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This, INTN InitType);
	EFI_STATUS(EFIAPI *RegisterInterruptHandler)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This,
						     EFI_EXCEPTION_TYPE InterruptType,
						     UNC_EFI_CPU_INTERRUPT_HANDLER InterruptHandler);
	EFI_STATUS(EFIAPI *GetTimerValue)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This, UINT32 TimerIndex,
					  UINT64 *TimerValue, UINT64 *TimerPeriod);
	EFI_STATUS(EFIAPI *SetMemoryAttributes)(struct _UNC_EFI_CPU_ARCH_PROTOCOL *This,
						EFI_PHYSICAL_ADDRESS BaseAddress, UINT64 Length, UINT64 Attributes);
	UINT32 NumberOfTimers;
	UINT32 DmaBufferAlignment;
} UNC_EFI_CPU_ARCH_PROTOCOL;

#define UNC_EXCEPT_X64_INVALID_OPCODE 6
#define UNC_EXCEPT_X64_GP_FAULT       13
#define UNC_EXCEPT_X64_PAGE_FAULT     14

/* PI 1.7 Volume 2, 7.2: the DXE Services Table (found in the system
 * table's configuration table by its GUID) and its Global Coherency Domain
 * memory space services; only the members up to GetMemorySpaceDescriptor
 * are declared, AddMemorySpace for a test image (tests/child/unmapped.c),
 * the others as opaque slots. */
#define UNC_DXE_SERVICES_TABLE_GUID \
	{ 0x05ad34ba, 0x6f02, 0x4214, { 0x95, 0x2e, 0x4d, 0xa0, 0x39, 0x8e, 0x2b, 0xb9 } }

typedef enum {
	UncGcdMemoryTypeNonExistent,
	UncGcdMemoryTypeReserved,
	UncGcdMemoryTypeSystemMemory,
	UncGcdMemoryTypeMemoryMappedIo,
	UncGcdMemoryTypePersistent,
	UncGcdMemoryTypeMoreReliable,
	UncGcdMemoryTypeUnaccepted,
} UNC_EFI_GCD_MEMORY_TYPE;

typedef struct {
	EFI_PHYSICAL_ADDRESS BaseAddress;
	UINT64 Length;
	UINT64 Capabilities;
	UINT64 Attributes;
	UNC_EFI_GCD_MEMORY_TYPE GcdMemoryType;
	EFI_HANDLE ImageHandle;
	EFI_HANDLE DeviceHandle;
} UNC_EFI_GCD_MEMORY_SPACE_DESCRIPTOR;

typedef struct {
	EFI_TABLE_HEADER Hdr;
	EFI_STATUS(EFIAPI *AddMemorySpace)(UNC_EFI_GCD_MEMORY_TYPE GcdMemoryType, EFI_PHYSICAL_ADDRESS BaseAddress,
					   UINT64 Length, UINT64 Capabilities);
	VOID *AllocateMemorySpace, *FreeMemorySpace, *RemoveMemorySpace;
	EFI_STATUS(EFIAPI *GetMemorySpaceDescriptor)(EFI_PHYSICAL_ADDRESS BaseAddress,
						     UNC_EFI_GCD_MEMORY_SPACE_DESCRIPTOR *Descriptor);
} UNC_EFI_DXE_SERVICES;

/* PI 1.7 Volume 2, 12.10: EFI_TIMER_ARCH_PROTOCOL. */
#define UNC_EFI_TIMER_ARCH_PROTOCOL_GUID \
	{ 0x26baccb3, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

typedef struct _UNC_EFI_TIMER_ARCH_PROTOCOL {
	EFI_STATUS(EFIAPI *RegisterHandler)(struct _UNC_EFI_TIMER_ARCH_PROTOCOL *This, VOID *NotifyFunction);
	EFI_STATUS(EFIAPI *SetTimerPeriod)(struct _UNC_EFI_TIMER_ARCH_PROTOCOL *This, UINT64 TimerPeriod);
	EFI_STATUS(EFIAPI *GetTimerPeriod)(struct _UNC_EFI_TIMER_ARCH_PROTOCOL *This, UINT64 *TimerPeriod);
	EFI_STATUS(EFIAPI *GenerateSoftInterrupt)(struct _UNC_EFI_TIMER_ARCH_PROTOCOL *This);
} UNC_EFI_TIMER_ARCH_PROTOCOL;

/* PI 1.7 Volume 2, 13.4: EFI_MP_SERVICES_PROTOCOL. */
#define UNC_EFI_MP_SERVICES_PROTOCOL_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

typedef VOID(EFIAPI *UNC_EFI_AP_PROCEDURE)(VOID *Buffer);

typedef struct {
	UINT64 ProcessorId;
	UINT32 StatusFlag; /* bit 0 BSP, bit 1 enabled, bit 2 healthy */
	UINT32 Package, Core, Thread;
} UNC_EFI_PROCESSOR_INFORMATION;

typedef struct _UNC_EFI_MP_SERVICES_PROTOCOL {
	EFI_STATUS(EFIAPI *GetNumberOfProcessors)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UINTN *Total,
						  UINTN *Enabled);
	EFI_STATUS(EFIAPI *GetProcessorInfo)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UINTN ProcessorNumber,
					     UNC_EFI_PROCESSOR_INFORMATION *Info);
	EFI_STATUS(EFIAPI *StartupAllAPs)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UNC_EFI_AP_PROCEDURE Procedure,
					  BOOLEAN SingleThread, EFI_EVENT WaitEvent, UINTN TimeoutInMicroSeconds,
					  VOID *ProcedureArgument, UINTN **FailedCpuList);
	EFI_STATUS(EFIAPI *StartupThisAP)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UNC_EFI_AP_PROCEDURE Procedure,
					  UINTN ProcessorNumber, EFI_EVENT WaitEvent, UINTN TimeoutInMicroseconds,
					  VOID *ProcedureArgument, BOOLEAN *Finished);
	EFI_STATUS(EFIAPI *SwitchBSP)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UINTN ProcessorNumber,
				      BOOLEAN EnableOldBSP);
	EFI_STATUS(EFIAPI *EnableDisableAP)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UINTN ProcessorNumber,
					    BOOLEAN EnableAP, UINT32 *HealthFlag);
	EFI_STATUS(EFIAPI *WhoAmI)(struct _UNC_EFI_MP_SERVICES_PROTOCOL *This, UINTN *ProcessorNumber);
} UNC_EFI_MP_SERVICES_PROTOCOL;

#endif
