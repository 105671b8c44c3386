/* SPDX-License-Identifier: GPL-2.0-or-later
 * storprov geometry: the stripe arithmetic of one RAID description, as text or JSON. */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/argv.h"
#include "plan/geometry.h"
#include "base/version.h"

/* What geometry prints: the description, its stripe and what follows from it. */
struct geometry_out {
        struct raid_desc d;
        struct stripe_geom g;
        uint64_t sector, align, lsu, ext;
        char **mkfs;
        char mo[96];
        const char *layout; /* raid10: as given, or mdadm's default n2; NULL otherwise */
};

static void geometry_json(const struct geometry_out *o)
{
        const struct raid_desc d = o->d;
        const struct stripe_geom g = o->g;
        uint64_t align = o->align, lsu = o->lsu, ext = o->ext;
        char *const *mkfs = o->mkfs;
        const char *mo = o->mo;
        json_object *j = json_object_new_object();
        storprov_json_header(j, &storprov_format_geometry);
        json_object_object_add(j, "level", json_object_new_string(raid_level_name(d.level)));
        json_object_object_add(j, "members", json_object_new_int64(d.members));
        json_object_object_add(j, "legs", json_object_new_int64(d.legs ? d.legs : 1));
        if (o->layout)
                json_object_object_add(j, "layout", json_object_new_string(o->layout));
        json_object_object_add(j, "chunk_bytes", json_object_new_int64((int64_t)d.chunk_bytes));
        json_object_object_add(j, "su_bytes", json_object_new_int64((int64_t)g.su_bytes));
        json_object_object_add(j, "sw", json_object_new_int64(g.sw));
        json_object_object_add(j, "full_stripe_bytes", json_object_new_int64((int64_t)g.full_stripe_bytes));
        json_object_object_add(j, "parity", json_object_new_boolean(g.parity));
        json_object_object_add(j, "partition_align_bytes", json_object_new_int64((int64_t)align));
        json_object_object_add(j, "pv_data_alignment_bytes",
                               json_object_new_int64((int64_t)pv_data_alignment_bytes(&g)));
        json_object_object_add(j, "vg_extent_bytes", json_object_new_int64((int64_t)ext));
        json_object_object_add(j, "log_su_bytes", json_object_new_int64((int64_t)lsu));
        json_object_object_add(j, "xfs_sunit_blocks", json_object_new_int64((int64_t)(g.su_bytes / XFS_BLOCK_BYTES)));
        json_object_object_add(j, "xfs_swidth_blocks",
                               json_object_new_int64((int64_t)(g.full_stripe_bytes / XFS_BLOCK_BYTES)));
        json_object_object_add(j, "mkfs_sunit_sectors", json_object_new_int64((int64_t)(g.su_bytes / 512)));
        json_object_object_add(j, "mkfs_swidth_sectors",
                               json_object_new_int64((int64_t)(g.full_stripe_bytes / SECTOR_BYTES)));
        json_object_object_add(j, "mdadm_chunk_kib",
                               json_object_new_int64((int64_t)(d.level == RAID_1 ? 0 : d.chunk_bytes / KiB)));
        json_object *ma = json_object_new_array();
        for (size_t i = 0; mkfs && mkfs[i]; i++)
                json_object_array_add(ma, json_object_new_string(mkfs[i]));
        json_object_object_add(j, "mkfs_args", ma);
        json_object_object_add(j, "mount_options", json_object_new_string(mo));
        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                       JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(j);
}

