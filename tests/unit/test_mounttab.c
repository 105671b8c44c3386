/* SPDX-License-Identifier: GPL-2.0-or-later
 * The mount-table reader (src/sys/mounttab.c, libmount underneath): what each
 * line of a mountinfo or an fstab-shaped table (/proc/mounts, fstab) gives,
 * which lines are malformed and the line numbers the messages and entries
 * carry, and the confined reads of a captured tree. Expected values are
 * written out by hand from proc(5) (mountinfo) and fstab(5). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "sys/mounttab.h"

struct parsed {
        struct mount_entry *v;
        size_t n;
        char **errs;
};

/* TEXT (LEN bytes) parsed as KIND, with n_entries entries and n_errors messages. */
static struct parsed parse(enum mounttab_kind kind, const char *text, size_t len, size_t n_entries, size_t n_errors)
{
        struct parsed p;
        mounttab_parse(kind, text, len, &p.v, &p.n, &p.errs);
        assert_int_equal(p.n, n_entries);
        assert_int_equal(strv_len(p.errs), n_errors);
        return p;
}

/* Entry i of p: its line (0: any), mountpoint, and source (NULL: any). */
static void expect(const struct parsed *p, size_t i, unsigned line, const char *mountpoint, const char *source)
{
        assert_true(i < p->n);
        if (line)
                assert_int_equal(p->v[i].line, line);
        assert_string_equal(p->v[i].mountpoint, mountpoint);
        if (source)
                assert_string_equal(p->v[i].source, source);
}

static void parsed_free(struct parsed *p)
{
        mount_entries_free(p->v, p->n);
        strv_free(p->errs);
}

/* escaped blanks (\040), a tab (\011) and a backslash (\134) in the mountpoint and the source */
static void test_escapes(void **state)
{
        (void)state;
        const char t[] = "40 1 8:17 / /srv/my\\040data rw,noatime - xfs /dev/disk/by-label/my\\040label rw\n"
                         "41 1 8:18 / /a\\011b\\134c rw - xfs /dev/sdb2 rw\n";
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, t, sizeof t - 1, 2, 0);
        expect(&p, 0, 1, "/srv/my data", "/dev/disk/by-label/my label");
        assert_string_equal(p.v[0].fstype, "xfs");
        assert_int_equal(p.v[0].major, 8);
        assert_int_equal(p.v[0].minor, 17);
        expect(&p, 1, 2, "/a\tb\\c", "/dev/sdb2");
        parsed_free(&p);

        /* the same in an fstab-shaped table: /proc/mounts escapes as mountinfo does */
        const char m[] = "/dev/sdb1 /srv/my\\040data xfs rw,noatime 0 0\n";
        p = parse(MOUNTTAB_FSTAB, m, sizeof m - 1, 1, 0);
        expect(&p, 0, 1, "/srv/my data", "/dev/sdb1");
        assert_string_equal(p.v[0].options, "rw,noatime");
        parsed_free(&p);
}

/* proc(5): zero or more optional fields "tag[:value]" before the " - " separator, and a line without it */
static void test_optional_fields(void **state)
{
        (void)state;
        const char t[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/sdq rw,errors=continue\n"
                         "50 36 8:33 / /data rw shared:7 master:3 propagate_from:2 unbindable - xfs /dev/sdc1 rw,attr2\n"
                         "51 36 8:34 / /none rw - xfs /dev/sdc2 rw\n";
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, t, sizeof t - 1, 3, 0);
        expect(&p, 0, 1, "/mnt2", "/dev/sdq");
        expect(&p, 1, 2, "/data", "/dev/sdc1");
        assert_string_equal(p.v[1].fstype, "xfs");
        assert_int_equal(p.v[1].minor, 33);
        /* libmount merges the mount's and the superblock's options */
        assert_non_null(strstr(p.v[1].options, "attr2"));
        expect(&p, 2, 3, "/none", "/dev/sdc2");
        parsed_free(&p);

        /* a line without " - " is refused by libmount; the lines around it keep their numbers */
        const char nosep[] = "1 0 8:2 / / rw - xfs /dev/sda2 rw\n"
                             "2 1 8:1 / /boot rw shared:1 xfs /dev/sda1 rw\n"
                             "3 1 8:3 / /var rw - xfs /dev/sda3 rw\n";
        p = parse(MOUNTTAB_MOUNTINFO, nosep, sizeof nosep - 1, 2, 1);
        expect(&p, 0, 1, "/", "/dev/sda2");
        expect(&p, 1, 3, "/var", "/dev/sda3");
        assert_string_equal(p.errs[0],
                            "line 2 is not a mountinfo line: \"2 1 8:1 / /boot rw shared:1 xfs /dev/sda1 rw\"");
        parsed_free(&p);
}

