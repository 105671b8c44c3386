/* SPDX-License-Identifier: GPL-2.0-or-later
 * The RAID controller's own account of its logical drives (VDs, LDs): what
 * storcli/perccli, storcli2/perccli2, ssacli and arcconf print, read into one
 * record per logical drive, and the block device each one is.
 *
 * The parsers are pure: bytes in, records or one error out (which line or
 * field, what was expected). Nothing is guessed: a VD whose strip size or
 * drive count is not printed keeps 0 there, and its geometry is unknown
 * (note says why). ctl_collect_* run the tools or read a captured sysroot. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "discover/discover.h"

/* A VD's write cache as its controller reports it now (ctl_vd.cache).
 * CTL_CACHE_UNSAID: the tool printed no cache line. */
enum ctl_cache {
        CTL_CACHE_UNSAID,
        CTL_CACHE_WRITE_BACK,      /* writes acknowledged from the controller's cache */
        CTL_CACHE_WRITE_THROUGH,   /* from the drives; also a controller without a cache */
        CTL_CACHE_BACK_DISABLED,   /* write-back configured, writing through now (battery or flash module) */
        CTL_CACHE_UNKNOWN,         /* a cache line in words storprov does not know */
};
/* "write-back", "write-through", "write-back-disabled", "unknown"; NULL for CTL_CACHE_UNSAID. */
const char *ctl_cache_name(enum ctl_cache c);

/* One logical drive as its controller reports it. Strings may be NULL (not
 * printed); numbers are 0 when not known. */
struct ctl_vd {
        char *tool;               /* the tool's label, CTL_TOOLS' first column ("storcli", "hpacucli", "tw_cli") */
        char *controller;         /* the tool's controller id: "0" (/c0, MegaCli -a0), "slot=0" (ssacli),
                                   * "1" (arcconf), "c0" (tw_cli) */
        char *vd;                 /* the tool's VD/LD/unit id: "0" (/c0/v0), "1" (ssacli logicaldrive 1), "u0" */
        char *level;              /* "raid0" "raid1" "raid5" "raid6" "raid00" "raid10" "raid50" "raid60"
                                   * "raid1-triple" "raid10-triple": a stripe storprov derives (raid1: a
                                   * mirror, no stripe); "simple" "spanned": no stripe at all (one drive, a
                                   * concatenation); "raid1e" "raid5ee": a stripe storprov does not derive;
                                   * NULL: not a level storprov knows */
        char *level_raw;          /* as printed ("RAID1", "1+0", "5", "Primary-5, Secondary-0, RAID Level Qualifier-3") */
        uint64_t strip_bytes;     /* per-disk strip (chunk) */
        unsigned drives_per_span; /* member drives of one span (parity group, leg) */
        unsigned spans;           /* spans (RAID50/60 parity groups, RAID10 mirror pairs as storcli counts them) */
        unsigned data_disks;      /* data-bearing drives of one full stripe, see ctl_vd_geometry() */
        uint64_t full_stripe_bytes;          /* strip_bytes × data_disks */
        uint64_t reported_full_stripe_bytes; /* the tool's own "Full Stripe Size" (ssacli: one parity group) */
        char *state;              /* "optimal" "degraded" "partially-degraded" "rebuilding" "offline"
                                   * "failed" "foreign" "recovering" "other" */
        char *state_raw;          /* as printed ("Optl", "Interim Recovery Mode") */
        enum ctl_cache cache;     /* the controller's write cache for the VD now (its name: ctl_cache_name) */
        char *write_cache_raw;    /* the lines it comes from, as printed: "Cache: RWBD", "Current Cache Policy:
                                   * WriteBack, ReadAhead, Direct, No Write Cache if Bad BBU" ("; " between) */
        /* what the tool prints that names the block device (ctl_match tries each) */
        char *os_name;            /* the tool's OS name ("/dev/sdb"), NULL if not printed */
        char *naa;                /* the VD's NAA / unique id, lower-case hex without prefix */
        char *serial;             /* the unit's serial as the disk reports it (tw_cli), printable */
        char *scsi_addr;          /* "channel:target:lun" under the controller's SCSI host, as the
                                   * driver places the VD ("2:0:0": megaraid_sas VD target 0) */
        char *pci;                /* the controller's PCI address ("0000:03:00.0"), NULL if not printed */
        char *device;             /* the kernel name it matched ("sdb"), NULL: not matched */
        char *matched_by;         /* "wwn", "os-name", "serial" or "scsi-address" */
        char *note;               /* why geometry or device is unknown, or a warning; NULL */
};

