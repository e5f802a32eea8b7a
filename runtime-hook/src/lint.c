// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Policy lint: a policy the hook accepts can still say something its
 * author did not mean.  Each finding is one line, "warning: rule "x": ..."
 * (counted) or "note: ..." (how the policy behaves, not counted).
 *
 * The checks are conservative: a rule is called unreachable only when an
 * earlier rule provably matches every container it matches; a pattern is
 * said to grant every category only when it matches a probe context
 * holding the full category range.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lsmns_hook.h"

static bool has_glob(const char *p)
{
	return strpbrk(p, "*?[\\") != NULL;
}

/* Every string @later matches, @earlier matches too (NULL: no condition). */
static bool covers(const char *earlier, const char *later)
{
	if (!earlier)
		return true;
	if (!later)
		return false;
	if (!strcmp(earlier, later) || !strcmp(earlier, "*"))
		return true;
	return !has_glob(later) && fnmatch(earlier, later, 0) == 0;
}

/* No string matches both (only provable for literals). */
static bool disjoint(const char *x, const char *y)
{
	if (!x || !y)
		return false;
	if (!has_glob(x))
		return fnmatch(y, x, 0) != 0;
	if (!has_glob(y))
		return fnmatch(x, y, 0) != 0;
	return false;
}

static const char *ann_pattern(const struct policy_match *m, const char *key)
{
	const struct kv *e = kv_find(&m->annotations, key);

	return e ? e->value : NULL;
}

static bool match_covers(const struct policy_match *a, const struct policy_match *b)
{
	size_t i;

	if (!covers(a->id, b->id) || !covers(a->bundle, b->bundle) ||
	    !covers(a->root_path, b->root_path) || !covers(a->image, b->image))
		return false;
	for (i = 0; i < a->annotations.n; i++)
		if (!covers(a->annotations.v[i].value,
			    ann_pattern(b, a->annotations.v[i].key)))
			return false;
	return true;
}

static bool match_disjoint(const struct policy_match *a, const struct policy_match *b)
{
	size_t i;

	if (disjoint(a->id, b->id) || disjoint(a->bundle, b->bundle) ||
	    disjoint(a->root_path, b->root_path) || disjoint(a->image, b->image))
		return true;
	for (i = 0; i < a->annotations.n; i++)
		if (disjoint(a->annotations.v[i].value,
			     ann_pattern(b, a->annotations.v[i].key)))
			return true;
	return false;
}

static bool match_empty(const struct policy_match *m)
{
	return !m->id && !m->bundle && !m->root_path && !m->image &&
	       !m->annotations.n;
}

/*
 * The user:role:type part of @p to build probes on: the pattern's own,
 * when it has three fields before the level, else a container type.
 */
static void selinux_prefix(const char *p, char *buf, size_t size)
{
	const char *c = p;
	int colons = 0;

	for (; *c && colons < 3; c++)
		colons += *c == ':';
	if (colons == 3 && (size_t)(c - p) < size) {
		memcpy(buf, p, (size_t)(c - p));
		buf[c - p] = '\0';
		/* a glob in the type: any type will do to probe the level */
		if (has_glob(buf))
			snprintf(buf, size, "system_u:system_r:container_t:");
	} else {
		snprintf(buf, size, "system_u:system_r:container_t:");
	}
}

static bool probe(const char *pattern, const char *prefix, const char *level)
{
	char s[512];

	snprintf(s, sizeof(s), "%s%s", prefix, level);
	return fnmatch(pattern, s, 0) == 0;
}

struct lint {
	FILE *out;
	size_t warnings;
};

__attribute__((format(printf, 3, 4)))
static void finding(struct lint *l, bool warning, const char *fmt, ...)
{
	va_list ap;

	fputs(warning ? "warning: " : "note: ", l->out);
	va_start(ap, fmt);
	vfprintf(l->out, fmt, ap);
	va_end(ap);
	fputc('\n', l->out);
	if (warning)
		l->warnings++;
}

