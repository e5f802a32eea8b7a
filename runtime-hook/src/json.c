// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json-c glue: strict whole-buffer parsing and typed getters.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_object_iterator.h>

#include "jsonutil.h"
#include "lsmns_hook.h"

/*
 * json-c keeps object keys as C strings: "a\u0000b" would silently become
 * "a" and shadow another key.  No input of ours has a reason to carry NUL.
 */
static bool has_escaped_nul(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	/* memchr to the next backslash: most of a document has none */
	while ((p = memchr(p, '\\', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == 'u' && end - p > 5 && !memcmp(p + 2, "0000", 4))
			return true;
		p += 2;	/* skip the escaped character */
	}
	return false;
}

int json_parse_buffer(const char *buf, size_t len, const char *what,
		      struct json_object **out, enum hook_status status,
		      struct hook_err *err)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	size_t end;

	if (len == 0)
		return hook_fail(err, status, "%s is empty", what);
	if (len > INT32_MAX)
		return hook_fail(err, status, "%s is too large", what);
	if (memchr(buf, '\0', len))
		return hook_fail(err, status, "%s contains a NUL byte", what);
	if (has_escaped_nul(buf, len))
		return hook_fail(err, status,
				 "%s contains an escaped NUL (\\u0000)", what);
	tok = json_tokener_new_ex(HOOK_MAX_JSON_DEPTH);
	if (!tok)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!obj || jerr != json_tokener_success) {
		json_object_put(obj);
		if (jerr == json_tokener_continue)
			return hook_fail(err, status,
					 "%s: invalid JSON: unexpected end of input",
					 what);
		return hook_fail(err, status, "%s: invalid JSON at byte %zu: %s",
				 what, end, json_tokener_error_desc(jerr));
	}
	for (; end < len; end++) {
		if (!strchr(" \t\r\n", buf[end])) {
			json_object_put(obj);
			return hook_fail(err, status,
					 "%s: trailing data after JSON at byte %zu",
					 what, end);
		}
	}
	if (!json_object_is_type(obj, json_type_object)) {
		const char *t = json_type_str(obj);

		json_object_put(obj);
		return hook_fail(err, status, "%s: expected a JSON object, got %s",
				 what, t);
	}
	*out = obj;
	return 0;
}

bool json_trees_die_with_process;

void json_done(struct json_object *root)
{
	if (!json_trees_die_with_process)
		json_object_put(root);
}

const char *json_type_str(struct json_object *o)
{
	return json_type_to_name(json_object_get_type(o));
}

int json_get_str(struct json_object *obj, const char *key, bool required,
		 size_t max, const char *what, char **out,
		 enum hook_status status, struct hook_err *err)
{
	struct json_object *v;
	const char *s;
	size_t len;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			return hook_fail(err, status, "%s: missing \"%s\"",
					 what, key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return hook_fail(err, status,
				 "%s: \"%s\" must be a string, not %s",
				 what, key, json_type_str(v));
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (strlen(s) != len)
		return hook_fail(err, status, "%s: \"%s\" contains a NUL byte",
				 what, key);
	if (len > max)
		return hook_fail(err, status,
				 "%s: \"%s\" is longer than %zu bytes",
				 what, key, max);
	*out = strdup(s);
	if (!*out)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	return 1;
}

int json_get_obj(struct json_object *obj, const char *key, bool required,
		 const char *what, struct json_object **out,
		 enum hook_status status, struct hook_err *err)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			return hook_fail(err, status, "%s: missing \"%s\"",
					 what, key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_object))
		return hook_fail(err, status,
				 "%s: \"%s\" must be an object, not %s",
				 what, key, json_type_str(v));
	*out = v;
	return 1;
}

int json_to_kv(struct json_object *obj, size_t max_value, const char *what,
	       struct kv_list *l, enum hook_status status,
	       struct hook_err *err)
{
	struct json_object_iterator it, end;
	size_t n = (size_t)json_object_object_length(obj), total = 0;

	l->v = NULL;
	l->n = 0;
	if (n > HOOK_MAX_ANNOTATIONS)
		return hook_fail(err, status, "%s: more than %d entries",
				 what, HOOK_MAX_ANNOTATIONS);
	if (n == 0)
		return 0;
	l->v = calloc(n, sizeof(*l->v));
	if (!l->v)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	it = json_object_iter_begin(obj);
	end = json_object_iter_end(obj);
	for (; !json_object_iter_equal(&it, &end) && l->n < n;
	     json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		struct kv *e = &l->v[l->n];
		size_t klen = strlen(key), vlen;

		if (klen == 0 || klen > HOOK_MAX_KEY_LEN)
			return hook_fail(err, status,
					 "%s: key of %zu bytes (must be 1..%d)",
					 what, klen, HOOK_MAX_KEY_LEN);
		if (!json_object_is_type(v, json_type_string))
			return hook_fail(err, status,
					 "%s: \"%.128s\" must be a string, not %s",
					 what, key, json_type_str(v));
		vlen = (size_t)json_object_get_string_len(v);
		if (vlen > max_value)
			return hook_fail(err, status,
					 "%s: \"%.128s\" is longer than %zu bytes",
					 what, key, max_value);
		total += klen + vlen;
		if (total > HOOK_MAX_ANNOTATIONS_SIZE)
			return hook_fail(err, status,
					 "%s: keys and values together exceed %d bytes (at \"%.128s\"; Kubernetes allows 262144)",
					 what, HOOK_MAX_ANNOTATIONS_SIZE, key);
		e->key = strdup(key);
		e->value = malloc(vlen + 1);
		if (!e->key || !e->value) {
			free(e->key);
			free(e->value);
			return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
		}
		memcpy(e->value, json_object_get_string(v), vlen);
		e->value[vlen] = '\0';
		e->value_len = vlen;
		l->n++;
	}
	return 0;
}

const struct kv *kv_find(const struct kv_list *l, const char *key)
{
	size_t i;

	for (i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return &l->v[i];
	return NULL;
}

void kv_list_free(struct kv_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
