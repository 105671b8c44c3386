/* SPDX-License-Identifier: GPL-2.0-or-later
 * tuned.conf for --tuning=tuned|both. What tuned does with it (tuned 2.20,
 * the plugins read, not copied):
 *   [disk] readahead=N   N in KiB, written to queue/read_ahead_kb as it is;
 *                        "N s" would be 512-byte sectors (halved). storprov
 *                        writes the plain KiB number, so read-ahead-kb carries
 *                        over exactly.
 *   [disk] elevator=X    written to queue/scheduler.
 *   devices_udev_regex   a Python regex searched (MULTILINE) in the device's
 *                        udev properties as "KEY=VALUE" lines: the way to key a
 *                        disk by ID_WWN / ID_SERIAL instead of a kernel name
 *                        (devices=sdb) that can change across boots.
 *   priority             instances are given devices in priority order (lower
 *                        first, default 0): the included profile's own [disk]
 *                        (devices=*) would otherwise take the disk first.
 *   the disk plugin skips a device whose removable flag is set (some RAID
 *   controllers set it on their LUNs), so such a disk keeps its udev rule.
 *   include=             the profiles this one builds on, merged first; a unit
 *                        of the same name is merged, drop= removes options.
 *   [sysctl] tuned re-applies /etc/sysctl.d after its own values
 *                        (reapply_sysctl=1 in tuned-main.conf), so a key set
 *                        in both places is the sysctl.d value. */
#include "render/tuned.h"

#include <stdlib.h>
#include <string.h>

#include "base/rootfs.h"
#include "base/sanitize.h"

#define TUNED_DEFAULT_INCLUDE "throughput-performance"

static bool word_ok(const char *s, size_t n, const char *chars)
{
        return n && strspn(s, chars) >= n;
}

#define ID_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-"
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

const char *tuned_skip_why(const struct pl_obj *o)
{
        if (o->kind != OBJ_DISK)
                return "md and device-mapper devices are tuned in udev (by MD_UUID, DM_NAME)";
        if (o->disk.n_paths)
                return "a multipath LUN's map and paths are tuned in udev";
        if (o->disk.bd && o->disk.bd->removable)
                return "its removable flag is set, and tuned's disk plugin skips removable devices";
        const char *k = o->disk.udev_key, *v = o->disk.udev_value;
        if (!k || (strcmp(k, "ID_WWN") && strcmp(k, "ID_SERIAL")))
                return "no ID_WWN or ID_SERIAL: tuned could key it by kernel name only, which can change across boots";
        if (!v || !word_ok(v, strlen(v), ID_CHARS))
                return "its ID_WWN/ID_SERIAL holds characters a tuned devices_udev_regex cannot carry safely";
        return NULL;
}

/* The scheduler stays in udev beside nr_requests: switching the scheduler
 * resets nr_requests, so the one rule sets the scheduler, then the depth; tuned
 * setting it later (a second writer) would undo the depth. */
bool tuned_takes(const struct plan *pl, const struct pl_obj *o, enum tune_attr a)
{
        if (pl->tuning == TUNING_UDEV || !o->tune.val[a] || tuned_skip_why(o))
                return false;
        return a == TUNE_READ_AHEAD_KB || (a == TUNE_SCHEDULER && !o->tune.val[TUNE_NR_REQUESTS]);
}

bool tuned_takes_sysctl(const struct plan *pl)
{
        return pl->tuning == TUNING_TUNED;
}

/* The instance name: "storprov-" and the object id, a character tuned's
 * section names cannot hold as '_'. */
static bool regex_alt(struct sbuf *b, const char *key, const char *value);

static void instance_name(struct sbuf *b, const struct pl_obj *o)
{
        sbuf_puts(b, "[storprov-");
        for (const char *c = o->id; *c; c++)
                sbuf_printf(b, "%c", strchr(NAME_CHARS, *c) ? *c : '_');
        sbuf_puts(b, "]\n");
}

static void disk_unit(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        sbuf_puts(b, "\n# ");
        comment_text(b, o->id); /* not its kernel name: that moves at boot */
        sbuf_printf(b, ", profile line %d\n", o->tune.line);
        instance_name(b, o);
        struct sbuf alt = {0};
        regex_alt(&alt, o->disk.udev_key, o->disk.udev_value); /* checked by tuned_skip_why() */
        sbuf_printf(b, "type=disk\npriority=-10\ndevices_udev_regex=^%s$\n", alt.s);
        free(alt.s);
        if (tuned_takes(pl, o, TUNE_SCHEDULER))
                sbuf_printf(b, "elevator=%s\n", o->tune.val[TUNE_SCHEDULER]);
        if (tuned_takes(pl, o, TUNE_READ_AHEAD_KB))
                sbuf_printf(b, "# read-ahead-kb: tuned's readahead is in KiB (\"N s\" would be 512-byte sectors)\n"
                               "readahead=%s\n",
                            o->tune.val[TUNE_READ_AHEAD_KB]);
}

