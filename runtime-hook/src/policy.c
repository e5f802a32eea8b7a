// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host policy (/etc/lsmns/policy.json): loading, matching, deciding.
 *
 * The policy is the only trusted input.  It is parsed strictly: unknown
 * members, wrong types and unknown LSM names are errors, so that a typo
 * cannot silently widen or narrow what containers get.  Rules are tried
 * in order; the first rule whose "match" matches decides alone.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_object_iterator.h>

#include "jsonutil.h"
#include "lsmns_hook.h"

#define PERR HOOK_ERR_POLICY

static int check_keys(struct json_object *obj, const char *const *allowed,
		      const char *what, struct hook_err *err)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		const char *const *a;

		for (a = allowed; *a; a++)
			if (!strcmp(*a, key))
				break;
		if (!*a)
			return hook_fail(err, PERR, "%s: unknown member \"%.64s\"",
					 what, key);
	}
	return 0;
}

static int check_pattern(const char *s, const char *what, struct hook_err *err)
{
	if (ctx_check(s, strlen(s), what, err))
		return hook_fail(err, PERR, "%s", err->msg);
	return 0;
}

/* A JSON string naming an LSM. */
static int lsm_of(struct json_object *v, const char *what,
		  struct hook_err *err)
{
	int l;

	if (!json_object_is_type(v, json_type_string))
		return hook_fail(err, PERR, "%s: expected an LSM name, got %s",
				 what, json_type_str(v));
	l = hook_lsm_by_name(json_object_get_string(v),
			     (size_t)json_object_get_string_len(v));
	if (l < 0)
		return hook_fail(err, PERR,
				 "%s: unknown LSM \"%.64s\" (known: selinux, smack, apparmor)",
				 what, json_object_get_string(v));
	return l;
}

/* ["selinux", "apparmor"] -> ordered list, no repeats. */
static int lsm_array(struct json_object *arr, const char *what,
		     struct lsm_list *out, bool nonempty, struct hook_err *err)
{
	size_t i, n;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(arr, json_type_array))
		return hook_fail(err, PERR, "%s must be an array of LSM names, not %s",
				 what, json_type_str(arr));
	n = json_object_array_length(arr);
	if (nonempty && n == 0)
		return hook_fail(err, PERR, "%s is empty", what);
	for (i = 0; i < n; i++) {
		int l = lsm_of(json_object_array_get_idx(arr, i), what, err);

		if (l < 0)
			return -1;
		if (out->mask & LSM_BIT(l))
			return hook_fail(err, PERR, "%s names %s twice", what,
					 hook_lsms[l].name);
		out->mask |= LSM_BIT(l);
		out->idx[out->n++] = l;
	}
	return 0;
}

static int get_name(struct json_object *obj, const char *key, const char *what,
		    char **out, struct hook_err *err)
{
	if (json_get_str(obj, key, false, HOOK_MAX_PATH_LEN, what, out, PERR,
			 err) < 0)
		return -1;
	if (*out)
		return check_pattern(*out, what, err);
	return 0;
}

static int parse_match(struct json_object *m, const char *what,
		       struct policy_match *pm, struct hook_err *err)
{
	static const char *const keys[] = {
		"annotations", "id", "bundle", "root_path", "image", NULL
	};
	struct json_object *ann;
	size_t i;

	if (check_keys(m, keys, what, err) ||
	    get_name(m, "id", what, &pm->id, err) ||
	    get_name(m, "bundle", what, &pm->bundle, err) ||
	    get_name(m, "root_path", what, &pm->root_path, err) ||
	    get_name(m, "image", what, &pm->image, err))
		return -1;
	if (json_get_obj(m, "annotations", false, what, &ann, PERR, err) < 0)
		return -1;
	if (ann) {
		if (json_to_kv(ann, HOOK_MAX_CTX_LEN, what, &pm->annotations,
			       PERR, err))
			return -1;
		for (i = 0; i < pm->annotations.n; i++)
			if (check_pattern(pm->annotations.v[i].value, what, err))
				return -1;
	}
	return 0;
}

static int parse_patterns(struct json_object *arr, const char *what,
			  struct pattern_list *pl, struct hook_err *err)
{
	size_t i, n;

