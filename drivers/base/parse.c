#include "parse.h"

#include <stddef.h>
#include <string.h>

#include "arith.h"

static int digit_value(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned)v < base ? v : -1;
}

/* Parses digits of `base` from *s up to a character in `stop` (or the end). */
static bool parse_digits(const char **s, unsigned base, uint64_t max, const char *stop, uint64_t *ret)
{
	uint64_t v = 0;
	const char *p = *s;

	if (!*p)
		return false;
	for (; *p; p++) {
		bool at_stop = false;
		for (const char *t = stop; *t; t++)
			if (*p == *t)
				at_stop = true;
		if (at_stop)
			break;
		int d = digit_value(*p, base);
		if (d < 0 || (uint64_t)d > max || v > (max - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	if (p == *s)
		return false;
	*s = p;
	*ret = v;
	return true;
}

bool parse_u64(const char *s, uint64_t max, uint64_t *ret_val)
{
	unsigned base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	return parse_digits(&s, base, max, "", ret_val) && !*s;
}

bool parse_pci_bdf(const char *s, struct pci_addr *ret)
{
	uint64_t bus, dev, func;

	if (!parse_digits(&s, 16, 0xff, ":", &bus) || *s++ != ':')
		return false;
	if (!parse_digits(&s, 16, 0x1f, ".", &dev) || *s++ != '.')
		return false;
	if (!parse_digits(&s, 16, 0x7, "", &func) || *s)
		return false;
	*ret = (struct pci_addr){ (uint8_t)bus, (uint8_t)dev, (uint8_t)func };
	return true;
}

uint32_t str_ihash(uint32_t h, const char *s)
{
	for (; *s; s++) {
		unsigned c = (unsigned char)*s;
		h = (h ^ (c - 'A' < 26 ? c + 32 : c)) * 16777619u;
	}
	return h;
}

bool str_ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* name equals a, case aside, for n characters: a's first n. */
static bool ieq_n(const char *name, const char *a, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char x = name[k] >= 'A' && name[k] <= 'Z' ? (char)(name[k] + 32) : name[k];
		char y = a[k] >= 'A' && a[k] <= 'Z' ? (char)(a[k] + 32) : a[k];
		if (x != y || !x)
			return false;
	}
	return true;
}

bool free_name_matches(const char *name, const char *pmu, const char *manual, const char *perf_name)
{
	size_t m = strlen(pmu), n = strlen(perf_name);

	if (str_ieq(name, manual) || str_ieq(name, perf_name))
		return true;
	/* PMU/PERF_NAME/, compared in place */
	return ieq_n(name, pmu, m) && name[m] == '/' && ieq_n(name + m + 1, perf_name, n) && name[m + 1 + n] == '/' &&
	       !name[m + 2 + n];
}

/* The first n characters of s: digits with an optional fraction, times scale. */
static bool decimal_n(const char *s, size_t n, uint64_t scale, uint64_t max, uint64_t *ret)
{
	uint64_t ip = 0, fp = 0, fdiv = 1;
	size_t idigits = 0, fdigits = 0;
	const char *p = s;

	for (; p < s + n && *p >= '0' && *p <= '9'; p++, idigits++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return false;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (p < s + n && *p == '.') {
		for (p++; p < s + n && *p >= '0' && *p <= '9'; p++, fdigits++) {
			if (fdigits == 9)
				return false;
			fp = fp * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
		}
		if (!fdigits)
			return false;
	}
	if (p != s + n || !idigits || ip > max / scale)
		return false;
	/* fp < 10^9: the fraction times the scale must be whole */
	uint64_t part = u64_muldiv(fp, scale, fdiv);
	if (u64_muldiv(part, fdiv, scale) != fp)
		return false;
	if (part > max - ip * scale)
		return false;
	*ret = ip * scale + part;
	return true;
}

bool parse_decimal(const char *s, uint64_t scale, uint64_t max, uint64_t *ret)
{
	size_t n = strlen(s);

	if (n && (s[n - 1] == 'k' || s[n - 1] == 'K' || s[n - 1] == 'M' || s[n - 1] == 'G')) {
		uint64_t suffix = s[n - 1] == 'G' ? 1000000000 : s[n - 1] == 'M' ? 1000000 : 1000;
		if (scale > UINT64_MAX / suffix)
			return false;
		scale *= suffix;
		n--;
	}
	return decimal_n(s, n, scale, max, ret);
}

bool parse_plain_decimal(const char *s, uint64_t scale, uint64_t max, uint64_t *ret)
{
	return decimal_n(s, strlen(s), scale, max, ret);
}
