/* The boot check without the firmware (drivers/cmd/bootcheck.md): the
 * configuration variable's bytes, the load option's, a boot's numbering,
 * error record and pruning, and `boot-check install/show/remove` against
 * in-memory variable stores. The expected bytes are typed from the
 * document (and the CRC from zlib's crc32), not taken from the writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/cmd/bootcheck.h"
#include "app_run.h"
#include "fake_vars.h"
#include "t.h"

static struct fake_vars recs, global, own;
static uint8_t image_dp[] = { 4, 4, 8, 0, '\\', 0, 0, 0, 0x7f, 0xff, 4, 0 }; /* a file node "\", the end */
static int images;

static enum unc_status fake_install(const char *src, uint8_t *dp, size_t cap, size_t *ret_len, char *err,
				    size_t errsize)
{
	(void)src, (void)err, (void)errsize;
	images = 1; /* the file is there */
	T_ASSERT(cap >= sizeof(image_dp));
	memcpy(dp, image_dp, sizeof(image_dp));
	*ret_len = sizeof(image_dp);
	return UNC_OK;
}

static enum unc_status fake_remove(char *err, size_t errsize)
{
	(void)err, (void)errsize;
	images = 0;
	return UNC_OK;
}

static const struct boot_env benv = { &global.vs, &own.vs, fake_install, fake_remove };
static const struct app_env env = { .vars = &recs.vs, .alloc = malloc, .free = free, .boot = &benv };
static char obuf[8192], ebuf[1024];
static struct app_test at = { obuf, ebuf, sizeof(obuf), sizeof(ebuf), false };

#define RUN(...)                                                                     \
	({                                                                           \
		const char *av[] = { "uncore.efi", __VA_ARGS__ };                    \
		app_test_run(&at, NULL, &env, (int)(sizeof(av) / sizeof(av[0])), av); \
	})

static void reset(void)
{
	fake_vars_free(&recs), fake_vars_free(&global), fake_vars_free(&own);
	fake_vars_init(&recs, 8192, 1 << 20);
	fake_vars_init(&global, 8192, 1 << 20);
	fake_vars_init(&own, 8192, 1 << 20);
	images = 0;
}

static size_t get(struct fake_vars *f, const char *name, uint8_t *buf, size_t cap)
{
	size_t len = 0;

	return f->vs.get(f->vs.ctx, name, buf, cap, &len) ? 0 : len;
}

/* The parser refuses `boot-check install WORDS` with one line, exactly. */
static bool refused(const char *msg, const char *a, const char *b)
{
	char *argv[] = { "uncore.efi", "boot-check", "install", (char *)a, (char *)b };
	struct cli_cmd *cmd = malloc(sizeof(*cmd));
	char err[200];
	bool ok = cli_parse(5, argv, cmd, err, sizeof(err)) != UNC_OK && !strcmp(err, msg);

	if (!ok)
		fprintf(stderr, "got: %s\n", err);
	free(cmd);
	return ok;
}

static void config_bytes(void)
{
	struct boot_cfg c = { 3, BOOT_HALT, "bw -d 2 --min-bw 1000" }, d;
	static const uint8_t want[] = { 'U', 'N', 'C', 'B', 1, 0, 3, 1, 21, 0, 'b', 'w', ' ', '-', 'd', ' ', '2', ' ',
					'-', '-', 'm', 'i', 'n', '-', 'b', 'w', ' ', '1', '0', '0', '0',
					0x77, 0xf0, 0xc3, 0x1a }; /* zlib.crc32 of the 31 bytes before: 0x1ac3f077 */
	uint8_t buf[300];
	char err[200];

	T_EQ(boot_cfg_encode(&c, buf, sizeof(buf)), sizeof(want));
	T_ASSERT(!memcmp(buf, want, sizeof(want)));
	T_EQ(boot_cfg_decode(want, sizeof(want), &d, err, sizeof(err)), UNC_OK);
	T_EQ(d.keep, 3);
	T_EQ(d.on_fail, BOOT_HALT);
	T_STREQ(d.check, "bw -d 2 --min-bw 1000");
	/* every single byte changed is caught, and so is a short or long variable */
	for (size_t i = 0; i < sizeof(want); i++) {
		memcpy(buf, want, sizeof(want));
		buf[i] ^= 0x10;
		T_ASSERT(boot_cfg_decode(buf, sizeof(want), &d, err, sizeof(err)) != UNC_OK);
	}
	T_ASSERT(boot_cfg_decode(want, sizeof(want) - 1, &d, err, sizeof(err)) != UNC_OK);
	memcpy(buf, want, sizeof(want));
	T_ASSERT(boot_cfg_decode(buf, sizeof(want) + 1, &d, err, sizeof(err)) != UNC_OK);
}

static void load_option_bytes(void)
{
	uint8_t buf[128];
	char path[40];
	size_t n = boot_load_option(buf, sizeof(buf), image_dp, sizeof(image_dp));

	/* UEFI 2.10, 3.1.3: u32 LOAD_OPTION_ACTIVE, u16 FilePathListLength, the description, the path */
	T_EQ(n, 4 + 2 + 2 * sizeof("uncore boot check") + sizeof(image_dp));
	T_EQ(buf[0], 1);
	T_EQ(buf[1] | buf[2] | buf[3], 0);
	T_EQ(buf[4], sizeof(image_dp));
	T_EQ(buf[5], 0);
	T_EQ(buf[6], 'u');
	T_EQ(buf[7], 0);
	T_EQ(buf[6 + 2 * 17], 0);
	T_EQ(buf[7 + 2 * 17], 0);
	T_ASSERT(!memcmp(buf + 6 + 2 * 18, image_dp, sizeof(image_dp)));
	T_ASSERT(boot_option_ours(buf, n, path, sizeof(path)));
	T_STREQ(path, "\\");
	buf[6] = 'U';
	T_ASSERT(!boot_option_ours(buf, n, path, sizeof(path)));
}