	if (!json_object_is_type(arr, json_type_array))
		return hook_fail(err, PERR, "%s must be an array of patterns, not %s",
				 what, json_type_str(arr));
	n = json_object_array_length(arr);
	if (n > HOOK_MAX_PATTERNS)
		return hook_fail(err, PERR, "%s has more than %d patterns", what,
				 HOOK_MAX_PATTERNS);
	pl->p = calloc(n ? n : 1, sizeof(*pl->p));
	if (!pl->p)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(v, json_type_string))
			return hook_fail(err, PERR, "%s: pattern must be a string, not %s",
					 what, json_type_str(v));
		if (check_pattern(json_object_get_string(v), what, err))
			return -1;
		pl->p[i] = strdup(json_object_get_string(v));
		if (!pl->p[i])
			return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
		pl->n++;
	}
	return 0;
}

/* {"selinux": X, ...} calling @fn for each member. */
static int per_lsm(struct json_object *obj, const char *what,
		   int (*fn)(struct policy_rule *, int, struct json_object *,
			     const char *, struct hook_err *),
		   struct policy_rule *r, struct hook_err *err)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);
	char w[HOOK_MAX_NAME_LEN + 96];

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		int l = hook_lsm_by_name(key, strlen(key));

		if (l < 0)
			return hook_fail(err, PERR, "%s: unknown LSM \"%.64s\"",
					 what, key);
		snprintf(w, sizeof(w), "%s.%s", what, key);
		if (fn(r, l, json_object_iter_peek_value(&it), w, err))
			return -1;
	}
	return 0;
}

static int one_contexts(struct policy_rule *r, int l, struct json_object *v,
			const char *what, struct hook_err *err)
{
	return parse_patterns(v, what, &r->contexts[l], err);
}

static int one_hidden(struct policy_rule *r, int l, struct json_object *v,
		      const char *what, struct hook_err *err)
{
	r->hidden_set[l] = true;
	if (json_object_is_type(v, json_type_null))
		return 0;	/* inherit */
	if (!json_object_is_type(v, json_type_string))
		return hook_fail(err, PERR, "%s must be a context string or null, not %s",
				 what, json_type_str(v));
	if (check_pattern(json_object_get_string(v), what, err))
		return -1;
	r->hidden[l] = strdup(json_object_get_string(v));
	if (!r->hidden[l])
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	return 0;
}

static int one_default_ctx(struct policy_rule *r, int l, struct json_object *v,
			   const char *what, struct hook_err *err)
{
	if (!json_object_is_type(v, json_type_string))
		return hook_fail(err, PERR, "%s must be a context string, not %s",
				 what, json_type_str(v));
	if (check_pattern(json_object_get_string(v), what, err))
		return -1;
	if (!(r->default_req.active.mask & LSM_BIT(l)))
		return hook_fail(err, PERR, "%s: %s is not in default.lsm", what,
				 hook_lsms[l].name);
	r->default_req.ctx[l] = strdup(json_object_get_string(v));
	if (!r->default_req.ctx[l])
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	return 0;
}

static int parse_default(struct json_object *v, const char *what,
			 struct policy_rule *r, struct hook_err *err)
{
	static const char *const keys[] = {
		"lsm", "contexts", "release", "interface", NULL
	};
	struct lsm_request *d = &r->default_req;
	struct json_object *m;
	char w[HOOK_MAX_NAME_LEN + 96];
	struct lsm_list rel;
	int l;

	if (json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		if (!strcmp(s, "refuse"))
			r->default_action = POLICY_DEFAULT_REFUSE;
		else if (!strcmp(s, "none"))
			r->default_action = POLICY_DEFAULT_NONE;
		else
			return hook_fail(err, PERR,
					 "%s must be \"refuse\", \"none\" or an object, not \"%.64s\"",
					 what, s);
		return 0;
	}
	if (!json_object_is_type(v, json_type_object))
		return hook_fail(err, PERR,
				 "%s must be \"refuse\", \"none\" or an object, not %s",
				 what, json_type_str(v));
	r->default_action = POLICY_DEFAULT_ASSIGN;
	d->present = true;
	if (check_keys(v, keys, what, err))
		return -1;
	snprintf(w, sizeof(w), "%s.lsm", what);
	if (!json_object_object_get_ex(v, "lsm", &m))
		return hook_fail(err, PERR, "%s: missing \"lsm\"", what);
	if (lsm_array(m, w, &d->active, true, err))
		return -1;
	snprintf(w, sizeof(w), "%s.contexts", what);
	if (json_get_obj(v, "contexts", false, w, &m, PERR, err) < 0 ||
	    (m && per_lsm(m, w, one_default_ctx, r, err)))
		return -1;
	if (json_object_object_get_ex(v, "release", &m)) {
		snprintf(w, sizeof(w), "%s.release", what);
		if (lsm_array(m, w, &rel, false, err))
			return -1;
		if (rel.mask & d->active.mask)
			return hook_fail(err, PERR,
					 "%s: an LSM cannot be both active and released",
					 w);
		d->release_mask = rel.mask;
	}
	if (json_object_object_get_ex(v, "interface", &m)) {
		snprintf(w, sizeof(w), "%s.interface", what);
		l = lsm_of(m, w, err);
		if (l < 0)
			return -1;
		if (!(d->active.mask & LSM_BIT(l)))
			return hook_fail(err, PERR, "%s: %s is not in %s.lsm", w,
					 hook_lsms[l].name, what);
		d->interface = l;
	}
	return 0;
}