/* An SELinux context or pattern @p of rule @r, used as @what. */
static void lint_selinux(struct lint *l, const struct policy_rule *r,
			 const char *p, const char *what)
{
	static const char *const all[] = {
		"s0:c0.c1023", "s0-s0:c0.c1023", "s0:c0.c1022,c1023",
	};
	char pre[256];
	size_t i;

	/* the hook itself refuses all but one pair under selinux_mcs */
	if (r->selinux_mcs_runtime && !strcmp(what, "context pattern"))
		return;
	selinux_prefix(p, pre, sizeof(pre));
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (probe(p, pre, all[i])) {
			finding(l, true,
				"rule \"%s\": %s \"%s\" grants every MCS category (it accepts %s%s): a container with it reads every other container's files",
				r->name, what, p, pre, all[i]);
			return;
		}
	if (probe(p, pre, "s0:c1,c2,c3") || probe(p, pre, "s0:c1.c3")) {
		finding(l, true,
			"rule \"%s\": %s \"%s\" accepts more than one category pair (%ss0:c1,c2,c3 or a range): a container can hold several pods' categories",
			r->name, what, p, pre);
		return;
	}
	if (strcmp(what, "context pattern") || r->selinux_mcs_runtime)
		return;
	if (probe(p, pre, "s0:c1,c2") && probe(p, pre, "s0:c3,c4"))
		finding(l, true,
			"rule \"%s\": context pattern \"%s\" lets the container choose its own category pair, so any pod it matches can take another pod's pair: add \"selinux_mcs\": \"runtime\" (the runtime allocates the pair) or pin the categories",
			r->name, p);
}

static void lint_contexts(struct lint *l, const struct policy_rule *r)
{
	size_t i;
	int k;

	if (r->selinux_mcs_runtime) {
		const struct pattern_list *pl = &r->contexts[HOOK_LSM_SELINUX];
		bool any = false;

		for (i = 0; i < pl->n && !any; i++) {
			char pre[256];

			selinux_prefix(pl->p[i], pre, sizeof(pre));
			any = probe(pl->p[i], pre, "s0:c1,c2") || probe(pl->p[i], pre, "s0:c100,c1000");
		}
		if (!any)
			finding(l, true,
				"rule \"%s\": \"selinux_mcs\": \"runtime\" admits only contexts with one category pair, and no selinux pattern of the rule accepts one: every SELinux request is refused",
				r->name);
	}

	for (i = 0; i < r->contexts[HOOK_LSM_SELINUX].n; i++)
		lint_selinux(l, r, r->contexts[HOOK_LSM_SELINUX].p[i], "context pattern");
	if (r->hidden[HOOK_LSM_SELINUX])
		lint_selinux(l, r, r->hidden[HOOK_LSM_SELINUX], "hidden context");
	if (r->default_req.ctx[HOOK_LSM_SELINUX])
		lint_selinux(l, r, r->default_req.ctx[HOOK_LSM_SELINUX], "default context");
	for (i = 0; i < r->contexts[HOOK_LSM_APPARMOR].n; i++)
		if (fnmatch(r->contexts[HOOK_LSM_APPARMOR].p[i], "unconfined", 0) == 0)
			finding(l, true,
				"rule \"%s\": AppArmor pattern \"%s\" accepts \"unconfined\": a container may ask to run without AppArmor confinement",
				r->name, r->contexts[HOOK_LSM_APPARMOR].p[i]);
	for (i = 0; i < r->contexts[HOOK_LSM_SMACK].n; i++) {
		static const char *const priv[] = { "*", "@", "^" };
		size_t j;

		for (j = 0; j < 3; j++)
			if (fnmatch(r->contexts[HOOK_LSM_SMACK].p[i], priv[j], 0) == 0) {
				finding(l, true,
					"rule \"%s\": Smack pattern \"%s\" accepts the label \"%s\", which Smack grants access everywhere",
					r->name, r->contexts[HOOK_LSM_SMACK].p[i], priv[j]);
				break;
			}
	}
	/* an allowed active LSM with no pattern: every request for it fails */
	for (i = 0; i < r->nactive_sets; i++)
		for (k = 0; k < HOOK_LSM_COUNT; k++)
			if ((r->active_sets[i] & LSM_BIT(k)) && !r->contexts[k].n) {
				char b[64];

				finding(l, true,
					"rule \"%s\": it allows the active set {%s} but no %s context, so every such request is refused",
					r->name, lsm_mask_str(r->active_sets[i], b, sizeof(b)),
					hook_lsms[k].name);
				break;
			}
}

