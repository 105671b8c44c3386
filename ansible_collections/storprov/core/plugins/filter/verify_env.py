# -*- coding: utf-8 -*-
# Copyright: storprov maintainers
# SPDX-License-Identifier: GPL-2.0-or-later
"""Values for /etc/storprov/verify.env by the one rule the kickstart, the dracut
hook and systemd/verify.env.in follow, so that systemd (EnvironmentFile=, of
any release) and sh read each line alike: a value is written plain when it is
made of [A-Za-z0-9_./-] only, else in single quotes; a value holding a single
quote, a backslash (some systemd releases take it for an escape inside single
quotes, sh does not) or a control character cannot be written at all.
STORPROV_VERIFY_ARGS is expanded unquoted by storprov-verify-textfile, split at
blanks and globbed: each of its words is [A-Za-z0-9_./:,+@=-] only, as the
kickstart's %post keeps them."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import re

from ansible.errors import AnsibleFilterError

PLAIN = re.compile(r'\A[A-Za-z0-9_./-]+\Z')
WORD = re.compile(r'\A[A-Za-z0-9_./:,+@=-]+\Z')
WORD_CHARS = 'A-Z a-z 0-9 _ . / : , + @ = -'


def _why_not(text):
    """Why text cannot be one verify.env value, or None."""
    for c in text:
        if c == "'":
            return 'a single quote'
        if c == '\\':
            return 'a backslash'
        if ord(c) < 0x20 or ord(c) == 0x7f:
            return 'a control character (%s)' % json.dumps(c)
    return None


def storprov_env_value(value, name='the value'):
    """value as one verify.env value: plain, or in single quotes."""
    text = '%s' % (value,)
    if PLAIN.match(text):
        return text
    why = 'it is empty' if not text else _why_not(text)
    if why:
        raise AnsibleFilterError('verify.env: %s %s cannot be written there (%s): systemd and sh would not read it '
                                 'alike; choose a path without one' % (name, json.dumps(text), why))
    return "'%s'" % text


def storprov_env_words(words, name='STORPROV_VERIFY_ARGS'):
    """A list of words as the value of STORPROV_VERIFY_ARGS: each word plain,
    the whole in single quotes when it has more than one."""
    if isinstance(words, (str, bytes)) or not isinstance(words, (list, tuple)):
        raise AnsibleFilterError('verify.env: %s must be given as a list of words, not %r' % (name, words))
    out = []
    for w in words:
        text = '%s' % (w,)
        if not WORD.match(text):
            raise AnsibleFilterError('verify.env: %s cannot be one word of %s (only %s: the service splits it at '
                                     'blanks and expands it unquoted); give that setting another spelling, or '
                                     'storprov_timer: false and write verify.env yourself'
                                     % (json.dumps(text), name, WORD_CHARS))
        out.append(text)
    return storprov_env_value(' '.join(out), name) if out else ''


class FilterModule(object):
    def filters(self):
        return dict(storprov_env_value=storprov_env_value, storprov_env_words=storprov_env_words)