static int parse_rule(struct json_object *o, size_t idx, struct policy_rule *r,
		      struct hook_err *err)
{
	static const char *const keys[] = {
		"name", "comment", "match", "active", "contexts", "hidden",
		"release", "interface", "selinux_mcs", "default", NULL
	};
	char what[HOOK_MAX_NAME_LEN + 32], w[HOOK_MAX_NAME_LEN + 64], *c = NULL;
	struct json_object *m;
	struct lsm_list list;
	size_t i, n;

	r->default_req.interface = -1;
	snprintf(what, sizeof(what), "policy rules[%zu]", idx);
	if (!json_object_is_type(o, json_type_object))
		return hook_fail(err, PERR, "%s must be an object, not %s", what,
				 json_type_str(o));
	if (json_get_str(o, "name", true, HOOK_MAX_NAME_LEN, what, &r->name,
			 PERR, err) < 0)
		return -1;
	if (check_pattern(r->name, what, err))
		return -1;
	snprintf(what, sizeof(what), "policy rule \"%s\"", r->name);
	if (check_keys(o, keys, what, err))
		return -1;
	if (json_get_str(o, "comment", false, HOOK_MAX_VALUE_LEN, what, &c,
			 PERR, err) < 0)
		return -1;
	free(c);

	snprintf(w, sizeof(w), "%s match", what);
	if (json_get_obj(o, "match", false, w, &m, PERR, err) < 0 ||
	    (m && parse_match(m, w, &r->match, err)))
		return -1;

	if (json_object_object_get_ex(o, "active", &m)) {
		snprintf(w, sizeof(w), "%s active", what);
		if (!json_object_is_type(m, json_type_array))
			return hook_fail(err, PERR,
					 "%s must be an array of LSM sets, not %s",
					 w, json_type_str(m));
		n = json_object_array_length(m);
		if (n > HOOK_MAX_PATTERNS)
			return hook_fail(err, PERR, "%s has more than %d sets",
					 w, HOOK_MAX_PATTERNS);
		r->active_sets = calloc(n ? n : 1, sizeof(*r->active_sets));
		if (!r->active_sets)
			return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
		for (i = 0; i < n; i++) {
			if (lsm_array(json_object_array_get_idx(m, i), w, &list,
				      true, err))
				return -1;
			r->active_sets[r->nactive_sets++] = list.mask;
		}
	}

	snprintf(w, sizeof(w), "%s contexts", what);
	if (json_get_obj(o, "contexts", false, w, &m, PERR, err) < 0 ||
	    (m && per_lsm(m, w, one_contexts, r, err)))
		return -1;
	snprintf(w, sizeof(w), "%s hidden", what);
	if (json_get_obj(o, "hidden", false, w, &m, PERR, err) < 0 ||
	    (m && per_lsm(m, w, one_hidden, r, err)))
		return -1;
	if (json_object_object_get_ex(o, "release", &m)) {
		snprintf(w, sizeof(w), "%s release", what);
		if (lsm_array(m, w, &list, false, err))
			return -1;
		r->release_mask = list.mask;
	}
	if (json_object_object_get_ex(o, "interface", &m)) {
		snprintf(w, sizeof(w), "%s interface", what);
		if (lsm_array(m, w, &list, true, err))
			return -1;
		r->interface_mask = list.mask;
	}
	if (json_object_object_get_ex(o, "selinux_mcs", &m)) {
		if (!json_object_is_type(m, json_type_string) ||
		    strcmp(json_object_get_string(m), "runtime"))
			return hook_fail(err, PERR,
					 "%s selinux_mcs must be \"runtime\" (the only scheme there is)",
					 what);
		r->selinux_mcs_runtime = true;
	}
	r->default_action = POLICY_DEFAULT_REFUSE;
	if (json_object_object_get_ex(o, "default", &m)) {
		snprintf(w, sizeof(w), "%s default", what);
		if (parse_default(m, w, r, err))
			return -1;
	}
	return 0;
}

