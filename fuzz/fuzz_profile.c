/* SPDX-License-Identifier: GPL-2.0-or-later
 * profile -> validate -> plan -> render. The input is a profile; the first
 * byte picks the fixture machine. Whatever the input, every rendered file must
 * pass the independent strict reader (tests/tools/render_check.c): no input
 * may put a line, a field or a rule in a generated file that storprov does not
 * write by construction. ASan and UBSan catch memory errors and wraps. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "plan/plan.h"
#include "render/file_ops.h"
#include "input/profile.h"
#include "render/render.h"
#include "render_check.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
        (void)argc;
        (void)argv;
        fuzz_load_sysroots();
        snprintf(path, sizeof(path), "/tmp/storprov-fuzz-%d.xml", (int)getpid());
        return 0;
}

/* The node's state file reads back as what was recorded: the seed, the tuning
 * mode, every disk with an identity, whatever bytes the identities hold. */
static const char *state_round_trip(const struct plan *pl, const char *text, char *buf, size_t bn)
{
        struct node_state st;
        struct diags d = {0};
        size_t n = 0;
        for (size_t i = 0; i < pl->n_objs; i++)
                n += pl->objs[i].kind == OBJ_DISK && pl->objs[i].disk.udev_key && pl->objs[i].disk.udev_value;
        int r = state_parse(text, strlen(text), "state", &st, &d);
        const char *why = NULL;
        if (r != 1)
                why = d.n && d.v[0].message ? d.v[0].message : "the state file does not read back";
        else if (st.seed != pl->seed || st.n_disks != n || strcmp(st.profile, pl->profile_name))
                why = "the state file reads back as another seed, profile or disk count";
        if (why)
                snprintf(buf, bn, "%s", why);
        if (r == 1)
                state_free(&st);
        diags_free(&d);
        return why ? buf : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        const struct sysinfo *si = &fuzz_si[data[0] % FUZZ_N_SYSROOTS];
        FILE *f = fopen(path, "w");
        if (!f)
                return 0;
        fwrite(data + 1, 1, size - 1, f);
        fclose(f);
        struct profile p = {0};
        struct diags d = {0};
        if (profile_load(path, &p, &d) == 0) {
                struct plan pl;
                /* the sysroot's byte also picks the tuning mode: every file kind is rendered */
                struct plan_options o = {.seed = 1, .seed_set = true,
                                         .tuning = (enum tuning_mode)(data[0] / FUZZ_N_SYSROOTS % 3)};
                if (plan_build(&p, si, &o, &pl, &d) == 0) {
                        file_ops_list(&pl, NULL);
                        static const enum rc_kind kinds[] = {[FILE_FSTAB] = RC_FSTAB, [FILE_UDEV] = RC_UDEV,
                                                             [FILE_SYSCTL] = RC_SYSCTL, [FILE_MDADM] = RC_MDADM,
                                                             [FILE_MULTIPATH] = RC_MULTIPATH,
                                                             [FILE_MPATH_WWIDS] = RC_WWIDS,
                                                             [FILE_TUNED] = RC_TUNED};
                        for (int k = 0; k < _FILE_KIND_MAX; k++) {
                                char *text = render_file(&pl, (enum file_kind)k, NULL, NULL);
                                char buf[256];
                                const char *why = k == FILE_STATE ? state_round_trip(&pl, text, buf, sizeof buf)
                                                                  : render_check(kinds[k], text, buf, sizeof(buf));
                                if (why)
                                        FUZZ_FAIL("rendered file kind %d: %s\n%s", k, why, text);
                                free(text);
                        }
                        plan_free(&pl);
                }
                profile_free(&p);
        }
        diags_free(&d);
        return 0;
}
