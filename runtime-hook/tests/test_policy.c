// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Policy loading (every refusal), matching and deciding.
 */
#include <json-c/json.h>

#include "testutil.h"

static struct hook_err err;

static int load(const char *json, struct policy *pol)
{
	memset(&err, 0, sizeof(err));
	return policy_parse(json, strlen(json), pol, &err);
}

static void bad_policy(const char *json, const char *needle)
{
	struct policy pol;

	if (load(json, &pol) == 0) {
		policy_free(&pol);
		fail_msg("policy accepted, wanted /%s/: %s", needle, json);
	}
	assert_err(&err, HOOK_ERR_POLICY, needle);
}

#define RULE(body) "{\"version\":1,\"rules\":[{\"name\":\"r\"" body "}]}"

static void test_example_policy(void **s)
{
	struct policy pol;
	char *buf;
	size_t len;

	(void)s;
	buf = tu_read("etc/policy.json.example", &len);
	memset(&err, 0, sizeof(err));
	assert_int_equal(policy_parse(buf, len, &pol, &err), 0);
	assert_int_equal(pol.nrules, 3);
	assert_string_equal(pol.rules[0].name, "kube-team-a");
	assert_int_equal(pol.rules[0].nactive_sets, 1);
	assert_int_equal(pol.rules[0].active_sets[0], LSM_BIT(HOOK_LSM_SELINUX));
	assert_string_equal(pol.rules[0].hidden[HOOK_LSM_APPARMOR], "lsmns-hidden");
	assert_null(pol.rules[0].hidden[HOOK_LSM_SMACK]);
	assert_true(pol.rules[0].hidden_set[HOOK_LSM_SMACK]);
	assert_int_equal(pol.rules[0].release_mask, LSM_BIT(HOOK_LSM_SMACK));
	assert_int_equal(pol.rules[1].default_action, POLICY_DEFAULT_ASSIGN);
	assert_int_equal(pol.rules[2].default_action, POLICY_DEFAULT_NONE);
	assert_int_equal(pol.rules[2].interface_mask, LSM_BIT(HOOK_LSM_APPARMOR));
	policy_free(&pol);
	free(buf);
}

/* The files `make install` ships are valid JSON of the expected shape. */
static void test_shipped_files(void **s)
{
	static const char *const files[] = {
		"etc/lsmns-hook.json.in", "etc/config-hooks-snippet.json.in",
	};
	struct json_object *o, *v;
	size_t i, len;

	(void)s;
	for (i = 0; i < 2; i++) {
		char *buf = tu_read(files[i], &len);

		memset(&err, 0, sizeof(err));
		assert_int_equal(json_parse_buffer(buf, len, files[i], &o, HOOK_ERR_INPUT, &err), 0);
		assert_non_null(strstr(buf, "@LIBEXECDIR@/lsmns-hook"));
		if (i == 0) {
			assert_true(json_object_object_get_ex(o, "version", &v));
			assert_string_equal(json_object_get_string(v), "1.0.0");
			assert_true(json_object_object_get_ex(o, "stages", &v));
			assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 0)), "createRuntime");
			assert_true(json_object_object_get_ex(o, "when", &v));
			assert_true(json_object_object_get_ex(v, "annotations", &v));
			assert_true(json_object_object_get_ex(v, "^org\\.lsmns\\.", &v));
		} else {
			assert_true(json_object_object_get_ex(o, "hooks", &v));
			assert_true(json_object_object_get_ex(v, "createRuntime", &v));
			assert_int_equal(json_object_array_length(v), 1);
		}
		json_object_put(o);
		free(buf);
	}
}

static void test_policy_top_level(void **s)
{
	struct policy pol;

	(void)s;
	assert_int_equal(load("{\"version\":1,\"rules\":[]}", &pol), 0);
	assert_int_equal(pol.nrules, 0);
	policy_free(&pol);
	bad_policy("", "policy is empty");
	bad_policy("{\"version\":1,\"rules\":[]", "invalid JSON");
	bad_policy("[]", "expected a JSON object");
	bad_policy("{\"rules\":[]}", "\"version\" must be the integer 1");
	bad_policy("{\"version\":2,\"rules\":[]}", "\"version\" must be the integer 1");
	bad_policy("{\"version\":\"1\",\"rules\":[]}", "\"version\" must be the integer 1");
	bad_policy("{\"version\":1}", "\"rules\" must be an array");
	bad_policy("{\"version\":1,\"rules\":{}}", "\"rules\" must be an array");
	bad_policy("{\"version\":1,\"rules\":[],\"rulez\":[]}", "unknown member \"rulez\"");
	bad_policy("{\"version\":1,\"comment\":5,\"rules\":[]}", "\"comment\" must be a string");
}

