/* SPDX-License-Identifier: GPL-2.0-or-later
 * The mount-table reader (src/sys/mounttab.c, libmount underneath) on any
 * bytes: the input is a mountinfo or an fstab-shaped table (/proc/mounts, an
 * fstab; first byte: which). What must hold:
 *   - every error is printable ASCII (no byte of the file reaches a message raw);
 *   - every entry has an absolute mountpoint and a source, in an fstab a type,
 *     and its line: from 1 to the number of lines, ascending, never the line
 *     of an error, and a line that starts like the entry's (the mountpoint
 *     checked where the line has no escape);
 *   - a well-formed line is never lost to the others: the whole line
 *     "1 0 8:2 / / rw - ext3 /dev/sda2 rw" (mountinfo) or
 *     "/dev/sda2 / xfs rw 0 0" (fstab) gives an entry at its line, mounted
 *     at "/" from /dev/sda2, whatever else the file holds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NO_SYSROOTS
#include "fuzz_common.h"
#include "sys/mounttab.h"

static void printable(const char *what, const char *s)
{
        for (const unsigned char *p = (const unsigned char *)s; s && *p; p++)
                if (*p < 0x20 || *p > 0x7e)
                        FUZZ_FAIL("%s holds byte 0x%02x: \"%s\"", what, *p, s);
}

/* The number of the first whole line equal to line (1-based), 0 if none; *ret_lines: how many lines. */
static unsigned find_line(const char *text, size_t len, const char *line, unsigned *ret_lines)
{
        size_t n = strlen(line);
        unsigned no = 0, found = 0;
        for (size_t i = 0; i < len;) {
                const char *nl = memchr(text + i, '\n', len - i);
                size_t e = nl ? (size_t)(nl - text) : len;
                no++;
                if (!found && e - i == n && !memcmp(text + i, line, n))
                        found = no;
                i = e + 1;
        }
        *ret_lines = no;
        return found;
}

/* Whether error message e is about line no ("line 7 ..."). */
static bool error_of_line(const char *e, unsigned no)
{
        char want[32];
        int k = snprintf(want, sizeof want, "line %u ", no);
        return !strncmp(e, want, (size_t)k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        enum mounttab_kind kind = data[0] % 2 ? MOUNTTAB_FSTAB : MOUNTTAB_MOUNTINFO;
        const char *text = (const char *)data + 1;
        size_t len = size - 1;
        const char *good = kind == MOUNTTAB_MOUNTINFO ? "1 0 8:2 / / rw - ext3 /dev/sda2 rw" : "/dev/sda2 / xfs rw 0 0";
        unsigned lines = 0, must = find_line(text, len, good, &lines);

        struct mount_entry *v = NULL;
        size_t n = 0;
        char **errs = NULL;
        mounttab_parse(kind, text, len, &v, &n, &errs);
        for (size_t k = 0; errs && errs[k]; k++)
                printable("an error", errs[k]);
        bool kept = false;
        for (size_t i = 0; i < n; i++) {
                const struct mount_entry *e = &v[i];
                if (!e->mountpoint || e->mountpoint[0] != '/' || !e->source)
                        FUZZ_FAIL("entry %zu (line %u) has no absolute mountpoint or no source", i, e->line);
                if (kind == MOUNTTAB_FSTAB && (!e->fstype || !*e->fstype))
                        FUZZ_FAIL("fstab entry at line %u has no type", e->line);
                if (e->line < 1 || e->line > lines || (i && e->line <= v[i - 1].line))
                        FUZZ_FAIL("entry %zu has line %u (of %u, the one before %u)", i, e->line, lines,
                                  i ? v[i - 1].line : 0);
                for (size_t k = 0; errs && errs[k]; k++)
                        if (error_of_line(errs[k], e->line))
                                FUZZ_FAIL("line %u is both an entry and an error: %s", e->line, errs[k]);
                if (must && e->line == must && !strcmp(e->mountpoint, "/") && !strcmp(e->source, "/dev/sda2") &&
                    (kind == MOUNTTAB_FSTAB || (e->major == 8 && e->minor == 2)))
                        kept = true;
        }
        if (must && !kept)
                FUZZ_FAIL("the well-formed line %u (\"%s\") was lost", must, good);
        mount_entries_free(v, n);
        strv_free(errs);
        return 0;
}
