/* The JSON reader of tools/gen_events (gen_json.c). */
#ifndef UNC_GEN_JSON_H
#define UNC_GEN_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct field {
	char *key, *val;
	int line;
};

/* The fields the generator uses (gen_json.c's used_fields); an event
 * holds at most one of each. */
#define N_USED 11

struct object {
	struct field f[N_USED];
	int nf, line;
};

/* "FILE:AT: message" on standard error, and exit 1. */
void die(int at, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* FILE's events into *ret (its text into *ret_src, kept until the exit);
 * returns how many; any problem dies naming FILE:LINE. */
int json_events(const char *file, struct object **ret, char **ret_src);
/* The file being read, and the line the reader is at. */
int json_line(void);
const char *json_path(void);
/* An event's field KEY (required: dies if missing); *ret_line its line. */
const char *get(const struct object *o, const char *key, bool required, int *ret_line);
/* A number field, at most max (several: a comma list, each at most max). */
unsigned num_of(const struct object *o, const char *key, unsigned max, unsigned dflt, bool several);
unsigned num(const struct object *o, const char *key, unsigned max, unsigned dflt);

#endif