static void geometry_text(const struct geometry_out *o)
{
        const struct raid_desc d = o->d;
        const struct stripe_geom g = o->g;
        uint64_t align = o->align, lsu = o->lsu, ext = o->ext, sector = o->sector;
        char *const *mkfs = o->mkfs;
        const char *mo = o->mo;
        char x1[32], x2[32], x3[32], x4[32];
        char *m = strv_join_shell(mkfs);
        printf("%s, %u members%s%s%s%s%s\n", raid_level_name(d.level), d.members, d.legs > 1 ? " in " : "",
               d.legs > 1 ? (snprintf(x4, sizeof x4, "%u legs", d.legs), x4) : "",
               d.level == RAID_1 ? "" : (snprintf(x3, sizeof x3, ", chunk %s", fmt_size_exact(d.chunk_bytes, x2)), x3),
               o->layout ? ", layout " : "", o->layout ? o->layout : "");
        if (g.su_bytes) {
                printf("  su %s, sw %u, full stripe %s%s\n", fmt_size_exact(g.su_bytes, x1), g.sw,
                       fmt_size_exact(g.full_stripe_bytes, x2), g.parity ? " (parity: partial writes pay read-modify-write)" : "");
                printf("  xfs_info: sunit=%" PRIu64 " swidth=%" PRIu64 " blks (4 KiB blocks); mkfs sunit=%" PRIu64
                       " swidth=%" PRIu64 " (512-byte sectors)\n",
                       g.su_bytes / XFS_BLOCK_BYTES, g.full_stripe_bytes / XFS_BLOCK_BYTES, g.su_bytes / SECTOR_BYTES,
                       g.full_stripe_bytes / SECTOR_BYTES);
        } else
                printf("  no stripe geometry (mirrors): mkfs.xfs gets no su/sw\n");
        printf("  partition alignment: %s (%" PRIu64 " bytes) = lcm(1m, full stripe, sector %" PRIu64 ")\n",
               fmt_size_exact(align, x1), align, sector);
        if (g.su_bytes) {
                printf("  pvcreate --dataalignment=%s; vgcreate --physicalextentsize=%s\n",
                       fmt_size_exact(pv_data_alignment_bytes(&g), x1), fmt_size_exact(ext, x2));
                printf("  log stripe unit %s\n", fmt_size_exact(lsu, x1));
        }
        if (d.level != RAID_1)
                printf("  mdadm --chunk=%" PRIu64 " (KiB)\n", d.chunk_bytes / KiB);
        printf("  mkfs.xfs %s\n", m);
        printf("  mount options: %s\n", mo);
        free(m);
}

int cmd_geometry(struct args *a)
{
        if (!a->level || !a->members)
                return usage_error("geometry", "--level and --members are required");
        struct raid_desc d = {.members = a->members, .legs = a->legs, .md = a->md};
        if (raid_level_parse(a->level, &d.level) < 0)
                return usage_error("geometry", "--level takes 0, 1, 4, 5, 6, 10, 50 or 60, not '%s'", a->level);
        if (a->chunk && parse_size(a->chunk, &d.chunk_bytes) < 0)
                return usage_error("geometry", "--chunk takes a size such as 64K, not '%s'", a->chunk);
        if (d.level != RAID_1 && !a->chunk)
                return usage_error("geometry", "--chunk is required for %s", raid_level_name(d.level));
        if (a->layout && d.level != RAID_10)
                return usage_error("geometry", "--layout applies to raid10 only (its n/f/o copies change the data "
                                   "legs); %s's layout does not change the stripe geometry",
                                   raid_level_name(d.level));
        if (d.level == RAID_10 && raid10_layout_parse(a->layout, &d.copies, &d.near_copies) < 0)
                return usage_error("geometry", "--layout takes n2..n9, f2..f9 or o2..o9, not '%s'", a->layout);
        struct stripe_geom g;
        char *e = NULL;
        if (raid_geometry(&d, &g, &e) < 0) {
                fprintf(stderr, "storprov geometry: %s\n", e);
                free(e);
                return EXIT_USAGE;
        }
        uint64_t sector = a->sector ? a->sector : SECTOR_BYTES;
        if (xfs_validate_stripe(g.su_bytes, g.sw, sector, &e) < 0) {
                fprintf(stderr, "storprov geometry: %s\n", e);
                free(e);
                return EXIT_USAGE;
        }
        struct geometry_out o = {.d = d, .g = g, .sector = sector, .align = partition_align_bytes(&g, sector),
                                 .layout = d.level == RAID_10 ? (a->layout ? a->layout : "n2") : NULL,
                                 .lsu = xfs_log_su_bytes(&g, -1), .ext = vg_extent_bytes(pv_data_alignment_bytes(&g))};
        if (!o.align || !o.ext) {
                fprintf(stderr, "storprov geometry: the alignment (lcm of 1 MiB, the full stripe and the sector) or the "
                                "extent size does not fit in 64 bits\n");
                return EXIT_USAGE;
        }
        xfs_stripe_args(&g, o.lsu, &o.mkfs);
        char x1[32];
        snprintf(o.mo, sizeof o.mo, "logbufs=8,logbsize=%s%s", fmt_size_exact(xfs_logbsize_bytes(o.lsu), x1),
                 g.parity ? ",swalloc" : "");
        if (a->format && !strcmp(a->format, "json"))
                geometry_json(&o);
        else
                geometry_text(&o);
        strv_free(o.mkfs);
        return 0;
}
