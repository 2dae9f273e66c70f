/* The JSON reader of tools/gen_events (gen_json.h): Intel's perfmon files
 * as published, the used fields kept as strings, every other value
 * skipped, each problem reported as FILE:LINE and the program ended. */
#include "gen_json.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fields the generator uses; an event holds at most one of each. */
static const char *const used_fields[] = { "Unit", "EventCode", "UMask", "EventName", "BriefDescription",
					   "Counter", "CounterMask", "Invert", "EdgeDetect", "UMaskExt", "CounterType" };
_Static_assert(sizeof(used_fields) / sizeof(used_fields[0]) == N_USED, "N_USED counts used_fields");

#define MAX_DEPTH 32 /* nesting of skipped values: published files nest 2 deep */

static const char *path;
static const char *src;
static size_t pos, len;
static int line = 1;

void die(int at, const char *fmt, ...)
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

/* lenient: any \u escape is accepted (and kept as '?'), for strings that
 * are skipped; the strings that are used allow printable ASCII only. */
static char *parse_string(bool lenient)
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
				if ((v == 0 || v > 0x7e) && !lenient)
					die(line, "\\u%04x: only printable ASCII is allowed", v);
				c = v == 0 || v > 0x7e ? '?' : (char)v;
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

static bool skip_digits(void)
{
	size_t start = pos;

	while (pos < len && isdigit((unsigned char)src[pos]))
		pos++;
	return pos > start;
}

/* Skips one JSON value of any type: the Header, and fields not used. */
static void skip_value(int depth)
{
	int c = peek();

	if (depth > MAX_DEPTH)
		die(line, "values nested more than %d deep", MAX_DEPTH);
	if (c == '"') {
		free(parse_string(true));
		pending = NULL;
	} else if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		pos++;
		if (peek() == close) {
			pos++;
			return;
		}
		for (;;) {
			if (close == '}') {
				if (peek() != '"')
					die(line, "expected a field name in quotes");
				free(parse_string(true));
				pending = NULL;
				expect(':', "after a field name");
			}
			skip_value(depth + 1);
			c = peek();
			if (c == close) {
				pos++;
				return;
			}
			if (c != ',')
				die(line, "expected ',' or '%c'", close);
			pos++;
		}
	} else if (c != EOF && (isdigit(c) || c == '-')) {
		/* -?digits(.digits)?([eE][+-]?digits)? */
		size_t start = pos;
		pos += c == '-';
		bool ok = skip_digits();
		if (ok && pos < len && src[pos] == '.') {
			pos++;
			ok = skip_digits();
		}
		if (ok && pos < len && (src[pos] == 'e' || src[pos] == 'E')) {
			pos++;
			if (pos < len && (src[pos] == '+' || src[pos] == '-'))
				pos++;
			ok = skip_digits();
		}
		if (!ok || (pos < len && isalnum((unsigned char)src[pos])))
			die(line, "bad number at \"%.*s\"", (int)(pos - start + (pos < len)), src + start);
	} else {
		static const char *words[] = { "true", "false", "null" };
		for (size_t i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);
			if (len - pos >= n && !strncmp(src + pos, words[i], n) &&
			    (len - pos == n || !isalnum((unsigned char)src[pos + n]))) {
				pos += n;
				return;
			}
		}
		die(line, "bad value; expected a string, number, object, array, true, false or null");
	}
}

static const char *used_name(const char *key, bool exact)
{
	for (size_t i = 0; i < N_USED; i++)
		if (exact ? !strcmp(key, used_fields[i]) : !strcasecmp(key, used_fields[i]))
			return used_fields[i];
	return NULL;
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
		char last[64];
		int at;
		skip_ws();
		at = line;
		if (peek() != '"')
			die(line, "expected a field name in quotes");
		char *key = parse_string(false);
		snprintf(last, sizeof(last), "%s", key);
		expect(':', "after a field name");
		if (used_name(key, true)) {
			struct field *f = &o->f[o->nf];
			for (int i = 0; i < o->nf; i++)
				if (!strcmp(o->f[i].key, key))
					die(at, "field '%s' appears twice in one event", key);
			o->nf++;
			f->key = key;
			f->line = at;
			if (peek() != '"')
				die(line, "field '%s': the value must be a string, as in Intel's event files", key);
			f->val = parse_string(false);
		} else {
			/* Intel's other fields are skipped, but a used field
			 * misspelt in case would silently be lost: refuse it. */
			const char *near = used_name(key, false);
			if (near)
				die(at, "field '%s' is not used; did you mean '%s'?", key, near);
			free(key);
			pending = NULL;
			skip_value(0);
		}
		int c = peek();
		if (c == ',') {
			pos++;
			continue;
		}
		if (c == '}') {
			pos++;
			return;
		}
		die(line, "expected ',' or '}' after field '%s'", last);
	}
}

