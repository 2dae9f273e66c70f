/* Lab mode's rules, without firmware headers: the configuration language,
 * board strings made file names and the board's identity from SMBIOS types
 * 1 and 2 (cfg.c); which configuration a run reads, its results folder, each
 * case's result and message, the LabNNN record a case stores, the rounds and
 * the run's verdict (run.c); what a run writes: the UNCORE-LAB serial lines,
 * results.json, junit.xml and report.html (report.c). efi/lab_edge.c reads and
 * writes the files, runs the lines and ends the run; the host tests
 * (tests/unit/test_lab.c) drive all of this. */
#ifndef UNC_LAB_H
#define UNC_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/fmt.h"
#include "../base/smbios.h"
#include "../base/status.h"
#include "../output/record.h"
#include "../output/recmap.h"
#include "../output/report.h"
#include "../output/varstore.h"

#define LAB_MAX_ITEMS  64
#define LAB_LINE_MAX   512 /* characters of a line, its end included */
#define LAB_NAME_MAX   64
#define LAB_PATH_MAX   96
#define LAB_REPEAT_MAX 1000
#define LAB_ERR_MAX    200
#define LAB_ID_MAX     (LAB_NAME_MAX + 24)
#define LAB_MAX_WORDS  64  /* words of a `run` line, as many as a command line has */
#define LAB_MAX_CASES  (LAB_MAX_ITEMS * 4) /* cases of one run, every round */
#define LAB_FILE_MAX   65536     /* bytes of a configuration file */
#define LAB_CONSOLE_MAX (4u << 20) /* bytes of console.txt kept */
#define LAB_RECORD_MAX (1u << 20)  /* bytes of a stored record report.html reads back */
#define LAB_CFG_NAMES  3         /* configuration files tried */
#define LAB_CFG_PATH_MAX (LAB_PATH_MAX + 16)
#define LAB_PUSH_MAX   201       /* characters of a push URL, its NUL included (push.h's PUSH_URL_MAX + 1) */
#define LAB_DIR_MAX    (LAB_PATH_MAX + 64) /* the run's results folder */

enum lab_kind { LAB_CMD, LAB_RUN };
enum lab_end { LAB_END_UNSET, LAB_END_SHUTDOWN, LAB_END_REBOOT, LAB_END_EXIT, LAB_END_HALT };
enum lab_result { LAB_PASS, LAB_FAIL, LAB_ERROR };

struct lab_item {
	uint8_t kind;             /* enum lab_kind */
	unsigned line;            /* in the file, from 1 */
	char name[LAB_NAME_MAX];  /* `name TEXT`, else the line */
	char text[LAB_LINE_MAX];  /* the command line; for run: PATH [ARGS] */
};

struct lab_cfg {
	struct lab_item item[LAB_MAX_ITEMS];
	unsigned n;
	unsigned repeat;                 /* 1 when not given */
	uint8_t on_pass, on_fail;        /* enum lab_end; LAB_END_UNSET when not given */
	char results[LAB_PATH_MAX];      /* default \uncore\results */
	char push[LAB_PUSH_MAX];         /* `push URL` ("" when none; checked by -o's rules where it runs) */
	unsigned push_line;
	unsigned err_line;               /* the first problem: its line (0: the file as a whole) */
	char err[LAB_ERR_MAX];           /* ... and what it is ("" when none) */
};

/* Parses a configuration file's text. The first problem is kept in
 * cfg->err (and its line in cfg->err_line) and UNC_E_INVALID returned, but
 * the rest is still read, so that an on-pass/on-fail line anywhere in a bad
 * file still says how the failed run ends. */
enum unc_status lab_parse(const char *text, size_t len, struct lab_cfg *cfg);

/* "shutdown", "reboot", "exit", "halt" */
const char *lab_end_name(uint8_t end);

/* Splits a line into words in place: blanks separate them, double quotes
 * group them ("a b" is one word, without its quotes). At most max words;
 * err names the problem (an unclosed quote, too many words). */
enum unc_status lab_split(char *line, char **argv, int max, int *ret_argc, char *err, size_t errsize);

/* A board string made a file name: leading and trailing blanks dropped,
 * every character other than a letter, a digit, '-' or '_' made '_'. Cut
 * to size - 1 characters. */
