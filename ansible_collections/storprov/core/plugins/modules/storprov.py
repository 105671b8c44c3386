#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: storprov maintainers
# SPDX-License-Identifier: GPL-2.0-or-later
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: storprov
short_description: Provision, verify or plan a storage server's disks with storprov
version_added: "0.2.0"
description:
  - Runs the storprov binary on the target and returns its JSON output. Every
    storage decision (geometry, partitions, md, LVM, XFS, files) is storprov's;
    this module only maps task options to storprov's command line.
  - C(state=applied) runs C(storprov apply --yes --report); C(changed) is read
    from the report (an object created, a step applied, a file written or
    removed, a filesystem mounted), so a second run reports C(changed=false).
  - C(state=verified) runs C(storprov verify --format json); drift (exit 3) fails
    the task, naming every drifted check, unless I(fail_on_drift=false), which
    reports it as C(changed). C(status) and C(verify) are returned either way.
  - C(state=planned) runs C(storprov plan --format json).
  - In check mode C(state=applied) runs C(storprov apply --dry-run) (a refusal
    fails the task) and C(storprov verify); C(changed) is whether the dry run
    says a step would run or a file would be written (each step's state is
    would-run, done or kept), else whether the node verifies clean; nothing is
    written. In diff mode only the steps that would run are shown, each with
    the check that decided it, and only the files that would be written.
  - A storprov refusal or failure fails the task with storprov's own message
    and exit code.
  - Apply's report goes to a new private temporary directory of each run,
    removed after; it is read only when apply exits 0 or 1 (a failed step, the
    task then fails with the report). A run that leaves no readable JSON report
    fails the task with storprov's messages and exit code.