static void test_policy_rules(void **s)
{
	(void)s;
	bad_policy("{\"version\":1,\"rules\":[5]}", "rules[0] must be an object");
	bad_policy("{\"version\":1,\"rules\":[{}]}", "rules[0]: missing \"name\"");
	bad_policy("{\"version\":1,\"rules\":[{\"name\":7}]}", "\"name\" must be a string");
	bad_policy("{\"version\":1,\"rules\":[{\"name\":\"\"}]}", "is empty");
	bad_policy("{\"version\":1,\"rules\":[{\"name\":\"a\"},{\"name\":\"a\"}]}", "two rules are named \"a\"");
	bad_policy(RULE(",\"actve\":[]"), "rule \"r\": unknown member \"actve\"");
	bad_policy(RULE(",\"comment\":[]"), "\"comment\" must be a string");
}

static void test_policy_active(void **s)
{
	(void)s;
	bad_policy(RULE(",\"active\":\"selinux\""), "must be an array of LSM sets");
	bad_policy(RULE(",\"active\":[\"selinux\"]"), "must be an array of LSM names");
	bad_policy(RULE(",\"active\":[[]]"), "active is empty");
	bad_policy(RULE(",\"active\":[[\"selinux\",\"selinux\"]]"), "names selinux twice");
	bad_policy(RULE(",\"active\":[[\"tomoyo\"]]"), "unknown LSM \"tomoyo\"");
	bad_policy(RULE(",\"active\":[[1]]"), "expected an LSM name, got int");
}

static void test_policy_contexts(void **s)
{
	(void)s;
	bad_policy(RULE(",\"contexts\":[]"), "\"contexts\" must be an object");
	bad_policy(RULE(",\"contexts\":{\"selinux\":\"x\"}"), "contexts.selinux must be an array of patterns");
	bad_policy(RULE(",\"contexts\":{\"selinux\":[1]}"), "pattern must be a string");
	bad_policy(RULE(",\"contexts\":{\"selinux\":[\"\"]}"), "is empty");
	bad_policy(RULE(",\"contexts\":{\"selinux\":[\"a\\u0001\"]}"), "control character");
	bad_policy(RULE(",\"contexts\":{\"yama\":[\"x\"]}"), "unknown LSM \"yama\"");
}

static void test_policy_hidden_release(void **s)
{
	(void)s;
	bad_policy(RULE(",\"hidden\":{\"selinux\":5}"), "must be a context string or null");
	bad_policy(RULE(",\"hidden\":{\"selinux\":\"\"}"), "is empty");
	bad_policy(RULE(",\"hidden\":{\"bpf\":null}"), "unknown LSM \"bpf\"");
	bad_policy(RULE(",\"hidden\":[]"), "must be an object");
	bad_policy(RULE(",\"release\":\"smack\""), "release must be an array");
	bad_policy(RULE(",\"release\":[\"smack\",\"smack\"]"), "names smack twice");
	bad_policy(RULE(",\"interface\":[]"), "interface is empty");
	bad_policy(RULE(",\"interface\":[\"x\"]"), "unknown LSM");
}

static void test_policy_match(void **s)
{
	(void)s;
	bad_policy(RULE(",\"match\":[]"), "\"match\" must be an object");
	bad_policy(RULE(",\"match\":{\"imag\":\"x\"}"), "unknown member \"imag\"");
	bad_policy(RULE(",\"match\":{\"image\":5}"), "\"image\" must be a string");
	bad_policy(RULE(",\"match\":{\"annotations\":{\"a\":5}}"), "must be a string");
	bad_policy(RULE(",\"match\":{\"annotations\":{\"a\":\"\"}}"), "is empty");
	bad_policy(RULE(",\"match\":{\"id\":\"\"}"), "is empty");
}

