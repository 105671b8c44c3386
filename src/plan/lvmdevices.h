/* SPDX-License-Identifier: GPL-2.0-or-later
 * The LVM devices file (/etc/lvm/devices/system.devices). When it is in use,
 * LVM ignores every PV it does not list, so storprov's PVs must be added to the
 * target's file, or the data VGs vanish after the first boot. Pure functions:
 * the decision here, the argv in plan/argv.c; running them is the caller's
 * (apply/devicesfile.c). storprov never turns the feature off and never
 * creates the file. */
#pragma once

#include <stdbool.h>

#include "plan/plan.h"

/* devices/use_devicesfile in lvm.conf text: 1, 0, or -1 when not set
 * (comments and other sections ignored; the last setting wins). */
int lvmconf_use_devicesfile(const char *lvm_conf);
/* devices/devicesfile in lvm.conf text (a name in /etc/lvm/devices/), or NULL. */
char *lvmconf_devicesfile(const char *lvm_conf);

/* Whether storprov adds its PVs to the target's devices file: only when the
 * file exists (an LVM with no devices file sees every device; creating one
 * with only storprov's PVs would hide the OS's own) and lvm.conf does not say
 * use_devicesfile = 0. *why gets the reason either way (free it). */
bool lvmdevices_wanted(int use_devicesfile, bool file_exists, const char *file, char **why);

/* Does the devices file text list the device (DEVNAME=dev, or IDNAME=idname
 * when idname is not NULL)? */
bool lvmdevices_lists(const char *devices_text, const char *dev, const char *idname);

/* The PV devices of every VG of the plan (created or preserved), in order. */
char **plan_pv_devices(const struct plan *pl);

/* The --config of lvmdevices_adddev_argv (plan/argv.h), which is run with
 * LVM_SYSTEM_DIR=<root>/etc/lvm (lvmdevices_system_dir) so that the target's
 * lvm.conf and devices directory are the ones used. */
#define LVMDEVICES_CONFIG \
        "global { use_lvmpolld = 0 } devices { obtain_device_list_from_udev = 0 use_devicesfile = 1 }"
/* "<root>/etc/lvm" ("/etc/lvm" for "/"). */
char *lvmdevices_system_dir(const char *root);
