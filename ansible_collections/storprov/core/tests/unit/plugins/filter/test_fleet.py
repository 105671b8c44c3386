# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet report's Markdown tables with hostile values from the nodes (host
# names, object ids, check names, expected and found values, a failed host's
# message): each row keeps its cells as GFM splits them, and each cell renders
# as the value with its control characters shown as escapes, never as a link,
# an HTML tag or a code span. And the report's times: its generation time (the
# now given), each host's verify time and storprov version, each drifted
# check's drifting_since carried over from the previous report; the HTML page
# drift first with the clean hosts folded. Runs with unittest or pytest.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import datetime
import json
import os
import re
import sys
import unittest

from ansible.errors import AnsibleFilterError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'plugins', 'filter'))
import fleet  # noqa: E402 pylint: disable=wrong-import-position

EVIL_HOST = 'evil|host\nname <script>alert(1)</script>'
CHECKS = [
    dict(object='lun|1', check='[x](http://evil)', status='drift', expected='a\\|b', found='line1\nline2 | `code`'),
    dict(object='<img src=x onerror=alert(1)>', check='*bold* _u_ ~s~ # h ![i](http://evil/i.png)', status='missing',
         expected='&lt;b&gt; $x$', found='\x1b[31mred\u2028next\\'),
    dict(object='ok-object', check='c', status='ok'),
]
PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'


def cells(row):
    """A table row split as GFM does: a backslash takes the next character with
    it, an unescaped "|" ends a cell."""
    out, cur, i = [], '', 0
    while i < len(row):
        if row[i] == '\\' and i + 1 < len(row):
            cur += row[i:i + 2]
            i += 2
            continue
        if row[i] == '|':
            out.append(cur.strip())
            cur = ''
        else:
            cur += row[i]
        i += 1
    out.append(cur.strip())
    return out[1:-1]


def rendered(cell):
    """What CommonMark shows for a cell that holds only escaped punctuation
    and text: a backslash before punctuation is dropped."""
    out, i = '', 0
    while i < len(cell):
        if cell[i] == '\\' and i + 1 < len(cell) and cell[i + 1] in PUNCT:
            out += cell[i + 1]
            i += 2
            continue
        out += cell[i]
        i += 1
    return out


def unescaped(cell, chars):
    """The characters of chars that appear in cell without a backslash before them."""
    found, i = set(), 0
    while i < len(cell):
        if cell[i] == '\\':
            i += 2
            continue
        if cell[i] in chars:
            found.add(cell[i])
        i += 1
    return found


DRIFT_HEAD = '| host | object | check | status | expected | found | drifting since |'
HOSTS_HEAD = '| host | status | ok | drift | missing | verified | storprov | message |'


class FleetMarkdownTest(unittest.TestCase):
    def setUp(self):
        hostvars = {
            EVIL_HOST: dict(storprov_verify=dict(verify=dict(status='drift', checks=CHECKS,
                                                             time='2026-12-01T10:00:00Z|<b>'))),
            '-failed': dict(storprov_verify=dict(msg='+ <b>bold</b>\r\n| x | y |')),
            'clean': dict(storprov_verify=dict(verify=dict(status='clean', checks=[CHECKS[2]]))),
        }
        self.report = fleet.storprov_fleet_report(hostvars, sorted(hostvars), now='2026-12-01T10:05:00Z')
        self.md = fleet.storprov_fleet_markdown(self.report)

    def table(self, head):
        lines = self.md.split('\n')
        start = lines.index(head)
        end = lines.index('', start)
        return lines[start:end]

    def test_every_row_keeps_its_cells(self):
        for head, n, rows in ((DRIFT_HEAD, 7, 2), (HOSTS_HEAD, 8, 3)):
            table = self.table(head)
            self.assertEqual(len(table), 2 + rows, self.md)
            for row in table:
                self.assertTrue(row.startswith('|') and row.endswith('|'), row)
                self.assertEqual(len(cells(row)), n, row)

    def test_cells_render_as_the_values_with_visible_escapes(self):
        evil = 'evil|host\\nname <script>alert(1)</script>'
        drift = [[rendered(c) for c in cells(r)] for r in self.table(DRIFT_HEAD)[2:]]
        # missing before drift, each with the time it was first seen (here: this verify's)
        self.assertEqual(drift, [
            [evil, '<img src=x onerror=alert(1)>', '*bold* _u_ ~s~ # h ![i](http://evil/i.png)', 'missing',
             '&lt;b&gt; $x$', '\\x1b[31mred\\u2028next\\\\', '2026-12-01T10:00:00Z|<b>'],
            [evil, 'lun|1', '[x](http://evil)', 'drift', 'a\\\\|b', 'line1\\nline2 | `code`',
             '2026-12-01T10:00:00Z|<b>']])
        hosts = dict((rendered(cells(r)[0]), [rendered(c) for c in cells(r)]) for r in self.table(HOSTS_HEAD)[2:])
        self.assertEqual(sorted(hosts), sorted([evil, '-failed', 'clean']))
        self.assertEqual(hosts[evil][1:5], ['drift', '1', '1', '1'])
        self.assertEqual(hosts['-failed'][7], '+ <b>bold</b>\\r\\n| x | y |')
        self.assertEqual(hosts['clean'][5], '2026-12-01T10:05:00Z')

    def test_no_markup_is_left_unescaped(self):
        for head in (DRIFT_HEAD, HOSTS_HEAD):
            for row in self.table(head)[2:]:
                for cell in cells(row):
                    self.assertEqual(unescaped(cell, '<>[]`*_~&#$!|\\'), set(), cell)
                    self.assertNotIn(cell[:1], ('-', '+', '='), cell)
        self.assertNotIn('\r', self.md)
        self.assertNotIn('\x1b', self.md)
        self.assertNotIn('\u2028', self.md)

    def test_html_escapes_every_value(self):
        page = fleet.storprov_fleet_html(self.report)
        for raw in ('<script>', '<img', '<b>'):
            self.assertNotIn(raw, page)
        self.assertIn('&lt;script&gt;alert(1)&lt;/script&gt;', page)


