/* SPDX-License-Identifier: GPL-2.0-or-later
 * What every controller parser (src/discover/ctl_*.c) must hold on any bytes,
 * checked by each fuzz_controller_* target (which includes this header once,
 * for its LLVMFuzzerInitialize: the fixture sysroots):
 *   - it returns 0 with no error, or -EINVAL with one error and the list as
 *     it was (the records of a failed parse taken back);
 *   - every string of a record and the error are printable ASCII (no byte of
 *     the output reaches a message or a JSON field raw);
 *   - level and state are one of the names the schema lists, and so is the
 *     write cache, which is printed with the lines it comes from or not at all;
 *   - a full stripe is strip × data disks exactly, data disks never more than
 *     drives per span × spans; a geometry not derived says why (note);
 *   - matched against a fixture machine, a device is one of its disks.
 * A follower (the commands an output leads to) likewise returns 0, or -EINVAL
 * with one printable error and nothing added; it never touches the commands
 * already listed; each command it adds is of one of its steps, for an id of
 * [A-Za-z0-9/] under 24 bytes (controller.h), and none twice. */
#pragma once
#include <errno.h>
#include <string.h>

#include "fuzz_common.h"
#include "discover/controller.h"

static void ctl_printable_or_null(const char *what, const char *s)
{
        for (const unsigned char *p = (const unsigned char *)s; s && *p; p++)
                if (*p < 0x20 || *p > 0x7e)
                        FUZZ_FAIL("%s holds byte 0x%02x", what, *p);
}

static bool in_set(const char *s, const char *const *set)
{
        for (size_t i = 0; set[i]; i++)
                if (!strcmp(s, set[i]))
                        return true;
        return false;
}

static void ctl_check_record(const struct ctl_vd *v)
{
        static const char *const levels[] = {"raid0",  "raid1",  "raid5",  "raid6",        "raid00",
                                             "raid10", "raid50", "raid60", "raid1-triple", "raid10-triple", "raid1e",
                                             "raid5ee", "simple", "spanned", NULL};
        static const char *const states[] = {"optimal", "degraded", "partially-degraded", "rebuilding", "recovering",
                                             "offline", "failed",   "foreign",            "other",      NULL};
        static const char *const caches[] = {"write-back", "write-through", "write-back-disabled", "unknown", NULL};
        const char *s[] = {v->tool,    v->controller, v->vd,        v->level,  v->level_raw, v->state, v->state_raw,
                           v->os_name, v->naa,        v->serial,    v->scsi_addr, v->pci,     v->note,
                           v->write_cache_raw};
        for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
                ctl_printable_or_null("a record's string", s[i]);
        if (!v->tool || !v->controller)
                FUZZ_FAIL("a record without tool or controller");
        if (v->level && !in_set(v->level, levels))
                FUZZ_FAIL("level \"%s\"", v->level);
        if (!v->state || !in_set(v->state, states))
                FUZZ_FAIL("state \"%s\"", v->state ? v->state : "(null)");
        const char *wc = ctl_cache_name(v->cache);
        if (v->cache && (!wc || !in_set(wc, caches)))
                FUZZ_FAIL("write cache %d", (int)v->cache);
        if (!v->cache != !v->write_cache_raw)
                FUZZ_FAIL("write cache \"%s\" and its lines \"%s\": one without the other", wc ? wc : "(null)",
                          v->write_cache_raw ? v->write_cache_raw : "(null)");
        if (v->full_stripe_bytes && v->full_stripe_bytes != v->strip_bytes * v->data_disks)
                FUZZ_FAIL("full stripe %llu is not %llu × %u", (unsigned long long)v->full_stripe_bytes,
                          (unsigned long long)v->strip_bytes, v->data_disks);
        if ((uint64_t)v->data_disks > (uint64_t)v->drives_per_span * v->spans)
                FUZZ_FAIL("%u data disks of %u × %u", v->data_disks, v->drives_per_span, v->spans);
        if (!v->full_stripe_bytes && !v->note)
                FUZZ_FAIL("geometry unknown without a note");
}