static void test_policy_default(void **s)
{
	(void)s;
	bad_policy(RULE(",\"default\":\"allow\""), "must be \"refuse\", \"none\" or an object");
	bad_policy(RULE(",\"default\":5"), "must be \"refuse\", \"none\" or an object, not int");
	bad_policy(RULE(",\"default\":{}"), "missing \"lsm\"");
	bad_policy(RULE(",\"default\":{\"lsm\":[]}"), "default.lsm is empty");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"x\":1}"), "unknown member \"x\"");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"contexts\":{\"smack\":\"L\"}}"),
		   "smack is not in default.lsm");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"contexts\":{\"selinux\":[\"x\"]}}"),
		   "must be a context string");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"release\":[\"selinux\"]}"),
		   "cannot be both active and released");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"interface\":\"smack\"}"),
		   "smack is not in");
	/* a default the rule itself does not allow */
	bad_policy(RULE(",\"active\":[[\"selinux\"]],\"contexts\":{\"selinux\":[\"a\"]},"
			"\"default\":{\"lsm\":[\"selinux\"],\"contexts\":{\"selinux\":\"b\"}}"),
		   "its default is not allowed by the rule: selinux context \"b\" is not allowed");
	bad_policy(RULE(",\"default\":{\"lsm\":[\"selinux\"],\"contexts\":{\"selinux\":\"b\"}}"),
		   "active LSM set {selinux} is not allowed");
}

static void test_policy_bounds(void **s)
{
	size_t n = (HOOK_MAX_RULES + 1) * 24 + 64, i, len;
	char *buf = malloc(n);

	(void)s;
	assert_non_null(buf);
	len = (size_t)sprintf(buf, "{\"version\":1,\"rules\":[");
	for (i = 0; i <= HOOK_MAX_RULES; i++)
		len += (size_t)sprintf(buf + len, "%s{\"name\":\"r%zu\"}", i ? "," : "", i);
	strcpy(buf + len, "]}");
	bad_policy(buf, "more than 1024 rules");
	free(buf);
}

/* ---- matching and deciding ------------------------------------------------ */

static const char decide_policy[] =
	"{\"version\":1,\"rules\":["
	"{\"name\":\"web\",\"match\":{\"annotations\":{\"io.kubernetes.pod.namespace\":\"web-*\"},"
	"  \"image\":\"registry.example/web/*\"},"
	" \"active\":[[\"selinux\"],[\"selinux\",\"apparmor\"]],"
	" \"contexts\":{\"selinux\":[\"system_u:system_r:container_t:s0:c*\"],\"apparmor\":[\"web-?\"]},"
	" \"hidden\":{\"apparmor\":\"lsmns-hidden\",\"smack\":null},"
	" \"release\":[\"smack\"],\"interface\":[\"selinux\"]},"
	"{\"name\":\"rootfs\",\"match\":{\"root_path\":\"/var/lib/demo/*\",\"bundle\":\"/run/*\",\"id\":\"demo-*\"},"
	" \"active\":[[\"smack\"]],\"contexts\":{\"smack\":[\"ContainerC\"]},"
	" \"hidden\":{\"selinux\":\"system_u:system_r:container_t:s0\"},"
	" \"default\":{\"lsm\":[\"smack\"],\"contexts\":{\"smack\":\"ContainerC\"}}},"
	"{\"name\":\"rest\",\"match\":{},\"active\":[[\"apparmor\"]],\"contexts\":{\"apparmor\":[\"lsmns-*\"]},"
	" \"default\":\"none\"}"
	"]}";

struct fixture {
	struct policy pol;
	struct oci_state st;
	struct oci_config cfg;
	struct kv ann[8];
	struct lsm_request req;
	struct lsm_assignment a;
};

static struct fixture fx;

static void fx_reset(void)
{
	memset(&fx.st, 0, sizeof(fx.st));
	memset(&fx.cfg, 0, sizeof(fx.cfg));
	fx.st.id = "c1";
	fx.st.pid = 4242;
	fx.st.bundle = "/srv/bundle";
	fx.st.status = "created";
	fx.st.has_annotations = true;
	fx.st.annotations.v = fx.ann;
	fx.st.annotations.n = 0;
}