int policy_parse(const char *buf, size_t len, struct policy *pol,
		 struct hook_err *err)
{
	static const char *const keys[] = { "version", "comment", "rules", NULL };
	struct json_object *root, *v;
	size_t i, n;
	int ret = -1;

	memset(pol, 0, sizeof(*pol));
	if (json_parse_buffer(buf, len, "policy", &root, PERR, err))
		return -1;
	if (check_keys(root, keys, "policy", err))
		goto out;
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != 1) {
		hook_fail(err, PERR, "policy: \"version\" must be the integer 1");
		goto out;
	}
	if (json_object_object_get_ex(root, "comment", &v) &&
	    !json_object_is_type(v, json_type_string)) {
		hook_fail(err, PERR, "policy: \"comment\" must be a string");
		goto out;
	}
	if (!json_object_object_get_ex(root, "rules", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		hook_fail(err, PERR, "policy: \"rules\" must be an array");
		goto out;
	}
	n = json_object_array_length(v);
	if (n > HOOK_MAX_RULES) {
		hook_fail(err, PERR, "policy: more than %d rules", HOOK_MAX_RULES);
		goto out;
	}
	pol->rules = calloc(n ? n : 1, sizeof(*pol->rules));
	if (!pol->rules) {
		hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct policy_rule *r = &pol->rules[pol->nrules++];
		struct lsm_assignment a;
		size_t k;

		if (parse_rule(json_object_array_get_idx(v, i), i, r, err))
			goto out;
		for (k = 0; k < i; k++)
			if (!strcmp(pol->rules[k].name, r->name)) {
				hook_fail(err, PERR,
					  "policy: two rules are named \"%s\"",
					  r->name);
				goto out;
			}
		/* A default must itself be allowed by its rule. */
		if (r->default_action == POLICY_DEFAULT_ASSIGN &&
		    policy_check(r, &r->default_req, NULL, &a, err)) {
			char msg[HOOK_MSG_LEN];

			memcpy(msg, err->msg, sizeof(msg));
			hook_fail(err, PERR,
				  "policy rule \"%s\": its default is not allowed by the rule: %s",
				  r->name, msg);
			goto out;
		}
	}
	ret = 0;
out:
	json_done(root);
	if (ret)
		policy_free(pol);
	return ret;
}

static void rule_free(struct policy_rule *r)
{
	size_t i;
	int l;

	free(r->name);
	kv_list_free(&r->match.annotations);
	free(r->match.id);
	free(r->match.bundle);
	free(r->match.root_path);
	free(r->match.image);
	free(r->active_sets);
	for (l = 0; l < HOOK_LSM_COUNT; l++) {
		for (i = 0; i < r->contexts[l].n; i++)
			free(r->contexts[l].p[i]);
		free(r->contexts[l].p);
		free(r->hidden[l]);
	}
	request_free(&r->default_req);
}

void policy_free(struct policy *pol)
{
	size_t i;

	for (i = 0; i < pol->nrules; i++)
		rule_free(&pol->rules[i]);
	free(pol->rules);
	memset(pol, 0, sizeof(*pol));
}

/* ---- matching ---------------------------------------------------------- */

static bool glob(const char *pattern, const char *s)
{
	return s && fnmatch(pattern, s, 0) == 0;
}

static const char *image_of(const struct kv_list *ann)
{
	const struct kv *e = kv_find(ann, ANN_IMAGE_CRIO);

	if (!e)
		e = kv_find(ann, ANN_IMAGE_CRI);
	if (!e || strlen(e->value) != e->value_len)
		return NULL;
	return e->value;
}

/*
 * Why @r does not match: the first condition that fails, with the value
 * seen and the pattern wanted, into @why.  Returns true if it matches.
 */
