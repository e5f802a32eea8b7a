// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lsmns explain: what the hook would decide for a container, before the
 * container exists.  It takes the same code path as the hook (request
 * parsing, rule matching, deciding) on a config.json, a Kubernetes object
 * or a plain annotation set, with no live process and no privileges, and
 * shows every rule it tried.
 *
 * lsmns check-policy: the hook's own validation of a policy file, then
 * the lint of lint.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "lsmns_hook.h"

#define DEFAULT_POLICY	"/etc/lsmns/policy.json"

/* A policy file read and parsed; @trust: why the hook would refuse it, or "". */
static int load_policy(const char *path, struct policy *pol, char *trust,
		       size_t tsize, struct hook_err *err)
{
	struct hook_err terr = { 0 };
	char *buf;
	size_t len;
	int fd, rc;

	trust[0] = '\0';
	fd = open_regular(AT_FDCWD, path, "policy file", HOOK_ERR_POLICY, err);
	if (fd < 0)
		return -1;
	if (check_trusted_file(fd, "policy file", path, HOOK_ERR_POLICY, &terr))
		snprintf(trust, tsize, "%s", terr.msg);
	rc = read_bounded(fd, HOOK_MAX_POLICY_SIZE, "policy file", &buf, &len,
			  HOOK_ERR_POLICY, err);
	close(fd);
	if (rc)
		return -1;
	rc = policy_parse(buf, len, pol, err);
	free(buf);
	return rc;
}

static int kv_add(struct kv_list *l, const char *key, const char *value)
{
	struct kv *v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	l->v = v;
	v[l->n].key = strdup(key);
	v[l->n].value = strdup(value);
	v[l->n].value_len = strlen(value);
	if (!v[l->n].key || !v[l->n].value) {
		free(v[l->n].key);
		free(v[l->n].value);
		return -1;
	}
	l->n++;
	return 0;
}

/* Set @key unless the object already carries it. */
static int kv_default(struct kv_list *l, const char *key, const char *value)
{
	if (!value || kv_find(l, key))
		return 0;
	return kv_add(l, key, value);
}

static const char *jstr_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, a, &v))
		return NULL;
	if (b && (!json_object_is_type(v, json_type_object) ||
		  !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v)
							: NULL;
}

struct explain_input {
	char kind[64];		/* "config.json", "Pod", "annotations", ... */
	struct oci_state st;
	struct oci_config cfg;
	bool have_cfg;
};

/*
 * A Kubernetes object: the pod's annotations, plus what CRI-O adds to a
 * container's annotations for the policy to match on (namespace, name,
 * image of the first container).
 */
static int from_kube(struct json_object *root, struct explain_input *in,
		     struct hook_err *err)
{
	struct json_object *meta = NULL, *pod = root, *spec, *ann, *ctrs;
	const char *kind = jstr_at(root, "kind", NULL), *ns, *name, *image = NULL;

	snprintf(in->kind, sizeof(in->kind), "%s", kind ? kind : "Kubernetes object");
	/* a workload (Deployment, Job, ...): its pod template */
	if (json_object_object_get_ex(root, "spec", &spec) &&
	    json_object_is_type(spec, json_type_object) &&
	    json_object_object_get_ex(spec, "template", &pod) &&
	    json_object_is_type(pod, json_type_object))
		;
	else
		pod = root;
	ns = jstr_at(root, "metadata", "namespace");
	name = jstr_at(root, "metadata", "name");
	json_object_object_get_ex(pod, "metadata", &meta);
	in->st.has_annotations = true;
	if (meta && json_object_is_type(meta, json_type_object) &&
	    json_get_obj(meta, "annotations", false, "metadata", &ann,
			 HOOK_ERR_INPUT, err) < 0)
		return -1;
	if (meta && ann && json_to_kv(ann, HOOK_MAX_ANNOTATIONS_SIZE,
				      "metadata.annotations", &in->st.annotations,
				      HOOK_ERR_INPUT, err))
		return -1;
	if (json_object_object_get_ex(pod, "spec", &spec) &&
	    json_object_object_get_ex(spec, "containers", &ctrs) &&
	    json_object_is_type(ctrs, json_type_array) &&
	    json_object_array_length(ctrs) > 0)
		image = jstr_at(json_object_array_get_idx(ctrs, 0), "image", NULL);
	if (kv_default(&in->st.annotations, "io.kubernetes.pod.namespace",
		       ns ? ns : "default") ||
	    kv_default(&in->st.annotations, "io.kubernetes.pod.name", name) ||
	    kv_default(&in->st.annotations, ANN_IMAGE_CRIO, image))
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	return 0;
}