/* Boots without a configuration: each takes the next number, stores an
 * error record saying why, and past keep (3 by default) the oldest go. */
static void boots_number_and_prune(void)
{
	struct boot_cfg cfg;
	struct cli_cmd *cmd = malloc(sizeof(*cmd));
	char why[240], name[24];
	uint8_t buf[64];
	struct strbuf sb;
	char text[512];
	strbuf_init(&sb, text, sizeof(text));
	struct out err = strbuf_out(&sb);
	uint32_t seq;

	reset();
	for (uint32_t boot = 1; boot <= 5; boot++) {
		T_EQ(boot_prepare(&env, &cfg, &seq, cmd, why, sizeof(why)), UNC_E_NOT_FOUND);
		T_EQ(seq, boot);
		T_ASSERT(strstr(why, "UncoreBootCfg is absent") != NULL);
		T_EQ(get(&own, "UncoreBootSeq", buf, sizeof(buf)), 4);
		T_EQ(buf[0], boot);
		T_EQ(boot_finish(&env, &cfg, seq, UNC_E_NOT_FOUND, why, &err), UNC_OK);
	}
	for (unsigned k = 1; k <= 5; k++) {
		snprintf(name, sizeof(name), "UncoreBoot%u", k);
		size_t len;
		T_EQ(recs.vs.get(recs.vs.ctx, name, buf, sizeof(buf), &len) != UNC_E_NOT_FOUND, k >= 3);
	}
	/* the error record decodes and says why */
	T_EQ(RUN("var", "show", "UncoreBoot5"), UNC_OK);
	T_ASSERT(strstr(obuf, "boot 5: the check did not run: no configuration: UncoreBootCfg is absent") != NULL);
	/* a corrupt configuration: the same, and its reason */
	own.vs.set(own.vs.ctx, "UncoreBootCfg", (const uint8_t *)"UNCB\1", 5);
	T_EQ(boot_prepare(&env, &cfg, &seq, cmd, why, sizeof(why)), UNC_E_INVALID);
	T_EQ(seq, 6);
	T_ASSERT(strstr(why, "UncoreBootCfg") != NULL);
	free(cmd);
}

static void install_show_remove(void)
{
	uint8_t buf[512];
	size_t n;

	reset();
	/* a driver already there (the tests' emulator) stays first */
	global.vs.set(global.vs.ctx, "Driver0000", (const uint8_t *)"\1\0\0\0\4\0e\0\0\0\x7f\xff\4\0", 14);
	global.vs.set(global.vs.ctx, "DriverOrder", (const uint8_t *)"\0\0", 2);
	unsigned sets = global.sets + own.sets;
	T_ASSERT(refused("bad value 'maybe' for --on-fail (want continue, halt or setup)", "--on-fail", "maybe"));
	T_ASSERT(refused("bad count '0' for --keep (want 1 to 32)", "--keep", "0"));
	T_ASSERT(RUN("boot-check", "install", "--min-bw", "1000", "-d", "61") != UNC_OK);
	T_ASSERT(RUN("boot-check", "install", "--", "-o", "var:X") != UNC_OK);
	T_EQ(global.sets + own.sets, sets); /* nothing written */
	T_EQ(images, 0);
	T_EQ(RUN("boot-check", "install", "--min-bw", "1000", "-d", "0.5", "--keep", "2", "--on-fail", "setup"), UNC_OK);
	T_EQ(images, 1);
	T_EQ(get(&global, "DriverOrder", buf, sizeof(buf)), 4);
	T_EQ(buf[0] | buf[1], 0);
	T_EQ(buf[2], 1);
	T_EQ(buf[3], 0);
	n = get(&global, "Driver0001", buf, sizeof(buf));
	T_EQ(n, 6 + 2 * 18 + sizeof(image_dp));
	n = get(&own, "UncoreBootCfg", buf, sizeof(buf));
	T_EQ(n, 10 + strlen("bw -d 0.5 --min-bw 1000") + 4);
	T_EQ(buf[6], 2);
	T_EQ(buf[7], BOOT_SETUP);
	T_EQ(RUN("boot-check", "show"), UNC_OK);
	T_ASSERT(strstr(obuf, "Driver0001 \"uncore boot check\" \\, DriverOrder position 2 of 2") != NULL);
	T_ASSERT(strstr(obuf, "check 'bw -d 0.5 --min-bw 1000', keep 2, on fail setup") != NULL);
	/* installed again: the same option, not a second one */
	T_EQ(RUN("boot-check", "install", "--min-bw", "2000"), UNC_OK);
	T_EQ(get(&global, "DriverOrder", buf, sizeof(buf)), 4);
	T_EQ(get(&global, "Driver0002", buf, sizeof(buf)), 0);
	T_EQ(RUN("boot-check", "remove"), UNC_OK);
	T_EQ(images, 0);
	T_EQ(get(&global, "Driver0001", buf, sizeof(buf)), 0);
	T_EQ(get(&global, "DriverOrder", buf, sizeof(buf)), 2);
	T_EQ(buf[0] | buf[1], 0);
	T_EQ(get(&global, "Driver0000", buf, sizeof(buf)), 14);
	T_EQ(get(&own, "UncoreBootCfg", buf, sizeof(buf)), 0);
	T_ASSERT(RUN("boot-check", "show") != UNC_OK);
	T_ASSERT(strstr(ebuf, "no boot check is installed") != NULL);
	reset();
}

T_MAIN("bootcheck", T_CASE(config_bytes), T_CASE(load_option_bytes), T_CASE(boots_number_and_prune),
       T_CASE(install_show_remove))