static void fx_ann(const char *key, const char *value)
{
	struct kv *e = &fx.ann[fx.st.annotations.n++];

	e->key = (char *)key;
	e->value = (char *)value;
	e->value_len = strlen(value);
}

static int setup(void **s)
{
	(void)s;
	memset(&fx, 0, sizeof(fx));
	if (load(decide_policy, &fx.pol))
		fprintf(stderr, "policy: %s\n", err.msg);
	assert_int_equal(err.status, 0);
	fx_reset();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	request_free(&fx.req);
	policy_free(&fx.pol);
	return 0;
}

/* Parse the request from fx and decide; returns the decide result. */
static int decide(void)
{
	int r;

	/* the assignment borrows the request's strings: keep it until the next */
	request_free(&fx.req);
	memset(&err, 0, sizeof(err));
	if (request_parse(&fx.st.annotations, &fx.cfg, &fx.req, &err))
		return -2;
	r = policy_decide(&fx.pol, &fx.st, &fx.cfg, &fx.req, &fx.a, &err);
	return r;
}

static void web_pod(void)
{
	fx_reset();
	fx_ann("io.kubernetes.pod.namespace", "web-prod");
	fx_ann(ANN_IMAGE_CRIO, "registry.example/web/nginx:1");
}

static void test_match_order(void **s)
{
	const struct policy_rule *r;

	(void)s;
	web_pod();
	r = policy_match(&fx.pol, &fx.st, &fx.cfg);
	assert_string_equal(r->name, "web");
	/* image from the other CRI annotation */
	fx_reset();
	fx_ann("io.kubernetes.pod.namespace", "web-prod");
	fx_ann(ANN_IMAGE_CRI, "registry.example/web/x");
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "web");
	/* namespace does not match: falls to "rest" */
	fx_reset();
	fx_ann("io.kubernetes.pod.namespace", "db");
	fx_ann(ANN_IMAGE_CRIO, "registry.example/web/nginx:1");
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "rest");
	/* annotation missing: no match */
	fx_reset();
	fx_ann(ANN_IMAGE_CRIO, "registry.example/web/nginx:1");
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "rest");
	/* root path, bundle and id */
	fx_reset();
	fx.st.id = "demo-1";
	fx.st.bundle = "/run/x";
	fx.cfg.root_path = "/var/lib/demo/rootfs";
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "rootfs");
	fx.st.id = "other";
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "rest");
	fx.st.id = "demo-1";
	fx.cfg.root_path = NULL;
	assert_string_equal(policy_match(&fx.pol, &fx.st, &fx.cfg)->name, "rest");
}

