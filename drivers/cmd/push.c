/* The push URL's rules: what a Pushgateway takes as a grouping key, in
 * characters that need no escaping in a URL. */
#include "push.h"

#include <string.h>

#include "../base/fmt.h"

#define FAIL(...) UNC_ERR(UNC_E_INVALID, __VA_ARGS__)

static bool alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A job or label value: unreserved URL characters only. */
static bool value_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!alpha(s[i]) && !digit(s[i]) && s[i] != '-' && s[i] != '.' && s[i] != '~')
			return false;
	return n > 0;
}

/* The length of p up to the first of stops or the end (strcspn; the
 * firmware's libc has none). */
static size_t span_to(const char *p, const char *stops)
{
	size_t n = 0;

	while (p[n] && !strchr(stops, p[n]))
		n++;
	return n;
}

const char *push_scheme_end(const char *s)
{
	for (; *s; s++)
		if (!strncmp(s, "://", 3))
			return s;
	return NULL;
}

static bool label_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!alpha(s[i]) && !(i && digit(s[i])))
			return false;
	return n > 0 && !(n >= 2 && s[0] == '_' && s[1] == '_');
}

enum unc_status push_url_parse(const char *url, struct push_url *ret, char *err, size_t errsize)
{
	const char *p = push_scheme_end(url), *job = "/metrics/job/";
	size_t n;

	memset(ret, 0, sizeof(*ret));
	if (!p || (((size_t)(p - url) != 4 || strncmp(url, "http", 4)) && ((size_t)(p - url) != 5 || strncmp(url, "https", 5))))
		FAIL("bad scheme in -o URL: '%.*s' (want http:// or https://)", p ? (int)(p - url) : 0, url);
	if (strlen(url) > PUSH_URL_MAX)
		FAIL("-o URL too long: %zu characters (at most %d)", strlen(url), PUSH_URL_MAX);
	ret->https = p - url == 5;
	ret->port = ret->https ? 443 : 80;
	p += 3;
	n = span_to(p, ":/");
	if (!n || n > PUSH_HOST_MAX)
		FAIL("bad host in -o URL: '%.*s' (1 to %d characters)", (int)n, p, PUSH_HOST_MAX);
	for (size_t i = 0; i < n; i++)
		if ((!alpha(p[i]) || p[i] == '_') && !digit(p[i]) && p[i] != '-' && p[i] != '.')
			FAIL("bad host in -o URL: '%.*s' (a name or an IPv4 address)", (int)n, p);
	fmt_snprintf(ret->host, sizeof(ret->host), "%.*s", (int)n, p);
	p += n;
	if (*p == ':') {
		unsigned long v = 0;
		n = span_to(++p, "/");
		for (size_t i = 0; i < n && v <= 65535; i++)
			v = digit(p[i]) ? v * 10 + (unsigned long)(p[i] - '0') : 65536;
		if (!n || n > 5 || !v || v > 65535)
			FAIL("bad port in -o URL: '%.*s' (1 to 65535)", (int)n, p);
		ret->port = (uint16_t)v;
		p += n;
	}
	if (strncmp(p, job, strlen(job)))
		FAIL("bad path in -o URL: '%s' (want /metrics/job/JOB[/LABEL/VALUE...])", p);
	p += strlen(job);
	n = span_to(p, "/");
	if (!value_ok(p, n))
		FAIL("bad job in -o URL: '%.*s' (1 or more of A-Z a-z 0-9 _ - . ~)", (int)n, p);
	for (p += n; *p == '/';) {
		const char *label = ++p;
		size_t ln = span_to(label, "/");
		if (!label_ok(label, ln))
			FAIL("bad label name in -o URL: '%.*s' (a Prometheus label name)", (int)ln, label);
		p += ln;
		if (*p != '/' || !value_ok(p + 1, span_to(p + 1, "/")))
			FAIL("label '%.*s' in -o URL has no value or a bad one (want /LABEL/VALUE, VALUE of A-Z a-z 0-9 _ - . ~)",
			     (int)ln, label);
		p += 1 + span_to(p + 1, "/");
	}
	return UNC_OK;
}
