/* A stored run as OpenMetrics text (the Prometheus exposition format with
 * # TYPE, # UNIT and # HELP, ending in # EOF): the figures the console
 * printed for it, computed by the same report functions, as gauges in base
 * units, every series labelled with the machine (SMBIOS, the CPU), how the
 * counters were read (msr_access="emulated" for the emulator's) and the
 * caller's labels. The metrics and labels: openmetrics.md. */
#ifndef UNC_OPENMETRICS_H
#define UNC_OPENMETRICS_H

#include <stddef.h>

#include "record.h"

struct om_label {
	const char *name, *value;
};

/* The record r as OpenMetrics text (HELP/TYPE/UNIT, series, "# EOF\n"), every
 * series also carrying the labels in extra (e.g. case="dram-copy"). Writes at
 * most cap-1 bytes and a NUL into buf; returns the length the whole text needs
 * (like snprintf), so a caller can size its buffer. A label of extra with an
 * empty value is left out, as Prometheus does; its name must be a label name
 * ([a-zA-Z_][a-zA-Z0-9_]*) other than the writer's own. Returns 0 (buf "")
 * only when there was no memory for the record's counts. */
size_t om_write(char *buf, size_t cap, const struct rec *r, const struct om_label *extra, size_t nextra);

#endif