bool policy_rule_explain_match(const struct policy_rule *r,
			       const struct oci_state *st,
			       const struct oci_config *cfg,
			       char *why, size_t size)
{
	const struct policy_match *m = &r->match;
	const struct kv_list *ann = request_annotations(st, cfg);
	const char *root = cfg ? cfg->root_path : NULL;
	size_t i;

	if (size)
		why[0] = '\0';
	if (m->id && !glob(m->id, st->id)) {
		snprintf(why, size, "id \"%.64s\" does not match \"%.64s\"",
			 st->id ? st->id : "", m->id);
		return false;
	}
	if (m->bundle && !glob(m->bundle, st->bundle)) {
		snprintf(why, size, "bundle \"%.96s\" does not match \"%.96s\"",
			 st->bundle ? st->bundle : "", m->bundle);
		return false;
	}
	if (m->root_path && !glob(m->root_path, root)) {
		if (root)
			snprintf(why, size, "root_path \"%.96s\" does not match \"%.96s\"",
				 root, m->root_path);
		else
			snprintf(why, size, "root_path: config.json has no root.path (rule wants \"%.96s\")",
				 m->root_path);
		return false;
	}
	if (m->image && !glob(m->image, image_of(ann))) {
		if (image_of(ann))
			snprintf(why, size, "image \"%.96s\" does not match \"%.96s\"",
				 image_of(ann), m->image);
		else
			snprintf(why, size, "image: no " ANN_IMAGE_CRIO " or " ANN_IMAGE_CRI " annotation (rule wants \"%.96s\")",
				 m->image);
		return false;
	}
	for (i = 0; i < m->annotations.n; i++) {
		const char *key = m->annotations.v[i].key;
		const struct kv *e = kv_find(ann, key);

		if (!e) {
			snprintf(why, size, "annotation %.96s is absent (rule wants \"%.64s\")",
				 key, m->annotations.v[i].value);
			return false;
		}
		if (strlen(e->value) != e->value_len ||
		    !glob(m->annotations.v[i].value, e->value)) {
			snprintf(why, size, "annotation %.96s \"%.64s%s\" does not match \"%.64s\"",
				 key, e->value, e->value_len > 64 ? "..." : "",
				 m->annotations.v[i].value);
			return false;
		}
	}
	return true;
}

static bool rule_matches(const struct policy_rule *r,
			 const struct oci_state *st,
			 const struct oci_config *cfg)
{
	char why[512];

	return policy_rule_explain_match(r, st, cfg, why, sizeof(why));
}

const struct policy_rule *policy_match(const struct policy *pol,
				       const struct oci_state *st,
				       const struct oci_config *cfg)
{
	size_t i;

	for (i = 0; i < pol->nrules; i++)
		if (rule_matches(&pol->rules[i], st, cfg))
			return &pol->rules[i];
	return NULL;
}

/* ---- deciding ---------------------------------------------------------- */

static const char *spec_label(const struct oci_config *cfg, int l)
{
	if (!cfg)
		return NULL;
	if (l == HOOK_LSM_SELINUX)
		return cfg->selinux_label;
	if (l == HOOK_LSM_APPARMOR)
		return cfg->apparmor_profile;
	return NULL;
}

static bool pattern_ok(const struct pattern_list *pl, const char *s)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (glob(pl->p[i], s))
			return true;
	return false;
}

bool selinux_level_is_pair(const char *ctx)
{
	const char *p = ctx;
	unsigned long c[2];
	int i, colons = 0;

	for (; *p && colons < 3; p++)
		colons += *p == ':';
	if (colons < 3 || strncmp(p, "s0:c", 4))
		return false;
	p += 4;
	for (i = 0; i < 2; i++) {
		char *end;

		if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
			return false;
		c[i] = strtoul(p, &end, 10);
		if (c[i] > 1023)
			return false;
		p = end;
		if (i == 0) {
			if (strncmp(p, ",c", 2))
				return false;
			p += 2;
		}
	}
	return *p == '\0' && c[0] < c[1];
}

/* "{selinux} or {apparmor}", or "none" */
static const char *sets_str(const struct policy_rule *r, char *buf, size_t size)
{
	size_t i, o = 0;
	char b[64];

	if (size)
		buf[0] = '\0';
	for (i = 0; i < r->nactive_sets && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s{%s}", i ? " or " : "",
				      lsm_mask_str(r->active_sets[i], b, sizeof(b)));
	if (!r->nactive_sets)
		snprintf(buf, size, "no set: this rule allows no request");
	return buf;
}

