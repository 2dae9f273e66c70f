/* boot-check install | remove | show: the boot check's Driver#### option,
 * its configuration and its image (bootcheck.h, bootcheck.md). */
#include "bootcheck.h"

#include <string.h>

#include "../base/parse.h"

extern const struct cli_command cmd_boot_install, cmd_boot_remove;

struct boot_options {
	char min_bw[24], dur[24], image[CLI_MAX_ARG_LEN + 1], rest[BOOT_TEXT_MAX + 1];
	uint32_t keep;
	uint8_t on_fail;
	bool records; /* remove: the records too */
};

static const struct boot_options boot_defaults = { .keep = 3 };
static const char *const on_fail_words[] = { "continue", "halt", "setup" };

#define BOOT_FIELD(f) CLI_OWN_FIELD(struct boot_options, f)

static uint32_t get16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

static enum unc_status opt_text(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				size_t errsize)
{
	struct boot_options *b = CLI_OWN(cmd);
	char *at = o->name[1] == 'd' ? b->dur : o->name[2] == 'm' ? b->min_bw : b->image;
	size_t cap = o->name[1] == 'd' || o->name[2] == 'm' ? sizeof(b->dur) : sizeof(b->image);

	if (strlen(val) >= cap || strchr(val, ' '))
		UNC_ERR(UNC_E_INVALID, "bad value '%s' for %s", val, o->name);
	fmt_snprintf(at, cap, "%s", val);
	return UNC_OK;
}

static enum unc_status opt_on_fail(const struct cli_opt *o, const char *val, struct cli_cmd *cmd, char *err,
				   size_t errsize)
{
	struct boot_options *b = CLI_OWN(cmd);

	(void)o;
	for (uint8_t i = 0; i <= BOOT_SETUP; i++)
		if (!strcmp(val, on_fail_words[i])) {
			b->on_fail = i;
			return UNC_OK;
		}
	UNC_ERR(UNC_E_INVALID, "bad value '%s' for --on-fail (want continue, halt or setup)", val);
}

/* The check's line: bw, -d, --min-bw, then the rest as given. */
static void check_text(const struct boot_options *b, char *buf, size_t size)
{
	fmt_snprintf(buf, size, "bw%s%s%s%s%s%s", b->dur[0] ? " -d " : "", b->dur, b->min_bw[0] ? " --min-bw " : "",
		     b->min_bw, b->rest[0] ? " " : "", b->rest);
}

/* DriverOrder (at most 256 entries here) */
struct order {
	uint16_t n[256];
	size_t count;
};

static enum unc_status order_load(const struct varstore *g, struct order *o, char *err, size_t errsize)
{
	uint8_t buf[512];
	size_t len = 0;
	enum unc_status st = g->get(g->ctx, "DriverOrder", buf, sizeof(buf), &len);

	o->count = 0;
	if (st == UNC_E_NOT_FOUND)
		return UNC_OK;
	if (st || len % 2)
		UNC_ERR(st ? st : UNC_E_INVALID, "cannot read DriverOrder (%zu bytes)", len);
	for (size_t i = 0; i < len / 2; i++)
		o->n[o->count++] = (uint16_t)get16(buf + 2 * i);
	return UNC_OK;
}

static enum unc_status order_store(const struct varstore *g, const struct order *o)
{
	uint8_t buf[512];

	for (size_t i = 0; i < o->count; i++)
		buf[2 * i] = (uint8_t)o->n[i], buf[2 * i + 1] = (uint8_t)(o->n[i] >> 8);
	return g->set(g->ctx, "DriverOrder", buf, o->count * 2);
}

/* Whether Driver<num> is ours; its path into path. */
static bool ours(const struct varstore *g, unsigned num, uint8_t *buf, size_t cap, char *path, size_t pathsize)
{
	char name[16];
	size_t len = 0;

	fmt_snprintf(name, sizeof(name), "Driver%04X", num);
	return !g->get(g->ctx, name, buf, cap, &len) && boot_option_ours(buf, len, path, pathsize);
}

#define OPT_CAP 1024

static enum unc_status install(const struct cli_cmd *cmd, const struct app_env *env, struct out *out, struct out *err)
{
	const struct boot_options *b = CLI_OWN(cmd);
	const struct boot_env *be = env->boot;
	struct boot_cfg cfg = { (uint8_t)b->keep, b->on_fail, { 0 } };
	char msg[200], path[80], name[16];
	uint8_t cbuf[14 + BOOT_TEXT_MAX + 2], *buf = env->alloc(2 * OPT_CAP), *dp = buf + OPT_CAP;
	struct order o;
	size_t dplen = 0, len;
	int num = -1;
	enum unc_status st;

