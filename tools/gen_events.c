/* gen_events: an events/ JSON file (Intel perfmon field names) -> C tables.
 *
 *   gen_events SYMBOL INPUT.json OUTPUT.c
 *
 * Reads a JSON array of event objects whose values are strings, checks every
 * field against the manual's field widths (Table 2-7), and writes a C file
 * defining `const struct event_desc SYMBOL[]` and `const unsigned
 * SYMBOL_count`, as declared in drivers/events.h. Any problem is reported as
 * "FILE:LINE: reason", and then no output file is written. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 512
#define MAX_FIELDS 16

struct field {
	char *key, *val;
	int line;
};

struct object {
	struct field f[MAX_FIELDS];
	int nf, line;
};

static const char *path;
static const char *src;
static size_t pos, len;
static int line = 1;

static void die(int at, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int at, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", path, at);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void skip_ws(void)
{
	while (pos < len && isspace((unsigned char)src[pos])) {
		if (src[pos] == '\n')
			line++;
		pos++;
	}
}

static int peek(void)
{
	skip_ws();
	return pos < len ? (unsigned char)src[pos] : EOF;
}

static void expect(char c, const char *context)
{
	int got = peek();

	if (got != c) {
		if (got == EOF)
			die(line, "unexpected end of file; expected '%c' %s", c, context);
		die(line, "expected '%c' %s, found '%c'", c, context, got);
	}
	pos++;
}

/* The string being parsed, kept reachable so that an error exit in the
 * middle of one is not reported as a leak. Finished strings stay reachable
 * through the static event array. */
static char *volatile pending; /* volatile: only ever written */

static char *parse_string(void)
{
	expect('"', "to start a string");
	size_t cap = 64, n = 0;
	char *s = pending = malloc(cap);
	if (!s)
		die(line, "out of memory");
	for (;;) {
		if (pos >= len)
			die(line, "unterminated string");
		char c = src[pos++];
		if (c == '"')
			break;
		if (c == '\n' || (unsigned char)c < 0x20)
			die(line, "control character inside a string");
		if (c == '\\') {
			if (pos >= len)
				die(line, "unterminated escape");
			char e = src[pos++];
			switch (e) {
			case '"': case '\\': case '/': c = e; break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned v = 0;
				for (int i = 0; i < 4; i++) {
					if (pos >= len || !isxdigit((unsigned char)src[pos]))
						die(line, "bad \\u escape");
					char h = src[pos++];
					v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : tolower(h) - 'a' + 10);
				}
				if (v == 0 || v > 0x7e)
					die(line, "\\u%04x: only printable ASCII is allowed", v);
				c = (char)v;
				break;
			}
			default:
				die(line, "unknown escape '\\%c'", e);
			}
		}
		if (n + 2 > cap) {
			cap *= 2;
			char *t = realloc(s, cap);
			if (!t)
				die(line, "out of memory");
			s = pending = t;
		}
		s[n++] = c;
	}
	s[n] = '\0';
	return s;
}

static void parse_object(struct object *o)
{
	o->line = line;
	expect('{', "to start an event object");
	if (peek() == '}') {
		pos++;
		return;
	}
	for (;;) {
		if (o->nf == MAX_FIELDS)
			die(line, "too many fields in one event (at most %d)", MAX_FIELDS);
		struct field *f = &o->f[o->nf++];
		skip_ws();
		f->line = line;
		if (peek() != '"')
			die(line, "expected a field name in quotes");
		f->key = parse_string();
		expect(':', "after a field name");
		if (peek() != '"')
			die(line, "field '%s': the value must be a string, as in Intel's event files", f->key);
		f->val = parse_string();
		for (int i = 0; i < o->nf - 1; i++)
			if (!strcmp(o->f[i].key, f->key))
				die(f->line, "field '%s' appears twice in one event", f->key);
		int c = peek();
		if (c == ',') {
			pos++;
			continue;
		}
		if (c == '}') {
			pos++;
			return;
		}
		die(line, "expected ',' or '}' after field '%s'", f->key);
	}
}

static const char *get(const struct object *o, const char *key, bool required, int *ret_line)
{
	for (int i = 0; i < o->nf; i++) {
		if (!strcmp(o->f[i].key, key)) {
			if (ret_line)
				*ret_line = o->f[i].line;
			return o->f[i].val;
		}
	}
	if (required)
		die(o->line, "event is missing the required field '%s'", key);
	if (ret_line)
		*ret_line = o->line;
	return NULL;
}

static unsigned num(const struct object *o, const char *key, unsigned max, unsigned dflt)
{
	int at;
	const char *v = get(o, key, false, &at);
	char *end;

	if (!v)
		return dflt;
	errno = 0;
	unsigned long n = strtoul(v, &end, 0);
	if (!*v || *end || errno || n > max || v[0] == '-' || v[0] == '+' || isspace((unsigned char)v[0]))
		die(at, "field '%s' is \"%s\"; want a number from 0 to %u", key, v, max);
	return (unsigned)n;
}

static const char *known_fields[] = { "Unit", "EventCode", "UMask", "EventName", "BriefDescription",
				      "PublicDescription", "Counter", "CounterMask", "Invert", "EdgeDetect",
				      "PerPkg", NULL };

