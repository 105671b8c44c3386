# -*- coding: utf-8 -*-
# Copyright: storprov maintainers
# SPDX-License-Identifier: GPL-2.0-or-later
"""Filters for the fleet report: each host's storprov verify JSON folded into
host -> objects -> status, and that report as a Markdown table and a static
HTML page (hosts x objects), worst host first. An object's status is its worst checked one (ok < drift < missing), as
storprov verify's text report shows it."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import unicodedata
from html import escape

RANK = {'ok': 0, 'drift': 1, 'missing': 2}


def _host(result):
    verify = (result or {}).get('verify')
    if not verify:
        return dict(status='failed', message=(result or {}).get('msg', 'no verify report'), objects={},
                    counts=dict(ok=0, drift=0, missing=0), drifted=[])
    objects = {}
    drifted = []
    for c in verify.get('checks') or []:
        st = c.get('status')
        if st not in RANK:
            objects.setdefault(c['object'], 'ok')
            continue
        if RANK[st] > RANK[objects.get(c['object'], 'ok')]:
            objects[c['object']] = st
        else:
            objects.setdefault(c['object'], 'ok')
        if st != 'ok':
            drifted.append(dict(object=c['object'], check=c.get('check'), status=st,
                                expected=c.get('expected') or '-', found=c.get('found') or 'nothing'))
    counts = dict(ok=0, drift=0, missing=0)
    for st in objects.values():
        counts[st] += 1
    return dict(status=verify.get('status'), profile=verify.get('profile'), tool_version=verify.get('tool_version'),
                objects=objects, counts=counts, drifted=drifted)


def _badness(name, h):
    return (h['status'] != 'failed', -h['counts']['missing'], -h['counts']['drift'], name)


def storprov_fleet_report(hostvars, hosts, var='storprov_verify'):
    """{format, hosts: {host: {status, objects: {object: status}, counts, drifted}}, summary}"""
    out = {}
    for h in hosts:
        out[h] = _host(hostvars[h].get(var))
    summary = dict(hosts=len(out), clean=sum(1 for h in out.values() if h['status'] == 'clean'),
                   drift=sum(1 for h in out.values() if h['status'] == 'drift'),
                   failed=sum(1 for h in out.values() if h['status'] == 'failed'),
                   objects_drift=sum(h['counts']['drift'] for h in out.values()),
                   objects_missing=sum(h['counts']['missing'] for h in out.values()))
    order = sorted(out, key=lambda n: _badness(n, out[n]))
    return dict(format='storprov-fleet-report', format_version=1, order=order, hosts=out, summary=summary)


def storprov_fleet_summary(report):
    s = report['summary']
    return ('fleet: %d hosts, %d with drift (%d objects drifted, %d missing), %d clean, %d failed'
            % (s['hosts'], s['drift'], s['objects_drift'], s['objects_missing'], s['clean'], s['failed']))


# Markdown (CommonMark, GFM tables) gives these a meaning: escaped with a
# backslash, each shows as itself. "|" ends a table cell, "`*_~" open code and
# emphasis, "[]()!" links and images, "<>&" HTML tags and entities, "#" and
# "$" headings and (on GitHub) math.
MD_PUNCT = frozenset('\\`*_~[]()!<>&#|$')


def _visible(text):
    """text with a backslash doubled and every control or invisible line or
    format character as an escape (\\n, \\t, \\x1b, \\u2028), so that
    it stays on its line and shows what it holds."""
    out = []
    for c in text:
        o = ord(c)
        if c == '\\':
            out.append('\\\\')
        elif c in '\n\r\t':
            out.append({'\n': '\\n', '\r': '\\r', '\t': '\\t'}[c])
        elif o < 0x20 or 0x7f <= o <= 0x9f:
            out.append('\\x%02x' % o)
        elif unicodedata.category(c) in ('Cf', 'Zl', 'Zp', 'Cs', 'Co', 'Cn'):
            out.append('\\u%04x' % o if o <= 0xffff else '\\U%08x' % o)
        else:
            out.append(c)
    return ''.join(out)


def _md(value, cell_start=False):
    """A value from a node (host name, object, check, expected, found, message)
    as Markdown text that renders as the value, escapes visible, and can neither
    end its table cell nor open a link, an HTML tag or a code span."""
    text = ''.join('\\' + c if c in MD_PUNCT else c for c in _visible('%s' % (value,)))
    if cell_start and text[:1] in ('-', '+', '='):
        text = '\\' + text
    return text


def storprov_fleet_markdown(report):
    lines = ['# storprov fleet report', '',
             '| host | status | ok | drift | missing | drifted objects |',
             '|---|---|---:|---:|---:|---|']
    for name in report['order']:
        h = report['hosts'][name]
        if h['status'] == 'failed':
            what = _md(h.get('message', ''), cell_start=True)
        else:
            what = '; '.join('%s %s: %s (expected %s, found %s)'
                             % ((_md(d['status'], cell_start=True),) + tuple(
                                 _md(d[k]) for k in ('object', 'check', 'expected', 'found')))
                             for d in h['drifted'])
        lines.append('| %s | %s | %d | %d | %d | %s |' % (_md(name, cell_start=True), _md(h['status'], cell_start=True),
                                                          h['counts']['ok'], h['counts']['drift'],
                                                          h['counts']['missing'], what))
    lines += ['', storprov_fleet_summary(report), '']
    return '\n'.join(lines)


HTML_STYLE = """body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; }
th, td { border: 1px solid #999; padding: 0.3em 0.6em; text-align: center; }
th.object { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; font-weight: normal; }
td.host { text-align: left; font-weight: bold; }
td.ok, td.clean { background: #b7e4b0; }
td.drift { background: #f6c343; }
td.missing { background: #e8605a; color: #fff; }
td.failed { background: #777; color: #fff; }
td.none { background: #eee; }
ul { font-size: 90%; }"""


def storprov_fleet_html(report):
    """A static page: one row per host (worst first), one column per object."""
    objects = sorted(set(o for h in report['hosts'].values() for o in h['objects']))
    head = ''.join('<th class="object">%s</th>' % escape(o) for o in objects)
    rows = []
    for name in report['order']:
        h = report['hosts'][name]
        cells = ''.join('<td class="%s">%s</td>' % ((h['objects'][o],) * 2) if o in h['objects']
                        else '<td class="none">-</td>' for o in objects)
        rows.append('<tr id="host-%s"><td class="host">%s</td><td class="%s">%s</td>%s</tr>'
                    % (escape(name), escape(name), escape(h['status']), escape(h['status']), cells))
    notes = []
    for name in report['order']:
        h = report['hosts'][name]
        if h['status'] == 'failed':
            notes.append('<li>%s: %s</li>' % (escape(name), escape(h.get('message', ''))))
        for d in h['drifted']:
            notes.append('<li>%s %s %s: %s (expected %s, found %s)</li>'
                         % tuple(escape(str(x)) for x in (name, d['status'], d['object'], d['check'],
                                                          d['expected'], d['found'])))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<title>storprov fleet report</title><style>%s</style></head><body>\n'
            '<h1>storprov fleet report</h1>\n<table><thead><tr><th>host</th><th>status</th>%s</tr></thead>\n'
            '<tbody>\n%s\n</tbody></table>\n<ul>\n%s\n</ul>\n<p id="summary">%s</p>\n</body></html>\n'
            % (HTML_STYLE, head, '\n'.join(rows), '\n'.join(notes), escape(storprov_fleet_summary(report))))


class FilterModule(object):
    def filters(self):
        return dict(storprov_fleet_report=storprov_fleet_report, storprov_fleet_markdown=storprov_fleet_markdown,
                    storprov_fleet_html=storprov_fleet_html, storprov_fleet_summary=storprov_fleet_summary)
