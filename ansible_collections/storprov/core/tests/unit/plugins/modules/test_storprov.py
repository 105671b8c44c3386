# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# The storprov module run as Ansible runs it (a process reading its arguments
# from a JSON file), against a fake storprov that logs its argv and answers
# from a small state directory: apply creates once, then keeps; a refusal
# exits 2 with storprov's message. Runs with unittest or pytest.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

PLAN = {'steps': [{'index': 1, 'description': 'GPT on /dev/sdb'}],
        'files': [{'path': '/etc/fstab', 'content': 'UUID=1 /data xfs noatime\n'}]}
MODULE = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'plugins', 'modules', 'storprov.py')

FAKE = textwrap.dedent(r'''
    #!/bin/sh
    # fake storprov: argv to $FAKE_DIR/log; "applied" marks the node provisioned
    d=$FAKE_DIR
    echo "$*" >>"$d/log"
    verb=$1
    case " $* " in *" --dry-run "*) dry=1 ;; *) dry=0 ;; esac
    if [ -e "$d/refuse" ]; then
        echo "storprov: refused: lun1 (/dev/sdb): has an xfs signature; the profile does not allow wiping it" >&2
        [ "$verb" = apply ] && [ $dry = 1 ] && echo '{"dry_run": true, "exit_code": 2, "refused": true}'
        exit 2
    fi
    case "$verb $*" in
    *" --lock-file="*) [ "$verb" = apply ] || { echo "storprov $verb: option '--lock-file' does not apply to $verb" >&2; exit 2; } ;;
    esac
    case "$verb $*" in
    "plan "*" --root"*) echo "storprov plan: option '--root' does not apply to plan" >&2; exit 2 ;;
    esac
    case "$verb" in
    select)
        # the *.xml files of --profiles as select prints them: the one path, or JSON
        for a in "$@"; do case $a in --profiles=*) pd=${a#--profiles=} ;; --profiles) pd=next ;; *) [ "$pd" = next ] && pd=$a ;; esac; done
        if [ -e "$d/select.json" ]; then cat "$d/select.json"
        elif [ "${*#*--format=json}" != "$*" ]; then
            python3 -c 'import glob, json, sys; m = sorted(glob.glob(sys.argv[1] + "/*.xml"))
    print(json.dumps(dict(selected=m[0] if len(m) == 1 else None, matches=m)))' "$pd"
        else printf '%s\n' "$pd"/*.xml
        fi ;;
    plan) cat "$d/plan.json" ;;
    verify)
        if [ -e "$d/applied" ]; then echo '{"status": "clean", "summary": {"drift": 0}}'; exit 0; fi
        echo '{"status": "drift", "summary": {"drift": 1, "missing": 1}, "checks": [
            {"object": "lun1", "check": "queue/read_ahead_kb", "status": "drift", "expected": "8192", "found": "128"},
            {"object": "fs:/data", "check": "fstab entry", "status": "missing", "expected": "UUID=1 /data", "found": null},
            {"object": "lun2", "check": "queue/scheduler", "status": "ok", "expected": "mq-deadline", "found": "mq-deadline"}]}'
        exit 3 ;;
    apply)
        if [ $dry = 1 ]; then
            cat "$d/dry.json"
            exit 0
        fi
        while [ $# -gt 0 ]; do
            case $1 in --report=*) rep=${1#--report=} ;; --report) rep=$2 ;; esac
            shift
        done
        # noreport: exit 0 and write nothing; garbage: a report that is no JSON;
        # step-fails: a failed step, its report written, exit 1
        [ -e "$d/noreport" ] && exit 0
        [ -e "$d/garbage" ] && { echo '{"objects": [' >"$rep"; exit 0; }
        if [ -e "$d/step-fails" ]; then
            echo "storprov: mkfs.xfs on /dev/sdb1 failed (exit 1); run apply again to resume" >&2
            echo '{"objects": [{"id": "lun1", "action": "created", "steps": [{"action": "failed"}]}]}' >"$rep"
            exit 1
        fi
        if [ -e "$d/applied" ]; then a=kept; f=unchanged; else a=created; f=written; fi
        echo "{\"objects\": [{\"id\": \"lun1\", \"action\": \"$a\", \"steps\": []}], \"files\": [{\"path\": \"/etc/fstab\", \"action\": \"$f\"}]}" >"$rep"
        touch "$d/applied" ;;
    esac
    exit 0
''').lstrip()


class StorprovModuleTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='storprov-module-')
        self.fake = os.path.join(self.dir, 'storprov')
        with open(self.fake, 'w') as fh:
            fh.write(FAKE)
        os.chmod(self.fake, 0o755)
        with open(os.path.join(self.dir, 'plan.json'), 'w') as fh:
            json.dump(PLAN, fh)
        with open(os.path.join(self.dir, 'dry.json'), 'w') as fh:
            json.dump(dict(PLAN, dry_run=True, exit_code=0), fh)
        self.root = os.path.join(self.dir, 'root')
        os.makedirs(os.path.join(self.root, 'etc'))

    def run_module(self, check=False, diff=False, **args):
        args.setdefault('binary', self.fake)
        args.setdefault('root', self.root)
        args['_ansible_check_mode'] = check
        args['_ansible_diff'] = diff
        path = os.path.join(self.dir, 'args.json')
        with open(path, 'w') as fh:
            json.dump({'ANSIBLE_MODULE_ARGS': args}, fh)
        env = dict(os.environ, FAKE_DIR=self.dir)
        # a module that blocks (a FIFO opened for reading) fails the test, never hangs it
        p = subprocess.run([sys.executable, MODULE, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, universal_newlines=True, check=False, timeout=30)
        return json.loads(p.stdout)

    def log(self):
        try:
            with open(os.path.join(self.dir, 'log')) as fh:
                return fh.read().splitlines()
        except IOError:
            return []

    def test_apply_changes_then_reports_unchanged(self):
        r1 = self.run_module(profile='/p.xml', state='applied', wipe=True, jobs=3)
        self.assertFalse(r1.get('failed'), r1)
        self.assertTrue(r1['changed'])
        self.assertEqual(r1['report']['objects'][0]['action'], 'created')
        r2 = self.run_module(profile='/p.xml', state='applied', wipe=True, jobs=3)
        self.assertFalse(r2['changed'])
        applies = [l for l in self.log() if l.startswith('apply ') and '--dry-run' not in l]
        self.assertEqual(len(applies), 2)
        self.assertIn('--profile=/p.xml', applies[0])
        self.assertIn('--wipe', applies[0])
        self.assertIn('--jobs=3', applies[0])
        self.assertIn('--yes', applies[0])

    def touch(self, name):
        open(os.path.join(self.dir, name), 'w').close()

    def test_a_report_not_written_is_a_clean_failure_never_an_earlier_one(self):
        # Ansible's own tmpdir for the task: a report an earlier run left there
        # must not be read as this run's
        tmp = os.path.join(self.dir, 'ansible-tmp')
        os.mkdir(tmp)
        r = self.run_module(profile='/p.xml', _ansible_tmpdir=tmp)
        self.assertFalse(r.get('failed'), r)
        self.assertEqual(r['report']['objects'][0]['action'], 'created')
        self.assertEqual(os.listdir(tmp), [])
        with open(os.path.join(tmp, 'apply-report.json'), 'w') as fh:
            json.dump({'objects': [{'id': 'stale', 'action': 'created'}]}, fh)
        self.touch('noreport')
        for tmpdir in (tmp, None):
            r = self.run_module(profile='/p.xml', _ansible_tmpdir=tmpdir)
            self.assertTrue(r.get('failed'), r)
            self.assertEqual(r['rc'], 0)
            self.assertIn('storprov apply exited 0 but its report cannot be used (storprov wrote no report at ',
                          r['msg'])
            self.assertNotIn('report', r)
            self.assertNotIn('stale', json.dumps(r))
        reports = [a for line in self.log() for a in line.split() if a.startswith('--report')]
        self.assertEqual(len(reports), 3)
        self.assertEqual(len(set(reports)), 3, reports)
        for a in reports:
            self.assertTrue(a.startswith('--report=/') and a.endswith('/report.json'), a)
            self.assertFalse(os.path.exists(a[len('--report='):]), a)

    def test_a_report_that_is_not_json_is_a_clean_failure(self):
        self.touch('garbage')
        r = self.run_module(profile='/p.xml')
        self.assertTrue(r.get('failed'), r)
        self.assertEqual(r['rc'], 0)
        self.assertIn('report cannot be used (the report ', r['msg'])
        self.assertIn('is not JSON', r['msg'])

    def test_odd_json_from_storprov_is_a_clean_failure_or_ignored(self):
        # a report whose lists hold no objects changes nothing; plan JSON that is
        # a list fails cleanly
        with open(os.path.join(self.dir, 'plan.json'), 'w') as fh:
            json.dump([1, 2], fh)
        r = self.run_module(profile='/p.xml', state='planned')
        self.assertTrue(r.get('failed'), r)
        self.assertEqual(r['msg'], 'storprov plan printed JSON that is not an object')
        with open(os.path.join(self.dir, 'dry.json'), 'w') as fh:
            json.dump({'steps': [None, 'x'], 'files': [3, {'path': None}, {'path': '/etc/fstab', 'content': 'x'}]}, fh)
        r = self.run_module(diff=True, profile='/p.xml')
        self.assertFalse(r.get('failed'), r)
        self.assertEqual([d['before_header'] for d in r['diff']], ['steps', os.path.join(self.root, 'etc/fstab')])

    def test_a_failed_step_fails_with_storprovs_message_and_the_report(self):
        self.touch('step-fails')
        r = self.run_module(profile='/p.xml')
        self.assertTrue(r.get('failed'), r)
        self.assertEqual(r['rc'], 1)
        self.assertEqual(r['msg'], 'storprov: mkfs.xfs on /dev/sdb1 failed (exit 1); run apply again to resume')
        self.assertEqual(r['report']['objects'][0]['steps'][0]['action'], 'failed')
        self.assertTrue(r['changed'])

    def test_check_mode_runs_dry_run_and_verify_only(self):
        r = self.run_module(check=True, profile='/p.xml', state='applied')
        self.assertFalse(r.get('failed'), r)
        self.assertTrue(r['changed'])
        self.assertEqual(r['status'], 'drift')
        verbs = [(l.split()[0], '--dry-run' in l.split()) for l in self.log()]
        self.assertEqual(verbs, [('apply', True), ('verify', False)])
        self.assertFalse(os.path.exists(os.path.join(self.dir, 'applied')))

    def test_check_mode_on_a_clean_node_is_unchanged(self):
        open(os.path.join(self.dir, 'applied'), 'w').close()
        r = self.run_module(check=True, profile='/p.xml', state='applied')
        self.assertFalse(r['changed'])

    def dry_states(self, states, would_write):
        steps = [dict(index=i + 1, description='step %d' % (i + 1), state=state, state_why='why %d' % i)
                 for i, state in enumerate(states)]
        files = [dict(f, would_write=would_write, state_why='as render writes it') for f in PLAN['files']]
        with open(os.path.join(self.dir, 'dry.json'), 'w') as fh:
            json.dump(dict(PLAN, dry_run=True, exit_code=0, steps=steps, files=files), fh)

    def test_check_mode_follows_the_dry_runs_states_where_storprov_gives_them(self):
        # every step done and no file to write: unchanged, even though verify reports drift (a mount)
        self.dry_states(['done', 'kept'], False)
        r = self.run_module(check=True, diff=True, profile='/p.xml', state='applied')
        self.assertFalse(r.get('failed'), r)
        self.assertFalse(r['changed'])
        self.assertEqual(r['status'], 'drift')
        # one tuning step would run: changed, and the diff lists that step alone, with why, and no file
        self.dry_states(['done', 'would-run'], False)
        with open(os.path.join(self.root, 'etc', 'fstab'), 'w') as fh:
            fh.write('# old\n')
        r = self.run_module(check=True, diff=True, profile='/p.xml', state='applied')
        self.assertTrue(r['changed'])
        self.assertEqual(r['diff'][0]['after_header'], 'steps that would run')
        self.assertEqual(r['diff'][0]['after'], '2. step 2 (would run: why 1)\n')
        self.assertEqual(len(r['diff']), 1)  # fstab would not be written: no file diff
        # a file that would be written: changed, its diff shown
        self.dry_states(['done', 'done'], True)
        r = self.run_module(check=True, diff=True, profile='/p.xml', state='applied')
        self.assertTrue(r['changed'])
        self.assertEqual(r['diff'][0]['after'], '')
        self.assertEqual(r['diff'][1]['before'], '# old\n')

    def test_refusal_fails_with_storprovs_message_and_rc(self):
        open(os.path.join(self.dir, 'refuse'), 'w').close()
        r = self.run_module(profile='/p.xml', state='applied')
        self.assertTrue(r['failed'])
        self.assertEqual(r['rc'], 2)
        self.assertIn('storprov: refused: lun1 (/dev/sdb): has an xfs signature', r['msg'])
        self.assertFalse(any('--yes' in l for l in self.log()))

    def test_verify_drift_fails_naming_each_check_unless_fail_on_drift_is_false(self):
        r = self.run_module(profile='/p.xml', state='verified')
        self.assertTrue(r.get('failed'), r)
        self.assertEqual((r['rc'], r['exit_code'], r['status']), (3, 3, 'drift'))
        self.assertEqual(r['msg'], 'storprov verify: the node drifted from /p.xml, 2 checks: '
                         'drift lun1: queue/read_ahead_kb (expected 8192, found 128); '
                         'missing fs:/data: fstab entry (expected UUID=1 /data, found nothing); '
                         'fail_on_drift: false reports drift as changed instead')
        self.assertEqual(len(r['verify']['checks']), 3)
        r = self.run_module(profile='/p.xml', state='verified', fail_on_drift=False)
        self.assertFalse(r.get('failed'), r)
        self.assertTrue(r['changed'])
        self.assertEqual((r['exit_code'], r['status']), (3, 'drift'))
        # Ansible fails a task whose result has a non-zero rc and no failed key
        self.assertNotIn('rc', r)
        self.touch('applied')
        r = self.run_module(profile='/p.xml', state='verified')
        self.assertFalse(r.get('failed') or r['changed'], r)
        self.assertEqual(r['status'], 'clean')

    def test_install_time_options_go_to_the_verbs_that_take_them(self):
        r = self.run_module(profile='/p.xml', os_disks=['sda', '/dev/disk/by-id/wwn-0x5000c500a1b2c3d4'], wait=True,
                            mdadm_conf='/etc/mdadm.conf', autorelabel=True)
        self.assertFalse(r.get('failed'), r)
        self.run_module(profile='/p.xml', state='verified', os_disks=['sd[ab]'], mdadm_conf='/etc/mdadm.conf')
        self.run_module(profile='/p.xml', state='planned', os_disks=['sda'], mdadm_conf='/etc/mdadm.conf',
                        wait=True, autorelabel=True)
        log = self.log()
        self.assertEqual([line.split()[0] for line in log], ['apply', 'apply', 'verify', 'plan'])
        for line in log[:2]:
            self.assertIn(' --os-disks=sda,/dev/disk/by-id/wwn-0x5000c500a1b2c3d4 --mdadm-conf=/etc/mdadm.conf ', line)
            self.assertIn(' --wait --autorelabel ', line)
        self.assertIn(' --os-disks=sd[ab] --mdadm-conf=/etc/mdadm.conf ', log[2])
        self.assertEqual(log[3], 'plan --profile=/p.xml --os-disks=sda --mdadm-conf=/etc/mdadm.conf --format=json')
        for bad in ('sda,sdb', '', 'sd\na'):
            r = self.run_module(profile='/p.xml', os_disks=['sdc', bad])
            self.assertTrue(r.get('failed'), r)
            self.assertEqual(r['msg'], 'option os_disks: %s is not one disk name (empty, or a comma or control '
                             'character in it); give each disk as its own list item' % json.dumps(bad))
        r = self.run_module(profile='/p.xml', mdadm_conf='etc/mdadm.conf')
        self.assertTrue(r.get('failed'), r)
        self.assertIn("option mdadm_conf: 'etc/mdadm.conf' is not an absolute path", r['msg'])
        self.assertEqual(len(self.log()), 4)

    def test_the_tuning_mode_goes_to_every_verb_when_named_and_never_by_default(self):
        for state in ('applied', 'verified', 'planned'):
            r = self.run_module(profile='/p.xml', state=state, tuning='tuned', fail_on_drift=False)
            self.assertFalse(r.get('failed'), r)
        self.run_module(profile='/p.xml', state='planned', tuning='both')
        self.run_module(profile='/p.xml', state='planned')
        log = self.log()
        self.assertEqual([line.split()[0] for line in log], ['apply', 'apply', 'verify', 'plan', 'plan', 'plan'])
        for line in log[:4]:
            self.assertEqual(line.split().count('--tuning=tuned'), 1, line)
        self.assertEqual(log[4], 'plan --profile=/p.xml --tuning=both --format=json')
        # not named: no mode passed, so a provisioned node's own stays
        self.assertEqual(log[5], 'plan --profile=/p.xml --format=json')
        r = self.run_module(profile='/p.xml', tuning='sysctl')
        self.assertTrue(r.get('failed'), r)
        self.assertIn('value of tuning must be one of: udev, tuned, both, got: sysctl', r['msg'])
        self.assertEqual(len(self.log()), 6)

    def profiles_dir(self, *names):
        d = os.path.join(self.dir, 'profiles')
        os.mkdir(d)
        for n in names:
            open(os.path.join(d, n), 'w').close()
        return d

    def test_profiles_dir_selects_and_content_is_written(self):
        d = self.profiles_dir('b.xml')
        r = self.run_module(profiles=d, state='planned')
        self.assertFalse(r.get('failed'), r)
        self.assertEqual(r['profile'], os.path.join(d, 'b.xml'))
        self.assertEqual(self.log()[0], 'select --profiles=%s --format=json' % d)
        self.assertEqual(self.log()[1], 'plan --profile=%s/b.xml --format=json' % d)
        r = self.run_module(profile_content='<profile/>', state='planned')
        self.assertTrue(r['profile'].endswith('/profile.xml'))
        self.assertIn('--profile=%s' % r['profile'], self.log()[-1])

    def test_a_profile_name_with_a_newline_is_refused_not_cut_into_a_relative_path(self):
        d = self.profiles_dir('x\nevil.xml')
        r = self.run_module(profiles=d, state='planned')
        self.assertTrue(r.get('failed'), r)
        self.assertIn('storprov select in %s: the file it chose, "%s/x\\nevil.xml", has a control character' % (d, d),
                      r['msg'])
        self.assertEqual([line.split()[0] for line in self.log()], ['select'])

    def test_a_selected_profile_outside_the_directory_or_relative_is_refused(self):
        d = self.profiles_dir('b.xml')
        for chosen in ('evil.xml', '/elsewhere/b.xml', d + '/../b.xml', d + '/sub/b.xml', d + '/', None):
            with open(os.path.join(self.dir, 'select.json'), 'w') as fh:
                json.dump(dict(selected=chosen), fh)
            r = self.run_module(profiles=d + '/', state='planned')
            self.assertTrue(r.get('failed'), (chosen, r))
            self.assertIn('storprov select in %s/: ' % d, r['msg'])
            self.assertIn('not a file directly in' if chosen else 'no selected profile', r['msg'])
        self.assertEqual(set(line.split()[0] for line in self.log()), set(['select']))

    def test_relative_paths_are_refused_and_every_value_is_one_word_with_its_option(self):
        base = dict(profile='/p.xml', root=self.root)
        for name in ('root', 'sysroot', 'profile', 'profiles', 'lock_file'):
            for value in ('--wipe', 'rel/dir'):
                args = dict(base)
                args[name] = value
                if name == 'profiles':
                    del args['profile']
                r = self.run_module(**args)
                self.assertTrue(r.get('failed'), (name, value, r))
                self.assertEqual(r['msg'], "option %s: '%s' is not an absolute path; give the whole path on "
                                 "the target, starting with '/'" % (name, value))
        self.assertEqual(self.log(), [])
        d = self.profiles_dir('b.xml')
        for state in ('applied', 'verified', 'planned'):
            self.run_module(profiles=d, state=state, sysroot='/sys-tree', lock_file='/l', jobs=2, seed=1)
        self.assertEqual(len(self.log()), 7)
        for line in self.log():
            words = line.split()
            self.assertTrue(all(w.startswith('--') for w in words[1:]), line)

    def test_diff_mode_shows_steps_and_file_changes(self):
        with open(os.path.join(self.root, 'etc', 'fstab'), 'w') as fh:
            fh.write('# old\n')
        r = self.run_module(diff=True, profile='/p.xml', state='planned')
        self.assertEqual(r['diff'][0]['after'], '1. GPT on /dev/sdb\n')
        self.assertEqual(r['diff'][1]['before'], '# old\n')
        self.assertEqual(r['diff'][1]['after'], 'UUID=1 /data xfs noatime\n')

    def outside(self):
        d = os.path.join(self.dir, 'outside')
        os.mkdir(d)
        with open(os.path.join(d, 'fstab'), 'w') as fh:
            fh.write('SECRET-OUTSIDE-THE-ROOT\n')
        return d

    def test_diff_never_follows_a_symlink_out_of_the_root(self):
        out = self.outside()
        fstab = os.path.join(self.root, 'etc', 'fstab')
        os.symlink(os.path.join(out, 'fstab'), fstab)
        for check, state in ((False, 'planned'), (True, 'applied')):
            r = self.run_module(check=check, diff=True, profile='/p.xml', state=state)
            self.assertFalse(r.get('failed'), r)
            self.assertNotIn('SECRET', json.dumps(r))
            self.assertEqual(r['diff'][1]['before'], '(%s: a symbolic link, not read)\n' % fstab)
            self.assertEqual(r['diff'][1]['after'], 'UUID=1 /data xfs noatime\n')
        # a directory on the way that is a symlink out of the root
        os.unlink(fstab)
        os.rmdir(os.path.join(self.root, 'etc'))
        os.symlink(out, os.path.join(self.root, 'etc'))
        r = self.run_module(diff=True, profile='/p.xml', state='planned')
        self.assertNotIn('SECRET', json.dumps(r))
        self.assertEqual(r['diff'][1]['before'], '(%s: etc is a symbolic link, not read)\n' % fstab)

    def test_diff_does_not_block_on_a_fifo_and_reads_no_device(self):
        fstab = os.path.join(self.root, 'etc', 'fstab')
        os.mkfifo(fstab)
        r = self.run_module(diff=True, profile='/p.xml', state='planned')
        self.assertFalse(r.get('failed'), r)
        self.assertEqual(r['diff'][1]['before'], '(%s: a FIFO, not read)\n' % fstab)
        os.unlink(fstab)
        os.symlink('/dev/zero', fstab)
        r = self.run_module(diff=True, profile='/p.xml', state='planned')
        self.assertEqual(r['diff'][1]['before'], '(%s: a symbolic link, not read)\n' % fstab)
        os.unlink(fstab)
        with open(fstab, 'w') as fh:
            fh.write('x' * (1024 * 1024 + 1))
        r = self.run_module(diff=True, profile='/p.xml', state='planned')
        self.assertEqual(r['diff'][1]['before'],
                         '(%s: 1048577 bytes, more than the 1048576 a diff shows, not read)\n' % fstab)

    def test_plan_reads_no_root_and_the_lock_file_goes_to_apply(self):
        r = self.run_module(profile='/p.xml', state='planned', seed=7)
        self.assertFalse(r.get('failed'), r)
        self.assertEqual(self.log(), ['plan --profile=/p.xml --seed=7 --format=json'])
        lock = os.path.join(self.dir, 'lock')
        r = self.run_module(profile='/p.xml', lock_file=lock)
        self.assertFalse(r.get('failed'), r)
        applies = [line for line in self.log() if line.startswith('apply ')]
        self.assertEqual(len(applies), 2)
        for line in applies:
            self.assertIn('--lock-file=%s' % lock, line)

    def test_profile_and_profiles_are_exclusive(self):
        r = self.run_module(profile='/p.xml', profiles='/d', state='planned')
        self.assertTrue(r['failed'])
        self.assertIn('mutually exclusive', r['msg'])
        self.assertEqual(self.log(), [])


if __name__ == '__main__':
    unittest.main()