/* A rule matching on org.lsmns.lsm: the sets it can ever see. */
static void lint_request_match(struct lint *l, const struct policy_rule *r)
{
	const char *p = ann_pattern(&r->match, ANN_LSM);
	struct hook_err err;
	struct lsm_list want;
	char b[64];
	size_t i;

	if (!p)
		return;
	if (r->default_action != POLICY_DEFAULT_REFUSE)
		finding(l, true,
			"rule \"%s\": its \"default\" is never used: the rule matches only containers with " ANN_LSM ", and the default is for containers without it",
			r->name);
	if (has_glob(p) || lsm_list_parse(p, strlen(p), &want, "match", &err))
		return;
	for (i = 0; i < r->nactive_sets; i++)
		if (r->active_sets[i] == want.mask)
			return;
	finding(l, true,
		"rule \"%s\": it matches only requests for {%s}, which its \"active\" never allows: every container it matches is refused",
		r->name, lsm_mask_str(want.mask, b, sizeof(b)));
}

/* Literal AppArmor profiles the running kernel has not loaded. */
static void lint_apparmor_loaded(struct lint *l, const struct policy *pol,
				 const char *securityfs)
{
	char path[512], *buf = NULL;
	size_t len, i, j;
	int fd;
	struct hook_err err;

	if (!securityfs)
		return;
	snprintf(path, sizeof(path), "%s/apparmor/profiles", securityfs);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read_bounded(fd, 16 << 20, path, &buf, &len, HOOK_ERR_INPUT, &err)) {
		close(fd);
		return;
	}
	close(fd);
	for (i = 0; i < pol->nrules; i++) {
		const struct policy_rule *r = &pol->rules[i];
		const struct pattern_list *pl = &r->contexts[HOOK_LSM_APPARMOR];
		const char *names[HOOK_MAX_PATTERNS + 1];
		size_t n = 0;

		for (j = 0; j < pl->n; j++)
			names[n++] = pl->p[j];
		if (r->hidden[HOOK_LSM_APPARMOR])
			names[n++] = r->hidden[HOOK_LSM_APPARMOR];
		for (j = 0; j < n; j++) {
			char want[512];
			const char *hit;
			size_t wl;

			if (has_glob(names[j]) || !strcmp(names[j], "unconfined"))
				continue;
			/* one line per profile: "NAME (mode)" */
			wl = (size_t)snprintf(want, sizeof(want), "%s (", names[j]);
			for (hit = buf; (hit = strstr(hit, want)); hit += wl)
				if (hit == buf || hit[-1] == '\n')
					break;
			if (!hit)
				finding(l, true,
					"rule \"%s\": AppArmor profile \"%s\" is not loaded in this kernel (%s): the kernel would refuse it (EINVAL) until it is",
					r->name, names[j], path);
		}
	}
	free(buf);
}

size_t policy_lint(const struct policy *pol, const char *securityfs, FILE *out)
{
	struct lint l = { .out = out, .warnings = 0 };
	bool hooksd_note = false;
	size_t i, j;

	for (j = 0; j < pol->nrules; j++) {
		const struct policy_rule *r = &pol->rules[j];

		for (i = 0; i < j; i++) {
			const struct policy_rule *e = &pol->rules[i];

			if (match_covers(&e->match, &r->match)) {
				finding(&l, true,
					"rule \"%s\" (#%zu) is never reached: rule \"%s\" (#%zu) matches every container it matches, and the first matching rule decides alone",
					r->name, j + 1, e->name, i + 1);
				break;
			}
			/* a catch-all overlaps everything, by design */
			if (!match_empty(&e->match) && !match_empty(&r->match) &&
			    !match_disjoint(&e->match, &r->match))
				finding(&l, false,
					"rules \"%s\" (#%zu) and \"%s\" (#%zu) overlap: a container matching both is decided by \"%s\"",
					e->name, i + 1, r->name, j + 1, e->name);
		}
		lint_contexts(&l, r);
		lint_request_match(&l, r);
		if (r->default_action != POLICY_DEFAULT_REFUSE && !hooksd_note &&
		    !ann_pattern(&r->match, ANN_LSM)) {
			finding(&l, false,
				"rule \"%s\": its default applies only where the hook runs for containers without " ANN_LSM " (a createRuntime hook in config.json, or the hooks.d file lsmns-hook-always.json); the shipped lsmns-hook.json runs it only for containers with an org.lsmns.* annotation, and those without " ANN_LSM " are refused",
				r->name);
			hooksd_note = true;
		}
	}
	lint_apparmor_loaded(&l, pol, securityfs);
	return l.warnings;
}