static int read_input(const char *path, const char *bundle, const char *id,
		      const char *image, const char *selinux_label,
		      struct explain_input *in, struct hook_err *err)
{
	struct json_object *root = NULL, *v;
	char *buf = NULL, *dir = NULL;
	size_t len;
	int fd, rc = -1;

	memset(in, 0, sizeof(*in));
	if (!strcmp(path, "-"))
		fd = dup(STDIN_FILENO);
	else
		fd = open_regular(AT_FDCWD, path, "input", HOOK_ERR_INPUT, err);
	if (fd < 0)
		return hook_fail(err, HOOK_ERR_INPUT, "%s", err->msg[0] ? err->msg : "cannot read standard input");
	rc = read_bounded(fd, HOOK_MAX_CONFIG_SIZE, path, &buf, &len,
			  HOOK_ERR_INPUT, err);
	close(fd);
	if (rc)
		return -1;
	rc = -1;
	if (!bundle && strcmp(path, "-")) {
		char *copy = strdup(path);
		char abs[HOOK_MAX_PATH_LEN + 1];

		if (!copy)
			goto out;
		if (realpath(dirname(copy), abs))
			dir = strdup(abs);
		free(copy);
		bundle = dir;
	}
	in->st.id = strdup(id ? id : "explain");
	in->st.status = strdup("created");
	in->st.bundle = strdup(bundle ? bundle : "/explain");
	if (!in->st.id || !in->st.status || !in->st.bundle) {
		hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (json_parse_buffer(buf, len, path, &root, HOOK_ERR_INPUT, err))
		goto out;
	if (json_object_object_get_ex(root, "ociVersion", &v) ||
	    json_object_object_get_ex(root, "process", &v) ||
	    json_object_object_get_ex(root, "root", &v)) {
		snprintf(in->kind, sizeof(in->kind), "config.json");
		if (config_parse(buf, len, in->st.bundle, &in->cfg, err))
			goto out;
		in->have_cfg = true;
	} else if (json_object_object_get_ex(root, "metadata", &v) ||
		   json_object_object_get_ex(root, "kind", &v)) {
		if (from_kube(root, in, err))
			goto out;
	} else {
		snprintf(in->kind, sizeof(in->kind), "annotations");
		in->st.has_annotations = true;
		if (json_to_kv(root, HOOK_MAX_ANNOTATIONS_SIZE, "annotations",
			       &in->st.annotations, HOOK_ERR_INPUT, err))
			goto out;
	}
	if (selinux_label) {
		free(in->cfg.selinux_label);
		in->cfg.selinux_label = strdup(selinux_label);
		if (!in->cfg.selinux_label) {
			hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
			goto out;
		}
	}
	if (image) {
		struct kv_list *l = in->st.has_annotations ? &in->st.annotations
							   : &in->cfg.annotations;
		const struct kv *e = kv_find(l, ANN_IMAGE_CRIO);

		if (e) {
			free(e->value);
			((struct kv *)e)->value = strdup(image);
			((struct kv *)e)->value_len = strlen(image);
			if (!e->value) {
				hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
				goto out;
			}
		} else if (kv_add(l, ANN_IMAGE_CRIO, image)) {
			hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
			goto out;
		}
		if (!in->st.has_annotations)
			in->cfg.has_annotations = true;
	}
	rc = 0;
out:
	json_object_put(root);
	free(buf);
	free(dir);
	return rc;
}

static void input_free(struct explain_input *in)
{
	state_free(&in->st);
	config_free(&in->cfg);
}

/* What the running kernel shows, for --host (or its stand-ins in tests). */
struct host_view {
	bool on;
	char lsms[256];		/* DIR/lsm: "capability,selinux,..." */
	char releasable[256];	/* lsmns.releasable= of the command line */
	char *aa_profiles;	/* DIR/apparmor/profiles, or NULL */
	bool have_lsms, have_cmdline;
};

static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0' ||
						    p[n] == '\n' || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

static void host_read(struct host_view *h, const char *secfs, const char *cmdline)
{
	struct hook_err e;
	char path[512], *buf;
	size_t len;
	int fd;

	snprintf(path, sizeof(path), "%s/lsm", secfs);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read_bounded(fd, 4096, path, &buf, &len, HOOK_ERR_INPUT, &e) == 0) {
		snprintf(h->lsms, sizeof(h->lsms), "%s", buf);
		h->have_lsms = true;
		free(buf);
	}
	if (fd >= 0)
		close(fd);
	fd = open(cmdline, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read_bounded(fd, 65536, cmdline, &buf, &len, HOOK_ERR_INPUT, &e) == 0) {
		char *p = strstr(buf, "lsmns.releasable=");

		h->have_cmdline = true;
		if (p && (p == buf || p[-1] == ' ')) {
			p += strlen("lsmns.releasable=");
			p[strcspn(p, " \n")] = '\0';
			snprintf(h->releasable, sizeof(h->releasable), "%s", p);
		}
		free(buf);
	}
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/apparmor/profiles", secfs);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read_bounded(fd, 16 << 20, path, &buf, &len, HOOK_ERR_INPUT, &e) == 0)
		h->aa_profiles = buf;
	if (fd >= 0)
		close(fd);
}

