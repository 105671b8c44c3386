/* SPDX-License-Identifier: GPL-2.0-or-later
 * The system disks' readers (src/discover/sysuse.c) on any bytes: the input is a
 * proc/self/mountinfo, a proc/swaps or a proc/cmdline (first byte: which),
 * marked against the grid-3ware machine (sda the OS disk, sda1 and sda2 its
 * partitions). What must hold:
 *   - every reason and every error is printable ASCII (no byte of the file
 *     reaches a message raw);
 *   - a well-formed line is never lost to the others: when the mountinfo
 *     holds the whole line "1 0 8:2 / / rw - ext3 /dev/sda2 rw", sda is a
 *     system disk (SYS_ROOT), whatever else the file holds;
 *   - the same for swaps ("/dev/sda1 partition 1 0 -2") and the command line
 *     (a word "root=/dev/sda2" between blanks, outside quotes: checked only
 *     when the input has no quote and no NUL). */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "discover/sysuse.h"

static size_t grid;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        (void)argc;
        (void)argv;
        fuzz_load_sysroots();
        while (grid < FUZZ_N_SYSROOTS && strcmp(fuzz_sysroots[grid], "grid-3ware"))
                grid++;
        if (grid == FUZZ_N_SYSROOTS || !sysinfo_find(&fuzz_si[grid], "sda"))
                FUZZ_FAIL("no grid-3ware fixture");
        return 0;
}

static void reset(struct sysinfo *si)
{
        for (size_t i = 0; i < si->n_devs; i++) {
                free(si->devs[i].system_use);
                si->devs[i].system_use = NULL;
                si->devs[i].system_kind = 0;
        }
        strv_free(si->system_errors);
        si->system_errors = NULL;
        sys_mounts_free(si);
}

static void printable(const char *what, const char *s)
{
        for (const unsigned char *p = (const unsigned char *)s; s && *p; p++)
                if (*p < 0x20 || *p > 0x7e)
                        FUZZ_FAIL("%s holds byte 0x%02x: \"%s\"", what, *p, s);
}

/* Does text hold line as a whole line (between newlines or the ends)? */
static bool has_line(const char *text, size_t len, const char *line)
{
        size_t n = strlen(line);
        for (size_t i = 0; i + n <= len; i++)
                if ((i == 0 || text[i - 1] == '\n') && !memcmp(text + i, line, n) && (i + n == len || text[i + n] == '\n'))
                        return true;
        return false;
}

static bool has_word(const char *text, size_t len, const char *word)
{
        size_t n = strlen(word);
        if (memchr(text, '"', len) || memchr(text, 0, len))
                return false;
        for (size_t i = 0; i + n <= len; i++) {
                bool start = i == 0 || strchr(" \t\n\r\v\f", text[i - 1]);
                bool end = i + n == len || strchr(" \t\n\r\v\f", text[i + n]);
                if (start && end && !memcmp(text + i, word, n))
                        return true;
        }
        return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        struct sysinfo *si = &fuzz_si[grid];
        reset(si);
        const char *text = (const char *)data + 1;
        size_t len = size - 1;
        struct sysuse_input in = {0};
        const char *must = NULL;
        switch (data[0] % 3) {
        case 0:
                in.mountinfo = text, in.mountinfo_len = len;
                if (has_line(text, len, "1 0 8:2 / / rw - ext3 /dev/sda2 rw"))
                        must = "mountinfo";
                break;
        case 1:
                in.swaps = text, in.swaps_len = len;
                if (has_line(text, len, "/dev/sda1 partition 1 0 -2"))
                        must = "swaps";
                break;
        default:
                in.cmdline = text, in.cmdline_len = len;
                if (has_word(text, len, "root=/dev/sda2"))
                        must = "cmdline";
                break;
        }
        sysuse_mark(si, &in);
        for (size_t i = 0; i < si->n_devs; i++)
                printable("a system use", si->devs[i].system_use);
        for (size_t k = 0; si->system_errors && si->system_errors[k]; k++)
                printable("an error", si->system_errors[k]);
        const struct blockdev *sda = sysinfo_find(si, "sda");
        if (must && !sda->system_kind)
                FUZZ_FAIL("a well-formed %s line naming sda was lost", must);
        return 0;
}