static void test_no_rule(void **s)
{
	struct policy empty;

	(void)s;
	assert_int_equal(load("{\"version\":1,\"rules\":[]}", &empty), 0);
	fx_reset();
	fx_ann(ANN_LSM, "selinux");
	assert_int_equal(request_parse(&fx.st.annotations, NULL, &fx.req, &err), 0);
	assert_int_equal(policy_decide(&empty, &fx.st, NULL, &fx.req, &fx.a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "no policy rule matches this container");
	request_free(&fx.req);
	policy_free(&empty);
}

static void test_allow_selinux(void **s)
{
	(void)s;
	web_pod();
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1,c2");
	fx_ann(ANN_RELEASE, "smack");
	assert_int_equal(decide(), 0);
	assert_string_equal(fx.a.rule, "web");
	assert_false(fx.a.none);
	assert_int_equal(fx.a.interface, HOOK_LSM_SELINUX);
	assert_int_equal(fx.a.n, 3);
	assert_int_equal(fx.a.e[0].lsm, HOOK_LSM_SELINUX);
	assert_int_equal(fx.a.e[0].mode, LSMNS_MODE_ACTIVE);
	assert_string_equal(fx.a.e[0].ctx, "system_u:system_r:container_t:s0:c1,c2");
	assert_int_equal(fx.a.e[1].lsm, HOOK_LSM_SMACK);
	assert_int_equal(fx.a.e[1].mode, LSMNS_MODE_RELEASED);
	assert_null(fx.a.e[1].ctx);
	assert_int_equal(fx.a.e[2].lsm, HOOK_LSM_APPARMOR);
	assert_int_equal(fx.a.e[2].mode, LSMNS_MODE_HIDDEN);
	assert_string_equal(fx.a.e[2].ctx, "lsmns-hidden");
}

static void test_allow_two_active(void **s)
{
	(void)s;
	web_pod();
	fx_ann(ANN_LSM, "apparmor,selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c3");
	fx_ann(ANN_APPARMOR_PROFILE, "web-1");
	fx_ann(ANN_INTERFACE, "selinux");
	assert_int_equal(decide(), 0);
	assert_int_equal(fx.a.n, 2);	/* smack: hidden, inherited: no entry */
	assert_int_equal(fx.a.e[1].mode, LSMNS_MODE_ACTIVE);
	assert_string_equal(fx.a.e[1].ctx, "web-1");
	assert_int_equal(fx.a.interface, HOOK_LSM_SELINUX);
}

static void test_refuse_decisions(void **s)
{
	(void)s;
	web_pod();
	fx_ann(ANN_LSM, "apparmor");
	fx_ann(ANN_APPARMOR_PROFILE, "web-1");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "active LSM set {apparmor} is not allowed by policy rule \"web\"");

	web_pod();
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:spc_t:s0");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "selinux context \"system_u:system_r:spc_t:s0\" is not allowed by policy rule \"web\"");

	web_pod();
	fx_ann(ANN_LSM, "selinux");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "no selinux context requested for active LSM selinux (set annotation org.lsmns.selinux.context)");

	web_pod();
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1");
	fx_ann(ANN_RELEASE, "apparmor");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "releasing apparmor is not allowed by policy rule \"web\"");

	web_pod();
	fx_ann(ANN_LSM, "selinux,apparmor");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1");
	fx_ann(ANN_APPARMOR_PROFILE, "web-1");
	fx_ann(ANN_INTERFACE, "apparmor");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "interface LSM apparmor is not allowed by policy rule \"web\"");

	/* the default interface is the first of org.lsmns.lsm */
	web_pod();
	fx_ann(ANN_LSM, "apparmor,selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1");
	fx_ann(ANN_APPARMOR_PROFILE, "web-1");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "interface LSM apparmor is not allowed");

	/* glob '?' is one character */
	web_pod();
	fx_ann(ANN_LSM, "selinux,apparmor");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1");
	fx_ann(ANN_APPARMOR_PROFILE, "web-12");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "apparmor context \"web-12\" is not allowed");
}

static void test_defaults(void **s)
{
	(void)s;
	/* rule "rest": default none */
	fx_reset();
	assert_int_equal(decide(), 0);
	assert_true(fx.a.none);
	assert_string_equal(fx.a.rule, "rest");

	/* rule "web": no default: refuse */
	web_pod();
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "no org.lsmns.lsm request, and policy rule \"web\", which this container matches on annotation io.kubernetes.pod.namespace \"web-prod\", image \"registry.example/web/nginx:1\", refuses containers without one");

	/* rule "rootfs": default request, with the hidden selinux context */
	fx_reset();
	fx.st.id = "demo-1";
	fx.st.bundle = "/run/x";
	fx.cfg.root_path = "/var/lib/demo/rootfs";
	assert_int_equal(decide(), 0);
	assert_false(fx.a.none);
	assert_string_equal(fx.a.rule, "rootfs");
	assert_int_equal(fx.a.n, 2);
	assert_int_equal(fx.a.e[0].lsm, HOOK_LSM_SELINUX);
	assert_int_equal(fx.a.e[0].mode, LSMNS_MODE_HIDDEN);
	assert_string_equal(fx.a.e[0].ctx, "system_u:system_r:container_t:s0");
	assert_int_equal(fx.a.e[1].lsm, HOOK_LSM_SMACK);
	assert_int_equal(fx.a.e[1].mode, LSMNS_MODE_ACTIVE);
	assert_string_equal(fx.a.e[1].ctx, "ContainerC");
	assert_int_equal(fx.a.interface, HOOK_LSM_SMACK);
}

