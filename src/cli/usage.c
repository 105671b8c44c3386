/* SPDX-License-Identifier: GPL-2.0-or-later
 * The --help texts, one per verb. */
#include "cli/usage.h"

#include "apply/apply.h"
#include "plan/offline.h"

#define TUNING_HELP                                                                                                   \
        "  --tuning T      where the tuning persists: udev (default: udev rules and sysctl.d),\n"                     \
        "                  tuned (/etc/tuned/storprov/tuned.conf with the disks' elevator and\n"                     \
        "                  readahead and the sysctls; udev keeps the rest), or both (the same,\n"                     \
        "                  the sysctls in sysctl.d); each value is set in one file only\n"

const char *const main_help =
        "Usage: storprov VERB [OPTIONS]\n"
        "\n"
        "Provision a storage server's disks from an XML profile: partitions aligned to the\n"
        "RAID full stripe, md arrays, LVM, XFS with su/sw and log stripe unit, and the\n"
        "fstab, udev rules, sysctl.d and mdadm.conf that keep it tuned after reboot.\n"
        "\n"
        "Verbs:\n"
        "  geometry   derive su/sw, alignment and mkfs.xfs arguments from a RAID layout\n"
        "  validate   check a profile against the schema and the rules, touch nothing\n"
        "  plan       show every command and file storprov would run and write\n"
        "  render     write the config files only (fstab, udev rules, sysctl.d, mdadm.conf)\n"
        "  apply      carry out the plan on the block devices\n"
        "  verify     compare the live node with the plan: ok, drift or missing per object\n"
        "  inventory  list the disks: stable ids, geometry, io hints, holders, signatures, mounts\n"
        "  select     pick the one profile of a directory whose <match> rules fit this node\n"
        "  controller list the RAID controllers' logical drives: level, strip, full stripe, disk\n"
        "\n"
        "Run 'storprov VERB --help' for the options of a verb; see storprov(8).\n"
        "Exit status: 0 success, 1 runtime failure, 2 bad input or usage, 3 drift (verify).\n";

const char *const verify_help =
        "Usage: storprov verify --profile FILE [--sysroot DIR] [--root DIR] [--format text|json|prometheus]\n"
        "                       [--seed N] [--mdadm-conf PATH] [--os-disks LIST] [--tuning T]\n"
        "                       [--command-timeout S]\n"
        "\n"
        "Reads the live node back and compares it, object by object, with the plan: partition\n"
        "starts (sysfs), md level/chunk/members/bitmap (sysfs md/, mdadm --detail), PV pe_start\n"
        "and VG extent size (lvm), LV tables (libdevmapper), XFS geometry (XFS_IOC_FSGEOMETRY\n"
        "when mounted, else the superblock), mount options (/proc/mounts) and fstab, the queue\n"
        "attributes and sysctls, and the files under DIR against what render writes now.\n"
        "Each object is ok, drift (expected against found) or missing. A disk the node's\n"
        "recorded state (/var/lib/storprov/PROFILE.json under --root) names but that is gone is\n"
        "missing, with everything on it. The tuning mode is the recorded one unless --tuning\n"
        "names another; with tuned|both and --root /, tuned-adm verify is one more check.\n"
        "  --sysroot DIR   a captured tree: only its sysfs and proc are read\n"
        "  --root DIR      where the generated files are (default /)\n"
        "  --format F      text (default), json (for fleet collection) or prometheus (node_exporter\n"
        "                  textfile metrics: objects and checks by status, one series per drifted\n"
        "                  check, last run time, exit code, version)\n"
        TUNING_HELP
        "  --os-disks LIST the OS disks, comma-separated, in any spelling (sda, /dev/sda,\n"
        "                  /dev/disk/by-id/wwn-..., wwn-..., a glob such as sd[ab]): never\n"
        "                  selected, never written ('storprov inventory' lists each disk's names)\n"
        "  --command-timeout S  kill an lvm or mdadm query after S seconds (default\n"
        "                  120) and report its check as not checked\n"
        "Exit status: 0 clean, 3 drift or missing, 1 runtime failure, 2 bad input.\n"
        "See storprov-verify(8).\n";

const char *const inventory_help =
        "Usage: storprov inventory [--sysroot DIR] [--format text|json]\n"
        "\n"
        "Lists every disk storprov can see: WWN, serial, by-path, vendor/model, size, sector\n"
        "sizes, exported io hints, rotational, holders, signatures and mount use, every name\n"
        "below /dev it answers to (what --os-disks takes), and whether the running system uses\n"
        "it (a system disk: storprov never selects it).\n"
        "See storprov-inventory(8).\n";

const char *const select_help =
        "Usage: storprov select --profiles DIR [--sysroot DIR] [--format text|json]\n"
        "\n"
        "Prints the path of the one profile in DIR (*.xml) whose <match> rules fit this node\n"
        "exactly (every <disks> group finds its count) and exits 0. When none fits, exits 2 and\n"
        "lists the near misses (which rule failed, by how much); when several fit, exits 2 and\n"
        "names them. --format json prints the choice (or null), the matches and the near\n"
        "misses as one document, whatever the exit status.\n"
        "See storprov-select(8).\n";

