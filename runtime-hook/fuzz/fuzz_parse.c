// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for everything lsmns-hook parses from untrusted or
 * semi-trusted input.  The first byte picks the target, the rest is the
 * document:
 *   0  OCI state (stdin)
 *   1  config.json
 *   2  policy file (and, if valid, its defaults through policy_decide)
 *   3  OCI state through the whole decision: annotations -> request ->
 *      fixed policy -> binary request
 * Built with -DFUZZ_TARGET=N, the harness fuzzes only target N and
 * ignores the first byte, so that every parser gets its own run (and its
 * own execution count) over the same corpus.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsmns_hook.h"

static const char fixed_policy[] =
	"{\"version\":1,\"rules\":["
	"{\"name\":\"a\",\"match\":{\"annotations\":{\"k\":\"v*\"},\"image\":\"i*\"},"
	" \"active\":[[\"selinux\"],[\"selinux\",\"apparmor\"],[\"smack\"]],"
	" \"contexts\":{\"selinux\":[\"*\"],\"apparmor\":[\"p-*\"],\"smack\":[\"[A-Z]*\"]},"
	" \"hidden\":{\"apparmor\":\"h\",\"smack\":null},\"release\":[\"smack\",\"apparmor\"]},"
	"{\"name\":\"b\",\"active\":[[\"apparmor\"]],\"contexts\":{\"apparmor\":[\"*\"]},"
	" \"hidden\":{\"selinux\":\"s\"},\"interface\":[\"apparmor\"],"
	" \"default\":{\"lsm\":[\"apparmor\"],\"contexts\":{\"apparmor\":\"x\"}}}]}";

static struct policy pol;
static bool pol_ok;

static void decide_and_build(const struct oci_state *st,
			     const struct oci_config *cfg,
			     const struct policy *p)
{
	struct lsm_request req;
	struct lsm_assignment a;
	struct hook_err err;
	void *buf;
	size_t len;

	if (request_parse(request_annotations(st, cfg), cfg, &req, &err))
		return;
	if (policy_decide(p, st, cfg, &req, &a, &err) == 0 && !a.none &&
	    request_build(&a, 3, &buf, &len, &err) == 0) {
		char line[HOOK_MSG_LEN];

		if (len > LSMNS_MAX_REQUEST_SIZE || len % 8)
			abort();
		assignment_str(&a, line, sizeof(line));
		free(buf);
	}
	request_free(&req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hook_err err;
	const char *doc = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;

	if (!pol_ok) {
		if (policy_parse(fixed_policy, strlen(fixed_policy), &pol, &err))
			abort();
		pol_ok = true;
	}
	if (size < 1)
		return 0;

#ifdef FUZZ_TARGET
	switch (FUZZ_TARGET) {
#else
	switch (data[0] & 3) {
#endif
	case 0: {
		struct oci_state st;

		if (state_parse(doc, len, &st, &err) == 0)
			state_free(&st);
		break;
	}
	case 1: {
		struct oci_config cfg;

		if (config_parse(doc, len, "/bundle", &cfg, &err) == 0) {
			struct oci_state st = { .id = "c", .pid = 2,
						.bundle = "/bundle",
						.status = "created" };

			decide_and_build(&st, &cfg, &pol);
			config_free(&cfg);
		}
		break;
	}
	case 2: {
		struct policy p;

		if (policy_parse(doc, len, &p, &err) == 0) {
			struct oci_state st = { .id = "c", .pid = 2,
						.bundle = "/bundle",
						.status = "created" };

			decide_and_build(&st, NULL, &p);
			policy_free(&p);
		}
		break;
	}
	case 3: {
		struct oci_state st;

		if (state_parse(doc, len, &st, &err) == 0) {
			decide_and_build(&st, NULL, &pol);
			state_free(&st);
		}
		break;
	}
	}
	return 0;
}