static void test_spec_interplay(void **s)
{
	(void)s;
	/* selinuxLabel equal to the hidden selinux context: fine */
	fx_reset();
	fx.st.id = "demo-1";
	fx.st.bundle = "/run/x";
	fx.cfg.root_path = "/var/lib/demo/rootfs";
	fx.cfg.selinux_label = "system_u:system_r:container_t:s0";
	assert_int_equal(decide(), 0);

	/* different: refused */
	fx.cfg.selinux_label = "system_u:system_r:container_t:s0:c9";
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED,
		   "config.json process.selinuxLabel \"system_u:system_r:container_t:s0:c9\" conflicts with the hidden selinux context");

	/* apparmorProfile with AppArmor hidden and inherited: the runtime's
	 * attr/exec write applies as usual */
	fx.cfg.selinux_label = NULL;
	fx.cfg.apparmor_profile = "some-profile";
	assert_int_equal(decide(), 0);

	/* apparmorProfile with AppArmor hidden with a policy context */
	web_pod();
	fx.cfg.apparmor_profile = "unconfined";
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "system_u:system_r:container_t:s0:c1");
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "process.apparmorProfile \"unconfined\" conflicts with the hidden apparmor context \"lsmns-hidden\"");

	/* selinuxLabel as the fallback of an active request */
	web_pod();
	fx.cfg.selinux_label = "system_u:system_r:container_t:s0:c7";
	fx_ann(ANN_LSM, "selinux");
	assert_int_equal(decide(), 0);
	assert_string_equal(fx.a.e[0].ctx, "system_u:system_r:container_t:s0:c7");
	/* ... which must still be allowed */
	fx.cfg.selinux_label = "unconfined_u:unconfined_r:unconfined_t:s0";
	assert_int_equal(decide(), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "is not allowed by policy rule \"web\"");
}