options:
  state:
    description: What to do.
    type: str
    choices: [applied, verified, planned]
    default: applied
  profile:
    description: Absolute path of the XML profile on the target.
    type: path
  profile_content:
    description: The XML profile itself; written to a temporary file on the target.
    type: str
  profiles:
    description:
      - An absolute path of a directory of profiles on the target; C(storprov select --format json) picks the
        one whose match rules fit the node.
      - The task fails when the chosen file's name has a control character (a newline, say) or the path
        select prints is not a file directly in this directory.
    type: path
  wipe:
    description: Pass C(--wipe) to apply (allow wiping disks that carry signatures).
    type: bool
    default: false
  jobs:
    description: Parallel jobs for apply (C(--jobs)).
    type: int
  root:
    description: Where the generated files are written and read (C(--root)); an absolute path.
    type: path
    default: /
  sysroot:
    description:
      - A captured tree to read sysfs and proc from instead of the live node (C(--sysroot)); for tests and
        demos. An absolute path.
    type: path
  seed:
    description: Seed for reproducible identities (C(--seed)).
    type: int
  mount:
    description: Mount the filesystems after apply (C(--mount)).
    type: bool
    default: false
  lock_file:
    description: The run lock apply takes (C(--lock-file)), an absolute path; storprov's default when not given.
    type: path
  binary:
    description: The storprov binary, a path or a name looked up on PATH.
    type: str
    default: storprov
  fail_on_drift:
    description:
      - With C(state=verified), fail the task when the node drifted from the plan (storprov verify exit 3),
        naming each drifted or missing check (object, check, expected, found) in the message.
      - C(false) reports drift as C(changed) instead, for a report over many hosts.
    type: bool
    default: true
  os_disks:
    description:
      - The OS disks (C(--os-disks)), in any spelling storprov takes (C(sda), C(/dev/sda),
        C(/dev/disk/by-id/wwn-...), a glob such as C(sd[ab])); never selected, never written.
      - Given to plan, verify and apply. A name may not hold a comma or a control character.
    type: list
    elements: str
  wait:
    description: Wait for another storprov run (or a partitioner holding a disk's lock) to end instead of failing (apply's C(--wait)).
    type: bool
    default: false
  mdadm_conf:
    description:
      - Where mdadm.conf lives on the target (C(--mdadm-conf)), an absolute path; storprov's choice when not
        given (the file the root has, else the distribution's).
      - Given to plan, verify and apply.
    type: path
  autorelabel:
    description: When an SELinux label cannot be set on a file apply writes, write C(.autorelabel) at the top of I(root) (apply's C(--autorelabel)).
    type: bool
    default: false
  tuning:
    description:
      - Where the tuning persists (C(--tuning)), given to plan, verify and apply. C(udev) is udev rules and
        sysctl.d; C(tuned) a tuned profile, C(/etc/tuned/storprov/tuned.conf), with the disks' elevator and
        read-ahead and the sysctls (udev keeps the rest); C(both) the same with the sysctls in sysctl.d.
      - Not given, no mode is passed and storprov decides (C(udev), unless the node's recorded state names
        the mode it was provisioned in), so that a task that does not name a mode never switches a node's.
    type: str
    choices: [udev, tuned, both]
notes:
  - Supports check mode and diff mode.
  - I(profile), I(profiles), I(root), I(sysroot) and I(lock_file) must be absolute paths (the task fails
    naming the option otherwise); every value goes to storprov as one C(--option=value) word, so none can
    be read as another option.
  - In diff mode the planned steps and, per generated file, the change from the
    file under I(root) to what storprov writes are shown. The file is read
    confined to I(root), each directory opened without following a symbolic
    link, and only when it is a regular file of at most 1 MiB; a symbolic link,
    FIFO, device or directory there is named in the diff and never opened.
attributes:
  check_mode:
    description: Runs C(apply --dry-run) and C(verify); writes nothing.
    support: full
  diff_mode:
    description: Shows the planned steps and the generated files' changes.
    support: full
author:
  - storprov maintainers (@storprov)
'''

EXAMPLES = r'''
- name: Provision the data disks from the site profile
  storprov.core.storprov:
    profile: /etc/storprov/profile.xml
    state: applied
    mount: true

- name: Pick the profile that fits this node and verify it
  storprov.core.storprov:
    profiles: /etc/storprov/profiles
    state: verified
  register: drift

- name: Plan from inline content
  storprov.core.storprov:
    profile_content: "{{ lookup('file', 'rack7.xml') }}"
    state: planned
'''

RETURN = r'''
profile:
  description: The profile storprov used (the one C(select) picked when I(profiles) was given).
  returned: always
  type: str
  sample: /etc/storprov/profiles/grid-3ware-raid5.xml
exit_code:
  description: storprov's exit status (3 is drift from verify); a failed task returns it as C(rc).
  returned: success
  type: int
  sample: 3
status:
  description: C(clean) or C(drift) (state=verified, and state=applied in check mode).
  returned: when verify ran
  type: str
  sample: drift
verify:
  description: storprov verify's JSON report.
  returned: when verify ran
  type: dict
report:
  description: storprov apply's JSON report.
  returned: when state=applied and not in check mode, and on a failed step (exit code 1)
  type: dict
plan:
  description: storprov's plan (plan or apply --dry-run JSON).
  returned: when state=planned, or state=applied in check mode
  type: dict
stderr:
  description: storprov's messages.
  returned: always
  type: str
'''

import errno
import json
import os
import shutil
import stat
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.six import string_types

CHANGING_ACTIONS = frozenset(('created', 'applied', 'written', 'removed'))


def _entries(parent, key):
    """The objects in the list parent[key], skipping anything that is not one."""
    items = parent.get(key) if isinstance(parent, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def report_changed(report):
    """Whether apply's report shows anything made or written."""
    for obj in _entries(report, 'objects'):
        if obj.get('action') in CHANGING_ACTIONS:
            return True
        for step in _entries(obj, 'steps'):
            if step.get('action') in CHANGING_ACTIONS:
                return True
    for key in ('sysctls', 'files', 'mounts'):
        for item in _entries(report, key):
            if item.get('action') in CHANGING_ACTIONS:
                return True
    return False


DIFF_READ_MAX = 1024 * 1024
O_CLOEXEC = getattr(os, 'O_CLOEXEC', 0)


def file_kind(mode):
    for test, kind in ((stat.S_ISLNK, 'a symbolic link'), (stat.S_ISDIR, 'a directory'), (stat.S_ISFIFO, 'a FIFO'),
                       (stat.S_ISSOCK, 'a socket'), (stat.S_ISBLK, 'a block device'), (stat.S_ISCHR, 'a character device')):
        if test(mode):
            return kind
    return 'not a regular file'


def read_regular_at(dfd, name):
    """(text, None) of the regular file name in the directory dfd, or (None, why
    not): never through a symbolic link, never blocking on a FIFO or device."""
    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    if not stat.S_ISREG(st.st_mode):
        return None, file_kind(st.st_mode)
    if st.st_size > DIFF_READ_MAX:
        return None, '%d bytes, more than the %d a diff shows' % (st.st_size, DIFF_READ_MAX)
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | O_CLOEXEC, dir_fd=dfd)
    try:
        st2 = os.fstat(fd)
        if not stat.S_ISREG(st2.st_mode) or (st2.st_dev, st2.st_ino) != (st.st_dev, st.st_ino):
            return None, 'replaced while it was read'
        data = os.read(fd, DIFF_READ_MAX + 1)
    finally:
        os.close(fd)
    if len(data) > DIFF_READ_MAX:
        return None, 'more than the %d bytes a diff shows' % DIFF_READ_MAX
    return data.decode('utf-8', 'replace'), None


def read_under_root(root, path):
    """What a planned file holds now under root, read confined to root: each
    directory opened relative to the one before with O_NOFOLLOW, so that no
    symbolic link leads out of root. (text, None); ('', None) when there is no
    such file; (None, why it was not read)."""
    parts = [c for c in path.split('/') if c]
    if not parts or any(c in ('.', '..') for c in parts):
        return None, 'not a plain path below the root'
    dfd = None
    try:
        dfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | O_CLOEXEC)
        for i, c in enumerate(parts[:-1]):
            st = os.stat(c, dir_fd=dfd, follow_symlinks=False)
            if not stat.S_ISDIR(st.st_mode):
                return None, '%s is %s' % ('/'.join(parts[:i + 1]), file_kind(st.st_mode))
            fd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | O_CLOEXEC, dir_fd=dfd)
            os.close(dfd)
            dfd = fd
        return read_regular_at(dfd, parts[-1])
    except OSError as e:
        if e.errno == errno.ENOENT:
            return '', None
        return None, e.strerror or str(e)
    finally:
        if dfd is not None:
            os.close(dfd)


def _has_states(plan):
    """apply --dry-run's JSON gives each step a state and each file would_write."""
    steps = _entries(plan, 'steps')
    return bool(steps) and all(isinstance(s.get('state'), string_types) for s in steps)


def dry_run_changes(plan):
    """True when apply would run a step or write a file (apply --dry-run's states), None without states."""
    if not _has_states(plan):
        return None
    return (any(s.get('state') == 'would-run' for s in _entries(plan, 'steps')) or
            any(f.get('would_write') is True for f in _entries(plan, 'files')))


def plan_diff(plan, root):
    """Ansible diffs: the planned steps (with apply --dry-run's states, only
    those that would run, each with why), then each file's change under root
    (a file that is not a regular one below root is named, never read)."""
    entries = _entries(plan, 'steps')
    if _has_states(plan):
        steps = ''.join('%s. %s (would run: %s)\n' % (s.get('index', i + 1), s.get('description', s.get('kind', '')),
                                                      s.get('state_why', ''))
                        for i, s in enumerate(entries) if s.get('state') == 'would-run')
        header = 'steps that would run'
    else:
        steps = ''.join('%s. %s\n' % (s.get('index', i + 1), s.get('description', s.get('kind', '')))
                        for i, s in enumerate(entries))
        header = 'planned steps'
    diffs = [dict(before_header='steps', after_header=header, before='', after=steps)]
    for f in _entries(plan, 'files'):
        if not isinstance(f.get('path'), string_types):
            continue
        if f.get('would_write') is False:
            continue
        path = os.path.join(root, f['path'].lstrip('/'))
        before, why = read_under_root(root, f['path'])
        if why:
            before = '(%s: %s, not read)\n' % (path, why)
        if before != f.get('content', ''):
            diffs.append(dict(before_header=path, after_header=path, before=before, after=f.get('content', '')))
    return diffs


PATH_OPTIONS = ('profile', 'profiles', 'root', 'sysroot', 'lock_file', 'mdadm_conf')


def opt(name, value):
    """--name=value: one argv word, so that no value is ever read as an option."""
    return '--%s=%s' % (name, value)


def check_paths(module):
    """Every path option absolute: a relative one would be read from wherever
    the module happens to run (and C(root: --wipe) would be a directory "--wipe")."""
    for name in PATH_OPTIONS:
        value = module.params[name]
        if value is not None and not os.path.isabs(value):
            module.fail_json(msg="option %s: '%s' is not an absolute path; give the whole path on the target, "
                                 "starting with '/'" % (name, value))


def check_os_disks(module):
    """Each OS disk one name: a comma would split it in --os-disks."""
    for name in module.params['os_disks'] or []:
        if not name or ',' in name or has_control(name):
            module.fail_json(msg='option os_disks: %s is not one disk name (empty, or a comma or control '
                                 'character in it); give each disk as its own list item' % json.dumps(name))


def drift_message(report, profile, limit=20):
    """verify's drifted and missing checks, one by one, for a failed task."""
    bad = [c for c in _entries(report, 'checks') if c.get('status') in ('drift', 'missing')]
    items = ['%s %s: %s (expected %s, found %s)'
             % (c.get('status'), c.get('object'), c.get('check'), c.get('expected') or '-', c.get('found') or 'nothing')
             for c in bad[:limit]]
    if len(bad) > limit:
        items.append('and %d more in verify.checks' % (len(bad) - limit))
    return ('storprov verify: the node drifted from %s, %d checks: %s; fail_on_drift: false reports drift '
            'as changed instead' % (profile, len(bad), '; '.join(items) or 'none listed'))


def has_control(text):
    return any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in text)


def selected_profile(profiles, sel):
    """(the profile select chose, None) or (None, why it cannot be used): a
    whole absolute path of a file directly in profiles, without control bytes."""
    chosen = sel.get('selected') if isinstance(sel, dict) else None
    if not isinstance(chosen, string_types) or not chosen:
        return None, 'it printed no selected profile'
    shown = json.dumps(chosen)
    if has_control(chosen):
        return None, ('the file it chose, %s, has a control character (a newline?) in its name; '
                      'rename it in %s' % (shown, profiles))
    base = profiles.rstrip('/') + '/'
    name = chosen[len(base):] if chosen.startswith(base) else ''
    if not name or '/' in name or name in ('.', '..'):
        return None, 'it chose %s, which is not a file directly in %s' % (shown, profiles)
    return chosen, None


def select_profile(module, sp, node):
    """storprov select --format json over the profiles directory."""
    profiles = module.params['profiles']
    dummy, sel = sp.json('select', [opt('profiles', profiles), '--format=json'] + node)
    chosen, why = selected_profile(profiles, sel)
    if why:
        module.fail_json(msg='storprov select in %s: %s; nothing was run with it' % (profiles, why),
                         select=sel, stderr=sp.stderr)
    return chosen


def read_report(path):
    """(apply's report, None) or (None, why it cannot be read)."""
    try:
        with open(path) as fh:
            text = fh.read()
    except (IOError, OSError) as e:
        return None, 'storprov wrote no report at %s: %s' % (path, e.strerror or e)
    try:
        report = json.loads(text)
    except ValueError as e:
        return None, 'the report %s is not JSON (%d bytes): %s' % (path, len(text), e)
    if not isinstance(report, dict):
        return None, 'the report %s is not a JSON object' % path
    return report, None


class Storprov(object):
    def __init__(self, module):
        self.module = module
        p = module.params
        binary = p['binary']
        self.bin = binary if os.path.isabs(binary) else module.get_bin_path(binary, required=True)
        self.stderr = ''

    def run(self, verb, args, ok=(0,)):
        cmd = [self.bin, verb] + args
        rc, out, err = self.module.run_command(cmd)
        self.stderr += err
        if rc not in ok:
            msg = err.strip() or out.strip() or 'storprov %s exited %d' % (verb, rc)
            self.module.fail_json(msg=msg, rc=rc, cmd=cmd, stdout=out, stderr=err)
        return rc, out

    def json(self, verb, args, ok=(0,)):
        rc, out = self.run(verb, args, ok)
        try:
            doc = json.loads(out)
        except ValueError as e:
            self.module.fail_json(msg='storprov %s printed no JSON: %s' % (verb, e), rc=rc, stdout=out, stderr=self.stderr)
        if not isinstance(doc, dict):
            self.module.fail_json(msg='storprov %s printed JSON that is not an object' % verb, rc=rc, stdout=out,
                                  stderr=self.stderr)
        return rc, doc

    def apply_with_report(self, args):
        """apply --report into a fresh private directory, removed after: the
        report read is this run's or there is none, never an earlier one."""
        tmp = tempfile.mkdtemp(prefix='storprov-report-', dir=self.module.tmpdir)
        try:
            path = os.path.join(tmp, 'report.json')
            return self.apply_report_in(args, path)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def apply_report_in(self, args, path):
        cmd = [self.bin, 'apply'] + args + ['--report=%s' % path]
        rc, out, err = self.module.run_command(cmd)
        self.stderr += err
        said = err.strip() or out.strip() or 'storprov apply exited %d' % rc
        fail = dict(rc=rc, cmd=cmd, stdout=out, stderr=self.stderr)
        # 0 done, 1 a runtime failure (the report says which step): a report is
        # written; any other status is a refusal or bad input, and none is read
        if rc not in (0, 1):
            self.module.fail_json(msg=said, **fail)
        report, why = read_report(path)
        if report is None and rc == 0:
            self.module.fail_json(msg='storprov apply exited 0 but its report cannot be used (%s), so what it '
                                  'did is unknown: run the task again, or state=verified to read the node. '
                                  'storprov said: %s' % (why, said), **fail)
        if report is None:
            self.module.fail_json(msg='%s (and no usable report: %s)' % (said, why), **fail)
        if rc != 0:
            self.module.fail_json(msg=said, report=report, changed=report_changed(report), **fail)
        return rc, report


def main():
    module = AnsibleModule(
        argument_spec=dict(
            state=dict(type='str', default='applied', choices=['applied', 'verified', 'planned']),
            profile=dict(type='path'),
            profile_content=dict(type='str'),
            profiles=dict(type='path'),
            wipe=dict(type='bool', default=False),
            jobs=dict(type='int'),
            root=dict(type='path', default='/'),
            sysroot=dict(type='path'),
            seed=dict(type='int'),
            mount=dict(type='bool', default=False),
            lock_file=dict(type='path'),
            binary=dict(type='str', default='storprov'),
            fail_on_drift=dict(type='bool', default=True),
            os_disks=dict(type='list', elements='str'),
            wait=dict(type='bool', default=False),
            mdadm_conf=dict(type='path'),
            autorelabel=dict(type='bool', default=False),
            tuning=dict(type='str', choices=['udev', 'tuned', 'both']),
        ),
        mutually_exclusive=[('profile', 'profile_content', 'profiles')],
        required_one_of=[('profile', 'profile_content', 'profiles')],
        supports_check_mode=True,
    )
    check_paths(module)
    check_os_disks(module)
    p = module.params
    sp = Storprov(module)

    node = [opt('sysroot', p['sysroot'])] if p['sysroot'] else []
    profile = p['profile']
    if p['profile_content'] is not None:
        profile = os.path.abspath(os.path.join(module.tmpdir, 'profile.xml'))
        with open(profile, 'w') as fh:
            fh.write(p['profile_content'])
    elif p['profiles']:
        profile = select_profile(module, sp, node)
    plan_args = [opt('profile', profile)] + node
    if p['seed'] is not None:
        plan_args.append(opt('seed', p['seed']))
    if p['os_disks']:
        plan_args.append(opt('os-disks', ','.join(p['os_disks'])))
    if p['mdadm_conf']:
        plan_args.append(opt('mdadm-conf', p['mdadm_conf']))
    if p['tuning']:
        plan_args.append(opt('tuning', p['tuning']))

    result = dict(changed=False, profile=profile)
    if p['state'] == 'planned':
        # plan reads no target root; verify and apply do
        rc, plan = sp.json('plan', plan_args + ['--format=json'])
        result.update(exit_code=rc, plan=plan)
        if module._diff:
            result['diff'] = plan_diff(plan, p['root'])
    elif p['state'] == 'verified':
        rc, report = sp.json('verify', plan_args + [opt('root', p['root']), '--format=json'], ok=(0, 3))
        result.update(exit_code=rc, verify=report, status=report.get('status'))
        if rc == 3 and p['fail_on_drift']:
            module.fail_json(msg=drift_message(report, profile), rc=rc, stderr=sp.stderr, **result)
        result['changed'] = rc == 3
    else:
        run_applied(module, sp, plan_args, result)
    result['stderr'] = sp.stderr
    module.exit_json(**result)


def run_applied(module, sp, plan_args, result):
    """state=applied: the dry run (the plan, or storprov's refusal), then apply,
    or in check mode verify."""
    p = module.params
    args = plan_args + [opt('root', p['root'])]
    apply_args = list(args)
    if p['wipe']:
        apply_args.append('--wipe')
    if p['jobs'] is not None:
        apply_args.append(opt('jobs', p['jobs']))
    if p['mount']:
        apply_args.append('--mount')
    if p['lock_file']:
        apply_args.append(opt('lock-file', p['lock_file']))
    if p['wait']:
        apply_args.append('--wait')
    if p['autorelabel']:
        apply_args.append('--autorelabel')
    # the plan and any refusal, writing nothing; shown in diff mode either way
    rc, plan = sp.json('apply', apply_args + ['--dry-run', '--format=json'])
    diff = plan_diff(plan, p['root']) if module._diff else None
    if module.check_mode:
        rc, report = sp.json('verify', args + ['--format=json'], ok=(0, 3))
        # what apply would do, from the dry run's states where the binary gives them
        would = dry_run_changes(plan)
        result.update(exit_code=rc, plan=plan, verify=report, status=report.get('status'),
                      changed=would if would is not None else report.get('status') != 'clean')
    else:
        rc, report = sp.apply_with_report(apply_args + ['--yes'])
        result.update(exit_code=rc, report=report, changed=report_changed(report))
    if diff is not None and result['changed']:
        result['diff'] = diff


if __name__ == '__main__':
    main()
