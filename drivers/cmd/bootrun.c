/* The boot check's formats and a boot's run, without the firmware
 * (bootcheck.h, bootcheck.md). */
#include "bootcheck.h"
#include "stat_bw_options.h"

#include <string.h>

#include "../base/crc32.h"
#include "../base/parse.h"

extern const struct cli_command cmd_bw, cmd_stat;

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v), put16(p + 2, v >> 16);
}

static uint32_t get16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
	return get16(p) | get16(p + 2) << 16;
}

size_t boot_cfg_encode(const struct boot_cfg *c, uint8_t *buf, size_t cap)
{
	size_t n = strlen(c->check), len = 10 + n + 4;

	if (cap < len || n > BOOT_TEXT_MAX)
		return 0;
	put32(buf, BOOT_CFG_MAGIC);
	put16(buf + 4, BOOT_CFG_VERSION);
	buf[6] = c->keep, buf[7] = c->on_fail;
	put16(buf + 8, (uint32_t)n);
	memcpy(buf + 10, c->check, n);
	put32(buf + 10 + n, crc32_ieee(buf, 10 + n));
	return len;
}

enum unc_status boot_cfg_decode(const uint8_t *buf, size_t len, struct boot_cfg *ret, char *err, size_t errsize)
{
	if (len < 14 || get32(buf) != BOOT_CFG_MAGIC)
		UNC_ERR(UNC_E_INVALID, "%s: not a boot check configuration (%zu bytes)", BOOT_CFG_NAME, len);
	size_t n = get16(buf + 8);
	if (get16(buf + 4) != BOOT_CFG_VERSION)
		UNC_ERR(UNC_E_INVALID, "%s: version %u, not %u", BOOT_CFG_NAME, (unsigned)get16(buf + 4), BOOT_CFG_VERSION);
	if (len != 14 + n || n > BOOT_TEXT_MAX)
		UNC_ERR(UNC_E_INVALID, "%s: %zu bytes, its text length says %zu", BOOT_CFG_NAME, len, 14 + n);
	if (get32(buf + 10 + n) != crc32_ieee(buf, 10 + n))
		UNC_ERR(UNC_E_INVALID, "%s: CRC-32 mismatch (corrupt)", BOOT_CFG_NAME);
	if (!buf[6] || buf[6] > BOOT_KEEP_MAX || buf[7] > BOOT_SETUP)
		UNC_ERR(UNC_E_INVALID, "%s: keep %u or on-fail %u out of range", BOOT_CFG_NAME, buf[6], buf[7]);
	*ret = (struct boot_cfg){ buf[6], buf[7], { 0 } };
	for (size_t i = 0; i < n; i++) {
		if (!rec_printable(buf[10 + i]))
			UNC_ERR(UNC_E_INVALID, "%s: the check's text has byte 0x%02x", BOOT_CFG_NAME, buf[10 + i]);
		ret->check[i] = (char)buf[10 + i];
	}
	return UNC_OK;
}

enum unc_status boot_check_line(const char *text, struct cli_cmd *cmd, char *err, size_t errsize)
{
	char copy[BOOT_TEXT_MAX + 1], *argv[CLI_MAX_ARGS + 1];
	int argc = 0;

	fmt_snprintf(copy, sizeof(copy), "%s", text);
	argv[argc++] = "uncore";
	for (char *p = copy; *p && argc < CLI_MAX_ARGS;) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
	argv[argc] = NULL;
	memset(cmd, 0, sizeof(*cmd));
	enum unc_status st = cli_parse(argc, argv, cmd, err, errsize);
	if (st)
		return st;
	const struct stat_bw_options *o = CLI_OWN(cmd);
	if (cmd->command != &cmd_bw && cmd->command != &cmd_stat)
		UNC_ERR(UNC_E_INVALID, "bad check '%s' (want a bw or stat line)", text);
	if (o->duration_ns > (uint64_t)BOOT_MAX_SECONDS * 1000000000u)
		UNC_ERR(UNC_E_INVALID, "bad -d for a boot check (at most %u seconds: a boot waits for it)", BOOT_MAX_SECONDS);
	if (o->interval_ms && !o->duration_ns && !o->max_intervals)
		UNC_ERR(UNC_E_INVALID, "bad -I for a boot check: it needs -n or -d (a boot cannot wait for ESC)");
	if (o->child[0])
		UNC_ERR(UNC_E_INVALID, "bad check: a child (--) needs the Shell, which a boot check runs before");
	if (cmd->out_var || cmd->out_file[0] || cmd->out_metrics[0])
		UNC_ERR(UNC_E_INVALID, "bad check: -o (a boot check stores its record as " BOOT_REC_PREFIX "<N>)");
	return UNC_OK;
}

