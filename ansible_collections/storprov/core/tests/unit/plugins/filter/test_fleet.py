# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet report's Markdown table with hostile values from the nodes (host
# names, object ids, check names, expected and found values, a failed host's
# message): each row keeps its six cells as GFM splits them, and each cell
# renders as the value with its control characters shown as escapes, never as
# a link, an HTML tag or a code span. Runs with unittest or pytest.
from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import os
import sys
import unittest

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


class FleetMarkdownTest(unittest.TestCase):
    def setUp(self):
        hostvars = {
            EVIL_HOST: dict(storprov_verify=dict(verify=dict(status='drift', checks=CHECKS))),
            '-failed': dict(storprov_verify=dict(msg='+ <b>bold</b>\r\n| x | y |')),
            'clean': dict(storprov_verify=dict(verify=dict(status='clean', checks=[CHECKS[2]]))),
        }
        self.report = fleet.storprov_fleet_report(hostvars, sorted(hostvars))
        self.md = fleet.storprov_fleet_markdown(self.report)

    def table(self):
        lines = self.md.split('\n')
        start = lines.index('| host | status | ok | drift | missing | drifted objects |')
        end = lines.index('', start)
        return lines[start:end]

    def test_every_row_keeps_its_six_cells(self):
        rows = self.table()
        self.assertEqual(len(rows), 2 + 3, self.md)
        for row in rows:
            self.assertTrue(row.startswith('|') and row.endswith('|'), row)
            self.assertEqual(len(cells(row)), 6, row)

    def test_cells_render_as_the_values_with_visible_escapes(self):
        body = [cells(r) for r in self.table()[2:]]
        by_host = dict((rendered(c[0]), c) for c in body)
        self.assertEqual(sorted(by_host), sorted(['evil|host\\nname <script>alert(1)</script>', '-failed', 'clean']))
        evil = by_host['evil|host\\nname <script>alert(1)</script>']
        self.assertEqual([rendered(c) for c in evil[1:5]], ['drift', '1', '1', '1'])
        self.assertEqual(rendered(evil[5]),
                         'drift lun|1: [x](http://evil) (expected a\\\\|b, found line1\\nline2 | `code`); '
                         'missing <img src=x onerror=alert(1)>: *bold* _u_ ~s~ # h ![i](http://evil/i.png) '
                         '(expected &lt;b&gt; $x$, found \\x1b[31mred\\u2028next\\\\)')
        self.assertEqual(rendered(by_host['-failed'][5]), '+ <b>bold</b>\\r\\n| x | y |')

    def test_no_markup_is_left_unescaped(self):
        for row in self.table()[2:]:
            for cell in cells(row):
                # (the parentheses around "expected ..., found ..." are the report's own)
                self.assertEqual(unescaped(cell, '<>[]`*_~&#$!|\\'), set(), cell)
                self.assertNotIn(cell[:1], ('-', '+', '='), cell)
        self.assertNotIn('\r', self.md)
        self.assertNotIn('\x1b', self.md)
        self.assertNotIn('\u2028', self.md)


if __name__ == '__main__':
    unittest.main()
