#include "console.h"

#include <efilib.h>

static void write_text(SIMPLE_TEXT_OUTPUT_INTERFACE *con, const char *s, size_t len)
{
	CHAR16 buf[130];
	size_t n = 0;

	if (!con)
		return;
	for (size_t i = 0; i < len; i++) {
		if (n >= 126) {
			buf[n] = 0;
			con->OutputString(con, buf);
			n = 0;
		}
		if (s[i] == '\n')
			buf[n++] = L'\r';
		buf[n++] = (CHAR16)(unsigned char)s[i];
	}
	if (n) {
		buf[n] = 0;
		con->OutputString(con, buf);
	}
}

static void con_write(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	write_text(ST->ConOut, s, len);
}

static void err_write(void *ctx, const char *s, size_t len)
{
	(void)ctx;
	write_text(ST->StdErr ? ST->StdErr : ST->ConOut, s, len);
}

struct out console_out(void)
{
	return (struct out){ .write = con_write };
}

struct out console_err(void)
{
	return (struct out){ .write = err_write };
}