static void put_c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (isprint((unsigned char)*s))
			fputc(*s, out);
		else
			fprintf(out, "\\%03o", (unsigned char)*s);
	}
	fputc('"', out);
}

static char *read_file(const char *p, size_t *ret_len)
{
	FILE *f = fopen(p, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open: %s\n", p, strerror(errno));
		exit(1);
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *t = realloc(buf, cap *= 2);
			if (!t)
				free(buf);
			buf = t;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", p);
		exit(1);
	}
	*ret_len = n;
	return buf;
}

int main(int argc, char **argv)
{
	static struct object ev[MAX_EVENTS];
	int nev = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: gen_events SYMBOL INPUT.json OUTPUT.c\n");
		return 2;
	}
	path = argv[2];
	src = read_file(path, &len);
	if (memchr(src, '\0', len))
		die(1, "the file contains a NUL byte");

	expect('[', "to start the list of events");
	if (peek() == ']')
		die(line, "the list of events is empty");
	for (;;) {
		if (nev == MAX_EVENTS)
			die(line, "too many events (at most %d)", MAX_EVENTS);
		parse_object(&ev[nev++]);
		int c = peek();
		if (c == ',') {
			pos++;
			continue;
		}
		if (c == ']') {
			pos++;
			break;
		}
		die(line, "expected ',' or ']' after an event");
	}
	if (peek() != EOF)
		die(line, "unexpected text after the list of events");

	static struct row {
		const char *name, *brief, *unit;
		unsigned code, umask, counters, cmask, inv, edge;
	} rows[MAX_EVENTS];
	for (int i = 0; i < nev; i++) {
		struct object *o = &ev[i];
		int at;
		for (int k = 0; k < o->nf; k++) {
			bool known = false;
			for (const char **kf = known_fields; *kf; kf++)
				known |= !strcmp(*kf, o->f[k].key);
			if (!known)
				die(o->f[k].line, "unknown field '%s'", o->f[k].key);
		}
		const char *name = get(o, "EventName", true, &at);
		if (!*name)
			die(at, "EventName is empty");
		for (const char *p = name; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
				die(at, "EventName \"%s\" has a character other than letters, digits, '_' and '.'", name);
		for (int j = 0; j < i; j++)
			if (!strcasecmp(get(&ev[j], "EventName", true, NULL), name))
				die(at, "event \"%s\" is defined twice (first at line %d)", name, ev[j].line);

		const char *unit = get(o, "Unit", true, &at), *ustr;
		if (!strcmp(unit, "CBOX"))
			ustr = "EV_UNIT_CBO";
		else if (!strcmp(unit, "ARB"))
			ustr = "EV_UNIT_ARB";
		else if (!strcmp(unit, "CLOCK"))
			ustr = "EV_UNIT_FIXED";
		else
			die(at, "Unit \"%s\" is not CBOX, ARB or CLOCK", unit);

		const char *ctr = get(o, "Counter", true, &at);
		unsigned counters = 0;
		if (!strcmp(ctr, "FIXED")) {
			counters = 0x80;
		} else {
			for (const char *p = ctr; *p;) {
				if (*p < '0' || *p > '1')
					die(at, "Counter \"%s\": want FIXED or a list of counters 0 and 1", ctr);
				counters |= 1u << (*p - '0');
				p++;
				if (*p == ',')
					p++;
				else if (*p)
					die(at, "Counter \"%s\": want FIXED or a list of counters 0 and 1", ctr);
			}
			if (!counters)
				die(at, "Counter is empty");
		}
		if ((counters == 0x80) != !strcmp(ustr, "EV_UNIT_FIXED"))
			die(at, "Counter \"%s\" does not fit Unit \"%s\" (only CLOCK counts on FIXED)", ctr, unit);

		unsigned code = num(o, "EventCode", 0xff, 0), umask = num(o, "UMask", 0xff, 0);
		get(o, "EventCode", true, NULL);
		unsigned cmask = num(o, "CounterMask", 0x1f, 0); /* THR, bits 28:24 */
		unsigned inv = num(o, "Invert", 1, 0), edge = num(o, "EdgeDetect", 1, 0);
		const char *brief = get(o, "BriefDescription", true, NULL);
		rows[i] = (struct row){ name, brief, ustr, code, umask, counters, cmask, inv, edge };
	}

	FILE *out = fopen(argv[3], "w");
	if (!out) {
		fprintf(stderr, "%s: cannot create: %s\n", argv[3], strerror(errno));
		return 1;
	}
	fprintf(out, "/* Generated by tools/gen_events from %s. Do not edit. */\n", path);
	fprintf(out, "#include \"events.h\"\n\nconst struct event_desc %s[] = {\n", argv[1]);
	for (int i = 0; i < nev; i++) {
		struct row *r = &rows[i];
		fprintf(out, "\t{ ");
		put_c_string(out, r->name);
		fprintf(out, ", ");
		put_c_string(out, r->brief);
		fprintf(out, ", %s, 0x%02x, 0x%02x, 0x%02x, %u, %u, %u },\n", r->unit, r->code, r->umask, r->counters,
			r->cmask, r->inv, r->edge);
	}
	fprintf(out, "};\n\nconst unsigned %s_count = %d;\n", argv[1], nev);
	if (fclose(out)) {
		fprintf(stderr, "%s: write failed\n", argv[3]);
		return 1;
	}
	return 0;
}