/* A parser's or follower's result: 0 and no error, or -EINVAL and one
 * printable error. */
static void ctl_fuzz_result(const char *what, int r, const char *err)
{
        if (r != 0 && r != -EINVAL)
                FUZZ_FAIL("%s returned %d", what, r);
        if ((r == 0) != (err == NULL))
                FUZZ_FAIL("%s returned %d with error %s", what, r, err ? err : "(none)");
        char whose[64];
        snprintf(whose, sizeof whose, "%s's error", what);
        ctl_printable_or_null(whose, err);
}

/* Runs parse twice: on an empty list and after one record already there. */
static void ctl_fuzz_one(int (*parse)(const char *, size_t, struct ctl_list *, char **), const uint8_t *data,
                         size_t size, const struct sysinfo *si)
{
        struct ctl_list l = {0};
        char *err = NULL;
        int r = parse((const char *)data, size, &l, &err);
        ctl_fuzz_result("the parser", r, err);
        if (r < 0 && l.n)
                FUZZ_FAIL("a failed parse left %zu records", l.n);
        for (size_t i = 0; i < l.n; i++)
                ctl_check_record(&l.v[i]);
        ctl_match(&l, si);
        for (size_t i = 0; i < l.n; i++) {
                if (l.v[i].device && !sysinfo_find(si, l.v[i].device))
                        FUZZ_FAIL("device %s is not a disk of the machine", l.v[i].device);
                ctl_printable_or_null("a note", l.v[i].note);
        }
        size_t n = l.n;
        free(err);
        err = NULL;
        r = parse((const char *)data, size, &l, &err);
        if (r < 0 && l.n != n)
                FUZZ_FAIL("a failed parse took %zu records it had not added", n - l.n);
        free(err);
        ctl_list_free(&l);
}

/* Runs follow (tool's label, id the command's) on any bytes after one
 * command already listed, and checks what the top says; the commands it
 * added, steps_mask the steps it may add (bit k: step k), stay in *nx after
 * that first one (the caller frees them). Its return. (static inline: the
 * targets without a follower do not use it.) */
static inline int ctl_fuzz_follow(ctl_follow_fn *follow, const char *tool, const uint8_t *data, size_t size,
                                  const char *id, unsigned steps_mask, struct ctl_nexts *nx)
{
        char *err = NULL;
        *nx = (struct ctl_nexts){0};
        ctl_nexts_add(nx, 9, "before"); /* what a failure must leave, and no follower may touch */
        int r = follow((const char *)data, size, tool, id, nx, &err);
        ctl_fuzz_result("the follower", r, err);
        if (r < 0 && nx->n != 1)
                FUZZ_FAIL("a failed follower added %zu commands", nx->n - 1);
        if (nx->v[0].step != 9 || strcmp(nx->v[0].id, "before"))
                FUZZ_FAIL("the follower changed the command before it");
        for (size_t i = 1; i < nx->n; i++) {
                const char *s = nx->v[i].id;
                size_t n = strnlen(s, sizeof nx->v[i].id);
                if (n >= sizeof nx->v[i].id ||
                    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/") != n)
                        FUZZ_FAIL("follower id \"%.*s\"", (int)n, s);
                if (nx->v[i].step >= 32 || !(steps_mask & (1u << nx->v[i].step)))
                        FUZZ_FAIL("follower step %u", nx->v[i].step);
                for (size_t k = 1; k < i; k++)
                        if (nx->v[k].step == nx->v[i].step && !strcmp(nx->v[k].id, s))
                                FUZZ_FAIL("command %u:%s twice", nx->v[i].step, s);
        }
        free(err);
        return r;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        (void)argc;
        (void)argv;
        fuzz_load_sysroots();
        return 0;
}
