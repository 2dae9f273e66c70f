#include "events.h"

#include "parse.h"

const struct event_desc *event_find(const char *name)
{
	for (unsigned i = 0; i < skl_events_count; i++)
		if (str_ieq(skl_events[i].name, name))
			return &skl_events[i];
	return 0;
}

const char *event_unit_name(enum event_unit u)
{
	switch (u) {
	case EV_UNIT_CBO: return "cbo";
	case EV_UNIT_ARB: return "arb";
	case EV_UNIT_FIXED: return "fixed";
	case EV_UNIT_IMC: return "imc";
	}
	return "?";
}
