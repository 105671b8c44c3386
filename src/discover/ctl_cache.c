/* SPDX-License-Identifier: GPL-2.0-or-later
 * The write cache of a logical drive, from the words each tool prints: one
 * table of cache lines per tool (which line says the mode the drive is in
 * now, which the mode it is configured for, which the controller's cache),
 * the vendors' words for the modes, and the one rule that makes of them the
 * record's cache (controller.h lists its values). Pure.
 *
 * The mode now decides: write-back or write-through. Write-through now while
 * write-back is configured (a battery or flash module absent, failed or
 * charging, MegaRAID's "No Write Cache if Bad BBU") is write-back-disabled.
 * A cache line in words storprov does not know gives "unknown"; nothing
 * printed gives NULL. Neither ever fails a parse. */
#include "discover/ctl_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "Always WriteBack" → "alwayswriteback": lower case, no blanks, '-' or '_'. */
static void wc_squash(const char *s, size_t n, char out[static 32])
{
        size_t o = 0;
        for (size_t i = 0; i < n && s[i] && o + 1 < 32; i++)
                if (!strchr(" \t-_", s[i]))
                        out[o++] = (char)tolower((unsigned char)s[i]);
        out[o] = 0;
}

/* One policy word: "WriteBack", "Always WriteBack", "WB", "AWB", "WriteThrough", "WT". */
static enum ctl_wc_mode wc_word(const char *s, size_t n)
{
        static const char *const back[] = {"writeback", "alwayswriteback", "wb", "awb", NULL};
        static const char *const through[] = {"writethrough", "wt", NULL};
        char w[32];
        wc_squash(s, n, w);
        for (size_t i = 0; back[i]; i++)
                if (!strcmp(w, back[i]))
                        return CTL_WC_BACK;
        for (size_t i = 0; through[i]; i++)
                if (!strcmp(w, through[i]))
                        return CTL_WC_THROUGH;
        return CTL_WC_OTHER;
}

/* A comma-separated policy (MegaCli "WriteBack, ReadAhead, Direct, No Write
 * Cache if Bad BBU", storcli2 "NR,WB"): its first write word. */
static enum ctl_wc_mode wc_policy(const char *s)
{
        for (;;) {
                size_t n = strcspn(s, ",");
                enum ctl_wc_mode m = wc_word(s, n);
                if (m != CTL_WC_OTHER || !s[n])
                        return m;
                s += n + 1;
        }
}

/* storcli's "Cache" column, in the letters of its legend: read ahead (R
 * Always, Ra Adaptive, NR No), write (AWB Always WriteBack, WB, WT), then
 * I/O (C Cached, D Direct): "RWBD", "NRWTD", "RAWBC" (R, AWB, C), "RaWBD".
 * Case tells "RA" (R, then AWB) from "Ra": each reading is tried. */
static enum ctl_wc_mode wc_storcli(const char *s)
{
        static const char *const ahead[] = {"NR", "Ra", "R", ""};
        static const struct {
                const char *w;
                enum ctl_wc_mode m;
        } write[] = {{"AWB", CTL_WC_BACK}, {"WB", CTL_WC_BACK}, {"WT", CTL_WC_THROUGH}};
        for (size_t a = 0; a < ELEMENTSOF(ahead); a++) {
                if (strncmp(s, ahead[a], strlen(ahead[a])))
                        continue;
                const char *r = s + strlen(ahead[a]);
                for (size_t k = 0; k < ELEMENTSOF(write); k++)
                        if (!strncmp(r, write[k].w, strlen(write[k].w)) &&
                            (!r[strlen(write[k].w)] || !strcmp(r + strlen(write[k].w), "C") ||
                             !strcmp(r + strlen(write[k].w), "D")))
                                return write[k].m;
        }
        return CTL_WC_OTHER;
}

/* A switch: arcconf "Enabled (write-back)", "Disabled (write-through)", "On",
 * "On when protected by battery/ZMM", "Not supported" (no controller cache:
 * the drive writes through it); tw_cli "on", "off"; "Enabled", "Disabled". */