void lab_sanitize(const char *in, char *out, size_t size);


/* Whether NAME may be the file of `-o NAME` in lab mode, where a case's
 * file goes into the run's results folder: a plain file name of letters,
 * digits, '-', '_' and '.', not starting with '.', at most LAB_NAME_MAX - 1
 * characters, and none of the run's own files (results.json, junit.xml,
 * console.txt, report.html, in any case). */
bool lab_out_name_ok(const char *name);

/* The board's identity: base/smbios.h's smbios_identity. */
#define LAB_STR_MAX SMBIOS_STR

/* The board name of the START line (type 2's product, else type 1's, else
 * "unknown") and the serial (type 1's, else type 2's, else ""). */
const char *lab_board_name(const struct smbios_id *b);
const char *lab_board_serial(const struct smbios_id *b);

/* One test case as run. */
struct lab_case {
	char name[LAB_NAME_MAX];
	char id[LAB_ID_MAX];
	const char *command;      /* the line as in the file */
	uint8_t kind;             /* enum lab_kind */
	unsigned round;           /* from 1 */
	uint8_t result;           /* enum lab_result */
	uint64_t status;          /* its EFI_STATUS (uncore.efi's own, or the image's) */
	char status_name[40];     /* "EFI_SUCCESS", "0x..." */
	bool check;               /* a --min-bw/--min-read-bw/--min-write-bw line */
	bool measured;            /* check: a figure was measured */
	uint64_t kb_s;            /* ... in 10^3 bytes/s */
	char verdict[16];         /* check: "PASS", "FAIL", "none"; "" otherwise */
	char verdict_line[200];   /* the line the run printed for it, or the error line */
	const char *json;         /* the command's own -j output (NULL: none): one JSON value, or
				   * with -I one per interval, which results.json makes an array */
	size_t json_len;
	const char *output;       /* what it printed */
	size_t output_len;
	uint64_t ms;              /* how long it took */
	char record[32];          /* the EFI variable its record went to ("": none) */
	char push_error[LAB_ERR_MAX]; /* its record's push failed: the line that said so ("": none) */
};

/* A test case's id for the serial lines, one that LAVA keeps as it is
 * (LAVA lowercases an id and makes each run of non-word characters one
 * '_'): the name lowercased, each run of characters other than a-z, 0-9
 * and '_' made one '_' ("case" when nothing is left), "_rN" added for
 * round N > 1, and "_2", "_3", ... added when one of the n cases in prev has
 * it already, so that the ids of a run are unique. */
void lab_case_id(const char *name, unsigned round, const struct lab_case *prev, unsigned n, char *out, size_t size);

/* The summary of a run: passed counts LAB_PASS, failed everything else. */
struct lab_run {
	const struct smbios_id *board;
	const char *config_path;  /* "" when none was found */
	const char *config_text;  /* NULL when none was read */
	size_t config_len;
	const struct lab_cfg *cfg; /* NULL when none was read */
	const char *started;      /* "yyyy-mm-ddThh:mm:ss", or "" */
	const char *error;        /* the configuration's error line, or NULL */
	const char *tool;         /* "uncore.efi 0.1.0" */
	const struct lab_case *cases;
	unsigned ncases, passed, failed;
	uint64_t ms;
};

/* Whether a run passed: at least one case, and every case passed (here,
 * so that what a run writes, report.c, need not call back into run.c). */
static inline bool lab_run_passed(const struct lab_run *r)
{
	return !r->failed && r->passed;
}

/* The serial lines (drivers/lab/lab.md), each ending in a newline. */
void lab_line_start(struct out *o, const struct smbios_id *b, const char *config);
void lab_line_result(struct out *o, const struct lab_case *c);
void lab_line_end(struct out *o, const struct lab_run *r);

/* results.json (one JSON document) and junit.xml (one <testsuite>). */
void lab_write_json(struct out *o, const struct lab_run *r);
void lab_write_junit(struct out *o, const struct lab_run *r);

/* The start of report.html (its <body>'s first part): the run's verdict,
 * the board, serial, configuration, time and tool, then every case (errors
 * included) with its result, measurement, message and a link to its
 * record's section ("rec-LabNNN") when it has one. */
