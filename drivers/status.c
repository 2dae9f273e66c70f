#include "status.h"

const char *unc_strerror(enum unc_status st)
{
	switch (st) {
	case UNC_OK: return "success";
	case UNC_E_INVALID: return "invalid argument";
	case UNC_E_FAULT: return "general-protection fault";
	case UNC_E_UNSUPPORTED: return "unsupported";
	case UNC_E_NOT_FOUND: return "not found";
	case UNC_E_DEVICE: return "firmware service failed";
	case UNC_E_BUSY: return "in use";
	case UNC_E_RANGE: return "out of range";
	case UNC_E_NO_MEMORY: return "out of memory";
	case UNC_E_ABORTED: return "stopped by the user";
	case UNC_E_OVERFLOW: return "counter overflow lost";
	case UNC_E_CHECK: return "bandwidth check failed";
	case UNC_E_CLOBBERED: return "a counter was written by someone else";
	case UNC_E_STUCK: return "a counter is stuck";
	}
	return "unknown status";
}
