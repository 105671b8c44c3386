#!/usr/bin/python3
"""Lay out ansible-test's sanity virtualenvs offline, from Debian's packages.

ansible-test sanity runs ansible-doc, import, pep8, pylint, runtime-metadata,
validate-modules and yamllint in a virtualenv of its own under
~/.ansible/test/venv/sanity.NAME/PYVER/HASH, which it fills from PyPI with
pip. Without the network that fails. It reuses a directory that carries a
marker.txt, though, so this script creates each such virtualenv beforehand,
without pip: the checkers are then Debian's (pylint, yamllint, pycodestyle,
python3-voluptuous, python3-yaml, jinja2), run by ansible-test itself with its
own configuration. A test that installs packages gets a virtualenv on the
system's site packages; one that installs none (the code-smell scripts, the
module import test) an empty one, as ansible-test would make it. The path's
hash comes from ansible-test's own functions, so it matches the ansible-test
installed. (The plugin import test thus sees all of Debian's packages, not
only Jinja2 and PyYAML: it cannot catch an unguarded import of another one.)

Usage: ansible-sanity-venvs.py PYVER PYTHON TEST...   (HOME decides where)
Prints one line per virtualenv created or found.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, '/usr/lib/python3/dist-packages')

# pylint: disable=wrong-import-position
from ansible_test._internal.host_configs import NativePythonConfig
from ansible_test._internal.python_requirements import collect_requirements
from ansible_test._internal.commands.sanity import hash_pip_commands


def venv_path(python, name, minimize):
    """The directory ansible-test's create_sanity_virtualenv() looks for."""
    cmds = collect_requirements(python=python, controller=True, virtualenv=False,
                                command=None, ansible=False, cryptography=False,
                                coverage=False, minimize=minimize, sanity=name)
    label = f'sanity.{name}' if cmds else 'sanity'
    root = os.path.expanduser('~/.ansible/test/venv')
    return os.path.join(root, label, python.version, hash_pip_commands(cmds)), bool(cmds)


def lay_out(path, python_bin, system):
    """A virtualenv (on the system's site packages or not), marked as complete."""
    marker = os.path.join(path, 'marker.txt')
    if os.path.exists(marker):
        return 'found'
    site = ['--system-site-packages'] if system else []
    subprocess.run([python_bin, '-m', 'venv', *site, '--without-pip', '--clear', path], check=True)
    with open(os.path.join(path, 'meta.install.json'), 'w', encoding='utf-8') as f:
        json.dump({'installed-from': 'Debian packages (--system-site-packages)'}, f)
    # what ansible-test's yamlcheck() records: whether PyYAML has libyaml
    import yaml  # pylint: disable=import-outside-toplevel
    with open(os.path.join(path, 'meta.yaml.json'), 'w', encoding='utf-8') as f:
        json.dump(hasattr(yaml, 'CLoader'), f)
    with open(marker, 'w', encoding='utf-8'):
        pass
    return 'created'


def main():
    """Create the virtualenvs of the named sanity tests for one Python."""
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pyver, python_bin, tests = sys.argv[1], sys.argv[2], sys.argv[3:]
    python = NativePythonConfig(version=pyver, path=python_bin)
    for name in tests:
        for minimize in (False, True):
            path, system = venv_path(python, name, minimize)
            how = 'system site packages' if system else 'empty'
            print(f'{name}: {lay_out(path, python_bin, system)} {path} ({how})')


if __name__ == '__main__':
    main()