void lab_write_html_run(struct out *o, const struct lab_run *r);

/* The MB/s of a case, three decimals ("12345.678"). */
void lab_mb_s(uint64_t kb_s, char *buf, size_t size);

/* The first line of text that begins with one of the verdicts a check
 * prints ("PASS: ", "FAIL: ", "NO VERDICT: "), without its newline, into
 * buf; false when there is none. */
bool lab_find_verdict(const char *text, size_t len, char *buf, size_t size);

/* ---- the run's rules (run.c) ---- */

/* Why a -o NAME was refused (lab_out_name_ok). */
extern const char lab_out_rule[];

/* The configuration files a run tries, in order, into names: the one given
 * (when given is neither NULL nor ""), else \uncore\<type 2 product>.cfg and
 * \uncore\<type 1 product>.cfg (each when lab_sanitize leaves a name) and
 * \uncore\uncore.cfg. Returns how many (1 to LAB_CFG_NAMES). */
unsigned lab_config_names(const char *given, const struct smbios_id *b, char names[LAB_CFG_NAMES][LAB_CFG_PATH_MAX]);

/* The error line when none of the n names exists: "uncore: error: no
 * configuration: neither A, B nor C exists". */
void lab_config_missing(const char names[][LAB_CFG_PATH_MAX], unsigned n, char *buf, size_t size);

/* A configuration's error line: "uncore: error: PATH line N: MSG", or
 * "uncore: error: PATH: MSG" for line 0 (the file as a whole). */
void lab_config_error(const char *path, unsigned line, const char *msg, char *buf, size_t size);

/* Whether PATH names an image on uncore.efi's volume: absolute ('\'
 * first), without a volume (no ':'). lab_check_run checks a `run` line's
 * text (PATH [ARGS]) so, its words too. */
bool lab_image_path_ok(const char *path);
enum unc_status lab_check_run(const char *text, char *err, size_t errsize);

/* The run's start, "yyyy-mm-ddThh:mm:ss", and its results folder,
 * RESULTS\yyyymmdd-hhmmss-SERIAL (the board's serial through lab_sanitize,
 * "noserial" when that leaves nothing); a time the firmware did not give
 * (valid 0) is 1970-01-01 00:00:00. */
void lab_started(const struct rec_time *t, char *buf, size_t size);
void lab_run_dir(const char *results, const struct rec_time *t, const struct smbios_id *b, char *buf, size_t size);
/* DIR\NAME: a file of the results folder. */
void lab_file_path(const char *dir, const char *name, char *buf, size_t size);

/* Everything printed during a run, for console.txt and each case's
 * output: the first cap bytes (cut says some were left out). buf NULL:
 * nothing is kept. */
struct lab_console {
	char *buf;
	size_t len, cap;
	bool cut;
};
void lab_keep(struct lab_console *k, const char *s, size_t len);

/* The first "uncore: error: " line of text, as lab_find_verdict; buf is ""
 * when there is none. */
bool lab_first_error(const char *text, size_t len, char *buf, size_t size);

/* One case: lab_case_begin starts it from its item (name, id among the n
 * cases of prev, command, kind, round). lab_case_status sets its
 * EFI_STATUS and that status's name. A `run` line's case ends with
 * lab_case_image: it passes when the image returned no error (a warning
 * passes). A command line's ends with lab_case_ran: st is what the command
 * returned, check whether it has --min-*, x the extras its stored record
 * gave (NULL: none), printed[0..len) what it printed. Its result: pass on
 * success; fail for a check that returned UNC_E_CHECK; error otherwise; a
 * check's verdict is its record's (FAIL, PASS, none), "none" when it has
 * none, and its message the verdict line it printed. lab_case_end, for
 * every case: a case in error whose message is empty or a PASS line (an
 * error after the PASS: a stuck counter, a failed child) gets its first
 * "uncore: error: " line instead; then its duration and output. */
void lab_case_begin(struct lab_case *c, const struct lab_item *it, unsigned round, const struct lab_case *prev,
		    unsigned n);
