/* SPDX-License-Identifier: GPL-2.0-or-later
 * What the controller JSON parsers share (storcli, storcli2, arcconf
 * GETCONFIGJSON): one document from bytes, typed lookups, one error. Pure. */
#include "discover/ctl_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *ctl_jobj(json_object *o, const char *key, json_type type)
{
        json_object *v;
        if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
                return NULL;
        return v;
}

const char *ctl_jstring(json_object *o, const char *key)
{
        json_object *v = ctl_jobj(o, key, json_type_string);
        return v ? json_object_get_string(v) : NULL;
}

int ctl_jcount(json_object *o, const char *key, unsigned *ret)
{
        json_object *v;
        *ret = 0;
        if (!o || !json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
                return 0;
        if (json_object_is_type(v, json_type_int)) {
                int64_t n = json_object_get_int64(v);
                if (n < 1 || n > 4096)
                        return -1;
                *ret = (unsigned)n;
                return 1;
        }
        const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
        char *end;
        unsigned long n = s && *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
        if (!n || *end || n > 4096)
                return -1;
        *ret = (unsigned)n;
        return 1;
}

int ctl_json_fail(struct ctl_json *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        char *m = NULL;
        if (vasprintf(&m, fmt, ap) < 0)
                m = NULL;
        va_end(ap);
        if (!c->err)
                c->err = xasprintf("%s output: %s", c->tool, m ? m : "out of memory");
        free(m);
        return -EINVAL;
}

json_object *ctl_json_doc(struct ctl_json *c, const char *buf, size_t len, bool trailing_ok)
{
        if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) { /* a byte-order mark: json-c refuses it */
                buf += 3;
                len -= 3;
        }
        if (len > INT32_MAX) {
                ctl_json_fail(c, "%zu bytes is too long to be one", len);
                return NULL;
        }
        json_tokener *t = json_tokener_new();
        json_object *j = json_tokener_parse_ex(t, buf, (int)len);
        enum json_tokener_error e = json_tokener_get_error(t);
        size_t used = json_tokener_get_parse_end(t);
        json_tokener_free(t);
        if (e == json_tokener_continue || (!j && e == json_tokener_success)) {
                ctl_json_fail(c, "the JSON ends early, after %zu bytes (truncated?): run the tool again", len);
                return NULL;
        }
        if (!j) {
                ctl_json_fail(c, "not JSON at byte %zu: %s", used, json_tokener_error_desc(e));
                return NULL;
        }
        while (used < len && strchr(" \t\r\n", buf[used]))
                used++;
        if (used < len && !trailing_ok) {
                json_object_put(j);
                ctl_json_fail(c, "more than one JSON document: something follows at byte %zu", used);
                return NULL;
        }
        return j;
}

int ctl_json_finish(struct ctl_json *c, struct ctl_list *l, size_t n0, char **ret_err)
{
        if (!c->err)
                return 0;
        ctl_truncate(l, n0);
        *ret_err = c->err;
        c->err = NULL;
        return -EINVAL;
}