static enum ctl_wc_mode wc_switch(const char *s)
{
        if (strcasestr(s, "(write-back)"))
                return CTL_WC_BACK;
        if (strcasestr(s, "(write-through)"))
                return CTL_WC_THROUGH;
        size_t n = strcspn(s, " \t");
        char w[32];
        wc_squash(s, n, w);
        if (!strcmp(w, "on") || !strcmp(w, "enabled"))
                return CTL_WC_BACK;
        if (!strcmp(w, "off") || !strcmp(w, "disabled") || !strcasecmp(s, "Not supported"))
                return CTL_WC_THROUGH;
        return CTL_WC_OTHER;
}

/* "10% Read / 90% Write" (ssacli "Cache Ratio"), "90 percent" (arcconf
 * "Write Cache Percentage"): true when none of the cache takes writes. */
static bool wc_no_write_share(const char *s)
{
        const char *w = strcasestr(s, "% Write");
        if (w) {
                while (w > s && w[-1] == ' ')
                        w--;
                const char *d = w;
                while (d > s && isdigit((unsigned char)d[-1]))
                        d--;
                return d < w && (size_t)(w - d) == strspn(d, "0");
        }
        size_t z = strspn(s, "0");
        return z && !isdigit((unsigned char)s[z]) && (!s[z] || s[z] == ' ' || s[z] == '%');
}

const struct ctl_wc_key ctl_wc_storcli_keys[] = {
        {"Cache", CTL_WCK_NOW_STORCLI},                      /* storcli, perccli: the VD row */
        {"Write Cache(initial setting)", CTL_WCK_SET_POLICY}, /* storcli, perccli: "VDn Properties" */
        {"CurrentCache", CTL_WCK_NOW_POLICY},                /* storcli2, perccli2: "VD Info" */
        {"DefaultCache", CTL_WCK_SET_POLICY},
        {NULL, 0},
};
const struct ctl_wc_key ctl_wc_megacli_keys[] = {
        {"Current Cache Policy", CTL_WCK_NOW_POLICY},
        {"Default Cache Policy", CTL_WCK_SET_POLICY},
        {NULL, 0},
};
const struct ctl_wc_key ctl_wc_smart_ld_keys[] = {
        {"Caching", CTL_WCK_ACCEL}, /* ssacli and SmartRAID arcconf: the logical drive's use of the cache */
        {NULL, 0},
};
const struct ctl_wc_key ctl_wc_smart_ctl_keys[] = {
        {"Cache Status", CTL_WCK_CTL_STATUS}, /* ssacli, SmartRAID arcconf: the controller's cache */
        {"Cache Ratio", CTL_WCK_CTL_SHARE},   /* ssacli */
        {"Write Cache Percentage", CTL_WCK_CTL_SHARE}, /* SmartRAID arcconf */
        {NULL, 0},
};
const struct ctl_wc_key ctl_wc_arcconf_keys[] = {
        {"Write-cache mode", CTL_WCK_NOW_SWITCH},    /* arcconf 1.x and IBM's 9.x */
        {"Write-cache status", CTL_WCK_NOW_SWITCH},  /* arcconf 1.x, 2.x */
        {"Write-cache setting", CTL_WCK_SET_SWITCH}, /* arcconf 1.x, 2.x and IBM's 9.x */
        {"Caching", CTL_WCK_ACCEL},                  /* arcconf 3.x, 4.x (SmartRAID) */
        {NULL, 0},
};
const struct ctl_wc_key ctl_wc_twcli_keys[] = {
        {"Write Cache", CTL_WCK_NOW_SWITCH}, /* "/c0/u0 Write Cache = on" */
        {NULL, 0},
};

static void wc_raw(struct ctl_wc *w, const char *key, const char *value)
{
        _cleanup_free_ char *k = ctl_printable(key, 40), *v = ctl_printable(value, 100);
        char *both = w->raw ? xasprintf("%s; %s: %s", w->raw, k, v) : xasprintf("%s: %s", k, v);
        free(w->raw);
        w->raw = both;
}

