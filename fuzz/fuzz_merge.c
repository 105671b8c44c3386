/* SPDX-License-Identifier: GPL-2.0-or-later
 * Merging into an existing fstab or mdadm.conf. The input is the existing
 * file (first byte: which file). The merge must be idempotent (merging the
 * result again changes nothing), the result must hold storprov's managed
 * block exactly once and unchanged, and it must not carry a line of the input
 * that was a managed-block marker into a second block. */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "plan/plan.h"
#include "render/file_ops.h"
#include "input/profile.h"
#include "render/render.h"

static struct profile prof;
static struct plan pl;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        (void)argc;
        (void)argv;
        fuzz_load_sysroots();
        char *path = xasprintf("%s/profiles/md-raid6-lvm.xml", STORPROV_TOP);
        struct diags d = {0};
        struct plan_options o = {.seed = 1, .seed_set = true};
        size_t k = 0;
        while (k < FUZZ_N_SYSROOTS && strcmp(fuzz_sysroots[k], "md-raid6-lvm"))
                k++;
        if (profile_load(path, &prof, &d) < 0 || plan_build(&prof, &fuzz_si[k], &o, &pl, &d) < 0)
                FUZZ_FAIL("the md-raid6-lvm fixture does not plan");
        file_ops_list(&pl, NULL);
        diags_free(&d);
        free(path);
        return 0;
}

/* Occurrences of `needle` that start a line: another profile's block may
 * carry this block's text in the middle of a line of its own (its name is
 * comment text, kept as it is), which is not this block. */
static size_t count(const char *hay, const char *needle)
{
        size_t n = 0;
        for (const char *p = hay; (p = strstr(p, needle)); p++)
                n += p == hay || p[-1] == '\n';
        return n;
}

/* Lines that start with `prefix`. */
static size_t count_lines(const char *text, const char *prefix)
{
        size_t n = 0, k = strlen(prefix);
        for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
                n += !strncmp(p, prefix, k);
        return n;
}

/* Without an end marker nothing may be dropped: every line that is not a
 * comment is in the result, as it was or commented out as replaced. */
static void check_kept(const char *existing, const char *merged)
{
        if (count_lines(existing, "# <<< storprov managed block"))
                return;
        const char *s = existing;
        while (*s) {
                const char *e = strchr(s, '\n');
                size_t len = e ? (size_t)(e - s) : strlen(s);
                if (len && s[0] != '#') {
                        char *line = strndup(s, len);
                        char *want = xasprintf("\n%s\n", line);
                        char *alt = xasprintf("# storprov: replaced by the managed block: %s\n", line);
                        char *m = xasprintf("\n%s", merged);
                        if (!strstr(m, want) && !strstr(m, alt))
                                FUZZ_FAIL("the foreign line \"%s\" was dropped\n%s", line, merged);
                        free(m);
                        free(alt);
                        free(want);
                        free(line);
                }
                s += len + (e ? 1 : 0);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        bool mdadm = data[0] & 1;
        char *existing = strndup((const char *)data + 1, size - 1); /* a file is read up to a NUL */
        char *(*render)(const struct plan *, const char *, struct diags *) = mdadm ? render_mdadm_conf : render_fstab;
        char *block = render(&pl, NULL, NULL);
        char *once = render(&pl, existing, NULL);
        char *twice = render(&pl, once, NULL);
        if (strcmp(once, twice))
                FUZZ_FAIL("merge is not idempotent\n--- once\n%s\n--- twice\n%s", once, twice);
        /* the block from an empty file, minus its leading blank separator, is in the result once */
        const char *b = block;
        while (*b == '\n')
                b++;
        if (count(once, b) != 1)
                FUZZ_FAIL("the managed block is not in the merged file exactly once\n%s", once);
        check_kept(existing, once);
        /* blocks are keyed by profile: this profile's begin mark is there exactly once */
        const char *nl = strstr(b, "\"):");
        char *mark = nl ? strndup(b, (size_t)(nl + 1 - b)) : strdup(b); /* up to the profile's name */
        if (count_lines(once, mark) != 1)
                FUZZ_FAIL("this profile's managed block marker is not there exactly once\n%s", once);
        free(mark);
        free(block);
        free(once);
        free(twice);
        free(existing);
        return 0;
}