static void test_empty(void **state)
{
        (void)state;
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, "", 0, 0, 0);
        assert_null(p.v);
        assert_null(p.errs);
        p = parse(MOUNTTAB_FSTAB, "\n\n# only a comment\n   \n", 22, 0, 0);
        assert_null(p.errs);
        /* a comment is not a mountinfo line: the kernel writes none */
        p = parse(MOUNTTAB_MOUNTINFO, "# x\n", 4, 0, 1);
        assert_string_equal(p.errs[0], "line 1 is not a mountinfo line: \"# x\"");
        parsed_free(&p);
}

/* a NUL byte (libmount would read the line only up to it) and an escaped one (it would cut the field) */
static void test_nul(void **state)
{
        (void)state;
        const char t[] = "1 0 8:2 / / rw - xfs /dev/sda2 rw\n"
                         "2 1 8:1 / /bo\0ot rw - xfs /dev/sda1 rw\n"
                         "3 1 8:3 / /va\\000r rw - xfs /dev/sda3 rw\n"
                         "4 1 8:4 / /home rw - xfs /dev/sda4 rw";
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, t, sizeof t - 1, 2, 2);
        expect(&p, 0, 1, "/", NULL);
        expect(&p, 1, 4, "/home", "/dev/sda4");
        assert_string_equal(p.errs[0], "line 2 holds a NUL byte");
        assert_string_equal(p.errs[1], "line 3 is not a mountinfo line: \"3 1 8:3 / /va\\000r rw - xfs /dev/sda3 rw\"");
        parsed_free(&p);

        const char m[] = "/dev/sdb1 /da\0ta xfs rw 0 0\n/dev/sdc1 /x xfs rw 0 0\n";
        p = parse(MOUNTTAB_FSTAB, m, sizeof m - 1, 1, 1);
        expect(&p, 0, 2, "/x", "/dev/sdc1");
        assert_string_equal(p.errs[0], "line 1 holds a NUL byte");
        parsed_free(&p);
}

/* a garbled first line never makes libmount read the rest in another format */
static void test_first_line_garbled(void **state)
{
        (void)state;
        const char t[] = "garbage here\n1 0 8:2 / / rw - xfs /dev/sda2 rw\n";
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, t, sizeof t - 1, 1, 1);
        assert_int_equal(p.v[0].major, 8);
        expect(&p, 0, 2, "/", "/dev/sda2");
        assert_string_equal(p.errs[0], "line 1 is not a mountinfo line: \"garbage here\"");
        parsed_free(&p);

        /* in an fstab, neither a mountinfo-looking line nor a swaps header switches the format */
        const char f[] = "1 0 8:2 / / rw - xfs /dev/sda2 rw\nFilename\tType\tSize\n/dev/sdb1 /data xfs defaults 0 0\n";
        p = parse(MOUNTTAB_FSTAB, f, sizeof f - 1, 1, 2);
        expect(&p, 0, 3, "/data", "/dev/sdb1");
        assert_non_null(strstr(p.errs[0], "line 1 is not a mount table line"));
        assert_non_null(strstr(p.errs[1], "line 2 is not a mount table line"));
        parsed_free(&p);
}

/* fstab(5): comments, options optional, UUID= sources; too few fields or a relative target malformed */
static const char fstab_text[] = "# /etc/fstab\n"
                                 "UUID=0b3c6c1e-0000-4000-8000-000000000001 /storage/data1 xfs noatime,inode64 0 0\n"
                                 "  /dev/sdd1\t/scratch\txfs\n"
                                 "/dev/sde1 /only-two\n"
                                 "/dev/sdf1 relative xfs defaults 0 0\n"
                                 "/dev/sdg1 /bad-freq xfs defaults x 0\n"
                                 "/dev/sdh1 /last xfs defaults 0 2\r\n";