bool ctl_wc_take(struct ctl_wc *w, const struct ctl_wc_key *keys, const char *key, const char *value)
{
        size_t i = 0;
        while (keys[i].key && !ctl_key_eq(key, keys[i].key))
                i++;
        if (!keys[i].key || !value)
                return false;
        if (w->raw && strlen(w->raw) > 400) /* a cache line repeated without end: the first ones are kept */
                return true;
        /* each kind: the words it is in and the mode it sets; the controller's status and share apart */
        static const struct {
                enum ctl_wc_mode (*words)(const char *);
                unsigned slot; /* of slots below */
        } kinds[] = {
                [CTL_WCK_NOW_STORCLI] = {wc_storcli, 0}, [CTL_WCK_NOW_POLICY] = {wc_policy, 0},
                [CTL_WCK_SET_POLICY] = {wc_policy, 1},   [CTL_WCK_NOW_SWITCH] = {wc_switch, 0},
                [CTL_WCK_SET_SWITCH] = {wc_switch, 1},   [CTL_WCK_ACCEL] = {wc_switch, 2},
        };
        enum ctl_wc_mode *slots[] = {&w->now, &w->set, &w->accel};
        enum ctl_wc_kind k = keys[i].kind;
        if (k == CTL_WCK_CTL_STATUS) {
                free(w->status);
                w->status = ctl_printable(value, 40);
        } else if (k == CTL_WCK_CTL_SHARE)
                w->no_write_share = wc_no_write_share(value);
        else
                *slots[kinds[k].slot] = kinds[k].words(value);
        wc_raw(w, key, value);
        return true;
}

/* HPE Smart Array and SmartRAID: the logical drive says whether it uses the
 * controller's cache ("Caching: Enabled"), the controller whether its cache
 * works now ("Cache Status: OK", "Temporarily Disabled" while a battery
 * charges or after it failed, "Permanently Disabled", "Not Configured") and
 * how much of it takes writes ("Cache Ratio", "Write Cache Percentage"). */
static void wc_accel(struct ctl_wc *w, const struct ctl_wc *ctl)
{
        const char *st = ctl ? ctl->status : NULL;
        if (w->accel != CTL_WC_BACK) {
                w->now = w->accel; /* the drive does not use the controller's cache: its lines say nothing of it */
                return;
        }
        if (!st)
                w->now = CTL_WC_OTHER; /* enabled, but whether the cache works is not printed */
        else if (!strcasecmp(st, "OK"))
                w->now = ctl->no_write_share ? CTL_WC_THROUGH : CTL_WC_BACK;
        else if (!strcasecmp(st, "Not Configured"))
                w->now = CTL_WC_THROUGH;
        else if (strcasestr(st, "Disabled") || strcasestr(st, "Failed")) {
                w->now = CTL_WC_THROUGH;
                w->set = CTL_WC_BACK;
        } else
                w->now = CTL_WC_OTHER;
        if (ctl && ctl->raw)
                wc_raw(w, "controller", ctl->raw);
}

const char *ctl_cache_name(enum ctl_cache c)
{
        static const char *const names[] = {[CTL_CACHE_WRITE_BACK] = "write-back",
                                            [CTL_CACHE_WRITE_THROUGH] = "write-through",
                                            [CTL_CACHE_BACK_DISABLED] = "write-back-disabled",
                                            [CTL_CACHE_UNKNOWN] = "unknown"};
        return (size_t)c < ELEMENTSOF(names) ? names[c] : NULL;
}

void ctl_wc_end(struct ctl_wc *w, const struct ctl_wc *ctl, struct ctl_vd *v)
{
        if (w->accel != CTL_WC_NONE && w->now == CTL_WC_NONE)
                wc_accel(w, ctl);
        if (w->now != CTL_WC_NONE || w->set != CTL_WC_NONE) {
                v->cache = w->now == CTL_WC_BACK                               ? CTL_CACHE_WRITE_BACK
                           : w->now == CTL_WC_THROUGH && w->set == CTL_WC_BACK ? CTL_CACHE_BACK_DISABLED
                           : w->now == CTL_WC_THROUGH                          ? CTL_CACHE_WRITE_THROUGH
                                                                               : CTL_CACHE_UNKNOWN;
                free(v->write_cache_raw);
                v->write_cache_raw = w->raw;
                w->raw = NULL;
        }
        ctl_wc_clear(w);
}

void ctl_wc_clear(struct ctl_wc *w)
{
        free(w->raw);
        free(w->status);
        *w = (struct ctl_wc){0};
}
