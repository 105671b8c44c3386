/* SPDX-License-Identifier: GPL-2.0-or-later
 * The node's recorded state: what the last render or apply wrote beside the
 * files it makes (STATE_DIR/<profile>.json under the root, one per profile, as
 * profiles that share a node keep their own blocks): the profile, the seed its UUIDs
 * came from, the tuning mode, and each selected disk's identity, size and
 * stripe geometry. Every later render, apply and verify reads it, so that
 * the same node is planned the same way: the same UUIDs when kernel names
 * move, the same tuning mode unless one is named, and a disk that is gone
 * known by the identity it had. Reading it is reading input: every field is
 * checked, and a file that cannot be read is an error naming it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

#define STATE_DIR "/var/lib/storprov"
#define STATE_FORMAT "storprov-state"
#define STATE_FORMAT_VERSION 1

struct state_disk {
        char *id;                 /* "lun1" */
        char *group;              /* "lun" */
        char *key, *value;        /* the identity its udev rule matches: "ID_WWN", "0x600050e04ab71d00" */
        uint64_t size_bytes;
        uint32_t logical_sector_bytes, physical_sector_bytes;
        uint64_t su_bytes, full_stripe_bytes;   /* 0: no stripe */
        unsigned sw;
        bool parity;
};

struct node_state {
        char *path;               /* where it was read, for messages */
        char *profile;            /* the profile that wrote it */
        uint64_t seed;
        char *tuning;             /* "udev", "tuned", "both" */
        struct state_disk *disks;
        size_t n_disks;
};

/* The state file of a profile, on the target: STATE_DIR/<name>.json, the name
 * with any byte outside [A-Za-z0-9_+-] as '_'. */
char *state_path_of(const char *profile);
/* Reads the profile's state file under root into ret: 1 read, 0 absent (ret
 * zeroed), or -EINVAL with an error in d naming the file and what is wrong. */
int state_load(const char *root, const char *profile, struct node_state *ret, struct diags *d);
/* The same from text (path only names it in messages). */
int state_parse(const char *text, size_t len, const char *path, struct node_state *ret, struct diags *d);
/* The recorded disk of group with id, NULL if none. */
const struct state_disk *state_disk_of(const struct node_state *s, const char *id);
void state_free(struct node_state *s);
