#include "fmt.h"

#include <stdbool.h>
#include <string.h>

struct sink {
	void (*put)(struct sink *s, const char *p, size_t n);
	char *buf;
	size_t size, len;
	struct out *out;
};

/* What fits of p (the buffer keeps room for the NUL); len counts it all. */
static void put_buf(struct sink *s, const char *p, size_t n)
{
	if (s->size && s->len < s->size - 1) {
		size_t room = s->size - 1 - s->len;
		memcpy(s->buf + s->len, p, n < room ? n : room);
	}
	s->len += n;
}

static void put_pad(struct sink *s, char c, size_t n)
{
	while (n--)
		s->put(s, &c, 1);
}

static size_t utoa(char *tmp, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	return n;
}

static void emit_field(struct sink *s, const char *sign, const char *body, size_t blen,
		       bool reversed, size_t width, bool left, bool zero)
{
	size_t slen = sign ? 1 : 0, total = slen + blen, pad = width > total ? width - total : 0;

	if (!left && !zero)
		put_pad(s, ' ', pad);
	if (sign)
		s->put(s, sign, 1);
	if (!left && zero)
		put_pad(s, '0', pad);
	if (reversed)
		for (size_t i = blen; i > 0; i--)
			s->put(s, &body[i - 1], 1);
	else
		s->put(s, body, blen);
	if (left)
		put_pad(s, ' ', pad);
}

static void format(struct sink *s, const char *fmt, va_list ap)
{
	while (*fmt) {
		const char *start = fmt;

		fmt = strchr(fmt, '%');
		if (!fmt)
			fmt = start + strlen(start);
		if (fmt > start)
			s->put(s, start, (size_t)(fmt - start));
		if (!*fmt)
			break;
		fmt++; /* '%' */

		bool left = false, zero = false;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				zero = true;
			else
				break;
		}
		size_t width = 0;
		if (*fmt == '*') {
			int w = va_arg(ap, int);
			if (w < 0) {
				left = true;
				w = -w;
			}
			width = (size_t)w;
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (size_t)(*fmt++ - '0');
		size_t prec = (size_t)-1;
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				int p = va_arg(ap, int);
				prec = p < 0 ? (size_t)-1 : (size_t)p;
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + (size_t)(*fmt++ - '0');
		}
		int lng = 0;
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}

		char tmp[24];
		char conv = *fmt ? *fmt++ : '\0';
		switch (conv) {
		case '%':
			s->put(s, "%", 1);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			emit_field(s, NULL, &c, 1, false, width, left, false);
			break;
		}
		case 's': {
			const char *str = va_arg(ap, const char *);
			if (!str)
				str = "(null)";
			size_t n = strnlen(str, prec);
			emit_field(s, NULL, str, n, false, width, left, false);
			break;
		}
		case 'd':
		case 'i': {
			int64_t v = lng ? va_arg(ap, long) : va_arg(ap, int);
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			size_t n = utoa(tmp, mag, 10, false);
			emit_field(s, v < 0 ? "-" : NULL, tmp, n, true, width, left, zero);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			size_t n = utoa(tmp, v, conv == 'u' ? 10 : 16, conv == 'X');
			emit_field(s, NULL, tmp, n, true, width, left, zero);
			break;
		}
		case 'p': {
			uint64_t v = (uint64_t)(uintptr_t)va_arg(ap, void *);
			size_t n = utoa(tmp, v, 16, false);
			s->put(s, "0x", 2);
			emit_field(s, NULL, tmp, n, true, width, left, zero);
			break;
		}
		default:
			/* Unknown conversion: print it literally so the mistake shows. */
			s->put(s, start, (size_t)(fmt - start));
			break;
		}
	}
}

size_t fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { .put = put_buf, .buf = buf, .size = size };

	format(&s, fmt, ap);
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return s.len;
}

size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Output sinks get text in chunks of this buffer; flushed on fill and at the end. */
enum { OUT_CHUNK = 256 };

struct out_sink {
	struct sink s;
	char chunk[OUT_CHUNK];
	size_t used;
};