/* "KEY=VALUE" as a regex alternative, every character but letters and digits
 * escaped; false when the value holds others than ID_CHARS. */
static bool regex_alt(struct sbuf *b, const char *key, const char *value)
{
        if (!value || !word_ok(value, strlen(value), ID_CHARS))
                return false;
        sbuf_printf(b, "%s%s=", b->len ? "|" : "", key);
        for (const char *c = value; *c; c++)
                sbuf_printf(b, "%s%c", strchr("._:-", *c) ? "\\" : "", *c);
        return true;
}

/* The property a device storprov tunes in udev answers to, added to b. */
static void udev_key_alt(struct sbuf *b, const struct plan *pl, const struct pl_obj *o)
{
        if (o->kind == OBJ_MD)
                regex_alt(b, "MD_UUID", obj_uuid(o));
        else if (o->kind == OBJ_LV) {
                _cleanup_free_ char *dn = dm_name(pl->objs[o->parent].vg.name, o->lv.name);
                regex_alt(b, "DM_NAME", dn);
        } else if (o->kind == OBJ_DISK && o->disk.n_paths) {
                regex_alt(b, "DM_UUID", o->disk.udev_value);
                if (o->disk.path_udev_key && !strncmp(o->disk.path_udev_key, "ID_", 3))
                        regex_alt(b, o->disk.path_udev_key, o->disk.path_udev_value);
        } else if (o->kind == OBJ_DISK && o->disk.udev_key && !strncmp(o->disk.udev_key, "ID_", 3))
                regex_alt(b, o->disk.udev_key, o->disk.udev_value);
}

/* The included profile's [disk] instance takes every device tuned's disk
 * plugin supports, md and device-mapper devices among them (they have no
 * parent device), and sets its readahead and elevator there. A device whose
 * read-ahead or scheduler storprov keeps in udev is taken out of that
 * instance, by the same identity the udev rule matches, so that the value is
 * not set a second way; a disk with an instance of its own is taken by that
 * one first (priority), the included options never reach it. */
static void disk_override(struct sbuf *b, const struct plan *pl)
{
        struct sbuf alt = {0};
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                bool in_udev = (o->tune.val[TUNE_READ_AHEAD_KB] && !tuned_takes(pl, o, TUNE_READ_AHEAD_KB)) ||
                               (o->tune.val[TUNE_SCHEDULER] && !tuned_takes(pl, o, TUNE_SCHEDULER));
                bool own = tuned_takes(pl, o, TUNE_READ_AHEAD_KB) || tuned_takes(pl, o, TUNE_SCHEDULER);
                if (o->tune.line && in_udev && !own)
                        udev_key_alt(&alt, pl, o);
        }
        if (alt.len)
                sbuf_printf(b, "\n# the included profile's disk instance: not on what storprov tunes in udev\n"
                               "[disk]\ndevices_udev_regex=\\A(?![\\s\\S]*^(%s)$)\n",
                            alt.s);
        free(alt.s);
}

/* vm.dirty_bytes and vm.dirty_ratio are one setting: writing one zeroes the
 * other. An included profile's ratio beside storprov's bytes would be set
 * first and then reported by tuned-adm verify as changed. */
static const char *counterpart(const char *key)
{
        static const char *const pairs[][2] = {
                {"vm.dirty_bytes", "vm.dirty_ratio"},
                {"vm.dirty_background_bytes", "vm.dirty_background_ratio"},
        };
        for (size_t i = 0; i < ELEMENTSOF(pairs); i++)
                for (int k = 0; k < 2; k++)
                        if (!strcmp(key, pairs[i][k]))
                                return pairs[i][1 - k];
        return NULL;
}

/* [sysctl]: with --tuning=tuned the values; with both they are in sysctl.d,
 * and the included profile's same keys (and their counterparts) are dropped
 * so that tuned neither sets them another way nor reports them. */
