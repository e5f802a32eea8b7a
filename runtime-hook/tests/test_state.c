// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OCI state and config.json parsing, every refusal.
 */
#include "testutil.h"

static struct hook_err err;

static int parse_state(const char *json, struct oci_state *st)
{
	memset(&err, 0, sizeof(err));
	return state_parse(json, strlen(json), st, &err);
}

static void state_refused(const char *json, const char *needle)
{
	struct oci_state st;

	if (parse_state(json, &st) == 0) {
		state_free(&st);
		fail_msg("accepted: %s", json);
	}
	assert_err(&err, HOOK_ERR_INPUT, needle);
}

#define ST(pid, extra)                                                      \
	"{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"created\","   \
	"\"pid\":" pid ",\"bundle\":\"/run/b\"" extra "}"

static void test_state_crun(void **s)
{
	struct oci_state st;
	const struct kv *e;

	(void)s;
	assert_int_equal(parse_state(ST("4242", ",\"annotations\":{\"org.lsmns.lsm\":\"selinux\",\"x\":\"\"}"), &st), 0);
	assert_string_equal(st.id, "c1");
	assert_string_equal(st.status, "created");
	assert_int_equal(st.pid, 4242);
	assert_string_equal(st.bundle, "/run/b");
	assert_true(st.has_annotations);
	assert_int_equal(st.annotations.n, 2);
	e = kv_find(&st.annotations, "org.lsmns.lsm");
	assert_non_null(e);
	assert_string_equal(e->value, "selinux");
	assert_non_null(kv_find(&st.annotations, "x"));
	assert_null(kv_find(&st.annotations, "y"));
	state_free(&st);
}

static void test_state_runc(void **s)
{
	struct oci_state st;

	(void)s;
	assert_int_equal(parse_state("{\"ociVersion\":\"1.0.2\",\"id\":\"r\",\"status\":\"creating\",\"pid\":7,\"bundle\":\"/b\",\"extra\":[1,2,{}]}\n", &st), 0);
	assert_string_equal(st.status, "creating");
	assert_false(st.has_annotations);
	assert_int_equal(st.annotations.n, 0);
	state_free(&st);
}

static void test_state_bad_json(void **s)
{
	(void)s;
	state_refused("", "is empty");
	state_refused("{", "unexpected end");
	state_refused("{\"id\":}", "invalid JSON");
	state_refused("{'id':'x'}", "invalid JSON");
	state_refused(ST("1", ",") , "invalid JSON");
	state_refused("[1,2]", "expected a JSON object");
	state_refused("\"str\"", "expected a JSON object");
	state_refused(ST("5", "") " x", "at byte");
	state_refused(ST("5", "") "{}", "at byte");
}

static void test_state_nul(void **s)
{
	static const char raw[] = "{\"id\":\"a\0b\"}";
	struct oci_state st;

	(void)s;
	memset(&err, 0, sizeof(err));
	assert_int_equal(state_parse(raw, sizeof(raw) - 1, &st, &err), -1);
	assert_err(&err, HOOK_ERR_INPUT, "NUL byte");
	state_refused(ST("5", ",\"annotations\":{\"org.lsmns.lsm\\u0000x\":\"apparmor\"}"),
		      "escaped NUL");
	state_refused("{\"id\":\"a\\u0000\"}", "escaped NUL");
	/* an escaped backslash before u0000 is not a NUL, but is harmless */
	{
		struct oci_state ok;

		assert_int_equal(parse_state(ST("5", ",\"annotations\":{\"k\":\"\\\\\\\\u0001\"}"), &ok), 0);
		state_free(&ok);
	}
}

static void test_state_depth(void **s)
{
	char buf[512] = "{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\",\"deep\":";
	int i;

	(void)s;
	for (i = 0; i < 40; i++)
		strcat(buf, "[");
	for (i = 0; i < 40; i++)
		strcat(buf, "]");
	strcat(buf, "}");
	state_refused(buf, "invalid JSON");
}