static bool aa_loaded(const char *profiles, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = profiles; (p = strstr(p, name)); p += n)
		if ((p == profiles || p[-1] == '\n') && !strncmp(p + n, " (", 2))
			return true;
	return false;
}

/*
 * What the kernel still checks for each entry.  Offline it cannot be
 * told; with --host, what this machine's kernel shows is checked, and a
 * check sure to fail is marked "fails:" (explain then exits 7).
 */
static int kernel_checks(const struct lsm_assignment *a, const struct host_view *h,
			 struct json_object *arr, FILE *out)
{
	char line[640];
	unsigned int i;
	int fails = 0;

#define EMIT() do { \
		if (out) \
			fprintf(out, "  - %s\n", line); \
		if (arr) \
			json_object_array_add(arr, json_object_new_string(line)); \
	} while (0)
	snprintf(line, sizeof(line),
		 "the hook must hold CAP_MAC_ADMIN in the initial user namespace and be in no LSM namespace (else EPERM)");
	EMIT();
	for (i = 0; i < a->n; i++) {
		const char *lsm = hook_lsms[a->e[i].lsm].name;

		if (h->on && h->have_lsms && !list_has(h->lsms, lsm)) {
			snprintf(line, sizeof(line),
				 "fails: %s is not enabled on this host (the kernel runs %.120s): ENOENT; boot with %s in lsm=",
				 lsm, h->lsms, lsm);
			fails++;
			EMIT();
			continue;
		}
		if (a->e[i].mode == LSMNS_MODE_RELEASED) {
			if (h->on && h->have_cmdline && !list_has(h->releasable, lsm)) {
				snprintf(line, sizeof(line),
					 "fails: %s released, but this kernel's command line has %s%s: EPERM; add %s to lsmns.releasable=",
					 lsm, h->releasable[0] ? "lsmns.releasable=" : "no lsmns.releasable=",
					 h->releasable, lsm);
				fails++;
			} else {
				snprintf(line, sizeof(line),
					 "%s released: %s's own policy must consent (else EACCES)%s",
					 lsm, lsm, h->on ? "" : "; lsmns.releasable= must name it (else EPERM)");
			}
		} else if (a->e[i].ctx && a->e[i].lsm == HOOK_LSM_APPARMOR &&
			   h->on && h->aa_profiles && strcmp(a->e[i].ctx, "unconfined") &&
			   !aa_loaded(h->aa_profiles, a->e[i].ctx)) {
			snprintf(line, sizeof(line),
				 "fails: AppArmor profile \"%.200s\" is not loaded on this host: EINVAL; load it (apparmor_parser -r)",
				 a->e[i].ctx);
			fails++;
		} else if (a->e[i].ctx) {
			snprintf(line, sizeof(line),
				 "%s %s: \"%.200s\" must be a context %s's loaded policy knows (else EINVAL)%s",
				 lsm, hook_mode_name(a->e[i].mode), a->e[i].ctx, lsm,
				 h->on ? "" : ", and " "the LSM must be enabled (else ENOENT)");
		} else {
			continue;
		}
		EMIT();
	}
