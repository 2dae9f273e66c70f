/* A small printf for both builds, and the output sink the reports write to.
 *
 * Conversions: %% %c %s %d %i %u %x %X %p, with flags '-' and '0', a field
 * width, a precision for %s, and the length modifiers l, ll and z (all 64-bit
 * on the LP64 targets we build for). No floating point: reports print fixed
 * point through fmt_fixed(). */
#ifndef UNC_FMT_H
#define UNC_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define UNC_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Formats into buf (always NUL-terminated when size > 0). Returns the length
 * the full output would have had, as C's snprintf does. */
size_t fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...) UNC_PRINTF(3, 4);

/* A text sink. efi/console.c writes to ConOut; tests write to a buffer. */
struct out {
	void (*write)(void *ctx, const char *s, size_t len);
	void *ctx;
};

void out_vprintf(struct out *o, const char *fmt, va_list ap);
void out_printf(struct out *o, const char *fmt, ...) UNC_PRINTF(2, 3);
void out_puts(struct out *o, const char *s);

/* Writes s as a JSON string literal, quotes included. */
void out_json_str(struct out *o, const char *s);

/* value / 10^decimals printed with exactly `decimals` digits after the point,
 * rounded half up: fmt_fixed(buf, n, 2592012345, 6) -> "2592.012" at 3 digits. */
size_t fmt_fixed(char *buf, size_t size, uint64_t num, uint64_t den, unsigned decimals);

/* A text that did not fit, cut where a reader sees it: buf[size] holds
 * the first size - 1 characters of a text len long (as fmt_snprintf or a
 * strbuf leaves it). If len >= size, the text is cut back to the last space
 * that leaves room (a trailing ", " or "; " dropped too) and FMT_CUT_MARK
 * put after it: "..., faults: [cut]", never "faults: non". Returns the
 * length kept. fmt_copy_marked copies src so. */
#define FMT_CUT_MARK " [cut]"
size_t fmt_mark_cut(char *buf, size_t size, size_t len);
size_t fmt_copy_marked(char *dst, size_t size, const char *src);

/* The one-line error idiom: with `char *err, size_t errsize` in scope,
 * writes the message into err and returns st from the calling function. */
#define UNC_ERR(st, ...)                                  \
	do {                                              \
		fmt_snprintf(err, errsize, __VA_ARGS__); \
		return (st);                              \
	} while (0)

/* A growable-by-truncation buffer sink for tests and for building lines. */
struct strbuf {
	char *buf;
	size_t size, len; /* len counts everything written, even past size */
};

void strbuf_init(struct strbuf *sb, char *buf, size_t size);
struct out strbuf_out(struct strbuf *sb);

#endif