/* EFI_LOAD_OPTION (UEFI 2.10, 3.1.3): u32 attributes, u16 the device
 * path's length, the description (UCS-2, NUL-ended), the device path. */
#define LOAD_OPTION_ACTIVE 1u

size_t boot_load_option(uint8_t *buf, size_t cap, const uint8_t *dp, size_t dplen)
{
	size_t d = sizeof(BOOT_DESC), len = 6 + 2 * d + dplen;

	if (cap < len || dplen > 0xffff)
		return 0;
	put32(buf, LOAD_OPTION_ACTIVE);
	put16(buf + 4, (uint32_t)dplen);
	for (size_t i = 0; i < d; i++)
		put16(buf + 6 + 2 * i, (uint8_t)BOOT_DESC[i]);
	memcpy(buf + 6 + 2 * d, dp, dplen);
	return len;
}

bool boot_option_ours(const uint8_t *opt, size_t len, char *path, size_t pathsize)
{
	size_t d = sizeof(BOOT_DESC);

	path[0] = 0;
	if (len < 6 + 2 * d)
		return false;
	for (size_t i = 0; i < d; i++)
		if (get16(opt + 6 + 2 * i) != (uint8_t)BOOT_DESC[i])
			return false;
	/* the device path's nodes: type, subtype, u16 length; a file path is
	 * media (4), subtype 4, its UCS-2 text */
	size_t at = 6 + 2 * d, end = at + get16(opt + 4);
	if (end > len)
		return true;
	while (at + 4 <= end) {
		size_t nl = get16(opt + at + 2);
		if (nl < 4 || at + nl > end || opt[at] == 0x7f)
			break;
		if (opt[at] == 4 && opt[at + 1] == 4) {
			size_t k = 0;
			for (size_t i = at + 4; i + 1 < at + nl && get16(opt + i) && k + 1 < pathsize; i += 2)
				path[k++] = get16(opt + i) < 0x80 ? (char)get16(opt + i) : '?';
			path[k] = 0;
		}
		at += nl;
	}
	return true;
}

/* N of a record name "UncoreBoot<N>" (decimal from 1, no leading zero); 0: another name. */
static uint32_t rec_seq(const char *name)
{
	size_t p = sizeof(BOOT_REC_PREFIX) - 1;
	uint64_t n = 0;

	if (strncmp(name, BOOT_REC_PREFIX, p) || name[p] < '1' || name[p] > '9')
		return 0;
	for (const char *s = name + p; *s; s++) {
		if (*s < '0' || *s > '9' || (n = n * 10 + (uint64_t)(*s - '0')) > UINT32_MAX)
			return 0;
	}
	return (uint32_t)n;
}

/* Every record name's number (seq of each through fn), walking once. */
enum unc_status boot_each_record(const struct app_env *env, void (*fn)(void *ctx, uint32_t seq), void *ctx,
				   char *err, size_t errsize)
{
	size_t n = 0;
	struct var_entry *e = env->alloc(VAR_LIST_MAX * sizeof(*e));

	if (!e)
		UNC_ERR(UNC_E_NO_MEMORY, "out of memory for the records' names");
	enum unc_status st = var_entries(env->vars, e, VAR_LIST_MAX, &n, err, errsize);
	for (size_t i = 0; i < n && !st; i++)
		if (rec_seq(e[i].name) && (e[i].present || e[i].chunks))
			fn(ctx, rec_seq(e[i].name));
	env->free(e);
	return st;
}

static void highest(void *ctx, uint32_t seq)
{
	uint32_t *max = ctx;

	if (seq > *max)
		*max = seq;
}

