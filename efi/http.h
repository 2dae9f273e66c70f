/* The firmware's HTTP sender (-o http://..., lab mode's push line):
 * EFI_HTTP_PROTOCOL on the first NIC that has an HTTP service binding. */
#ifndef UNC_EFI_HTTP_H
#define UNC_EFI_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "../drivers/base/status.h"

/* app_env's http_ready and http_put (drivers/cmd/app.h). */
enum unc_status efi_http_ready(void *ctx, bool https, char *err, size_t errsize);
enum unc_status efi_http_put(void *ctx, const char *url, const char *ctype, const void *body, size_t len,
			     unsigned dhcp_ms, unsigned timeout_ms, unsigned *ret_code, char *err, size_t errsize);

#endif