static void sysctl_unit(struct sbuf *b, const struct plan *pl)
{
        struct sbuf drop = {0}, vals = {0};
        for (size_t i = 0; i < pl->n_sysctls; i++) {
                const struct pl_sysctl *s = &pl->sysctls[i];
                if (!sysctl_key_safe(s->key) || !sysctl_value_safe(s->value) || strpbrk(s->value, "#;$%")) {
                        sbuf_puts(&vals, "# storprov: not written, not a plain key and value: ");
                        comment_text(&vals, s->key);
                        sbuf_puts(&vals, "\n");
                        continue;
                }
                const char *c = counterpart(s->key);
                if (c)
                        sbuf_printf(&drop, "%s%s", drop.len ? "," : "", c);
                if (tuned_takes_sysctl(pl))
                        sbuf_printf(&vals, "%s=%s\n", s->key, s->value);
                else
                        sbuf_printf(&drop, "%s%s", drop.len ? "," : "", s->key);
        }
        if (!drop.len && !vals.len)
                return;
        sbuf_puts(b, "\n[sysctl]\n");
        if (!tuned_takes_sysctl(pl)) {
                sbuf_puts(b, "# the kernel settings are in ");
                comment_text(b, pl->file_path[FILE_SYSCTL]);
                sbuf_puts(b, " (--tuning=both); the included profile's are dropped here\n");
        }
        if (drop.len)
                sbuf_printf(b, "drop=%s\n", drop.s);
        sbuf_puts(b, vals.s ? vals.s : "");
        free(drop.s);
        free(vals.s);
}

char *render_tuned_conf(const struct plan *pl, const char *existing, struct diags *d)
{
        (void)existing;
        (void)d;
        struct sbuf b = {0};
        sbuf_puts(&b, "# Tuned profile generated by storprov from profile \"");
        comment_text(&b, pl->profile_name);
        sbuf_puts(&b, "\".\n# Do not edit: changes are lost when storprov renders again; change the profile.\n"
                      "# storprov does not activate it: run `tuned-adm profile storprov` on the running system\n"
                      "# (kickstart %post: echo storprov > /etc/tuned/active_profile; echo manual > /etc/tuned/profile_mode\n"
                      "# and tuned loads it at boot; profile_mode auto would have tuned pick its recommended profile).\n"
                      "# Not here: nr_requests, max_sectors_kb, md attributes, and every attribute of a device tuned\n"
                      "# cannot key safely, are in ");
        comment_text(&b, pl->file_path[FILE_UDEV]);
        /* a value: no '%' (tuned's ConfigParser interpolates), no '#' (a comment), one line */
        sbuf_puts(&b, ".\n\n[main]\nsummary=storprov: block device and kernel tuning of profile ");
        for (const char *c = pl->profile_name; *c; c++)
                sbuf_printf(&b, "%c", strchr(NAME_CHARS, *c) ? *c : '_');
        sbuf_printf(&b, "\ninclude=%s\n", pl->tuned_include);
        for (size_t i = 0; i < pl->n_objs; i++) {
                const struct pl_obj *o = &pl->objs[i];
                if (o->tune.line && (tuned_takes(pl, o, TUNE_SCHEDULER) || tuned_takes(pl, o, TUNE_READ_AHEAD_KB)))
                        disk_unit(&b, pl, o);
        }
        disk_override(&b, pl);
        sysctl_unit(&b, pl);
        return sbuf_steal(&b);
}

/* The plain profile names of a text (blank- or comma-separated), ","-joined;
 * NULL when there is none or one is storprov itself or not a plain name. */
static char *plain_names(const char *t)
{
        struct sbuf b = {0};
        for (const char *s = t; *s;) {
                s += strspn(s, " \t\n,");
                size_t n = strcspn(s, " \t\n,");
                if (!n)
                        break;
                if (!word_ok(s, n, NAME_CHARS) || (n == 8 && !strncmp(s, "storprov", 8))) {
                        free(b.s);
                        return NULL;
                }
                sbuf_printf(&b, "%s%.*s", b.len ? "," : "", (int)n, s);
                s += n;
        }
        return b.len ? sbuf_steal(&b) : (free(b.s), NULL);
}

char *root_tuned_include(const char *root)
{
        char *t = NULL, *r = NULL;
        if (read_file_in_root(root, "etc/tuned/active_profile", &t, NULL) == 0)
                r = plain_names(t);
        free(t);
        t = NULL;
        /* active already: what storprov's profile there includes */
        if (!r && read_file_in_root(root, "etc/tuned/storprov/tuned.conf", &t, NULL) == 0) {
                for (char *l = t; l && *l && !r; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
                        if (startswith(l, "include=")) {
                                char *e = strchr(l, '\n');
                                if (e)
                                        *e = 0;
                                r = plain_names(l + 8);
                                if (e)
                                        *e = '\n';
                        }
        }
        free(t);
        return r ? r : xstrdup(TUNED_DEFAULT_INCLUDE);
}
