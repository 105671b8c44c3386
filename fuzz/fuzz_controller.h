/* SPDX-License-Identifier: GPL-2.0-or-later
 * What every controller parser (src/discover/ctl_*.c) must hold on any bytes,
 * checked by fuzz_controller_storcli, _ssacli and _arcconf:
 *   - it returns 0 with no error, or -EINVAL with one error and the list as
 *     it was (the records of a failed parse taken back);
 *   - every string of a record and the error are printable ASCII (no byte of
 *     the output reaches a message or a JSON field raw);
 *   - level and state are one of the names the schema lists;
 *   - a full stripe is strip × data disks exactly, data disks never more than
 *     drives per span × spans; a geometry not derived says why (note);
 *   - matched against a fixture machine, a device is one of its disks. */
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
        const char *s[] = {v->tool,    v->controller, v->vd,        v->level,  v->level_raw, v->state, v->state_raw,
                           v->os_name, v->naa,        v->serial,    v->scsi_addr, v->pci,     v->note};
        for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
                ctl_printable_or_null("a record's string", s[i]);
        if (!v->tool || !v->controller)
                FUZZ_FAIL("a record without tool or controller");
        if (v->level && !in_set(v->level, levels))
                FUZZ_FAIL("level \"%s\"", v->level);
        if (!v->state || !in_set(v->state, states))
                FUZZ_FAIL("state \"%s\"", v->state ? v->state : "(null)");
        if (v->full_stripe_bytes && v->full_stripe_bytes != v->strip_bytes * v->data_disks)
                FUZZ_FAIL("full stripe %llu is not %llu × %u", (unsigned long long)v->full_stripe_bytes,
                          (unsigned long long)v->strip_bytes, v->data_disks);
        if ((uint64_t)v->data_disks > (uint64_t)v->drives_per_span * v->spans)
                FUZZ_FAIL("%u data disks of %u × %u", v->data_disks, v->drives_per_span, v->spans);
        if (!v->full_stripe_bytes && !v->note)
                FUZZ_FAIL("geometry unknown without a note");
}

/* Runs parse twice: on an empty list and after one record already there. */
static void ctl_fuzz_one(int (*parse)(const char *, size_t, struct ctl_list *, char **), const uint8_t *data,
                         size_t size, const struct sysinfo *si)
{
        struct ctl_list l = {0};
        char *err = NULL;
        int r = parse((const char *)data, size, &l, &err);
        if (r != 0 && r != -EINVAL)
                FUZZ_FAIL("returned %d", r);
        if ((r == 0) != (err == NULL))
                FUZZ_FAIL("returned %d with error %s", r, err ? err : "(none)");
        ctl_printable_or_null("the error", err);
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

/* A follower (the commands one output leads to) on any bytes: 0 with no
 * error or -EINVAL with one printable error and nothing added; every command
 * it adds is one of the steps in steps_mask (bit k: step k), for an id of
 * [A-Za-z0-9/=] under 24 bytes. */
static void ctl_fuzz_follow(ctl_follow_fn *follow, const uint8_t *data, size_t size, const char *id,
                            unsigned steps_mask)
{
        struct ctl_nexts nx = {0};
        char *err = NULL;
        ctl_nexts_add(&nx, 0, "x"); /* one already there: a failure leaves it alone */
        int r = follow((const char *)data, size, "fuzz", id, &nx, &err);
        if (r != 0 && r != -EINVAL)
                FUZZ_FAIL("follower returned %d", r);
        if ((r == 0) != (err == NULL))
                FUZZ_FAIL("follower returned %d with error %s", r, err ? err : "(none)");
        ctl_printable_or_null("the follower's error", err);
        if (r < 0 && nx.n != 1)
                FUZZ_FAIL("a failed follower added %zu commands", nx.n - 1);
        for (size_t i = 1; i < nx.n; i++) {
                const char *s = nx.v[i].id;
                size_t n = strnlen(s, sizeof nx.v[i].id);
                if (n >= sizeof nx.v[i].id || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/=") != n)
                        FUZZ_FAIL("follower id \"%.*s\"", (int)n, s);
                if (nx.v[i].step >= 32 || !(steps_mask & (1u << nx.v[i].step)))
                        FUZZ_FAIL("follower step %u", nx.v[i].step);
        }
        free(err);
        ctl_nexts_free(&nx);
}