	check_text(b, cfg.check, sizeof(cfg.check));
	struct cli_cmd *probe = env->alloc(sizeof(*probe));
	if (!buf || !probe) {
		st = UNC_E_NO_MEMORY;
		fmt_snprintf(msg, sizeof(msg), "out of memory");
		goto out;
	}
	/* everything checked before anything is written */
	if ((st = boot_check_line(cfg.check, probe, msg, sizeof(msg))) || (st = order_load(be->global, &o, msg, sizeof(msg))))
		goto out;
	for (size_t i = 0; i < o.count && num < 0; i++)
		if (ours(be->global, o.n[i], buf, OPT_CAP, path, sizeof(path)))
			num = o.n[i];
	for (unsigned n = 0; num < 0 && n <= 0xffff; n++) {
		fmt_snprintf(name, sizeof(name), "Driver%04X", n);
		if (be->global->get(be->global->ctx, name, buf, OPT_CAP, &len) == UNC_E_NOT_FOUND)
			num = (int)n;
	}
	if (num < 0 || o.count >= 256) {
		st = UNC_E_RANGE;
		fmt_snprintf(msg, sizeof(msg), "no free Driver#### number, or DriverOrder full");
		goto out;
	}
	size_t clen = boot_cfg_encode(&cfg, cbuf, sizeof(cbuf));
	if ((st = be->install_image(b->image[0] ? b->image : NULL, dp, OPT_CAP - 64, &dplen, msg, sizeof(msg))))
		goto out;
	len = boot_load_option(buf, OPT_CAP, dp, dplen);
	fmt_snprintf(name, sizeof(name), "Driver%04X", (unsigned)num);
	bool listed = false;
	for (size_t i = 0; i < o.count; i++)
		listed |= o.n[i] == num;
	if (!listed)
		o.n[o.count++] = (uint16_t)num;
	if ((st = be->own->set(be->own->ctx, BOOT_CFG_NAME, cbuf, clen)) ||
	    (st = be->global->set(be->global->ctx, name, buf, len)) || (st = order_store(be->global, &o))) {
		fmt_snprintf(msg, sizeof(msg), "cannot write the variables (%s); `boot-check remove` undoes what was written",
			     unc_strerror(st));
		goto out;
	}
	out_printf(out, "boot-check: installed %s \"" BOOT_DESC "\" -> " BOOT_IMAGE_PATH ", %s in DriverOrder (%zu)\n",
		   name, listed ? "already" : "last", o.count);
	out_printf(out, "boot-check: check '%s', keeping %u records, on fail: %s\n", cfg.check, cfg.keep,
		   on_fail_words[cfg.on_fail]);
out:
	if (st)
		out_printf(err, "uncore: error: boot-check install: %s\n", msg);
	env->free(probe);
	env->free(buf);
	return st;
}

static void list_rec(void *ctx, uint32_t seq)
{
	out_printf(ctx, " " BOOT_REC_PREFIX "%u", seq);
}

static void delete_rec(void *ctx, uint32_t seq)
{
	uint32_t *list = ctx;

	if (list[0] < 255)
		list[++list[0]] = seq;
}

static enum unc_status show_or_remove(const struct cli_cmd *cmd, const struct app_env *env, struct out *out,
				      struct out *err)
{
	const struct boot_env *be = env->boot;
	bool remove = cmd->command == &cmd_boot_remove, found = false;
	char msg[200], path[80], name[16];
	uint8_t buf[OPT_CAP];
	struct order o, kept = { { 0 }, 0 };
	struct boot_cfg cfg;
	size_t len = 0;
	enum unc_status st;

