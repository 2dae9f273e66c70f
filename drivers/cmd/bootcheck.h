/* The boot check (bootcheck.md): uncore-boot.efi, a boot-service driver
 * that the firmware's boot manager starts from a Driver#### option, runs
 * one configured check and stores its record UncoreBoot<N>. Here: the
 * configuration variable's format, the load option's bytes, and the two
 * halves of a boot's run that need no firmware (boot_prepare before the
 * hardware is up, boot_finish after); efi/bootcheck.c does the rest. No
 * firmware headers: the host tests run all of it. */
#ifndef UNC_BOOTCHECK_H
#define UNC_BOOTCHECK_H

#include "app.h"

/* Under the boot check's own GUID (not the records', so that `var list`
 * shows records only): the configuration and the boot counter. */
#define BOOT_GUID_TEXT  "3f1d6b2e-8c47-4a59-b0e3-91d2c6a8f514"
#define BOOT_CFG_NAME   "UncoreBootCfg"
#define BOOT_SEQ_NAME   "UncoreBootSeq"
#define BOOT_REC_PREFIX "UncoreBoot" /* + N, decimal from 1: the records, under the records' GUID */
#define BOOT_DESC       "uncore boot check" /* the Driver#### option's description */
#define BOOT_IMAGE_DIR  "\\EFI\\uncore"
#define BOOT_IMAGE_PATH BOOT_IMAGE_DIR "\\uncore-boot.efi" /* where install copies the image */

/* The configuration variable: "UNCB", u16 version 1, u8 keep, u8 on_fail,
 * u16 text length, the check's command line (printable ASCII, no NUL),
 * u32 CRC-32 of every byte before it (all little-endian). */
#define BOOT_CFG_MAGIC   0x42434E55u /* "UNCB" */
#define BOOT_CFG_VERSION 1
#define BOOT_TEXT_MAX    255
#define BOOT_KEEP_MAX    32
#define BOOT_MAX_SECONDS 60 /* -d of a boot check: its time is bounded */

enum boot_on_fail { BOOT_CONTINUE, BOOT_HALT, BOOT_SETUP };

struct boot_cfg {
	uint8_t keep, on_fail;
	char check[BOOT_TEXT_MAX + 1]; /* "bw -d 2 --min-bw 1000" */
};

/* The firmware's side: variables in the global namespace (Driver####,
 * DriverOrder, OsIndications) and under the boot check's GUID, and the
 * image's file on the volume uncore.efi came from. */
struct boot_env {
	const struct varstore *global, *own;
	/* Copies src (NULL: uncore-boot.efi beside the running image) to
	 * BOOT_IMAGE_PATH on the running image's volume; its device path
	 * (the volume's, then the file's node) into dp. */
	enum unc_status (*install_image)(const char *src, uint8_t *dp, size_t cap, size_t *ret_len, char *err,
					 size_t errsize);
	/* Deletes BOOT_IMAGE_PATH there (absent: UNC_E_NOT_FOUND). */
	enum unc_status (*remove_image)(char *err, size_t errsize);
};

size_t boot_cfg_encode(const struct boot_cfg *c, uint8_t *buf, size_t cap);
/* Strict: every field in range, the CRC right, nothing left over. */
enum unc_status boot_cfg_decode(const uint8_t *buf, size_t len, struct boot_cfg *ret, char *err, size_t errsize);
/* Whether text is a check a boot may run: a bw or stat line that parses,
 * with -d of 1 ms to BOOT_MAX_SECONDS, no -o, no child, no -I without -n. */
enum unc_status boot_check_line(const char *text, struct cli_cmd *cmd, char *err, size_t errsize);

/* An EFI_LOAD_OPTION: LOAD_OPTION_ACTIVE, BOOT_DESC, the device path. */
size_t boot_load_option(uint8_t *buf, size_t cap, const uint8_t *dp, size_t dplen);
/* Whether a load option is ours (its description is BOOT_DESC), and its
 * file path node's text into path. */
bool boot_option_ours(const uint8_t *opt, size_t len, char *path, size_t pathsize);

/* A boot's run, first half: the configuration, the boot number (the
 * counter advanced and stored first), and the command line to run with
 * its record's name. UNC_OK: run *cmd. Else a check that cannot run: err
 * says why, and boot_finish stores that. */
enum unc_status boot_prepare(const struct app_env *env, struct boot_cfg *cfg, uint32_t *ret_seq, struct cli_cmd *cmd,
			     char *err, size_t errsize);
/* Second half: the record (an error record saying why when the run stored
 * none), then the records past the last cfg->keep deleted, the new one
 * being complete. */
enum unc_status boot_finish(const struct app_env *env, const struct boot_cfg *cfg, uint32_t seq, enum unc_status run,
			    const char *why, struct out *err);
/* fn(ctx, N) for every record UncoreBoot<N> stored (one walk of the names). */
enum unc_status boot_each_record(const struct app_env *env, void (*fn)(void *ctx, uint32_t seq), void *ctx, char *err,
				 size_t errsize);

#endif