const char *const geometry_help =
        "Usage: storprov geometry --level L --members N --chunk SIZE [--legs K]\n"
        "                         [--layout n2|f2|o2|...] [--sector BYTES] [--md] [--format text|json]\n"
        "\n"
        "Derives the stripe geometry of a RAID layout, without a profile or a device.\n"
        "  --level L       0, 1, 4, 5, 6, 10, 50 or 60 (also raid5, ...)\n"
        "  --members N     all members, data and parity (for 50/60: across every leg)\n"
        "  --chunk SIZE    per-disk chunk (strip): 64K, 256k, 1M, ... (not for RAID1)\n"
        "  --legs K        RAID50/60: number of RAID5/6 groups\n"
        "  --layout L      RAID10: nK (near, mdadm's default n2), fK (far) or oK (offset), K\n"
        "                  copies from 2 to 9; near-K over a multiple of K members has\n"
        "                  members/K data legs, far and offset have one per member\n"
        "  --sector BYTES  physical sector size (default 512)\n"
        "  --md            apply Linux md's rules too (a raid4/5/6/10 chunk a power of 2)\n"
        "  --format F      text (default) or json\n"
        "See storprov-geometry(8).\n";

const char *const validate_help =
        "Usage: storprov validate --profile FILE [--sysroot DIR | --offline] [--format text|json]\n"
        "                         [--os-disks LIST] [--seed N] [--mdadm-conf PATH]\n"
        "\n"
        "Checks the profile against the schema and every rule, including the disks it selects\n"
        "on this machine (or in the captured tree DIR). Prints the problems; touches nothing.\n"
        "  --offline       without the disks (a workstation): each <disks> group gets made-up\n"
        "                  disks that its <match> selects; the rules that need the real\n"
        "                  hardware (" OFFLINE_UNCHECKED ") are skipped\n"
        "  --format json   the verdict and every diagnostic as JSON on stdout\n"
        "  --os-disks LIST the OS disks, comma-separated, in any spelling (sda, /dev/sda,\n"
        "                  /dev/disk/by-id/wwn-..., wwn-..., a glob such as sd[ab]): never\n"
        "                  selected, never written ('storprov inventory' lists each disk's names)\n"
        "  --seed N        the seed of the pre-assigned UUIDs (see plan --help)\n"
        "  --mdadm-conf P  where mdadm.conf lives on the target (see plan --help)\n"
        "See storprov-validate(8).\n";

const char *const plan_help =
        "Usage: storprov plan --profile FILE [--sysroot DIR] [--seed N] [--format text|json|ks]\n"
        "                     [--mdadm-conf PATH] [--os-disks LIST] [--tuning T]\n"
        "\n"
        "Prints the plan: objects with their derived geometry and where each value came from,\n"
        "every step with its exact command line, and every file with its content.\n"
        "  --sysroot DIR   read devices from DIR/sys, DIR/run/udev/data, DIR/proc (default /)\n"
        "  --seed N        make the pre-assigned UUIDs reproducible (default: derived from the\n"
        "                  profile name and the selected disks' WWN/serial)\n"
        "  --mdadm-conf P  where mdadm.conf lives on the target (default: the file the root has,\n"
        "                  else /etc/mdadm.conf on EL/Fedora, else /etc/mdadm/mdadm.conf)\n"
        TUNING_HELP
        "  --format ks     the kickstart include for anaconda: ignoredisk --drives= of the\n"
        "                  profile's disks, or with OS disks (--os-disks, <disks system=\"true\">)\n"
        "                  an ignoredisk --only-use= and clearpart --all --drives= of those\n"
        "  --os-disks LIST the OS disks, comma-separated, in any spelling (sda, /dev/sda,\n"
        "                  /dev/disk/by-id/wwn-..., wwn-..., a glob such as sd[ab]): never\n"
        "                  selected, never written ('storprov inventory' lists each disk's names)\n"
        "See storprov-plan(8).\n";

const char *const render_help =
        "Usage: storprov render --profile FILE --root DIR [--sysroot DIR] [--seed N]\n"
        "                       [--mdadm-conf PATH] [--os-disks LIST] [--autorelabel] [--tuning T]\n"
        "\n"
        "Writes the config files under DIR, atomically: /etc/fstab and mdadm.conf are merged\n"
        "(storprov's lines sit in a marked block, foreign lines are kept), the udev rules and\n"
        "sysctl.d files are storprov's own. On a root with SELinux each gets the label of the\n"
        "root's policy.\n"
        "  --autorelabel   when a label cannot be set, write DIR/.autorelabel\n"
        TUNING_HELP
        "  --os-disks LIST the OS disks, comma-separated, in any spelling (sda, /dev/sda,\n"
        "                  /dev/disk/by-id/wwn-..., wwn-..., a glob such as sd[ab]): never\n"
        "                  selected, never written ('storprov inventory' lists each disk's names)\n"
        "See storprov-render(8).\n";