#undef EMIT
	return fails;
}

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void explain_usage(FILE *f)
{
	fprintf(f,
		"Usage: lsmns explain [--policy FILE] [--json] [--id ID] [--bundle DIR]\n"
		"                     [--image IMAGE] [--selinux-label LABEL] [--host] INPUT\n"
		"What lsmns-hook would ask the kernel for a container, or why it would\n"
		"refuse it, and which rules it tried.  INPUT (or - for stdin) is an OCI\n"
		"config.json, a Kubernetes object in JSON (kubectl get pod -o json; its\n"
		"namespace, name and first image become the annotations CRI-O adds), or\n"
		"a JSON object of annotations.  No process, no privileges, no kernel.\n"
		"\n"
		"  --policy FILE   host policy (default " DEFAULT_POLICY ")\n"
		"  --json          one JSON document instead of text\n"
		"  --id ID         container id to match \"id\" patterns (default explain)\n"
		"  --bundle DIR    bundle path (default: INPUT's directory)\n"
		"  --image IMAGE   image name, as " ANN_IMAGE_CRIO "\n"
		"  --selinux-label LABEL  process.selinuxLabel, as the runtime would\n"
		"                  allocate it (CRI-O and podman pick a category pair)\n"
		"  --host          also check what this host's kernel shows: LSMs enabled\n"
		"                  (/sys/kernel/security/lsm), lsmns.releasable= (/proc/cmdline),\n"
		"                  AppArmor profiles loaded; a sure refusal exits 7\n"
		"  --securityfs DIR, --cmdline FILE  read those instead (implies --host)\n"
		"\n"
		"Exit status: 0 allowed (or nothing to assign), 5 refused, 7 this host's\n"
		"kernel would refuse (--host), 4 policy invalid, 3 input invalid, 2 usage.\n");
}

