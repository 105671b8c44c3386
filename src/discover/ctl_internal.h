/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the controller parsers (ctl_<vendor>.c) share, inside src/discover/ only:
 * the records' memory (controller.c), the line reader and the vendors' words
 * (ctl_lines.c), the JSON helpers (ctl_jsondoc.c). */
#pragma once

#include <json.h>

#include "discover/controller.h"

/* A new record at the end of l, zeroed, tool and controller copied. */
struct ctl_vd *ctl_add(struct ctl_list *l, const char *tool, const char *controller);
void ctl_vd_free(struct ctl_vd *v);
/* Drops the records after the first n (a parser that failed half-way). */
void ctl_truncate(struct ctl_list *l, size_t n);
/* A printable copy of at most max bytes of s (other bytes as '?'). */
char *ctl_printable(const char *s, size_t max);
/* "ab12…" lower-cased, "0x"/"naa." dropped; NULL unless 16 or 32 hex digits. */
char *ctl_naa(const char *s);
/* Adds note (taken) to v's note, after what is there. */
void ctl_add_note(struct ctl_vd *v, char *note);
/* The record of l from index n0 on with this controller and VD id, NULL if none. */
struct ctl_vd *ctl_find(struct ctl_list *l, size_t n0, const char *controller, const char *vd);

/* ---- the write cache (ctl_cache.c) ----------------------------------------- */

/* What one cache line says: the mode a VD is in now or is configured for. */
enum ctl_wc_mode { CTL_WC_NONE, CTL_WC_BACK, CTL_WC_THROUGH, CTL_WC_OTHER };
/* How a tool's cache line is read: a mode now or configured, in which words
 * (storcli's "Cache" column "RWBD"; a policy "WriteBack, ..." or "NR,WB"; a
 * switch "on", "Enabled (write-back)"), or HPE/SmartRAID's pieces: a logical
 * drive's "Caching", the controller's "Cache Status" and its write share. */
enum ctl_wc_kind {
        CTL_WCK_NOW_STORCLI,
        CTL_WCK_NOW_POLICY,
        CTL_WCK_SET_POLICY,
        CTL_WCK_NOW_SWITCH,
        CTL_WCK_SET_SWITCH,
        CTL_WCK_ACCEL,
        CTL_WCK_CTL_STATUS,
        CTL_WCK_CTL_SHARE,
};
struct ctl_wc_key {
        const char *key; /* as the tool prints it, matched as ctl_key_eq does */
        enum ctl_wc_kind kind;
};
/* The cache lines of each tool (ctl_cache.c names their versions). */
extern const struct ctl_wc_key ctl_wc_storcli_keys[], ctl_wc_megacli_keys[], ctl_wc_smart_ld_keys[],
        ctl_wc_smart_ctl_keys[], ctl_wc_arcconf_keys[], ctl_wc_twcli_keys[];
/* The cache lines of one VD (or of its controller) as they are read. */
struct ctl_wc {
        enum ctl_wc_mode now, set, accel;
        char *status;        /* the controller's "Cache Status" */
        bool no_write_share; /* the controller gives none of its cache to writes */
        char *raw;           /* the lines as printed, "key: value; key: value" */
};
/* key: value, if keys holds key, into w: true; false for any other line. */
bool ctl_wc_take(struct ctl_wc *w, const struct ctl_wc_key *keys, const char *key, const char *value);
/* The VD's block is over: cache and write_cache_raw of v from w (and
 * ctl, its controller's lines, or NULL); w emptied. */
void ctl_wc_end(struct ctl_wc *w, const struct ctl_wc *ctl, struct ctl_vd *v);
void ctl_wc_clear(struct ctl_wc *w);

/* ---- text outputs (ctl_lines.c) ------------------------------------------- */

/* The reader of one output: ctl_text_init, ctl_text_next until 0 or < 0, then
 * ctl_text_finish, which frees the line and, if any ctl_text_fail was called,
 * takes back the records added since n0 and hands the first error out. */
struct ctl_text {
        const char *tool;           /* names the output in messages: "arcconf" */
        const char *buf;
        size_t len, pos;
        unsigned no;                /* the number of the line last read, from 1 */
        char *line, *raw;
        char *err;                  /* the first failure: "TOOL output line N: ..." */
};