const char *const apply_help =
        "Usage: storprov apply --profile FILE [--root DIR] [--sysroot DIR] [--yes] [--dry-run]\n"
        "                      [--wipe] [--mount] [--report FILE] [--jobs N] [--seed N]\n"
        "                      [--wait] [--lock-file PATH]\n"
        "                      [--mdadm-conf PATH] [--format text|json] [--ks-include FILE]\n"
        "                      [--os-disks LIST] [--autorelabel] [--tuning T] [--command-timeout S]\n"
        "                      [--verbose]\n"
        "\n"
        "Carries out the plan on the block devices: GPT with libparted, md with mdadm, LVM with\n"
        "lvm, XFS with mkfs.xfs, then live tuning through sysfs and the config files under DIR.\n"
        "Every target is probed first; a device that carries a partition table, filesystem,\n"
        "md superblock or LVM label is refused unless the profile (wipe=\"true\") or --wipe\n"
        "allows it. A second run on a provisioned node changes nothing; a run that died\n"
        "resumes. Objects marked preserve=\"true\" are verified and never written. System disks\n"
        "(in use by the running system, <disks system=\"true\">, --os-disks) are never selected.\n"
        "  --yes           do not ask for confirmation\n"
        "  --dry-run       touch nothing; say first what would change (the steps that would\n"
        "                  run, the files that would be written), read back from the node as\n"
        "                  verify reads it (--format json: the plan as JSON with \"dry_run\" and\n"
        "                  the \"exit_code\" apply would have)\n"
        "  --verbose       with --dry-run: then every step's state and the whole plan\n"
        "  --wipe          allow wiping every target that carries signatures\n"
        "  --mount         mount the filesystems under DIR (for an installer)\n"
        "  --report FILE   write a JSON report of what was done\n"
        "  --jobs N        independent steps (mkfs, md, LVM, partition tables) in parallel\n"
        "                  (default 2); the disks are inspected all at once, or one at a\n"
        "                  time with --jobs 1\n"
        "  --wait          wait for another storprov run (or a partitioner holding a disk's\n"
        "                  lock) to end, instead of exiting 1\n"
        "  --lock-file P   the run lock (default " STORPROV_LOCK_FILE ")\n"
        "  --mdadm-conf P  where mdadm.conf lives on the target (default: the file the root has,\n"
        "                  else /etc/mdadm.conf on EL/Fedora, else /etc/mdadm/mdadm.conf)\n"
        "  --ks-include F  after success, write the kickstart include (see plan --format ks)\n"
        "  --autorelabel   when an SELinux label cannot be set, write ROOT/.autorelabel\n"
        TUNING_HELP
        "  --os-disks LIST the OS disks, in any spelling: never selected, never written; the\n"
        "                  include's ignoredisk --only-use= and clearpart name them\n"
        "  --command-timeout S  kill a command (mkfs.xfs, mdadm, lvm ...) still running after S\n"
        "                  seconds (default 1800): its step fails, named, never a hang\n"
        "Every program the plan runs is checked first: a missing one is named with its EL\n"
        "and Debian package, exit 2, nothing written.\n"
        "See storprov-apply(8).\n";


const char *const controller_help =
        "Usage: storprov controller [--sysroot DIR | --capture DIR] [--format text|json]\n"
        "\n"
        "Lists every logical drive the RAID controllers report: tool, controller, VD, RAID\n"
        "level, strip, drives per span, spans, data disks, full stripe, state, and the block\n"
        "device it is (matched by WWN, OS name, unit serial or SCSI address, whichever the\n"
        "tool prints; never guessed). Runs each of storcli64/storcli, perccli64/perccli,\n"
        "storcli2, perccli2, ssacli (or hpssacli, hpacucli), arcconf, tw_cli and\n"
        "MegaCli64/MegaCli found in PATH, by argv; absent ones are skipped. Each command is\n"
        "killed after $STORPROV_CONTROLLER_TIMEOUT seconds (default 20), all of a run after\n"
        "$STORPROV_CONTROLLER_TOTAL_TIMEOUT (default 60), with everything they started; a\n"
        "tool's stdout is capped at 64 MiB, its stderr kept to 4 KiB and shown when it fails.\n"
        "  --sysroot DIR   read the captured outputs under DIR/storprov-controller/ instead\n"
        "                  (CONTROLLER TOOLS in storprov-controller(8) names each file, command\n"
        "                  and field read) and DIR's disks\n"
        "  --capture DIR   also keep each output in DIR itself, under those names (a\n"
        "                  sysroot's storprov-controller/ for a later --sysroot)\n"
        "  --format F      text (default) or json\n"
        "Exit status: 0, or 1 when a tool or capture failed (what was read is still listed).\n"
        "See storprov-controller(8).\n";
