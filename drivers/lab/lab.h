/* Lab mode's pure half: the configuration language, board strings made
 * file names, the board identity from SMBIOS types 1 and 2, and what a run
 * writes (the UNCORE-LAB serial lines, results.json, junit.xml). No
 * firmware headers: efi/lab.c reads and writes the files and runs the
 * lines; the host tests drive all of this. */
#ifndef UNC_LAB_H
#define UNC_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/fmt.h"
#include "../base/status.h"

#define LAB_MAX_ITEMS  64
#define LAB_LINE_MAX   512 /* characters of a line, its end included */
#define LAB_NAME_MAX   64
#define LAB_PATH_MAX   96
#define LAB_REPEAT_MAX 1000
#define LAB_ERR_MAX    200
#define LAB_ID_MAX     (LAB_NAME_MAX + 24)

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

/* The board's identity from the SMBIOS structure table: type 1 (System
 * Information) and type 2 (Baseboard Information), manufacturer, product
 * and serial number. Missing strings are "". Never reads outside
 * table[0..len); a malformed table is an error naming the offset. */
#define LAB_STR_MAX 65
struct lab_board {
	char sys_vendor[LAB_STR_MAX], sys_product[LAB_STR_MAX], sys_serial[LAB_STR_MAX];
	char board_vendor[LAB_STR_MAX], board_product[LAB_STR_MAX], board_serial[LAB_STR_MAX];
};
enum unc_status lab_smbios_board(const uint8_t *table, size_t len, struct lab_board *ret, char *err, size_t errsize);

/* The board name of the START line (type 2's product, else type 1's, else
 * "unknown") and the serial (type 1's, else type 2's, else ""). */
const char *lab_board_name(const struct lab_board *b);
const char *lab_board_serial(const struct lab_board *b);

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
	const struct lab_board *board;
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

/* Whether a run passed: at least one case, and every case passed. */
bool lab_run_passed(const struct lab_run *r);

/* The serial lines (drivers/lab/lab.md), each ending in a newline. */
void lab_line_start(struct out *o, const struct lab_board *b, const char *config);
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

#endif
