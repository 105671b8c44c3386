# -*- coding: utf-8 -*-
# Copyright: storprov maintainers
# SPDX-License-Identifier: GPL-2.0-or-later
"""Filters for the fleet report: each host's storprov verify JSON folded into
host -> objects -> status, and that report as a Markdown table, worst host
first. An object's status is its worst checked one (ok < drift < missing), as
storprov verify's text report shows it."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

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


def _cell(text):
    return str(text).replace('|', '\\|').replace('\n', ' ')


def storprov_fleet_markdown(report):
    lines = ['# storprov fleet report', '',
             '| host | status | ok | drift | missing | drifted objects |',
             '|---|---|---:|---:|---:|---|']
    for name in report['order']:
        h = report['hosts'][name]
        if h['status'] == 'failed':
            what = h.get('message', '')
        else:
            what = '; '.join('%s %s: %s (expected %s, found %s)' % (d['status'], d['object'], d['check'],
                                                                    d['expected'], d['found'])
                             for d in h['drifted'])
        lines.append('| %s | %s | %d | %d | %d | %s |' % (_cell(name), h['status'], h['counts']['ok'],
                                                          h['counts']['drift'], h['counts']['missing'], _cell(what)))
    lines += ['', storprov_fleet_summary(report), '']
    return '\n'.join(lines)


class FilterModule(object):
    def filters(self):
        return dict(storprov_fleet_report=storprov_fleet_report, storprov_fleet_markdown=storprov_fleet_markdown,
                    storprov_fleet_summary=storprov_fleet_summary)