struct ctl_list {
        struct ctl_vd *v;
        size_t n;
        char **errors;            /* one sentence per tool or file that failed (NULL-terminated) */
        char **warnings;          /* what went wrong but was put right (a process left behind, ended) */
};

/* The parsers, one per output format (the table of tools in ctl_tools.c says
 * which tool prints which). Each is pure: buf holds len bytes of the tool's
 * output (any bytes; a UTF-8 byte-order mark and CRLF line ends are taken);
 * tool names the records (the label: "storcli" or "perccli" for the same
 * format); controller is the controller the command was for ("1" for arcconf
 * GETCONFIG 1, "c0" for tw_cli /c0/u1), NULL for outputs that name their
 * controllers themselves. Each appends to l and returns 0, or returns
 * -EINVAL with *ret_err set to a sentence (what, where, what was expected);
 * l is then left as it was. Output that holds content but no logical drive
 * is an error, unless the tool says in its own words that there is none. */
int ctl_parse_storcli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err);
int ctl_parse_storcli2(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                       char **ret_err);
int ctl_parse_ssacli(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                     char **ret_err);
int ctl_parse_arcconf(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                      char **ret_err);
/* arcconf GETCONFIGJSON N (or N LD): the JSON line between arcconf's text lines.
 * The JSON has no parity-group count: a RAID50/60 keeps an unknown geometry. */
int ctl_parse_arcconf_json(const char *buf, size_t len, const char *tool, const char *controller,
                           struct ctl_list *l, char **ret_err);
/* A command that one output leads to: arcconf's "Controllers found: 3" leads
 * to GETCONFIG 2 and 3, tw_cli's "show" to each controller, a controller to
 * its units. step is the index in the tool's row of ctl_tools.c (the vendor
 * file documents its steps); id is the controller or unit the command is for
 * ("2", "c0", "c0/u1"): [A-Za-z0-9/] only, since it goes into an argv and a
 * capture file name ('/' becomes '-' there). */
struct ctl_next {
        unsigned step;
        char id[24];
};
struct ctl_nexts {
        struct ctl_next *v;
        size_t n;
};
void ctl_nexts_add(struct ctl_nexts *x, unsigned step, const char *id);
void ctl_nexts_free(struct ctl_nexts *x);
/* The followers: pure as the parsers, from one output to the commands it
 * leads to (appended to next; on -EINVAL next is left as it was). id is the
 * one the output's own command was for (NULL for the first command). */
typedef int ctl_follow_fn(const char *buf, size_t len, const char *tool, const char *id, struct ctl_nexts *next,
                          char **ret_err);
typedef int ctl_parse_fn(const char *buf, size_t len, const char *tool, const char *controller, struct ctl_list *l,
                         char **ret_err);

/* arcconf GETCONFIG 1 LD's "Controllers found: N": GETCONFIG 2 .. N (step 0). */
ctl_follow_fn ctl_follow_arcconf;

/* 3ware/LSI tw_cli (ctl_3ware.c). Steps: 0 "tw_cli show" (the controllers),
 * 1 "tw_cli /cX show" (a controller's units), 2 "tw_cli /cX/uY show all" (one
 * unit: its records). */
ctl_follow_fn ctl_follow_twcli_show;
ctl_follow_fn ctl_follow_twcli_ctl;
ctl_parse_fn ctl_parse_twcli_unit;

