# -*- coding: utf-8 -*-
# Copyright: storprov maintainers
# SPDX-License-Identifier: GPL-2.0-or-later
"""Filters for the fleet report: each host's storprov verify JSON folded into
host -> objects -> status, with the report's generation time, each host's
verify time and storprov version, and for each drifted check when it was first
seen drifting (carried over from the previous report); and that report as
Markdown and as a static HTML page, drift first: hosts with drift (worst first)
and their drifted checks, clean hosts folded. An object's status is its worst
checked one (ok < drift < missing), as storprov verify's text report shows it.
No wall clock is read here: the caller passes the time (now)."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import datetime
import json
import unicodedata
from html import escape

from ansible.errors import AnsibleFilterError

RANK = {'ok': 0, 'drift': 1, 'missing': 2}
FORMAT = 'storprov-fleet-report'


def _stamp(value):
    """A time as the report writes it: an ISO 8601 string is kept as given, a
    datetime becomes YYYY-MM-DDTHH:MM:SSZ (UTC), nothing stays None."""
    if value is None or value == '':
        return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value.strftime('%Y-%m-%dT%H:%M:%SZ')
    return '%s' % (value,)


def _previous_report(previous):
    """The previous report as a dict: given as one, or as the JSON text of
    fleet-report.json; text that is not JSON is refused."""
    if isinstance(previous, (str, bytes)):
        if not previous.strip():
            return None
        try:
            return json.loads(previous)
        except ValueError as e:
            raise AnsibleFilterError('storprov_fleet_report: the previous report (fleet-report.json in the report '
                                     'directory) is not JSON (%s); move it away to start every drifting_since '
                                     'afresh' % (e,))
    return previous


def _previous_since(previous):
    """(host, object, check) -> drifting_since from the previous report: its
    drifted checks, and those a failed host kept from the report before; an
    absent or foreign report carries nothing over."""
    previous = _previous_report(previous)
    if not isinstance(previous, dict) or previous.get('format') != FORMAT or not isinstance(previous.get('hosts'), dict):
        return {}
    since = {}
    for name, h in previous['hosts'].items():
        if not isinstance(h, dict):
            continue
        for d in (h.get('drifted') or []) + (h.get('kept_since') or []):
            if isinstance(d, dict) and d.get('drifting_since'):
                since[(name, d.get('object'), d.get('check'))] = d['drifting_since']
    return since


def _failed(name, result, since):
    """A host without a verify report; the drifting_since of its checks in the
    previous report are kept (kept_since) for the next run that verifies it."""
    kept = [dict(object=o, check=c, drifting_since=t) for (h, o, c), t in sorted(since.items()) if h == name]
    return dict(status='failed', message=(result or {}).get('msg', 'no verify report'), objects={},
                counts=dict(ok=0, drift=0, missing=0), drifted=[], verified_at=None, tool_version=None,
                kept_since=kept)


def _host(name, result, since, now):
    verify = (result or {}).get('verify')
    if not verify:
        return _failed(name, result, since)
    verified_at = _stamp(verify.get('time')) or now
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
                                expected=c.get('expected') or '-', found=c.get('found') or 'nothing',
                                drifting_since=since.get((name, c['object'], c.get('check')), verified_at)))
    counts = dict(ok=0, drift=0, missing=0)
    for st in objects.values():
        counts[st] += 1
    return dict(status=verify.get('status'), profile=verify.get('profile'),
                tool_version=verify.get('storprov_version') or verify.get('tool_version'),
                verified_at=verified_at, objects=objects, counts=counts, drifted=drifted)


def _badness(name, h):
    return (h['status'] != 'failed', -h['counts']['missing'], -h['counts']['drift'], name)


def storprov_fleet_report(hostvars, hosts, var='storprov_verify', previous=None, now=None):
    """{format, format_version, generated, order, hosts: {host: {status, verified_at,
    tool_version, objects: {object: status}, counts, drifted}}, summary}"""
    now = _stamp(now)
    since = _previous_since(previous)
    out = {}
    for h in hosts:
        out[h] = _host(h, hostvars[h].get(var), since, now)
    summary = dict(hosts=len(out), clean=sum(1 for h in out.values() if h['status'] == 'clean'),
                   drift=sum(1 for h in out.values() if h['status'] == 'drift'),
                   failed=sum(1 for h in out.values() if h['status'] == 'failed'),
                   objects_drift=sum(h['counts']['drift'] for h in out.values()),
                   objects_missing=sum(h['counts']['missing'] for h in out.values()))
    order = sorted(out, key=lambda n: _badness(n, out[n]))
    return dict(format=FORMAT, format_version=2, generated=now, order=order, hosts=out, summary=summary)


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


def _worst_first(drifted):
    """A host's drifted checks, missing before drift, each kind in verify's order."""
    return sorted(drifted, key=lambda d: -RANK.get(d['status'], 0))


def _with_drift(report):
    """The hosts verify found drift on (worst first): not the clean ones, nor
    those that could not be verified, which are counted apart."""
    return [n for n in report['order'] if report['hosts'][n]['status'] not in ('clean', 'failed')]


def _not_verified(report):
    return [n for n in report['order'] if report['hosts'][n]['status'] == 'failed']


def _clean(report):
    return [n for n in report['order'] if report['hosts'][n]['status'] == 'clean']


def _md_row(values):
    return '| %s |' % ' | '.join(_md(v, cell_start=True) for v in values)


def storprov_fleet_markdown(report):
    """Drift first: every drifted check of the hosts with drift (worst host
    first, with when it was first seen drifting), then every host (worst first,
    with its verify time and storprov version)."""
    lines = ['# storprov fleet report', '',
             'generated %s; %d hosts' % (_md(report.get('generated') or 'unknown'), report['summary']['hosts']), '',
             '## Drifted checks, worst host first', '']
    drift_rows = []
    for name in _with_drift(report):
        for d in _worst_first(report['hosts'][name]['drifted']):
            drift_rows.append(_md_row((name, d['object'], d['check'], d['status'], d['expected'], d['found'],
                                       d.get('drifting_since') or '-')))
    if drift_rows:
        lines += ['| host | object | check | status | expected | found | drifting since |',
                  '|---|---|---|---|---|---|---|'] + drift_rows
    else:
        lines.append('No drifted check.')
    lines += ['', '## Hosts, worst first', '',
              '| host | status | ok | drift | missing | verified | storprov | message |',
              '|---|---|---:|---:|---:|---|---|---|']
    for name in report['order']:
        h = report['hosts'][name]
        lines.append(_md_row((name, h['status'], h['counts']['ok'], h['counts']['drift'], h['counts']['missing'],
                              h.get('verified_at') or '-', h.get('tool_version') or '-',
                              h.get('message', '') if h['status'] == 'failed' else '')))
    lines += ['', storprov_fleet_summary(report), '']
    return '\n'.join(lines)


HTML_STYLE = """body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin-bottom: 1em; }
th, td { border: 1px solid #999; padding: 0.3em 0.6em; text-align: left; }
td { min-width: 6em; max-width: 40em; overflow-wrap: anywhere; }
th, td.ok, td.drift, td.missing, td.failed, td:last-child { white-space: nowrap; }
th.host { background: #ddd; }
td.ok, td.clean, span.clean { background: #b7e4b0; }
td.drift, span.drift { background: #f6c343; }
td.missing, span.missing { background: #e8605a; color: #fff; }
td.failed, span.failed { background: #777; color: #fff; }
details { margin-top: 1em; }"""


def _h(value):
    return escape('%s' % (value,))


def _html_host_head(name, h):
    return ('<tr><th class="host" colspan="6">%s <span class="%s">%s</span>: %d ok, %d drift, %d missing; '
            'verified %s; storprov %s</th></tr>'
            % (_h(name), _h(h['status']), _h(h['status']), h['counts']['ok'], h['counts']['drift'],
               h['counts']['missing'], _h(h.get('verified_at') or 'unknown'), _h(h.get('tool_version') or 'unknown')))


def _html_drift_host(name, h):
    rows = [_html_host_head(name, h)]
    for d in _worst_first(h['drifted']):
        rows.append('<tr><td>%s</td><td>%s</td><td class="%s">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>'
                    % (_h(d['object']), _h(d['check']), _h(d['status']), _h(d['status']), _h(d['expected']),
                       _h(d['found']), _h(d.get('drifting_since') or '-')))
    return '<tbody id="host-%s">\n%s\n</tbody>' % (_h(name), '\n'.join(rows))


def _html_not_verified(report):
    """The hosts verify could not run on, each with the task's message; none: nothing."""
    names = _not_verified(report)
    if not names:
        return ''
    rows = ''.join('<tr id="host-%s"><td>%s</td><td class="failed">failed</td><td>%s</td></tr>\n'
                   % (_h(n), _h(n), _h(report['hosts'][n].get('message', ''))) for n in names)
    return ('<h2>Hosts not verified (%d)</h2>\n<table id="failed"><thead><tr><th>host</th><th>verify</th>'
            '<th>message</th></tr></thead>\n<tbody>\n%s</tbody></table>\n' % (len(names), rows))


def _html_clean(report):
    names = _clean(report)
    rows = ''.join('<tr id="host-%s"><td>%s</td><td>%d</td><td>%s</td><td>%s</td></tr>\n'
                   % (_h(n), _h(n), report['hosts'][n]['counts']['ok'],
                      _h(report['hosts'][n].get('verified_at') or 'unknown'),
                      _h(report['hosts'][n].get('tool_version') or 'unknown')) for n in names)
    return ('<details id="clean"><summary>%d clean hosts (every object ok)</summary>\n'
            '<table><thead><tr><th>host</th><th>objects ok</th><th>verified</th><th>storprov</th></tr></thead>\n'
            '<tbody>\n%s</tbody></table></details>' % (len(names), rows))


def storprov_fleet_html(report):
    """A static page, drift first: the hosts with drift (worst first), each with
    only its drifted and missing checks (object, check, expected, found, since);
    then the hosts that could not be verified, with why, counted apart; the
    clean hosts folded into one <details> element."""
    drifted = _with_drift(report)
    if drifted:
        body = ('<table id="drift"><thead><tr><th>object</th><th>check</th><th>status</th><th>expected</th>'
                '<th>found</th><th>drifting since</th></tr></thead>\n%s\n</table>'
                % '\n'.join(_html_drift_host(n, report['hosts'][n]) for n in drifted))
    else:
        body = '<p>No host has drift.</p>'
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<title>storprov fleet report</title><style>%s</style></head><body>\n'
            '<h1>storprov fleet report</h1>\n<p id="generated">generated %s; %d hosts</p>\n'
            '<p id="summary">%s</p>\n<h2>Hosts with drift (%d)</h2>\n%s\n%s%s\n</body></html>\n'
            % (HTML_STYLE, _h(report.get('generated') or 'unknown'), report['summary']['hosts'],
               _h(storprov_fleet_summary(report)), len(drifted), body, _html_not_verified(report),
               _html_clean(report)))


class FilterModule(object):
    def filters(self):
        return dict(storprov_fleet_report=storprov_fleet_report, storprov_fleet_markdown=storprov_fleet_markdown,
                    storprov_fleet_html=storprov_fleet_html, storprov_fleet_summary=storprov_fleet_summary)