static void put_out(struct sink *s, const char *p, size_t n)
{
	struct out_sink *os = (struct out_sink *)s;

	for (size_t i = 0; i < n; i++) {
		if (os->used == OUT_CHUNK) {
			s->out->write(s->out->ctx, os->chunk, os->used);
			os->used = 0;
		}
		os->chunk[os->used++] = p[i];
	}
}

void out_vprintf(struct out *o, const char *fmt, va_list ap)
{
	struct out_sink os = { .s = { .put = put_out, .out = o } };

	format(&os.s, fmt, ap);
	if (os.used)
		o->write(o->ctx, os.chunk, os.used);
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_vprintf(o, fmt, ap);
	va_end(ap);
}

void out_puts(struct out *o, const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	o->write(o->ctx, s, n);
}

void out_json_str(struct out *o, const char *str)
{
	out_puts(o, "\"");
	for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
		if (*p == '"' || *p == '\\')
			out_printf(o, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			out_printf(o, "\\u%04x", *p);
		else
			o->write(o->ctx, (const char *)p, 1);
	}
	out_puts(o, "\"");
}

size_t fmt_fixed(char *buf, size_t size, uint64_t num, uint64_t den, unsigned decimals)
{
	char digits[20];

	if (den == 0)
		return fmt_snprintf(buf, size, "nan");
	if (decimals > sizeof(digits))
		decimals = sizeof(digits);
	/* Long division one digit at a time, in 64 bits (no libgcc in the EFI
	 * build); shrink both sides first so that rem * 10 cannot overflow. */
	while (den > UINT64_MAX / 10) {
		den >>= 1;
		num >>= 1;
	}
	uint64_t ip = num / den, rem = num % den;
	for (unsigned i = 0; i < decimals; i++) {
		rem *= 10;
		digits[i] = (char)('0' + rem / den);
		rem %= den;
	}
	if (rem * 2 >= den) { /* round half up, carrying into the integer part */
		unsigned i = decimals;
		while (i > 0 && digits[i - 1] == '9')
			digits[--i] = '0';
		if (i == 0)
			ip++;
		else
			digits[i - 1]++;
	}
	return fmt_snprintf(buf, size, "%lu%s%.*s", (unsigned long)ip, decimals ? "." : "",
			    (int)decimals, digits);
}

static void strbuf_write(void *ctx, const char *s, size_t n)
{
	struct strbuf *sb = ctx;

	if (!sb->size)
		return;
	for (size_t i = 0; i < n; i++, sb->len++)
		if (sb->len < sb->size - 1)
			sb->buf[sb->len] = s[i];
	sb->buf[sb->len < sb->size ? sb->len : sb->size - 1] = '\0';
}

void strbuf_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	if (size)
		buf[0] = '\0';
}

struct out strbuf_out(struct strbuf *sb)
{
	return (struct out){ .write = strbuf_write, .ctx = sb };
}

size_t fmt_mark_cut(char *buf, size_t size, size_t len)
{
	size_t m = sizeof(FMT_CUT_MARK) - 1, k;

	if (len < size || !size)
		return len < size ? len : 0;
	if (size < m + 2) /* no room for a word and the mark: the mark alone, as far as it goes */
		return fmt_snprintf(buf, size, "%s", &FMT_CUT_MARK[1]) < size ? m - 1 : size - 1;
	/* buf holds size - 1 characters: the last item's end (", " or "; ")
	 * at or before the mark's place, else the last space, else there */
	for (k = size - 1 - m; k > 0 && !(buf[k] == ' ' && (buf[k - 1] == ',' || buf[k - 1] == ';')); k--)
		;
	for (size_t j = size - 1 - m; !k && j > 0; j--)
		if (buf[j] == ' ')
			k = j;
	if (!k) /* one word longer than the room: cut inside it */
		k = size - 1 - m;
	while (k > 0 && (buf[k - 1] == ' ' || buf[k - 1] == ',' || buf[k - 1] == ';'))
		k--;
	for (size_t i = 0; i <= m; i++)
		buf[k + i] = FMT_CUT_MARK[i];
	return k + m;
}

size_t fmt_copy_marked(char *dst, size_t size, const char *src)
{
	return fmt_mark_cut(dst, size, fmt_snprintf(dst, size, "%s", src ? src : ""));
}