/* "\"p1\", \"p2\"", or "none" */
static const char *patterns_str(const struct pattern_list *pl, char *buf,
				size_t size)
{
	size_t i, o = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < pl->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s\"%.96s\"",
				      i ? ", " : "", pl->p[i]);
	if (!pl->n)
		snprintf(buf, size, "none");
	return buf;
}

int policy_check(const struct policy_rule *r, const struct lsm_request *req,
		 const struct oci_config *cfg, struct lsm_assignment *a,
		 struct hook_err *err)
{
	char b[64], allowed[320];
	size_t i;
	int l;

	memset(a, 0, sizeof(*a));
	a->rule = r->name;
	a->interface = -1;

	for (i = 0; i < r->nactive_sets; i++)
		if (r->active_sets[i] == req->active.mask)
			break;
	if (i == r->nactive_sets)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "active LSM set {%s} is not allowed by policy rule \"%s\" (it allows %s): ask for an allowed set in " ANN_LSM " or add the set to the rule's \"active\"",
				 lsm_mask_str(req->active.mask, b, sizeof(b)),
				 r->name, sets_str(r, allowed, sizeof(allowed)));

	if (req->release_mask & ~r->release_mask)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "releasing %s is not allowed by policy rule \"%s\" (it allows releasing: %s): drop it from " ANN_RELEASE " or add it to the rule's \"release\"",
				 lsm_mask_str(req->release_mask & ~r->release_mask,
					      b, sizeof(b)),
				 r->name,
				 lsm_mask_str(r->release_mask, allowed, sizeof(allowed)));

	a->interface = req->interface >= 0 ? req->interface : req->active.idx[0];
	if (r->interface_mask && !(r->interface_mask & LSM_BIT(a->interface)))
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "interface LSM %s is not allowed by policy rule \"%s\" (it allows %s; without " ANN_INTERFACE " the first LSM of " ANN_LSM " is the interface)",
				 hook_lsms[a->interface].name, r->name,
				 lsm_mask_str(r->interface_mask, allowed, sizeof(allowed)));

	for (l = 0; l < HOOK_LSM_COUNT; l++) {
		const char *spec = spec_label(cfg, l);
		__u32 mode;
		const char *ctx;

		if (req->active.mask & LSM_BIT(l)) {
			mode = LSMNS_MODE_ACTIVE;
			ctx = req->ctx[l];
			if (l == HOOK_LSM_SELINUX && r->selinux_mcs_runtime) {
				if (!spec || !ctx || strcmp(spec, ctx))
					return hook_fail(err, HOOK_ERR_REFUSED,
							 "policy rule \"%s\" takes SELinux categories from the runtime (selinux_mcs \"runtime\") but %s: let the runtime allocate the pair (CRI-O and podman do when the pod sets no seLinuxOptions.level)",
							 r->name,
							 spec ? "config.json process.selinuxLabel differs from the request"
							      : "config.json has no process.selinuxLabel");
				if (!selinux_level_is_pair(ctx))
					return hook_fail(err, HOOK_ERR_REFUSED,
							 "selinux context \"%.256s\" is not one category pair s0:cN,cM, which policy rule \"%s\" requires (selinux_mcs \"runtime\")",
							 ctx, r->name);
			}
			if (!ctx)
				return hook_fail(err, HOOK_ERR_REFUSED,
						 "no %s context requested for active LSM %s (set annotation %s)",
						 hook_lsms[l].name, hook_lsms[l].name,
						 hook_lsms[l].ctx_key);
			if (!pattern_ok(&r->contexts[l], ctx))
				return hook_fail(err, HOOK_ERR_REFUSED,
						 "%s context \"%.256s\" is not allowed by policy rule \"%s\" (its %s patterns: %s)",
						 hook_lsms[l].name, ctx, r->name,
						 hook_lsms[l].name,
						 patterns_str(&r->contexts[l], allowed, sizeof(allowed)));
		} else if (req->release_mask & LSM_BIT(l)) {
			mode = LSMNS_MODE_RELEASED;
			ctx = NULL;
		} else if (r->hidden[l]) {
			mode = LSMNS_MODE_HIDDEN;
			ctx = r->hidden[l];
		} else {
			/* hidden, inherited context: the kernel's default */
			continue;
		}

		if (spec && mode == LSMNS_MODE_RELEASED)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "config.json sets process.%s but %s is to be released",
					 hook_lsms[l].spec_field, hook_lsms[l].name);
		if (spec && strcmp(spec, ctx))
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "config.json process.%s \"%.128s\" conflicts with the %s %s context \"%.128s\"",
					 hook_lsms[l].spec_field, spec,
					 hook_mode_name(mode), hook_lsms[l].name,
					 ctx);
		a->e[a->n].lsm = l;
		a->e[a->n].mode = mode;
		a->e[a->n].ctx = ctx;
		a->n++;
	}
	return 0;
}