int explain_main(int argc, char **argv)
{
	enum { O_POLICY = 256, O_JSON, O_ID, O_BUNDLE, O_IMAGE, O_LABEL, O_HOST,
	       O_SECFS, O_CMDLINE, O_HELP };
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, O_POLICY },
		{ "json", no_argument, NULL, O_JSON },
		{ "id", required_argument, NULL, O_ID },
		{ "bundle", required_argument, NULL, O_BUNDLE },
		{ "image", required_argument, NULL, O_IMAGE },
		{ "selinux-label", required_argument, NULL, O_LABEL },
		{ "host", no_argument, NULL, O_HOST },
		{ "securityfs", required_argument, NULL, O_SECFS },
		{ "cmdline", required_argument, NULL, O_CMDLINE },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	const char *policy_path = DEFAULT_POLICY, *id = NULL, *bundle = NULL,
		   *image = NULL, *label = NULL, *secfs = "/sys/kernel/security",
		   *cmdline = "/proc/cmdline";
	struct host_view host = { 0 };
	struct json_object *jroot = NULL, *jrules = NULL, *jdec = NULL;
	struct hook_err err = { 0 };
	struct explain_input in;
	struct lsm_request req;
	struct lsm_assignment a;
	struct policy pol;
	char trust[HOOK_MSG_LEN], why[512], what[HOOK_MSG_LEN];
	bool json = false, decided = false, have_req = false;
	size_t i;
	int c, status;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_POLICY:
			policy_path = optarg;
			break;
		case O_JSON:
			json = true;
			break;
		case O_ID:
			id = optarg;
			break;
		case O_BUNDLE:
			bundle = optarg;
			break;
		case O_IMAGE:
			image = optarg;
			break;
		case O_LABEL:
			label = optarg;
			break;
		case O_HOST:
			host.on = true;
			break;
		case O_SECFS:
			secfs = optarg;
			host.on = true;
			break;
		case O_CMDLINE:
			cmdline = optarg;
			host.on = true;
			break;
		case O_HELP:
			explain_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "lsmns explain: invalid option %s (try --help)\n",
				argv[optind - 1]);
			return HOOK_ERR_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "lsmns explain: give one INPUT: a config.json, a Kubernetes object or annotations in JSON (try --help)\n");
		return HOOK_ERR_USAGE;
	}
	if (load_policy(policy_path, &pol, trust, sizeof(trust), &err)) {
		fprintf(stderr, "lsmns explain: %s\n", err.msg);
		return err.status;
	}
	if (host.on)
		host_read(&host, secfs, cmdline);
	if (read_input(argv[optind], bundle, id, image, label, &in, &err)) {
		fprintf(stderr, "lsmns explain: %s\n", err.msg);
		input_free(&in);
		policy_free(&pol);
		return err.status;
	}

	if (json) {
		struct json_object *jin = json_object_new_object();

		jroot = json_object_new_object();
		json_object_object_add(jroot, "policy", jstr(policy_path));
		json_object_object_add(jroot, "policy_refused_by_hook",
				       trust[0] ? jstr(trust) : NULL);
		json_object_object_add(jin, "kind", jstr(in.kind));
		json_object_object_add(jin, "id", jstr(in.st.id));
		json_object_object_add(jin, "bundle", jstr(in.st.bundle));
		json_object_object_add(jin, "root_path", jstr(in.cfg.root_path));
		json_object_object_add(jroot, "input", jin);
		jrules = json_object_new_array();
	} else {
		printf("policy    %s (%zu rule%s)\n", policy_path, pol.nrules,
		       pol.nrules == 1 ? "" : "s");
		if (trust[0])
			printf("          the hook would refuse this file: %s\n", trust);
		printf("input     %s: id %s, bundle %s, root_path %s\n", in.kind,
		       in.st.id, in.st.bundle,
		       in.cfg.root_path ? in.cfg.root_path : "(none)");
	}

	status = request_parse(request_annotations(&in.st, &in.cfg), &in.cfg,
			       &req, &err);
	if (status == 0) {
		char set[64];
		size_t o;
		int l;

		have_req = true;
		if (!req.present) {
			snprintf(what, sizeof(what), "none (no " ANN_LSM ": the matching rule's default applies)");
		} else {
			o = (size_t)snprintf(what, sizeof(what), "{%s}",
					     lsm_mask_str(req.active.mask, set, sizeof(set)));
			for (l = 0; l < HOOK_LSM_COUNT && o < sizeof(what); l++)
				if (req.ctx[l])
					o += (size_t)snprintf(what + o, sizeof(what) - o,
							      " %s=%s", hook_lsms[l].name,
							      req.ctx[l]);
			if (req.release_mask && o < sizeof(what))
				o += (size_t)snprintf(what + o, sizeof(what) - o,
						      " release={%s}",
						      lsm_mask_str(req.release_mask, set, sizeof(set)));
			if (req.interface >= 0 && o < sizeof(what))
				snprintf(what + o, sizeof(what) - o, " interface=%s",
					 hook_lsms[req.interface].name);
		}
		if (json) {
			struct json_object *jr = json_object_new_object(),
					   *jl = json_object_new_array(),
					   *jc = json_object_new_object(),
					   *jrel = json_object_new_array();
			unsigned int k;

			json_object_object_add(jr, "present", json_object_new_boolean(req.present));
			for (k = 0; k < req.active.n; k++)
				json_object_array_add(jl, jstr(hook_lsms[req.active.idx[k]].name));
			for (l = 0; l < HOOK_LSM_COUNT; l++) {
				if (req.ctx[l])
					json_object_object_add(jc, hook_lsms[l].name, jstr(req.ctx[l]));
				if (req.release_mask & LSM_BIT(l))
					json_object_array_add(jrel, jstr(hook_lsms[l].name));
			}
			json_object_object_add(jr, "lsm", jl);
			json_object_object_add(jr, "contexts", jc);
			json_object_object_add(jr, "release", jrel);
			json_object_object_add(jr, "interface", req.interface >= 0 ?
					       jstr(hook_lsms[req.interface].name) : NULL);
			json_object_object_add(jr, "text", jstr(what));
			json_object_object_add(jroot, "request", jr);
		} else {
			printf("request   %s\n", what);
		}
	}

	if (!json)
		printf("rules\n");
	for (i = 0; i < pol.nrules; i++) {
		const struct policy_rule *r = &pol.rules[i];
		const char *result;

		if (decided) {
			result = "not tried";
			snprintf(why, sizeof(why), "an earlier rule decided");
		} else if (policy_rule_explain_match(r, &in.st, &in.cfg, why,
						     sizeof(why))) {
			result = "matches";
			snprintf(why, sizeof(why), "decides alone");
			decided = true;
		} else {
			result = "no match";
		}
		if (json) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "name", jstr(r->name));
			json_object_object_add(o, "result", jstr(result));
			json_object_object_add(o, "why", jstr(why));
			json_object_array_add(jrules, o);
		} else {
			printf("  %2zu %-24s %-9s %s\n", i + 1, r->name, result, why);
		}
	}
	if (json)
		json_object_object_add(jroot, "rules", jrules);

	if (status == 0)
		status = policy_decide(&pol, &in.st, &in.cfg, &req, &a, &err);
	if (json) {
		jdec = json_object_new_object();
		json_object_object_add(jroot, "decision", jdec);
	}
	if (status) {
		status = err.status;
		if (json) {
			json_object_object_add(jdec, "allowed", json_object_new_boolean(0));
			json_object_object_add(jdec, "exit", json_object_new_int(status));
			json_object_object_add(jdec, "message", jstr(err.msg));
		} else {
			printf("decision  refused, the hook exits %d:\n          %s\n",
			       status, err.msg);
		}
	} else if (a.none) {
		if (json) {
			json_object_object_add(jdec, "allowed", json_object_new_boolean(1));
			json_object_object_add(jdec, "exit", json_object_new_int(0));
			json_object_object_add(jdec, "rule", jstr(a.rule));
			json_object_object_add(jdec, "assignment", NULL);
		} else {
			printf("decision  allowed by rule \"%s\": no assignment (its default is \"none\"); the container stays in the runtime's LSM namespace\n",
			       a.rule);
		}
	} else {
		struct json_object *ents = NULL, *checks = NULL;
		unsigned int k;

		assignment_str(&a, what, sizeof(what));
		if (json) {
			ents = json_object_new_array();
			checks = json_object_new_array();
			json_object_object_add(jdec, "allowed", json_object_new_boolean(1));
			json_object_object_add(jdec, "exit", json_object_new_int(0));
			json_object_object_add(jdec, "rule", jstr(a.rule));
			json_object_object_add(jdec, "interface",
					       jstr(hook_lsms[a.interface].name));
			for (k = 0; k < a.n; k++) {
				struct json_object *e = json_object_new_object();

				json_object_object_add(e, "lsm", jstr(hook_lsms[a.e[k].lsm].name));
				json_object_object_add(e, "mode", jstr(hook_mode_name(a.e[k].mode)));
				json_object_object_add(e, "context", jstr(a.e[k].ctx));
				json_object_array_add(ents, e);
			}
			json_object_object_add(jdec, "entries", ents);
		} else {
			printf("decision  allowed by rule \"%s\"; the hook would ask the kernel for:\n",
			       a.rule);
			printf("          interface %s\n", hook_lsms[a.interface].name);
			for (k = 0; k < a.n; k++)
				printf("          %-8s %-8s %s\n", hook_lsms[a.e[k].lsm].name,
				       hook_mode_name(a.e[k].mode),
				       a.e[k].ctx ? a.e[k].ctx : "(no context)");
			for (k = 0; k < HOOK_LSM_COUNT; k++) {
				unsigned int j;
				bool named = false;

				for (j = 0; j < a.n; j++)
					named = named || a.e[j].lsm == (int)k;
				if (!named)
					printf("          %-8s hidden   (inherited context: no entry)\n",
					       hook_lsms[k].name);
			}
			printf("kernel    still checks, and refuses if not so%s:\n",
			       host.on ? " (checked against this host where it shows)" : "");
		}
		if (kernel_checks(&a, &host, checks, json ? NULL : stdout)) {
			/* a check this host's kernel is sure to fail */
			status = HOOK_ERR_KERNEL;
			if (!json)
				printf("decision  the kernel of this host would refuse it: the hook exits %d\n",
				       status);
		}
		if (json) {
			json_object_object_add(jdec, "kernel_checks", checks);
			json_object_object_add(jdec, "exit", json_object_new_int(status));
		}
	}
	if (json) {
		puts(json_object_to_json_string_ext(jroot, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(jroot);
	}
	if (have_req)
		request_free(&req);
	free(host.aa_profiles);
	input_free(&in);
	policy_free(&pol);
	if (fflush(stdout)) {
		fprintf(stderr, "lsmns explain: cannot write the output: %s\n", strerror(errno));
		return HOOK_ERR_INTERNAL;
	}
	return status;
}

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: lsmns check-policy [--securityfs DIR] FILE...\n"
		"Validate each policy file as lsmns-hook does, then lint it: rules that\n"
		"can never be reached or never allow anything, overlapping rules,\n"
		"patterns that grant every SELinux category or let a container pick\n"
		"its own, unconfined or privileged labels, AppArmor profiles the\n"
		"running kernel has not loaded (when DIR/apparmor/profiles is readable;\n"
		"DIR defaults to /sys/kernel/security).\n"
		"\n"
		"Exit status: 0 valid and clean, 1 valid with warnings, 4 invalid,\n"
		"2 usage.\n");
}