	if ((st = order_load(be->global, &o, msg, sizeof(msg)))) {
		out_printf(err, "uncore: error: %s\n", msg);
		return st;
	}
	for (size_t i = 0; i < o.count; i++) {
		if (!ours(be->global, o.n[i], buf, sizeof(buf), path, sizeof(path))) {
			kept.n[kept.count++] = o.n[i];
			continue;
		}
		found = true;
		fmt_snprintf(name, sizeof(name), "Driver%04X", o.n[i]);
		if (remove)
			be->global->set(be->global->ctx, name, NULL, 0);
		out_printf(out, "boot-check: %s%s \"" BOOT_DESC "\" %s, DriverOrder position %zu of %zu\n",
			   remove ? "removed " : "", name, path, i + 1, o.count);
	}
	st = be->own->get(be->own->ctx, BOOT_CFG_NAME, buf, sizeof(buf), &len);
	if (st != UNC_E_NOT_FOUND) {
		found = true;
		if (st || boot_cfg_decode(buf, len, &cfg, msg, sizeof(msg)))
			out_printf(out, "boot-check: configuration %s: %s\n", BOOT_CFG_NAME, st ? "unreadable" : msg);
		else
			out_printf(out, "boot-check: configuration: check '%s', keep %u, on fail %s\n", cfg.check, cfg.keep,
				   on_fail_words[cfg.on_fail]);
	}
	if (!be->own->get(be->own->ctx, BOOT_SEQ_NAME, buf, sizeof(buf), &len) && len == 4)
		out_printf(out, "boot-check: boot counter %u\n", (unsigned)(get16(buf) | get16(buf + 2) << 16));
	if (remove) {
		if (kept.count != o.count)
			st = kept.count ? order_store(be->global, &kept) : be->global->set(be->global->ctx, "DriverOrder", NULL, 0);
		be->own->set(be->own->ctx, BOOT_CFG_NAME, NULL, 0);
		be->own->set(be->own->ctx, BOOT_SEQ_NAME, NULL, 0);
		if (!be->remove_image(msg, sizeof(msg)))
			found = true, out_printf(out, "boot-check: removed " BOOT_IMAGE_PATH "\n");
	}
	uint32_t dl[256] = { 0 };
	const struct boot_options *b = CLI_OWN(cmd);
	out_printf(out, "boot-check: records:");
	boot_each_record(env, list_rec, out, msg, sizeof(msg));
	out_printf(out, "\n");
	if (remove && b->records) {
		boot_each_record(env, delete_rec, dl, msg, sizeof(msg));
		for (uint32_t i = 1; i <= dl[0]; i++) {
			bool r;
			unsigned c;
			fmt_snprintf(name, sizeof(name), BOOT_REC_PREFIX "%u", dl[i]);
			var_delete(env->vars, name, &r, &c, msg, sizeof(msg));
		}
		out_printf(out, "boot-check: deleted %u records\n", dl[0]);
	}
	if (!found) {
		out_printf(err, "uncore: error: boot-check %s: no boot check is installed\n", remove ? "remove" : "show");
		return UNC_E_NOT_FOUND;
	}
	return st;
}

static enum unc_status run_boot(const struct cli_cmd *cmd, const struct hw *hw, const struct app_env *env,
				struct out *out, struct out *err)
{
	(void)hw;
	if (!env || !env->boot || !env->vars || !env->alloc) {
		out_printf(err, "uncore: error: boot-check: no firmware boot manager variables here\n");
		return UNC_E_UNSUPPORTED;
	}
	return cmd->command == &cmd_boot_install ? install(cmd, env, out, err) : show_or_remove(cmd, env, out, err);
}

static const struct cli_opt install_opts[] = {
	CLI_FN_OPT("--min-bw", "MB/S", opt_text, "the check: DRAM read+write bandwidth at least this"),
	CLI_FN_OPT("-d", "SECONDS", opt_text, "the check's duration (default 1, at most 60)"),
	CLI_UINT_OPT("--keep", "N", BOOT_FIELD(keep), "count", "1 to 32", 1, BOOT_KEEP_MAX,
		     "keep the records of the last N boots (default 3)"),
	CLI_FN_OPT("--on-fail", "continue|halt|setup", opt_on_fail, "a failed check: boot on (default), stop, or setup"),
	CLI_FN_OPT("--image", "PATH", opt_text, "uncore-boot.efi to copy (default: beside uncore.efi)"),
	CLI_REST_OPT("--", "BW-OPTIONS", BOOT_FIELD(rest), "the check's options", "bw's other options for the check"),
	CLI_END,
};

static const struct cli_opt remove_opts[] = {
	CLI_FLAG_OPT("--records", BOOT_FIELD(records), "delete the stored " BOOT_REC_PREFIX "<N> records too"),
	CLI_END,
};

const struct cli_command cmd_boot_install = {
	.name = "boot-check", .sub = "install", .opts = install_opts, CLI_OWN_FROM(struct boot_options, &boot_defaults),
	.run = run_boot, .help = "run a bandwidth check on every boot, before the OS (a Driver#### option)",
};

const struct cli_command cmd_boot_remove = {
	.name = "boot-check", .sub = "remove", .opts = remove_opts, CLI_OWN_FROM(struct boot_options, &boot_defaults),
	.run = run_boot, .help = "remove the boot check: its option, configuration and image",
};

const struct cli_command cmd_boot_show = {
	.name = "boot-check", .sub = "show", CLI_OWN_FROM(struct boot_options, &boot_defaults), .run = run_boot,
	.help = "the installed boot check, its configuration and records",
};