/*
 * Every rule was tried: say, rule by rule, which condition failed, as far
 * as one line holds, and what to change.
 */
static int no_rule_matches(const struct policy *pol, const struct oci_state *st,
			   const struct oci_config *cfg, struct hook_err *err)
{
	char line[HOOK_MSG_LEN - 200], why[512];
	size_t i, o = 0;

	line[0] = '\0';
	for (i = 0; i < pol->nrules; i++) {
		int n;

		policy_rule_explain_match(&pol->rules[i], st, cfg, why, sizeof(why));
		n = snprintf(line + o, sizeof(line) - o, "%s\"%.64s\": %s",
			     i ? "; " : "", pol->rules[i].name, why);
		if (n < 0 || (size_t)n >= sizeof(line) - o) {
			line[o] = '\0';
			snprintf(line + o, sizeof(line) - o, "%s%zu more",
				 i ? "; and " : "", pol->nrules - i);
			break;
		}
		o += (size_t)n;
	}
	if (!pol->nrules)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "no policy rule matches this container: the policy has no rules (add one; lsmns explain shows what a container would get)");
	return hook_fail(err, HOOK_ERR_REFUSED,
			 "no policy rule matches this container (%zu tried: %s): add a rule whose \"match\" fits it, or a last catch-all rule {\"name\": \"rest\", \"default\": \"none\"}",
			 pol->nrules, line);
}

/* "annotation K \"v\", root_path \"p\"": what @r matched on; 0 if nothing. */
static size_t match_summary(const struct policy_rule *r,
			    const struct oci_state *st,
			    const struct oci_config *cfg, char *buf, size_t size)
{
	const struct policy_match *m = &r->match;
	const struct kv_list *ann = request_annotations(st, cfg);
	size_t i, o = 0, n = 0;

	buf[0] = '\0';
#define ADD(...) do { if (o < size) o += (size_t)snprintf(buf + o, size - o, __VA_ARGS__); n++; } while (0)
	for (i = 0; i < m->annotations.n; i++) {
		const struct kv *e = kv_find(ann, m->annotations.v[i].key);

		ADD("%sannotation %.96s \"%.64s\"", n ? ", " : "",
		    m->annotations.v[i].key, e ? e->value : "");
	}
	if (m->image)
		ADD("%simage \"%.96s\"", n ? ", " : "", image_of(ann));
	if (m->root_path)
		ADD("%sroot_path \"%.96s\"", n ? ", " : "", cfg ? cfg->root_path : "");
	if (m->bundle)
		ADD("%sbundle \"%.96s\"", n ? ", " : "", st->bundle);
	if (m->id)
		ADD("%sid \"%.64s\"", n ? ", " : "", st->id);
#undef ADD
	return n;
}

int policy_decide(const struct policy *pol, const struct oci_state *st,
		  const struct oci_config *cfg, const struct lsm_request *req,
		  struct lsm_assignment *a, struct hook_err *err)
{
	const struct policy_rule *r = policy_match(pol, st, cfg);
	char on[512];

	memset(a, 0, sizeof(*a));
	a->interface = -1;
	if (!r)
		return no_rule_matches(pol, st, cfg, err);
	a->rule = r->name;
	if (req->present)
		return policy_check(r, req, cfg, a, err);
	switch (r->default_action) {
	case POLICY_DEFAULT_NONE:
		a->none = true;
		return 0;
	case POLICY_DEFAULT_ASSIGN:
		return policy_check(r, &r->default_req, cfg, a, err);
	case POLICY_DEFAULT_REFUSE:
	default:
		if (match_summary(r, st, cfg, on, sizeof(on)))
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "no " ANN_LSM " request, and policy rule \"%s\", which this container matches on %s, refuses containers without one: the container was meant to ask for an LSM namespace; if its pod or spec has the org.lsmns.* annotations, something dropped them on the way (a workload template, the runtime's allowed annotations)",
					 r->name, on);
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "no " ANN_LSM " request and policy rule \"%s\" has no default: add " ANN_LSM " to the container, or a \"default\" to the rule",
				 r->name);
	}
}