static void test_spec_released(void **s)
{
	struct policy pol;

	(void)s;
	assert_int_equal(load("{\"version\":1,\"rules\":[{\"name\":\"rel\",\"active\":[[\"smack\"]],"
			      "\"contexts\":{\"smack\":[\"*\"]},\"release\":[\"selinux\",\"apparmor\"]}]}", &pol), 0);
	fx_reset();
	fx.cfg.apparmor_profile = "p";
	fx_ann(ANN_LSM, "smack");
	fx_ann(ANN_SMACK_LABEL, "L");
	fx_ann(ANN_RELEASE, "apparmor,selinux");
	assert_int_equal(request_parse(&fx.st.annotations, &fx.cfg, &fx.req, &err), 0);
	assert_int_equal(policy_decide(&pol, &fx.st, &fx.cfg, &fx.req, &fx.a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "config.json sets process.apparmorProfile but apparmor is to be released");
	fx.cfg.apparmor_profile = NULL;
	assert_int_equal(policy_decide(&pol, &fx.st, &fx.cfg, &fx.req, &fx.a, &err), 0);
	assert_int_equal(fx.a.n, 3);
	assert_int_equal(fx.a.e[0].mode, LSMNS_MODE_RELEASED);
	assert_int_equal(fx.a.e[2].mode, LSMNS_MODE_RELEASED);
	request_free(&fx.req);
	policy_free(&pol);
}

static void test_selinux_pair(void **s)
{
	(void)s;
	assert_true(selinux_level_is_pair("system_u:system_r:container_t:s0:c1,c2"));
	assert_true(selinux_level_is_pair("u:r:t:s0:c0,c1023"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c2,c1"));	/* not ordered */
	assert_false(selinux_level_is_pair("u:r:t:s0:c1,c1"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c0.c1023"));
	assert_false(selinux_level_is_pair("u:r:t:s0-s0:c1,c2"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c1,c2,c3"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c1,c1024"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c01,c2"));
	assert_false(selinux_level_is_pair("u:r:t:s0"));
	assert_false(selinux_level_is_pair("u:r:t:s0:c1"));
}

/* "selinux_mcs": "runtime": the runtime's label, one pair, nothing else. */
static void test_selinux_mcs_runtime(void **s)
{
	struct policy pol;
	struct oci_state st = { 0 };
	struct oci_config cfg = { 0 };
	struct lsm_request req;
	struct lsm_assignment a;
	struct kv ann[2] = {
		{ .key = (char *)ANN_LSM, .value = (char *)"selinux", .value_len = 7 },
		{ .key = (char *)ANN_SELINUX_CTX, .value = (char *)"system_u:system_r:container_t:s0:c7,c8", .value_len = 38 },
	};

	(void)s;
	assert_int_equal(load(RULE(",\"active\":[[\"selinux\"]],\"contexts\":{\"selinux\":[\"system_u:system_r:container_t:s0:c*\"]},\"selinux_mcs\":\"runtime\""), &pol), 0);
	bad_policy(RULE(",\"selinux_mcs\":\"random\""), "selinux_mcs must be \"runtime\"");
	st.has_annotations = true;
	st.annotations.v = ann;
	/* only org.lsmns.lsm: the request is the runtime's label */
	st.annotations.n = 1;
	cfg.selinux_label = (char *)"system_u:system_r:container_t:s0:c3,c9";
	assert_int_equal(request_parse(&st.annotations, &cfg, &req, &err), 0);
	assert_int_equal(policy_decide(&pol, &st, &cfg, &req, &a, &err), 0);
	assert_string_equal(a.e[0].ctx, "system_u:system_r:container_t:s0:c3,c9");
	request_free(&req);
	/* a range from the runtime: refused */
	cfg.selinux_label = (char *)"system_u:system_r:container_t:s0:c0.c1023";
	assert_int_equal(request_parse(&st.annotations, &cfg, &req, &err), 0);
	assert_int_equal(policy_decide(&pol, &st, &cfg, &req, &a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "is not one category pair s0:cN,cM");
	request_free(&req);
	/* the pod naming its own pair, no runtime label: refused */
	st.annotations.n = 2;
	cfg.selinux_label = NULL;
	assert_int_equal(request_parse(&st.annotations, &cfg, &req, &err), 0);
	assert_int_equal(policy_decide(&pol, &st, &cfg, &req, &a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "config.json has no process.selinuxLabel");
	request_free(&req);
	policy_free(&pol);
}

static void test_deny_by_default(void **s)
{
	struct policy pol;

	(void)s;
	/* a rule with no "active" allows no request at all */
	assert_int_equal(load("{\"version\":1,\"rules\":[{\"name\":\"empty\"}]}", &pol), 0);
	fx_reset();
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "x");
	assert_int_equal(request_parse(&fx.st.annotations, NULL, &fx.req, &err), 0);
	assert_int_equal(policy_decide(&pol, &fx.st, NULL, &fx.req, &fx.a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "active LSM set {selinux} is not allowed by policy rule \"empty\"");
	request_free(&fx.req);
	/* and no default: refuse */
	fx_reset();
	assert_int_equal(request_parse(&fx.st.annotations, NULL, &fx.req, &err), 0);
	assert_int_equal(policy_decide(&pol, &fx.st, NULL, &fx.req, &fx.a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "has no default");
	policy_free(&pol);
	/* an allowed set without allowed contexts: no context passes */
	assert_int_equal(load("{\"version\":1,\"rules\":[{\"name\":\"nc\",\"active\":[[\"selinux\"]]}]}", &pol), 0);
	fx_reset();
	fx_ann(ANN_LSM, "selinux");
	fx_ann(ANN_SELINUX_CTX, "x");
	assert_int_equal(request_parse(&fx.st.annotations, NULL, &fx.req, &err), 0);
	assert_int_equal(policy_decide(&pol, &fx.st, NULL, &fx.req, &fx.a, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "selinux context \"x\" is not allowed");
	request_free(&fx.req);
	policy_free(&pol);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_policy),
		cmocka_unit_test(test_shipped_files),
		cmocka_unit_test(test_policy_top_level),
		cmocka_unit_test(test_policy_rules),
		cmocka_unit_test(test_policy_active),
		cmocka_unit_test(test_policy_contexts),
		cmocka_unit_test(test_policy_hidden_release),
		cmocka_unit_test(test_policy_match),
		cmocka_unit_test(test_policy_default),
		cmocka_unit_test(test_policy_bounds),
		cmocka_unit_test(test_selinux_pair),
		cmocka_unit_test(test_selinux_mcs_runtime),
		cmocka_unit_test_setup_teardown(test_match_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_allow_selinux, setup, teardown),
		cmocka_unit_test_setup_teardown(test_allow_two_active, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuse_decisions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spec_interplay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spec_released, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deny_by_default, setup, teardown),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
