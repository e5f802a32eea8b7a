/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed access to json-c objects: every getter checks the type and the
 * size and reports a precise error.  Used by state.c and policy.c only.
 */
#ifndef LSMNS_HOOK_JSONUTIL_H
#define LSMNS_HOOK_JSONUTIL_H

#include <json-c/json.h>

#include "lsmns_hook.h"

/*
 * Get member @key of object @obj as a string copied into *@out.
 * Returns 1 if present, 0 if absent (and !@required), -1 on error.
 * The string may not contain NUL bytes and is at most @max bytes.
 */
int json_get_str(struct json_object *obj, const char *key, bool required,
		 size_t max, const char *what, char **out,
		 enum hook_status status, struct hook_err *err);

/* Member @key as a JSON object (or absent).  Same return convention. */
int json_get_obj(struct json_object *obj, const char *key, bool required,
		 const char *what, struct json_object **out,
		 enum hook_status status, struct hook_err *err);

/* Copy a JSON object of strings into @l (values may contain NUL). */
int json_to_kv(struct json_object *obj, size_t max_value, const char *what,
	       struct kv_list *l, enum hook_status status,
	       struct hook_err *err);

const char *json_type_str(struct json_object *o);

/*
 * A parsed document done with: freed, unless json_trees_die_with_process
 * is set.  The hook sets it: it exits right after its one decision, and
 * walking json-c's trees to free them was a quarter of its instructions.
 * Everything that parses more than once (lsmns, the tests, the fuzzer)
 * leaves it unset.
 */
extern bool json_trees_die_with_process;
void json_done(struct json_object *root);

#endif /* LSMNS_HOOK_JSONUTIL_H */
