/* -o http://HOST[:PORT]/metrics/job/JOB[/LABEL/VALUE...] (and https://):
 * the run's OpenMetrics text sent to a Prometheus Pushgateway by the
 * firmware's HTTP sender (struct app_env's http_put), after every local
 * output is stored. See drivers/cmd/measure.md, "Pushing results". */
#ifndef UNC_PUSH_H
#define UNC_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/fmt.h"
#include "../base/status.h"

#define PUSH_URL_MAX 200      /* characters of a whole URL */
#define PUSH_HOST_MAX 63
#define PUSH_TIMEOUT_MS 5000  /* connection and answer, after the NIC has an address */
#define PUSH_DHCP_MS 10000    /* the wait for a DHCP address when the NIC has none */
/* What the Pushgateway parses the OpenMetrics text as (its text parser:
 * every family is a gauge, and # UNIT/# EOF read as comments). */
#define PUSH_CONTENT_TYPE "text/plain; version=0.0.4"

struct push_url {
	bool https;
	char host[PUSH_HOST_MAX + 1];
	uint16_t port;        /* 80 or 443 when the URL gives none */
};

/* Where "://" starts in s (NULL: nowhere): what makes an -o value a URL. */
const char *push_scheme_end(const char *s);

/* Checks url (scheme, host, port, /metrics/job/JOB, LABEL/VALUE pairs,
 * length); err names the bad piece. */
enum unc_status push_url_parse(const char *url, struct push_url *ret, char *err, size_t errsize);

#endif