int check_policy_main(int argc, char **argv)
{
	enum { O_SECFS = 256, O_HELP };
	static const struct option opts[] = {
		{ "securityfs", required_argument, NULL, O_SECFS },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	const char *secfs = "/sys/kernel/security";
	int c, status = 0, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_SECFS:
			secfs = optarg;
			break;
		case O_HELP:
			check_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "lsmns check-policy: invalid option %s (try --help)\n",
				argv[optind - 1]);
			return HOOK_ERR_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "lsmns check-policy: name at least one policy file (try --help)\n");
		return HOOK_ERR_USAGE;
	}
	for (i = optind; i < argc; i++) {
		struct hook_err err = { 0 };
		char trust[HOOK_MSG_LEN];
		struct policy pol;
		size_t n;

		if (load_policy(argv[i], &pol, trust, sizeof(trust), &err)) {
			printf("%s: invalid: %s\n", argv[i], err.msg);
			status = HOOK_ERR_POLICY;
			continue;
		}
		n = policy_lint(&pol, secfs, stdout);
		if (trust[0]) {
			printf("warning: %s\n", trust);
			n++;
		}
		printf("%s: valid, %zu rule%s, %zu warning%s\n", argv[i], pol.nrules,
		       pol.nrules == 1 ? "" : "s", n, n == 1 ? "" : "s");
		if (n && status == 0)
			status = 1;
		policy_free(&pol);
	}
	fflush(stdout);
	return status;
}