void lab_case_status(struct lab_case *c, uint64_t status);
void lab_case_image(struct lab_case *c, uint64_t status);
void lab_case_ran(struct lab_case *c, enum unc_status st, bool check, const struct run_extras *x,
		  const char *printed, size_t len);
void lab_case_end(struct lab_case *c, const char *printed, size_t len, uint64_t ms);

/* The one case of a run whose configuration could not be read or checked:
 * "config", in error, its command the file's path ("none" for ""), its
 * status EFI_INVALID_PARAMETER when the file was read, else EFI_NOT_FOUND,
 * its message the error line. */
void lab_case_config(struct lab_case *c, const char *path, bool read, const char *error);

/* The case `push` in error after a failed push (prev[0..n) the cases
 * before it, for its id): its command the URL, its message the line that
 * said why, its status EFI_DEVICE_ERROR. */
void lab_case_push(struct lab_case *c, const char *url, const char *line, const struct lab_case *prev, unsigned n);

/* The run's verdict as OpenMetrics text for the final push (like
 * snprintf: the length the whole text needs). */
size_t lab_write_metrics(char *buf, size_t cap, const struct lab_run *r);

/* The variable the record of case idx (from 0) goes to, "Lab001" for the
 * first of the run (rounds go on counting): for a command that stores a
 * record (info, stat, bw) and names none itself (-o var:NAME). False, buf
 * untouched, when it gets none. */
bool lab_record_name(bool stores, bool named, unsigned idx, char *buf, size_t size);

/* Whether a case's record was written by this run. lab_rec_store gives a
 * store that is under's, but sees every variable written through it (a
 * record's own variable is written last, after its chunks: written means
 * the last write of it stored something). lab_rec_watch names the record
 * (NULL: none) before the command runs; lab_rec_end gives the case that
 * name if it was so written, and stops watching. A variable of that name an
 * earlier boot left is never the case's record. */
struct lab_rec_watch {
	const struct varstore *under;
	const char *name;
	bool written;
};
struct varstore lab_rec_store(struct lab_rec_watch *w, const struct varstore *under);
void lab_rec_watch(struct lab_rec_watch *w, const char *name);
void lab_rec_end(struct lab_rec_watch *w, struct lab_case *c);

/* Runs every item of cfg, round after round, into cases (at most max:
 * then an error line says the rest are not run): run(ctx, item, round,
 * idx, case) runs one, then its RESULT line goes to out; a case whose
 * push failed is followed by a case `push` in error. Returns how many
 * cases there are. */
typedef void (*lab_run_fn)(void *ctx, const struct lab_item *it, unsigned round, unsigned idx, struct lab_case *c);
unsigned lab_run_cases(const struct lab_cfg *cfg, struct lab_case *cases, unsigned max, lab_run_fn run, void *ctx,
		       struct out *out, struct out *err);

/* The run's passed and failed counts from its cases; its status: 0 when it
 * passed, else the first case not passed's (EFI_COMPROMISED_DATA when that
 * is 0), EFI_NOT_FOUND when there is no case; how it ends: on-pass or
 * on-fail, else exit under a Shell and shutdown without one. */
void lab_run_count(struct lab_run *r);
uint64_t lab_run_status(const struct lab_run *r);
uint8_t lab_run_ending(const struct lab_cfg *cfg, bool passed, bool shell);

/* ---- files (report.c) ---- */

/* A file rendered into memory of exactly its size (fill runs twice: once
 * to count, once to write); NULL when alloc fails. */
char *lab_render(void (*fill)(struct out *o, void *arg), void *arg, void *(*alloc)(size_t n), size_t *ret_len);

/* report.html (a fill for lab_render): lab_write_html_run's part, then
 * every case's stored record read back from vars into rec (LAB_RECORD_MAX
 * bytes), with the renderer the host decoder uses (pws zeroed): an index
 * with each verdict, then a section per record. A record that cannot be
 * read or shown is said on err from the second rendering on; records
 * counts those listed. */
struct lab_html {
	const struct lab_run *run;
	const struct varstore *vars;
	uint8_t *rec;
	struct rec_print_ws *pws;
	struct out *err;
	unsigned pass, records;
};
void lab_write_html(struct out *o, void *arg);

#endif