/* One line: key and value split at the first sep (both trimmed; value NULL
 * without sep, or with sep 0); raw is the whole line, trimmed on the right
 * only. Valid until the next call. */
struct ctl_line {
        unsigned no, indent;
        char *key, *value;
        const char *raw;
};

/* Skips a UTF-8 byte-order mark; CR before LF is taken as blank. */
void ctl_text_init(struct ctl_text *c, const char *tool, const char *buf, size_t len);
/* The next line into t: 1, 0 at the end, -EINVAL for a control byte (NUL...). */
int ctl_text_next(struct ctl_text *c, struct ctl_line *t, char sep);
int ctl_text_fail(struct ctl_text *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ctl_text_finish(struct ctl_text *c, struct ctl_list *l, size_t n0, char **ret_err);
char *ctl_trim(char *s);

/* A field name as the vendors print it across versions: any case, and any run
 * of blanks where name has one ("RAID Level", "RAID level", "RAID  level"). */
bool ctl_key_eq(const char *key, const char *name);
/* ctl_key_eq against each of a NULL-terminated list of spellings. */
bool ctl_key_in(const char *key, const char *const *names);
/* key starts with prefix, matched as ctl_key_eq does; *ret_rest: what follows. */
bool ctl_key_prefix(const char *key, const char *prefix, const char **ret_rest);

/* A size field ("256 KB", "64K", "1 MB"), or a failure naming what. */
int ctl_field_size(struct ctl_text *c, const char *what, const char *value, uint64_t *ret);
/* A count field from 1 to 4096, or a failure naming what. */
int ctl_field_count(struct ctl_text *c, const char *what, const char *value, unsigned *ret);

/* A level as the tools print it ("1+0", "5", "RAID-5", "6 Reed-Solomon", "1ADM",
 * "Simple_volume") → "raid10" ... (controller.h lists them); NULL if none. */
const char *ctl_level_of(const char *raw);
/* A state as printed ("Optimal", "OK", "OK*", "Degraded, Rebuilding", "Interim
 * Recovery Mode", "VERIFY-PAUSED", "INOPERABLE") → one of the states of struct
 * ctl_vd ("other" if none: "INITIALIZING", "MIGRATING"). */
const char *ctl_state_of(const char *raw);
/* A table row's words (blank-separated): n of them, CTL_WORDS + 1 when there
 * were more than CTL_WORDS (more columns than any tool's table has). */
#define CTL_WORDS 16
struct ctl_words {
        char *copy;
        size_t n;
        char *w[CTL_WORDS];
};
void ctl_words_split(struct ctl_words *x, const char *s);
void ctl_words_free(struct ctl_words *x);
/* *p = a printable copy of v (at most max bytes), the old value freed. */
void ctl_set_str(char **p, const char *v, size_t max);
/* "/dev/sda (Disk0) ..." → "/dev/sda"; NULL unless it starts with /dev/. */
char *ctl_dev_word(const char *v);

/* ---- JSON outputs (ctl_jsondoc.c) ------------------------------------------ */

struct ctl_json {
        const char *tool;
        char *err;
};
int ctl_json_fail(struct ctl_json *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* buf as one JSON document (a byte-order mark and white space around it
 * allowed; with trailing_ok, anything after it); NULL after a failure. */
json_object *ctl_json_doc(struct ctl_json *c, const char *buf, size_t len, bool trailing_ok);
/* o[key] if it is of type, else NULL. */
json_object *ctl_jobj(json_object *o, const char *key, json_type type);
/* o[key] if it is a string, else NULL. */
const char *ctl_jstring(json_object *o, const char *key);
/* o[key] as a count 1..4096 (an integer, or a string of digits): 1 found, 0 absent or null, -1 otherwise. */
int ctl_jcount(json_object *o, const char *key, unsigned *ret);
/* Ends a JSON parse as ctl_text_finish does. */
int ctl_json_finish(struct ctl_json *c, struct ctl_list *l, size_t n0, char **ret_err);