static void test_state_id(void **s)
{
	char *big;

	(void)s;
	state_refused("{\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\"}", "missing \"id\"");
	state_refused("{\"id\":5,\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\"}", "\"id\" must be a string");
	state_refused("{\"id\":\"\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\"}", "empty or has control");
	state_refused("{\"id\":\"a\\nb\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\"}", "control characters");
	big = malloc(HOOK_MAX_ID_LEN + 100);
	assert_non_null(big);
	strcpy(big, "{\"id\":\"");
	memset(big + 7, 'a', HOOK_MAX_ID_LEN + 1);
	strcpy(big + 7 + HOOK_MAX_ID_LEN + 1, "\"}");
	state_refused(big, "longer than");
	free(big);
}

static void test_state_status(void **s)
{
	(void)s;
	state_refused("{\"id\":\"c\",\"pid\":5,\"bundle\":\"/b\"}", "missing \"status\"");
	state_refused("{\"id\":\"c\",\"status\":\"running\",\"pid\":5,\"bundle\":\"/b\"}", "createRuntime");
	state_refused("{\"id\":\"c\",\"status\":\"stopped\",\"pid\":5,\"bundle\":\"/b\"}", "\"stopped\" is not");
	state_refused("{\"id\":\"c\",\"status\":1,\"pid\":5,\"bundle\":\"/b\"}", "must be a string");
}

static void test_state_pid(void **s)
{
	(void)s;
	state_refused("{\"id\":\"c\",\"status\":\"created\",\"bundle\":\"/b\"}", "missing \"pid\"");
	state_refused(ST("0", ""), "pid is 0");
	state_refused(ST("-3", ""), "out of range");
	state_refused(ST("2147483648", ""), "out of range");
	state_refused(ST("18446744073709551615", ""), "out of range");
	state_refused(ST("99999999999999999999999", ""), "pid");
	state_refused(ST("12.5", ""), "must be an integer, not double");
	state_refused(ST("1e3", ""), "must be an integer");
	state_refused(ST("\"12\"", ""), "must be an integer, not string");
	state_refused(ST("null", ""), "must be an integer, not null");
	state_refused(ST("true", ""), "must be an integer");
}

static void test_state_pid_max(void **s)
{
	struct oci_state st;

	(void)s;
	assert_int_equal(parse_state(ST("2147483647", ""), &st), 0);
	assert_int_equal(st.pid, 2147483647);
	state_free(&st);
}

static void test_state_bundle(void **s)
{
	(void)s;
	state_refused("{\"id\":\"c\",\"status\":\"created\",\"pid\":5}", "missing \"bundle\"");
	state_refused("{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":\"rel/b\"}", "absolute path");
	state_refused("{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":[]}", "must be a string");
}

static void test_state_annotations(void **s)
{
	(void)s;
	state_refused(ST("5", ",\"annotations\":[]"), "\"annotations\" must be an object");
	state_refused(ST("5", ",\"annotations\":\"x\""), "must be an object");
	state_refused(ST("5", ",\"annotations\":{\"a\":1}"), "\"a\" must be a string, not int");
	state_refused(ST("5", ",\"annotations\":{\"a\":null}"), "must be a string");
	state_refused(ST("5", ",\"annotations\":{\"\":\"v\"}"), "key of 0 bytes");
}