const char *get(const struct object *o, const char *key, bool required, int *ret_line)
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

/* A number field; with several, a comma-separated list (Intel's EventCode
 * for events that either of two codes counts), of which the first is
 * returned, as Linux perf's jevents does: every one must be valid. */
unsigned num_of(const struct object *o, const char *key, unsigned max, unsigned dflt, bool several)
{
	int at;
	const char *v = get(o, key, false, &at);
	unsigned first = 0;

	if (!v)
		return dflt;
	for (const char *p = v, *end;; p = end + 1) {
		char *stop;
		while (several && p != v && *p == ' ')
			p++;
		end = several ? strchr(p, ',') : NULL;
		if (!end)
			end = p + strlen(p);
		errno = 0;
		unsigned long n = strtoul(p, &stop, 0);
		if (p == end || stop != end || errno || n > max || *p == '-' || *p == '+' || isspace((unsigned char)*p))
			die(at, "field '%s' is \"%s\"; want a number from 0 to %u%s", key, v, max,
			    several ? ", or several separated by commas" : "");
		if (p == v)
			first = (unsigned)n;
		if (!*end)
			return first;
	}
}

unsigned num(const struct object *o, const char *key, unsigned max, unsigned dflt)
{
	return num_of(o, key, max, dflt, false);
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

/* The array of events into *ret (grown as it goes: no fixed limit);
 * returns how many. */
static int parse_events(struct object **ret)
{
	struct object *ev = NULL;
	size_t cap = 0;
	int nev = 0;

	expect('[', "to start the list of events");
	if (peek() == ']')
		die(line, "the list of events is empty");
	for (;;) {
		if ((size_t)nev == cap) {
			cap = cap ? 2 * cap : 256;
			if (!(ev = realloc(ev, cap * sizeof(*ev))))
				die(line, "out of memory for %zu events", cap);
			*ret = ev;
		}
		memset(&ev[nev], 0, sizeof(ev[nev]));
		parse_object(&ev[nev++]);
		int c = peek();
		if (c == ',') {
			pos++;
			continue;
		}
		if (c == ']') {
			pos++;
			return nev;
		}
		die(line, "expected ',' or ']' after an event");
	}
}

/* Intel's files are {"Header": {...}, "Events": [...]}; a bare array of
 * events is accepted too. Other top-level fields are skipped. */
static int parse_file(struct object **ret_ev)
{
	int nev = 0;

	if (peek() != '{')
		return parse_events(ret_ev);
	pos++;
	for (;;) {
		skip_ws();
		int at = line;
		if (peek() != '"')
			die(line, "expected a field name in quotes");
		char *key = parse_string(false);
		expect(':', "after a field name");
		bool events = !strcmp(key, "Events");
		free(key);
		pending = NULL;
		if (events && nev)
			die(at, "\"Events\" appears twice");
		if (events)
			nev = parse_events(ret_ev);
		else
			skip_value(0);
		if (peek() == ',') {
			pos++;
			continue;
		}
		expect('}', "after a top-level field");
		break;
	}
	if (!nev)
		die(line, "no \"Events\" list in the file");
	return nev;
}

/* FILE's events into *ret (its text into *ret_src, kept by the caller):
 * the whole file must be the list, or an object holding it; returns how
 * many. Any problem exits naming FILE:LINE. */
int json_events(const char *file, struct object **ret, char **ret_src)
{
	path = file;
	pos = 0;
	line = 1;
	src = *ret_src = read_file(path, &len);
	if (memchr(src, '\0', len))
		die(1, "the file contains a NUL byte");
	int nev = parse_file(ret);
	if (peek() != EOF)
		die(line, "unexpected text after the list of events");
	return nev;
}

int json_line(void)
{
	return line;
}

const char *json_path(void)
{
	return path;
}
