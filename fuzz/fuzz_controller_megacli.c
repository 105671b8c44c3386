/* SPDX-License-Identifier: GPL-2.0-or-later
 * The MegaCli readers (src/discover/ctl_megacli.c) on any bytes; the
 * invariants are in fuzz_controller.h. An input is an "-LdPdInfo" or
 * "-LDInfo" output, optionally a NUL and an "-AdpGetPciInfo" output read onto
 * its records; the PCI reader also runs alone on the whole input over fixed
 * records, which it must leave as they were when it fails. */
#include <ctype.h>

#include "fuzz_controller.h"

#define TOOL "megacli"

static int ld(const char *b, size_t n, struct ctl_list *l, char **e)
{
        return ctl_parse_megacli_ld(b, n, TOOL, NULL, l, e);
}

/* LD output, NUL, PCI output; the PCI reader's failure takes back the LD records too. */
static int ld_then_pci(const char *b, size_t n, struct ctl_list *l, char **e)
{
        const char *z = memchr(b, 0, n);
        if (!z)
                return ld(b, n, l, e);
        struct ctl_list mine = {0};
        int r = ld(b, (size_t)(z - b), &mine, e);
        if (r == 0)
                r = ctl_parse_megacli_pci(z + 1, n - (size_t)(z - b) - 1, TOOL, NULL, &mine, e);
        if (r == 0 && mine.n) {
                l->v = xrealloc(l->v, (l->n + mine.n) * sizeof *l->v);
                memcpy(l->v + l->n, mine.v, mine.n * sizeof *mine.v);
                l->n += mine.n;
                free(mine.v);
                mine = (struct ctl_list){0};
        }
        ctl_list_free(&mine);
        return r;
}

/* "0000:bb:dd.f": lower-case hex, device at most 1f, function at most 7. */
static bool pci_address(const char *s)
{
        static const char shape[] = "0000:xx:xx.x";
        if (strlen(s) != sizeof shape - 1)
                return false;
        for (size_t i = 0; shape[i]; i++)
                if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]) : s[i] != shape[i])
                        return false;
        return strtoul(s + 8, NULL, 16) <= 0x1f && s[11] <= '7';
}

static const char fixed_records[] = "Adapter #0\n\nNumber of Virtual Disks: 1\n"
                                    "Virtual Drive: 0 (Target Id: 0)\nRAID Level : Primary-5, Secondary-0, "
                                    "RAID Level Qualifier-3\nState : Optimal\nStrip Size : 64 KB\n"
                                    "Number Of Drives : 4\nSpan Depth : 1\n\n"
                                    "Adapter #1\n\nNumber of Virtual Disks: 1\n"
                                    "Virtual Drive: 0 (Target Id: 0)\nRAID Level : Primary-1, Secondary-0, "
                                    "RAID Level Qualifier-0\nState : Optimal\nStrip Size : 64 KB\n"
                                    "Number Of Drives : 2\nSpan Depth : 1\n\nExit Code: 0x00\n";

static void pci_alone(const uint8_t *data, size_t size)
{
        struct ctl_list l = {0};
        char *err = NULL;
        if (ld(fixed_records, sizeof fixed_records - 1, &l, &err) < 0 || l.n != 2)
                FUZZ_FAIL("the fixed records do not parse: %s", err ? err : "(no error)");
        int r = ctl_parse_megacli_pci((const char *)data, size, TOOL, NULL, &l, &err);
        ctl_fuzz_result("the PCI reader", r, err);
        if (l.n != 2)
                FUZZ_FAIL("the PCI reader changed the number of records to %zu", l.n);
        for (size_t i = 0; i < l.n; i++) {
                if (r < 0 && l.v[i].pci)
                        FUZZ_FAIL("a failed PCI parse set %s", l.v[i].pci);
                if (l.v[i].pci && !pci_address(l.v[i].pci))
                        FUZZ_FAIL("PCI address \"%s\"", l.v[i].pci);
                ctl_check_record(&l.v[i]);
        }
        free(err);
        ctl_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        ctl_fuzz_one(ld_then_pci, data, size, &fuzz_si[0]);
        pci_alone(data, size);
        struct ctl_nexts nx;
        ctl_fuzz_follow(ctl_follow_megacli_count, TOOL, data, size, NULL, 1u << 1 | 1u << 2, &nx);
        ctl_nexts_free(&nx);
        return 0;
}