static void test_state_annotation_bounds(void **s)
{
	size_t n = HOOK_MAX_ANNOTATIONS_SIZE + 400, i;
	char *buf = malloc(n), *p;
	struct oci_state st;
	size_t len;

	(void)s;
	assert_non_null(buf);
	/* one value of 200 KiB (kubectl's last-applied-configuration) is fine */
	p = buf + sprintf(buf, "{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\",\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":\"");
	memset(p, 'v', 200 * 1024);
	strcpy(p + 200 * 1024, "\"}}");
	memset(&err, 0, sizeof(err));
	assert_int_equal(state_parse(buf, strlen(buf), &st, &err), 0);
	assert_int_equal(st.annotations.v[0].value_len, 200 * 1024);
	state_free(&st);
	/* all of them together over the bound is refused, and says so */
	p = buf + sprintf(buf, "{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\",\"annotations\":{\"k\":\"");
	memset(p, 'v', HOOK_MAX_ANNOTATIONS_SIZE);
	strcpy(p + HOOK_MAX_ANNOTATIONS_SIZE, "\"}}");
	state_refused(buf, "keys and values together exceed 1048576 bytes");
	free(buf);

	/* more than HOOK_MAX_ANNOTATIONS members */
	n = (HOOK_MAX_ANNOTATIONS + 2) * 16 + 256;
	buf = malloc(n);
	assert_non_null(buf);
	len = (size_t)sprintf(buf, "{\"id\":\"c\",\"status\":\"created\",\"pid\":5,\"bundle\":\"/b\",\"annotations\":{");
	for (i = 0; i <= HOOK_MAX_ANNOTATIONS; i++)
		len += (size_t)sprintf(buf + len, "%s\"k%zu\":\"v\"", i ? "," : "", i);
	strcpy(buf + len, "}}");
	state_refused(buf, "more than");
	free(buf);
}

/* ---- config.json ------------------------------------------------------ */

static int parse_config(const char *json, struct oci_config *cfg)
{
	memset(&err, 0, sizeof(err));
	return config_parse(json, strlen(json), "/run/b", cfg, &err);
}

static void config_refused(const char *json, const char *needle)
{
	struct oci_config cfg;

	if (parse_config(json, &cfg) == 0) {
		config_free(&cfg);
		fail_msg("accepted: %s", json);
	}
	assert_err(&err, HOOK_ERR_INPUT, needle);
}

static void test_config_full(void **s)
{
	struct oci_config cfg;

	(void)s;
	assert_int_equal(parse_config("{\"ociVersion\":\"1.0.2\",\"process\":{\"args\":[\"sh\"],"
				      "\"selinuxLabel\":\"system_u:system_r:container_t:s0:c1,c2\","
				      "\"apparmorProfile\":\"lsmns-demo\"},\"root\":{\"path\":\"rootfs\"},"
				      "\"annotations\":{\"org.lsmns.lsm\":\"apparmor\"}}", &cfg), 0);
	assert_string_equal(cfg.selinux_label, "system_u:system_r:container_t:s0:c1,c2");
	assert_string_equal(cfg.apparmor_profile, "lsmns-demo");
	assert_string_equal(cfg.root_path, "/run/b/rootfs");
	assert_true(cfg.has_annotations);
	assert_string_equal(kv_find(&cfg.annotations, "org.lsmns.lsm")->value, "apparmor");
	config_free(&cfg);
}

static void test_config_minimal(void **s)
{
	struct oci_config cfg;

	(void)s;
	assert_int_equal(parse_config("{\"process\":{\"selinuxLabel\":\"\",\"apparmorProfile\":\"\"},"
				      "\"root\":{\"path\":\"/abs/root\"}}", &cfg), 0);
	assert_null(cfg.selinux_label);	/* "" is unset, as in the runtimes */
	assert_null(cfg.apparmor_profile);
	assert_string_equal(cfg.root_path, "/abs/root");
	assert_false(cfg.has_annotations);
	config_free(&cfg);
	assert_int_equal(parse_config("{}", &cfg), 0);
	assert_null(cfg.root_path);
	config_free(&cfg);
}