def verify(status, checks, time, version='0.2.0', key='storprov_version'):
    v = dict(status=status, checks=checks, time=time, host='x')
    v[key] = version
    return dict(storprov_verify=dict(verify=v))


def check(obj, name, status, expected='1', found='2'):
    return dict(object=obj, check=name, status=status, expected=expected, found=found)


class FleetTimesTest(unittest.TestCase):
    """The report's times, and drifting_since carried over from the previous report."""

    def first(self):
        hostvars = {
            'a': verify('drift', [check('lun1', 'read_ahead', 'drift'), check('lun2', 'read_ahead', 'drift'),
                                  check('lun3', 'scheduler', 'ok')], '2026-11-01T08:00:00Z'),
            'b': verify('clean', [check('lun1', 'read_ahead', 'ok')], '2026-11-01T08:00:01Z', '0.1.9', 'tool_version'),
        }
        return fleet.storprov_fleet_report(hostvars, ['a', 'b'], now='2026-11-01T08:00:05Z')

    def test_generation_verify_times_and_version(self):
        r = self.first()
        self.assertEqual(r['generated'], '2026-11-01T08:00:05Z')
        self.assertEqual(r['format_version'], 2)
        self.assertEqual([r['hosts'][h]['verified_at'] for h in 'ab'], ['2026-11-01T08:00:00Z', '2026-11-01T08:00:01Z'])
        # verify writes storprov_version; an older tool_version is still read
        self.assertEqual([r['hosts'][h]['tool_version'] for h in 'ab'], ['0.2.0', '0.1.9'])
        self.assertEqual([d['drifting_since'] for d in r['hosts']['a']['drifted']], ['2026-11-01T08:00:00Z'] * 2)
        now = datetime.datetime(2026, 11, 1, 9, 0, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
        self.assertEqual(fleet.storprov_fleet_report({}, [], now=now)['generated'], '2026-11-01T07:00:00Z')

    def test_drifting_since_is_kept_new_gets_verify_time_resolved_drop_out(self):
        previous = self.first()
        hostvars = {
            # lun1 still drifting (now missing), lun2 resolved, lun3 new
            'a': verify('drift', [check('lun1', 'read_ahead', 'missing'), check('lun2', 'read_ahead', 'ok'),
                                  check('lun3', 'scheduler', 'drift')], '2026-11-02T08:00:00Z'),
            # b's lun1 drifts now: a's earlier drift of the same check is another host's
            'b': verify('drift', [check('lun1', 'read_ahead', 'drift')], '2026-11-02T08:00:01Z'),
        }
        r = fleet.storprov_fleet_report(hostvars, ['a', 'b'], previous=previous, now='2026-11-02T08:00:05Z')
        self.assertEqual(sorted((d['object'], d['drifting_since']) for d in r['hosts']['a']['drifted']),
                         [('lun1', '2026-11-01T08:00:00Z'), ('lun3', '2026-11-02T08:00:00Z')])
        self.assertEqual([d['drifting_since'] for d in r['hosts']['b']['drifted']], ['2026-11-02T08:00:01Z'])
        # resolved, then drifting again: a new since
        hostvars['a'] = verify('drift', [check('lun2', 'read_ahead', 'drift')], '2026-11-03T08:00:00Z')
        r3 = fleet.storprov_fleet_report(hostvars, ['a', 'b'], previous=r, now='2026-11-03T08:00:05Z')
        self.assertEqual([d['drifting_since'] for d in r3['hosts']['a']['drifted']], ['2026-11-03T08:00:00Z'])
        self.assertEqual([d['drifting_since'] for d in r3['hosts']['b']['drifted']], ['2026-11-02T08:00:01Z'])
        # a file that is not a fleet report carries nothing over
        hostvars['a'] = verify('drift', [check('lun2', 'read_ahead', 'drift')], '2026-11-04T08:00:00Z')
        r4 = fleet.storprov_fleet_report(hostvars, ['a', 'b'], previous=dict(hosts=r3['hosts']), now='x')
        self.assertEqual([d['drifting_since'] for d in r4['hosts']['a']['drifted']], ['2026-11-04T08:00:00Z'])
        r5 = fleet.storprov_fleet_report(hostvars, ['a', 'b'], previous=r3, now='x')
        self.assertEqual([d['drifting_since'] for d in r5['hosts']['a']['drifted']], ['2026-11-03T08:00:00Z'])

    def test_a_failed_host_keeps_its_drifting_since_for_the_next_run(self):
        previous = self.first()
        down = dict(a=dict(storprov_verify=dict(msg='unreachable')), b=self.hostvars_b())
        r = fleet.storprov_fleet_report(down, ['a', 'b'], previous=previous, now='2026-11-02T08:00:05Z')
        self.assertEqual((r['hosts']['a']['status'], r['hosts']['a']['drifted']), ('failed', []))
        back = dict(a=verify('drift', [check('lun2', 'read_ahead', 'drift')], '2026-11-03T08:00:00Z'),
                    b=self.hostvars_b())
        # the report passes through JSON text, as the playbook reads fleet-report.json
        r2 = fleet.storprov_fleet_report(back, ['a', 'b'], previous=json.dumps(r), now='2026-11-03T08:00:05Z')
        self.assertEqual([d['drifting_since'] for d in r2['hosts']['a']['drifted']], ['2026-11-01T08:00:00Z'])
        self.assertNotIn('kept_since', r2['hosts']['a'])

    def test_a_previous_report_that_is_not_json_is_refused_naming_the_way_out(self):
        with self.assertRaisesRegex(AnsibleFilterError, r'previous report \(fleet-report.json.*is not JSON.*move it away'):
            fleet.storprov_fleet_report({}, [], previous='{"format": "storprov-fleet-report", ', now='x')
        # empty text is no previous report
        self.assertEqual(fleet.storprov_fleet_report({}, [], previous='', now='x')['hosts'], {})

    @staticmethod
    def hostvars_b():
        return verify('clean', [check('lun1', 'read_ahead', 'ok')], '2026-11-01T08:00:01Z')

    def test_html_drift_first_clean_hosts_folded(self):
        hostvars = dict(('n%03d' % i, verify('clean', [check('lun%d' % j, 'c', 'ok') for j in range(5)],
                                             '2026-11-01T08:00:00Z')) for i in range(20))
        hostvars['n017'] = verify('drift', [check('lun3', 'read_ahead', 'drift', '8192', '128')], '2026-11-01T08:00:00Z')
        page = fleet.storprov_fleet_html(fleet.storprov_fleet_report(hostvars, sorted(hostvars), now='N'))
        self.assertLess(page.index('id="host-n017"'), page.index('<details id="clean">'))
        self.assertEqual(re.findall(r'id="host-(n\d+)"', page)[:2], ['n017', 'n000'])
        self.assertIn('<td>lun3</td><td>read_ahead</td><td class="drift">drift</td><td>8192</td><td>128</td>'
                      '<td>2026-11-01T08:00:00Z</td>', page)
        # only drifted checks are listed: no ok cell, no per-object column
        self.assertNotIn('class="ok"', page)
        self.assertIn('<summary>19 clean hosts', page)

    def test_html_counts_failed_hosts_apart_from_drifted_ones(self):
        hostvars = dict(a=verify('drift', [check('lun1', 'read_ahead', 'drift')], '2026-11-01T08:00:00Z'),
                        b=dict(storprov_verify=dict(msg='unreachable <ssh>')),
                        c=dict(storprov_verify=dict(msg='storprov verify exited 2')),
                        d=dict(storprov_verify=dict(msg='no verify report')),
                        e=self.hostvars_b())
        r = fleet.storprov_fleet_report(hostvars, sorted(hostvars), now='N')
        page = fleet.storprov_fleet_html(r)
        self.assertEqual(re.findall(r'<h2>[^<]*</h2>', page), ['<h2>Hosts with drift (1)</h2>',
                                                               '<h2>Hosts not verified (3)</h2>'])
        drift = page[page.index('<table id="drift">'):page.index('</table>')]
        self.assertEqual(re.findall(r'id="host-(\w+)"', drift), ['a'])
        failed = page[page.index('<table id="failed">'):]
        failed = failed[:failed.index('</table>')]
        self.assertEqual(re.findall(r'id="host-(\w+)"', failed), ['b', 'c', 'd'])
        self.assertIn('<td>b</td><td class="failed">failed</td><td>unreachable &lt;ssh&gt;</td>', failed)
        self.assertIn('<summary>1 clean hosts', page)
        self.assertIn('fleet: 5 hosts, 1 with drift (1 objects drifted, 0 missing), 1 clean, 3 failed', page)
        # no drift, only failed hosts: none with drift, the failed ones still listed
        del hostvars['a']
        page = fleet.storprov_fleet_html(fleet.storprov_fleet_report(hostvars, sorted(hostvars), now='N'))
        self.assertIn('<h2>Hosts with drift (0)</h2>\n<p>No host has drift.</p>', page)
        self.assertIn('<h2>Hosts not verified (3)</h2>', page)


if __name__ == '__main__':
    unittest.main()