enum unc_status boot_prepare(const struct app_env *env, struct boot_cfg *cfg, uint32_t *ret_seq, struct cli_cmd *cmd,
			     char *err, size_t errsize)
{
	const struct varstore *own = env->boot->own;
	uint8_t buf[14 + BOOT_TEXT_MAX + 16], seqb[8];
	size_t len = 0;
	uint32_t seq = 0, max = 0;
	char msg[200];

	/* the number first: a record past the last one kept, whatever the counter says */
	*cfg = (struct boot_cfg){ 3, BOOT_CONTINUE, { 0 } };
	if (!own->get(own->ctx, BOOT_SEQ_NAME, seqb, sizeof(seqb), &len) && len == 4)
		seq = get32(seqb);
	if (!boot_each_record(env, highest, &max, msg, sizeof(msg)) && max > seq)
		seq = max;
	if (seq == UINT32_MAX)
		seq = 0;
	*ret_seq = ++seq;
	put32(seqb, seq);
	if (own->set(own->ctx, BOOT_SEQ_NAME, seqb, 4))
		UNC_ERR(UNC_E_DEVICE, "cannot store the boot counter %s", BOOT_SEQ_NAME);
	enum unc_status st = own->get(own->ctx, BOOT_CFG_NAME, buf, sizeof(buf), &len);
	if (st == UNC_E_NOT_FOUND)
		UNC_ERR(st, "no configuration: %s is absent (boot-check install writes it)", BOOT_CFG_NAME);
	if (st && st != UNC_E_RANGE)
		UNC_ERR(st, "cannot read %s", BOOT_CFG_NAME);
	if (st || (st = boot_cfg_decode(buf, len, cfg, err, errsize))) {
		*cfg = (struct boot_cfg){ 3, BOOT_CONTINUE, { 0 } }; /* a corrupt one: the defaults, and the boot goes on */
		if (st == UNC_E_RANGE)
			UNC_ERR(UNC_E_INVALID, "%s: larger than any configuration (corrupt)", BOOT_CFG_NAME);
		return st;
	}
	if ((st = boot_check_line(cfg->check, cmd, msg, sizeof(msg))))
		UNC_ERR(st, "%s: %s", BOOT_CFG_NAME, msg);
	cmd->out_var = true;
	fmt_snprintf(cmd->var_name, sizeof(cmd->var_name), BOOT_REC_PREFIX "%u", seq);
	return UNC_OK;
}

struct prune {
	uint32_t below, n;
	uint32_t seq[64];
};

static void old_one(void *ctx, uint32_t seq)
{
	struct prune *p = ctx;

	if (seq < p->below && p->n < 64)
		p->seq[p->n++] = seq;
}

/* A record saying why the check could not run. */
static enum unc_status store_error(const struct app_env *env, const char *name, uint32_t seq, enum unc_status run,
				   const char *why, struct out *err)
{
	struct rec *r = env->alloc(sizeof(*r));
	char msg[200];
	unsigned chunks;

	if (!r)
		return UNC_E_NO_MEMORY;
	memset(r, 0, sizeof(*r));
	fmt_snprintf(r->tool, sizeof(r->tool), "uncore-boot.efi %s", UNC_VERSION);
	fmt_snprintf(r->command, sizeof(r->command), "boot");
	if (env->get_time)
		env->get_time(&r->time);
	r->status = run;
	r->verdict = run;
	fmt_snprintf(r->verdict_reason, sizeof(r->verdict_reason), "the check did not run: %s", why);
	r->boot_seq = seq;
	if (env->smbios_id && env->smbios_id(&r->id, msg, sizeof(msg))) /* the machine, as app_store names it */
		memset(&r->id, 0, sizeof(r->id));
	size_t cap = 8192;
	struct rec_buf b = { env->alloc(cap), 0, cap, false };
	enum unc_status st = UNC_E_NO_MEMORY;
	if (b.p) {
		rec_begin(&b);
		rec_put(&b, r);
		st = rec_end(&b);
	}
	env->free(r);
	if (!b.p)
		return st;
	if (!st)
		st = var_save(env->vars, name, b.p, b.len, 0, &chunks, msg, sizeof(msg));
	env->free(b.p);
	if (st)
		out_printf(err, "uncore-boot: error: record %s not stored: %s\n", name, st == UNC_E_RANGE ? "too large" : msg);
	return st;
}

enum unc_status boot_finish(const struct app_env *env, const struct boot_cfg *cfg, uint32_t seq, enum unc_status run,
			    const char *why, struct out *err)
{
	char name[VAR_NAME_MAX], msg[200];
	uint8_t probe[16];
	size_t len;
	bool rec;
	unsigned chunks;

	fmt_snprintf(name, sizeof(name), BOOT_REC_PREFIX "%u", seq);
	enum unc_status st = env->vars->get(env->vars->ctx, name, probe, sizeof(probe), &len);
	if (st == UNC_E_NOT_FOUND && (st = store_error(env, name, seq, run, why && why[0] ? why : "no record", err)))
		return st;
	if (st && st != UNC_E_RANGE)
		return st;
	/* the new record is there, whole (var_save writes its index last): the oldest may go */
	struct prune p = { seq >= cfg->keep ? seq - cfg->keep + 1 : 0, 0, { 0 } };
	if ((st = boot_each_record(env, old_one, &p, msg, sizeof(msg)))) {
		out_printf(err, "uncore-boot: error: older records not deleted: %s\n", msg);
		return st;
	}
	for (uint32_t i = 0; i < p.n; i++) {
		fmt_snprintf(name, sizeof(name), BOOT_REC_PREFIX "%u", p.seq[i]);
		var_delete(env->vars, name, &rec, &chunks, msg, sizeof(msg));
	}
	return UNC_OK;
}