static void test_config_refusals(void **s)
{
	char *big;

	(void)s;
	config_refused("", "is empty");
	config_refused("{\"process\":", "config.json: invalid JSON");
	config_refused("[]", "expected a JSON object");
	config_refused("{\"process\":[]}", "\"process\" must be an object");
	config_refused("{\"process\":{\"selinuxLabel\":5}}", "\"selinuxLabel\" must be a string");
	config_refused("{\"process\":{\"apparmorProfile\":{}}}", "\"apparmorProfile\" must be a string");
	config_refused("{\"process\":{\"apparmorProfile\":\"a\\tb\"}}", "control characters");
	config_refused("{\"root\":\"rootfs\"}", "\"root\" must be an object");
	config_refused("{\"root\":{\"path\":1}}", "\"path\" must be a string");
	config_refused("{\"annotations\":{\"a\":[]}}", "must be a string");
	config_refused("{\"annotations\":5}", "must be an object");
	big = malloc(HOOK_MAX_CTX_LEN + 64);
	assert_non_null(big);
	strcpy(big, "{\"process\":{\"selinuxLabel\":\"");
	{
		size_t o = strlen(big);

		memset(big + o, 'x', HOOK_MAX_CTX_LEN + 1);
		strcpy(big + o + HOOK_MAX_CTX_LEN + 1, "\"}}");
	}
	config_refused(big, "longer than");
	free(big);
}

static void test_request_annotations_source(void **s)
{
	struct oci_state st = { 0 };
	struct oci_config cfg = { 0 };

	(void)s;
	assert_null(request_annotations(&st, &cfg));
	cfg.has_annotations = true;
	assert_ptr_equal(request_annotations(&st, &cfg), &cfg.annotations);
	st.has_annotations = true;
	assert_ptr_equal(request_annotations(&st, &cfg), &st.annotations);
}

/* ---- bounded reading ---------------------------------------------------- */

static void test_read_bounded(void **s)
{
	char *dir = tu_tmpdir(), *p = tu_path(dir, "f"), *buf;
	char data[5000];
	size_t len;
	int fd;

	(void)s;
	memset(data, 'a', sizeof(data));
	tu_write(p, data, sizeof(data));
	fd = open_regular(AT_FDCWD, p, "test file", HOOK_ERR_INPUT, &err);
	assert_true(fd >= 0);
	assert_int_equal(read_bounded(fd, sizeof(data), "test file", &buf, &len, HOOK_ERR_INPUT, &err), 0);
	assert_int_equal(len, sizeof(data));
	assert_int_equal(buf[len], '\0');
	free(buf);
	lseek(fd, 0, SEEK_SET);
	assert_int_equal(read_bounded(fd, sizeof(data) - 1, "test file", &buf, &len, HOOK_ERR_INPUT, &err), -1);
	assert_err(&err, HOOK_ERR_INPUT, "larger than 4999 bytes");
	close(fd);

	/* not a regular file, missing file, symlink */
	assert_int_equal(open_regular(AT_FDCWD, dir, "dir", HOOK_ERR_INPUT, &err), -1);
	assert_err(&err, HOOK_ERR_INPUT, "not a regular file");
	assert_int_equal(open_regular(AT_FDCWD, "/nonexistent/x", "thing", HOOK_ERR_POLICY, &err), -1);
	assert_err(&err, HOOK_ERR_POLICY, "cannot open thing /nonexistent/x: No such file");
	{
		char *l = tu_path(dir, "link");

		assert_int_equal(symlink(p, l), 0);
		assert_int_equal(open_regular(AT_FDCWD, l, "link", HOOK_ERR_INPUT, &err), -1);
		assert_err(&err, HOOK_ERR_INPUT, "cannot open link");
		free(l);
	}
	free(p);
	tu_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_crun),
		cmocka_unit_test(test_state_runc),
		cmocka_unit_test(test_state_bad_json),
		cmocka_unit_test(test_state_nul),
		cmocka_unit_test(test_state_depth),
		cmocka_unit_test(test_state_id),
		cmocka_unit_test(test_state_status),
		cmocka_unit_test(test_state_pid),
		cmocka_unit_test(test_state_pid_max),
		cmocka_unit_test(test_state_bundle),
		cmocka_unit_test(test_state_annotations),
		cmocka_unit_test(test_state_annotation_bounds),
		cmocka_unit_test(test_config_full),
		cmocka_unit_test(test_config_minimal),
		cmocka_unit_test(test_config_refusals),
		cmocka_unit_test(test_request_annotations_source),
		cmocka_unit_test(test_read_bounded),
	};

	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