static void test_fstab(void **state)
{
        (void)state;
        struct parsed p = parse(MOUNTTAB_FSTAB, fstab_text, sizeof fstab_text - 1, 3, 3);
        expect(&p, 0, 2, "/storage/data1", "UUID=0b3c6c1e-0000-4000-8000-000000000001");
        assert_string_equal(p.v[0].options, "noatime,inode64");
        expect(&p, 1, 3, "/scratch", "/dev/sdd1");
        assert_null(p.v[1].options);
        expect(&p, 2, 7, "/last", "/dev/sdh1");
        assert_string_equal(p.errs[0], "line 4 is not a mount table line (SOURCE TARGET TYPE OPTIONS): "
                                       "\"/dev/sde1 /only-two\"");
        assert_non_null(strstr(p.errs[1], "line 5 is not"));
        assert_non_null(strstr(p.errs[2], "line 6 is not"));
        parsed_free(&p);
}

/* at most eight messages, then one saying more were left out */
static void test_error_cap(void **state)
{
        (void)state;
        struct sbuf b = {0};
        for (int i = 0; i < 20; i++)
                sbuf_printf(&b, "x%d\n", i);
        sbuf_puts(&b, "1 0 8:2 / / rw - xfs /dev/sda2 rw\n");
        struct parsed p = parse(MOUNTTAB_MOUNTINFO, b.s, b.len, 1, 9);
        expect(&p, 0, 21, "/", "/dev/sda2");
        assert_string_equal(p.errs[0], "line 1 is not a mountinfo line: \"x0\"");
        assert_string_equal(p.errs[8], "(more malformed lines not shown)");
        parsed_free(&p);
        free(b.s);
}

static void write_text(const char *path, const char *text)
{
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(text, f);
        assert_int_equal(fclose(f), 0);
}

/* a captured tree: read confined, never through a link out of it, never a FIFO;
 * proc/mounts as a live /proc has it (a link to self/mounts) is read through proc/self/mounts */
static void test_read_confined(void **state)
{
        (void)state;
        char root[] = "/tmp/storprov-mounttab-XXXXXX";
        assert_non_null(mkdtemp(root));
        _cleanup_free_ char *proc = path_join(root, "proc"), *self = path_join(root, "proc/self");
        _cleanup_free_ char *outside = xasprintf("%s.outside", root);
        assert_int_equal(mkdir(proc, 0755), 0);
        assert_int_equal(mkdir(self, 0755), 0);
        write_text(outside, "9 1 8:2 / /leaked rw - xfs /dev/sda2 rw\n");
        _cleanup_free_ char *mi = path_join(root, "proc/self/mountinfo");
        assert_int_equal(symlink(outside, mi), 0);

        struct parsed p = {0};
        assert_int_equal(mounttab_read(MOUNTTAB_MOUNTINFO, root, "proc/self/mountinfo", false, &p.v, &p.n, &p.errs),
                         -ELOOP);
        assert_int_equal(p.n, 0);
        assert_int_equal(mounttab_read(MOUNTTAB_MOUNTINFO, root, "proc/self/mountinfo", true, &p.v, &p.n, &p.errs),
                         -ELOOP);
        assert_int_equal(unlink(mi), 0);
        assert_int_equal(mkfifo(mi, 0600), 0);
        assert_int_equal(mounttab_read(MOUNTTAB_MOUNTINFO, root, "proc/self/mountinfo", false, &p.v, &p.n, &p.errs),
                         -EINVAL);

        _cleanup_free_ char *sm = path_join(root, "proc/self/mounts"), *pm = path_join(root, "proc/mounts");
        write_text(sm, "/dev/sdb1 /data xfs rw 0 0\n");
        assert_int_equal(symlink("self/mounts", pm), 0);
        assert_int_equal(mounttab_read_mounts(root, &p.v, &p.n, &p.errs), 0);
        expect(&p, 0, 1, "/data", "/dev/sdb1");
        parsed_free(&p);

        _cleanup_free_ char *cmd = xasprintf("rm -rf '%s' '%s'", root, outside);
        assert_int_equal(system(cmd), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_escapes),
                cmocka_unit_test(test_optional_fields),
                cmocka_unit_test(test_empty),
                cmocka_unit_test(test_nul),
                cmocka_unit_test(test_first_line_garbled),
                cmocka_unit_test(test_fstab),
                cmocka_unit_test(test_error_cap),
                cmocka_unit_test(test_read_confined),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