/* LSI MegaCli / MegaCli64 (ctl_megacli.c). Steps: 0 "-AdpCount" (how many
 * adapters: with none, nothing else runs), 1 "-LdPdInfo -aALL" (every
 * adapter's VDs: the records; "-LDInfo -Lall -aALL" is read the same way),
 * 2 "-AdpGetPciInfo -aALL" (sets pci on the records of each adapter already
 * in the list). */
ctl_follow_fn ctl_follow_megacli_count;
ctl_parse_fn ctl_parse_megacli_ld;
ctl_parse_fn ctl_parse_megacli_pci;

/* "Controllers found: N" at the top of an arcconf output: N, or 0. */
unsigned ctl_arcconf_count(const char *buf, size_t len);

/* Fills data_disks and full_stripe_bytes from level, drives_per_span, spans
 * and strip_bytes (RAID1: one data leg; RAID10: drives/2 per span; RAID50/60:
 * (drives-1)/(drives-2) per span × spans). Leaves them 0 and sets note when a
 * figure is missing or the layout is not possible. */
void ctl_vd_geometry(struct ctl_vd *v);

/* "256 KB", "256 KiB", "1 MB", "64K", "512 Bytes": bytes (KB and KiB both 1024:
 * the tools mean binary units). -EINVAL for anything else. */
int ctl_parse_strip(const char *s, uint64_t *ret_bytes);

/* Sets device and matched_by of every record from what the tool printed: the
 * NAA against the disk's WWID/WWN (the whole identifier, never a prefix), the
 * OS name, the unit serial against the disk's serial (ID_SERIAL_SHORT), the
 * SCSI address (and the controller's PCI address when printed) against
 * udev's ID_PATH. Never by guess: an identifier that names several disks, or
 * two that name different ones, leave device NULL and say so in note. Two
 * records of one disk that give different geometries both get a note
 * starting "conflict:". */
void ctl_match(struct ctl_list *l, const struct sysinfo *si);
/* The records whose device is name ("sdb"), at most max, in the list's order:
 * two tools (MegaCli beside storcli) or two controllers may name one disk. */
size_t ctl_vds_for_device(const struct ctl_list *l, const char *name, const struct ctl_vd **out, size_t max);
/* a and b give one geometry (level, strip, data disks, full stripe). */
bool ctl_vd_same_geometry(const struct ctl_vd *a, const struct ctl_vd *b);
/* The record whose device is name ("sdb"), NULL if none: for the planner. */
const struct ctl_vd *ctl_vd_for_device(const struct ctl_list *l, const char *name);

/* The time limits of the tools' commands (live only): each command, and all
 * commands of one run together (a node with many controllers, some hung). */
struct ctl_limits {
        unsigned call_ms, total_ms;
};
#define CTL_CALL_TIMEOUT_S 20
#define CTL_TOTAL_TIMEOUT_S 60
/* What a tool may print: past CTL_MAX_OUT_BYTES on stdout it is killed; of
 * stderr the first CTL_MAX_ERR_BYTES are kept (the first line of it goes into
 * a failing command's error), the rest dropped. */
#define CTL_MAX_OUT_BYTES ((size_t)64 << 20)
#define CTL_MAX_ERR_BYTES ((size_t)4096)

/* Every supported tool found in PATH, run by argv under lim: the rows of
 * ctl_tools.c, each command's output parsed and followed (absent tools
 * skipped, failing commands in l->errors). Every process a tool starts is
 * gone when it returns. With capture_dir, each output is also written there
 * under its capture name (what --sysroot reads), parsed or not. */
void ctl_collect_live(struct ctl_list *l, const struct ctl_limits *lim, const char *capture_dir);
/* The captured outputs under SYSROOT/storprov-controller/ (CTL_CAPTURE_DIR;
 * the file names are the rows' captures, see storprov(8)). */
#define CTL_CAPTURE_DIR "storprov-controller"
void ctl_collect_sysroot(struct ctl_list *l, const char *sysroot);

void ctl_list_free(struct ctl_list *l);
