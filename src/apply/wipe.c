/* SPDX-License-Identifier: GPL-2.0-or-later
 * A step's command run and logged (the event list and the step's own record),
 * and wipefs --all of an object, where the profile or --wipe allows it, before
 * the step that writes it (steps.c, steps_gpt.c). */
#include "apply/internal.h"

#include <stdlib.h>

#include "sys/exec.h"

int run_logged(struct run *r, size_t si, char **argv)
{
        char *j = strv_join_shell(argv);
        strv_push(&r->st[si].run, j);
        free(j);
        run_say_argv(r, si, "", argv);
        return run_argv(argv, NULL);
}

int wipe(struct run *r, size_t si, size_t obj)
{
        struct obj_state *os = &r->os[obj];
        if (!os->needs_wipe)
                return 0;
        char **argv = wipefs_argv(r->pl, obj);
        char **m = dev_argv(&r->dev, argv);
        run_say(r, "wiping %s (%s), as %s allows: it carried %s", r->pl->objs[obj].id, r->pl->objs[obj].dev,
            r->o->wipe_all ? "--wipe" : "the profile", os->found ? os->found : "signatures");
        int rc = run_logged(r, si, m);
        strv_free(m);
        strv_free(argv);
        if (rc == 0)
                os->needs_wipe = false;
        return rc;
}
