#!/usr/bin/env python3
"""bench/rusage.py: wall, user and system CPU of a command, per run.

    bench/rusage.py REPS [--env K=V ...] [--stdout FILE] [--plain] -- CMD ARGS...
    bench/rusage.py --serve

--serve reads one command a line on standard input, fields separated by
tabs: the file for its standard output ("-" for none), then the argv; it
runs it once and answers "wall user sys rc" on a line. One python for many
timed runs (a python start-up costs more than a storprov run on a loaded host).

Runs CMD REPS times (stdout and stderr to /dev/null; --stdout keeps the last
run's standard output in FILE; --plain prints "wall user sys rc" instead) and prints one JSON
object a run: {"wall_s", "user_s", "sys_s", "rc"}. CPU comes from
wait4()'s rusage of the child (its children included: getrusage
RUSAGE_CHILDREN semantics), in microseconds, so kernel time is counted, which
callgrind and perf's :u counters do not see; wall is CLOCK_MONOTONIC around
fork and wait. No max RSS: the child is forked from python, whose pages its
ru_maxrss counts (use GNU time's %M).
"""
import json
import os
import subprocess
import sys
import time


def run_once(cmd, env, stdout_path=None):
    out = open(stdout_path, 'wb') if stdout_path else subprocess.DEVNULL
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if stdout_path:
        out.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    return {'wall_s': round(wall, 6), 'user_s': round(ru.ru_utime, 6), 'sys_s': round(ru.ru_stime, 6),
            'rc': p.returncode}


def serve():
    for line in sys.stdin:
        f = line.rstrip('\n').split('\t')
        r = run_once(f[1:], dict(os.environ), None if f[0] == '-' else f[0])
        print('%(wall_s)s %(user_s)s %(sys_s)s %(rc)s' % r, flush=True)


def main(argv):
    if argv == ['--serve']:
        return serve()
    if '--' not in argv or len(argv) < 3:
        sys.exit(__doc__)
    cut = argv.index('--')
    reps = int(argv[0])
    env = dict(os.environ)
    opts = argv[1:cut]
    stdout_path = None
    plain = False
    while opts:
        if opts[0] == '--env' and len(opts) > 1:
            k, _, v = opts[1].partition('=')
            env[k] = v
            opts = opts[2:]
        elif opts[0] == '--plain':
            plain = True
            opts = opts[1:]
        elif opts[0] == '--stdout' and len(opts) > 1:
            stdout_path = opts[1]
            opts = opts[2:]
        else:
            sys.exit('rusage.py: unknown option %s' % opts[0])
    cmd = argv[cut + 1:]
    for _ in range(reps):
        r = run_once(cmd, env, stdout_path)
        print('%(wall_s)s %(user_s)s %(sys_s)s %(rc)s' % r if plain else json.dumps(r), flush=True)


if __name__ == '__main__':
    main(sys.argv[1:])
