// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The request in the annotations (every refusal) and the exact bytes of
 * the binary request of <linux/lsmns.h>.
 */
#include "testutil.h"

static struct hook_err err;

/* Annotations from "k=v" strings (NULL-terminated). */
static struct kv_list *ann(const char *const *pairs)
{
	static struct kv_list l;
	static struct kv v[16];
	static char buf[16][2][8192];
	size_t i;

	memset(&l, 0, sizeof(l));
	for (i = 0; pairs[i]; i++) {
		const char *eq = strchr(pairs[i], '=');

		assert_non_null(eq);
		assert_true(i < 16);
		snprintf(buf[i][0], sizeof(buf[i][0]), "%.*s", (int)(eq - pairs[i]), pairs[i]);
		snprintf(buf[i][1], sizeof(buf[i][1]), "%s", eq + 1);
		v[i].key = buf[i][0];
		v[i].value = buf[i][1];
		v[i].value_len = strlen(eq + 1);
	}
	l.v = v;
	l.n = i;
	return &l;
}

#define ANN(...) ann((const char *const[]){ __VA_ARGS__, NULL })

static void refused(const struct kv_list *l, const struct oci_config *cfg,
		    const char *needle)
{
	struct lsm_request req;

	memset(&err, 0, sizeof(err));
	if (request_parse(l, cfg, &req, &err) == 0) {
		request_free(&req);
		fail_msg("request accepted, wanted /%s/", needle);
	}
	assert_err(&err, HOOK_ERR_REFUSED, needle);
}

static void test_no_request(void **s)
{
	struct lsm_request req;

	(void)s;
	assert_int_equal(request_parse(NULL, NULL, &req, &err), 0);
	assert_false(req.present);
	assert_int_equal(request_parse(ANN("io.other=1", "org.lsmnsx=2"), NULL, &req, &err), 0);
	assert_false(req.present);
	request_free(&req);
}

static void test_full_request(void **s)
{
	struct lsm_request req;

	(void)s;
	assert_int_equal(request_parse(ANN("org.lsmns.lsm= apparmor , selinux",
					   "org.lsmns.selinux.context=system_u:system_r:container_t:s0:c1,c2",
					   "org.lsmns.apparmor.profile=lsmns-demo",
					   "org.lsmns.release=smack",
					   "org.lsmns.interface=selinux"),
				       NULL, &req, &err), 0);
	assert_true(req.present);
	assert_int_equal(req.active.n, 2);
	assert_int_equal(req.active.idx[0], HOOK_LSM_APPARMOR);
	assert_int_equal(req.active.idx[1], HOOK_LSM_SELINUX);
	assert_int_equal(req.active.mask, LSM_BIT(HOOK_LSM_APPARMOR) | LSM_BIT(HOOK_LSM_SELINUX));
	assert_int_equal(req.release_mask, LSM_BIT(HOOK_LSM_SMACK));
	assert_int_equal(req.interface, HOOK_LSM_SELINUX);
	assert_string_equal(req.ctx[HOOK_LSM_SELINUX], "system_u:system_r:container_t:s0:c1,c2");
	assert_string_equal(req.ctx[HOOK_LSM_APPARMOR], "lsmns-demo");
	assert_null(req.ctx[HOOK_LSM_SMACK]);
	request_free(&req);

	assert_int_equal(request_parse(ANN("org.lsmns.lsm=smack", "org.lsmns.smack.label=ContainerC"),
				       NULL, &req, &err), 0);
	assert_string_equal(req.ctx[HOOK_LSM_SMACK], "ContainerC");
	assert_int_equal(req.interface, -1);
	request_free(&req);
}

static void test_spec_fallback(void **s)
{
	struct oci_config cfg = { 0 };
	struct lsm_request req;

	(void)s;
	cfg.selinux_label = "system_u:system_r:container_t:s0:c5,c6";
	cfg.apparmor_profile = "lsmns-spec";
	assert_int_equal(request_parse(ANN("org.lsmns.lsm=selinux,apparmor"), &cfg, &req, &err), 0);
	assert_string_equal(req.ctx[HOOK_LSM_SELINUX], "system_u:system_r:container_t:s0:c5,c6");
	assert_string_equal(req.ctx[HOOK_LSM_APPARMOR], "lsmns-spec");
	request_free(&req);
	/* equal annotation and spec label: fine */
	assert_int_equal(request_parse(ANN("org.lsmns.lsm=apparmor", "org.lsmns.apparmor.profile=lsmns-spec"),
				       &cfg, &req, &err), 0);
	assert_string_equal(req.ctx[HOOK_LSM_APPARMOR], "lsmns-spec");
	/* the spec label of a non-active LSM is not a request */
	assert_null(req.ctx[HOOK_LSM_SELINUX]);
	request_free(&req);
	/* no spec label and no annotation: no context (policy refuses) */
	assert_int_equal(request_parse(ANN("org.lsmns.lsm=smack"), &cfg, &req, &err), 0);
	assert_null(req.ctx[HOOK_LSM_SMACK]);
	request_free(&req);
}

static void test_refuse_keys(void **s)
{
	(void)s;
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.selinux.contxt=x"), NULL,
		"unknown annotation org.lsmns.selinux.contxt");
	refused(ANN("org.lsmns.selinux.context=x"), NULL,
		"annotation org.lsmns.selinux.context given without org.lsmns.lsm");
	refused(ANN("org.lsmns.release=smack"), NULL, "given without org.lsmns.lsm");
	refused(ANN("org.lsmns.=1", "org.lsmns.lsm=selinux"), NULL, "unknown annotation");
}

static void test_refuse_lsm_list(void **s)
{
	(void)s;
	refused(ANN("org.lsmns.lsm="), NULL, "org.lsmns.lsm is empty");
	refused(ANN("org.lsmns.lsm=tomoyo"), NULL, "unknown LSM \"tomoyo\"");
	refused(ANN("org.lsmns.lsm=SELinux"), NULL, "unknown LSM \"SELinux\"");
	refused(ANN("org.lsmns.lsm=selinux,selinux"), NULL, "names selinux twice");
	refused(ANN("org.lsmns.lsm=selinux,"), NULL, "empty item");
	refused(ANN("org.lsmns.lsm=,selinux"), NULL, "empty item");
	refused(ANN("org.lsmns.lsm=selinux,,smack"), NULL, "empty item");
	refused(ANN("org.lsmns.lsm= "), NULL, "empty item");
	refused(ANN("org.lsmns.lsm=selinux smack"), NULL, "unknown LSM");
}

static void test_refuse_nul_value(void **s)
{
	struct kv_list *l = ANN("org.lsmns.lsm=selinux");

	(void)s;
	l->v[0].value_len += 2;	/* "selinux\0\0": a NUL inside the value */
	refused(l, NULL, "contains a NUL byte");
	l = ANN("org.lsmns.lsm=selinux", "org.lsmns.selinux.context=abc");
	l->v[1].value[1] = '\0';
	refused(l, NULL, "contains a NUL byte");
}

static void test_refuse_contexts(void **s)
{
	static char big[HOOK_MAX_CTX_LEN + 32];
	struct lsm_request req;

	(void)s;
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.apparmor.profile=p"), NULL,
		"annotation org.lsmns.apparmor.profile given but apparmor is not in org.lsmns.lsm");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.selinux.context="), NULL,
		"org.lsmns.selinux.context is empty");
	refused(ANN("org.lsmns.lsm=smack", "org.lsmns.smack.label=a\nb"), NULL,
		"control character (0x0a)");
	refused(ANN("org.lsmns.lsm=smack", "org.lsmns.smack.label=a\x7f"), NULL,
		"control character (0x7f)");
	refused(ANN("org.lsmns.lsm=smack", "org.lsmns.smack.label=\x1b[31m"), NULL,
		"control character (0x1b)");

	memcpy(big, "org.lsmns.smack.label=", 22);
	memset(big + 22, 'L', HOOK_MAX_CTX_LEN);	/* exactly the maximum */
	big[22 + HOOK_MAX_CTX_LEN] = '\0';
	assert_int_equal(request_parse(ANN("org.lsmns.lsm=smack", big), NULL, &req, &err), 0);
	assert_int_equal(strlen(req.ctx[HOOK_LSM_SMACK]), HOOK_MAX_CTX_LEN);
	request_free(&req);
	big[22 + HOOK_MAX_CTX_LEN] = 'L';
	big[23 + HOOK_MAX_CTX_LEN] = '\0';
	refused(ANN("org.lsmns.lsm=smack", big), NULL, "is 4096 bytes, more than the 4095 an org.lsmns.* value may have");
}

static void test_refuse_spec_conflict(void **s)
{
	struct oci_config cfg = { 0 };

	(void)s;
	cfg.selinux_label = "system_u:system_r:spc_t:s0";
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.selinux.context=system_u:system_r:container_t:s0"),
		&cfg, "conflicts with config.json process.selinuxLabel");
	cfg.selinux_label = NULL;
	cfg.apparmor_profile = "unconfined";
	refused(ANN("org.lsmns.lsm=apparmor", "org.lsmns.apparmor.profile=lsmns-x"),
		&cfg, "conflicts with config.json process.apparmorProfile \"unconfined\"");
	cfg.apparmor_profile = "bad\x01";
	refused(ANN("org.lsmns.lsm=apparmor"), &cfg, "config.json process.apparmorProfile contains a control");
}

static void test_refuse_release_interface(void **s)
{
	(void)s;
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.release=selinux"), NULL,
		"selinux cannot be both active and released");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.release=yama"), NULL,
		"org.lsmns.release: unknown LSM \"yama\"");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.release="), NULL, "org.lsmns.release is empty");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.interface=apparmor"), NULL,
		"interface LSM apparmor is not in org.lsmns.lsm");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.interface=selinux,smack"), NULL,
		"org.lsmns.interface: unknown LSM");
	refused(ANN("org.lsmns.lsm=selinux", "org.lsmns.interface="), NULL,
		"org.lsmns.interface: unknown LSM");
}

static void test_lsm_list(void **s)
{
	struct lsm_list l;
	char b[64];

	(void)s;
	assert_int_equal(lsm_list_parse("smack,apparmor,selinux", 22, &l, "x", &err), 0);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.idx[0], HOOK_LSM_SMACK);
	assert_string_equal(lsm_mask_str(l.mask, b, sizeof(b)), "selinux,smack,apparmor");
	assert_string_equal(lsm_mask_str(0, b, sizeof(b)), "none");
	assert_int_equal(hook_lsm_by_name("apparmor", 8), HOOK_LSM_APPARMOR);
	assert_int_equal(hook_lsm_by_name("apparmo", 7), -1);
	assert_int_equal(hook_lsm_by_name("apparmorx", 9), -1);
	/* length-bounded: "selinuxGARBAGE" with len 7 is "selinux" */
	assert_int_equal(lsm_list_parse("selinuxGARBAGE", 7, &l, "x", &err), 0);
	assert_int_equal(l.mask, LSM_BIT(HOOK_LSM_SELINUX));
}

/* ---- binary request ------------------------------------------------------ */

struct entry_view {
	struct lsmns_entry ent;
	struct lsm_ctx ctx;
	const char *text;
};

/* Walk a request like the kernel would, checking every invariant. */
static size_t walk(const unsigned char *buf, size_t len, struct lsmns_assign_hdr *hdr,
		   struct entry_view *ev, size_t max)
{
	size_t off = sizeof(*hdr), n = 0;

	assert_true(len >= sizeof(*hdr));
	memcpy(hdr, buf, sizeof(*hdr));
	assert_int_equal(hdr->size, len);
	assert_int_equal(len % 8, 0);
	while (off < len) {
		size_t i;

		assert_true(n < max);
		assert_true(off + sizeof(ev[n].ent) + sizeof(ev[n].ctx) <= len);
		memcpy(&ev[n].ent, buf + off, sizeof(ev[n].ent));
		memcpy(&ev[n].ctx, buf + off + sizeof(ev[n].ent), sizeof(ev[n].ctx));
		assert_int_equal(ev[n].ctx.len % 8, 0);
		assert_true(ev[n].ctx.len >= sizeof(struct lsm_ctx) + ev[n].ctx.ctx_len);
		assert_true(ev[n].ctx.len < sizeof(struct lsm_ctx) + ev[n].ctx.ctx_len + 8);
		ev[n].text = (const char *)buf + off + sizeof(ev[n].ent) + sizeof(ev[n].ctx);
		if (ev[n].ctx.ctx_len)
			assert_int_equal(ev[n].text[ev[n].ctx.ctx_len - 1], '\0');
		/* padding is zero */
		for (i = sizeof(struct lsm_ctx) + ev[n].ctx.ctx_len; i < ev[n].ctx.len; i++)
			assert_int_equal(buf[off + sizeof(ev[n].ent) + i], 0);
		off += sizeof(ev[n].ent) + ev[n].ctx.len;
		n++;
	}
	assert_int_equal(off, len);
	assert_int_equal(n, hdr->nentries);
	return n;
}

static void test_abi_layout(void **s)
{
	(void)s;
	/* the layout the header documents, checked on this compiler */
	assert_int_equal(sizeof(struct lsmns_assign_hdr), 32);
	assert_int_equal(offsetof(struct lsmns_assign_hdr, pidfd), 8);
	assert_int_equal(offsetof(struct lsmns_assign_hdr, size), 16);
	assert_int_equal(offsetof(struct lsmns_assign_hdr, interface_lsm), 24);
	assert_int_equal(sizeof(struct lsmns_entry), 8);
	assert_int_equal(sizeof(struct lsm_ctx), 32);
	assert_int_equal(offsetof(struct lsm_ctx, ctx_len), 24);
	assert_int_equal(sizeof(struct lsmns_assign_result), 24);
	assert_int_equal(offsetof(struct lsmns_assign_result, ns_id), 16);
	assert_int_equal(LSM_ID_SELINUX, 101);
	assert_int_equal(LSM_ID_SMACK, 102);
	assert_int_equal(LSM_ID_APPARMOR, 104);
}

static void test_build_bytes(void **s)
{
	static const char sel[] = "system_u:system_r:container_t:s0:c1,c2";	/* 38 */
	struct lsm_assignment a = { 0 };
	struct lsmns_assign_hdr hdr;
	struct entry_view ev[4];
	unsigned char *buf;
	size_t len;
	void *out;

	(void)s;
	a.rule = "r";
	a.interface = HOOK_LSM_SELINUX;
	a.n = 3;
	a.e[0].lsm = HOOK_LSM_SELINUX;
	a.e[0].mode = LSMNS_MODE_ACTIVE;
	a.e[0].ctx = sel;
	a.e[1].lsm = HOOK_LSM_SMACK;
	a.e[1].mode = LSMNS_MODE_RELEASED;
	a.e[1].ctx = NULL;
	a.e[2].lsm = HOOK_LSM_APPARMOR;
	a.e[2].mode = LSMNS_MODE_HIDDEN;
	a.e[2].ctx = "lsmns-hidden";	/* 12 */
	assert_int_equal(request_build(&a, 17, &out, &len, &err), 0);
	buf = out;

	/* 32 + (8 + 72) + (8 + 32) + (8 + 48) */
	assert_int_equal(len, 208);
	assert_int_equal(walk(buf, len, &hdr, ev, 4), 3);
	assert_int_equal(hdr.version, LSMNS_ABI_VERSION);
	assert_int_equal(hdr.flags, 0);
	assert_int_equal(hdr.pidfd, 17);
	assert_int_equal(hdr.nentries, 3);
	assert_int_equal(hdr.size, 208);
	assert_int_equal(hdr.reserved, 0);
	assert_int_equal(hdr.interface_lsm, LSM_ID_SELINUX);

	assert_int_equal(ev[0].ent.mode, LSMNS_MODE_ACTIVE);
	assert_int_equal(ev[0].ent.reserved, 0);
	assert_int_equal(ev[0].ctx.id, LSM_ID_SELINUX);
	assert_int_equal(ev[0].ctx.flags, 0);
	assert_int_equal(ev[0].ctx.ctx_len, 39);
	assert_int_equal(ev[0].ctx.len, 72);
	assert_string_equal(ev[0].text, sel);

	assert_int_equal(ev[1].ent.mode, LSMNS_MODE_RELEASED);
	assert_int_equal(ev[1].ctx.id, LSM_ID_SMACK);
	assert_int_equal(ev[1].ctx.ctx_len, 0);
	assert_int_equal(ev[1].ctx.len, 32);

	assert_int_equal(ev[2].ent.mode, LSMNS_MODE_HIDDEN);
	assert_int_equal(ev[2].ctx.id, LSM_ID_APPARMOR);
	assert_int_equal(ev[2].ctx.ctx_len, 13);
	assert_int_equal(ev[2].ctx.len, 48);
	assert_string_equal(ev[2].text, "lsmns-hidden");

	/* raw bytes of the header, little endian (x86_64) */
	{
		static const unsigned char head[32] = {
			1, 0, 0, 0,  0, 0, 0, 0,  17, 0, 0, 0,  3, 0, 0, 0,
			208, 0, 0, 0,  0, 0, 0, 0,  101, 0, 0, 0, 0, 0, 0, 0,
		};

		if (*(const uint16_t *)"\1\0" == 1)
			assert_memory_equal(buf, head, 32);
	}
	free(out);
}

static void test_build_exact_multiple(void **s)
{
	struct lsm_assignment a = { 0 };
	struct lsmns_assign_hdr hdr;
	struct entry_view ev[2];
	void *out;
	size_t len;

	(void)s;
	a.interface = -1;	/* 0: the kernel picks the first active entry */
	a.n = 1;
	a.e[0].lsm = HOOK_LSM_APPARMOR;
	a.e[0].mode = LSMNS_MODE_ACTIVE;
	a.e[0].ctx = "1234567";	/* ctx_len 8: no padding */
	assert_int_equal(request_build(&a, 3, &out, &len, &err), 0);
	assert_int_equal(len, 32 + 8 + 40);
	assert_int_equal(walk(out, len, &hdr, ev, 2), 1);
	assert_int_equal(hdr.interface_lsm, 0);
	assert_int_equal(ev[0].ctx.len, 40);
	assert_int_equal(ev[0].ctx.ctx_len, 8);
	free(out);
}

static void test_build_max_ctx(void **s)
{
	static char big[HOOK_MAX_CTX_LEN + 2];
	struct lsm_assignment a = { 0 };
	struct lsmns_assign_hdr hdr;
	struct entry_view ev[4];
	void *out;
	size_t len;
	int i;

	(void)s;
	memset(big, 'x', HOOK_MAX_CTX_LEN);
	a.interface = HOOK_LSM_SMACK;
	a.n = 3;
	for (i = 0; i < 3; i++) {
		a.e[i].lsm = i;
		a.e[i].mode = LSMNS_MODE_ACTIVE;
		a.e[i].ctx = big;
	}
	assert_int_equal(request_build(&a, 3, &out, &len, &err), 0);
	assert_true(len <= LSMNS_MAX_REQUEST_SIZE);
	assert_int_equal(walk(out, len, &hdr, ev, 4), 3);
	assert_int_equal(ev[2].ctx.ctx_len, LSMNS_MAX_CTX_LEN);
	assert_int_equal(hdr.interface_lsm, LSM_ID_SMACK);
	free(out);

	big[HOOK_MAX_CTX_LEN] = 'x';	/* one byte too many */
	assert_int_equal(request_build(&a, 3, &out, &len, &err), -1);
	assert_err(&err, HOOK_ERR_REFUSED, "longer than 4095");
}

static void test_build_refusals(void **s)
{
	struct lsm_assignment a = { 0 };
	void *out;
	size_t len;

	(void)s;
	assert_int_equal(request_build(&a, 3, &out, &len, &err), -1);
	assert_err(&err, HOOK_ERR_INTERNAL, "request with 0 entries");
	a.n = HOOK_LSM_COUNT + 1;
	assert_int_equal(request_build(&a, 3, &out, &len, &err), -1);
}

static void test_dump_and_str(void **s)
{
	struct lsm_assignment a = { 0 };
	char line[512], *text = NULL;
	size_t tlen = 0, len;
	void *out;
	FILE *f;

	(void)s;
	a.rule = "demo";
	a.interface = HOOK_LSM_APPARMOR;
	a.n = 2;
	a.e[0].lsm = HOOK_LSM_SELINUX;
	a.e[0].mode = LSMNS_MODE_HIDDEN;
	a.e[0].ctx = NULL;
	a.e[1].lsm = HOOK_LSM_APPARMOR;
	a.e[1].mode = LSMNS_MODE_ACTIVE;
	a.e[1].ctx = "lsmns-demo";
	assignment_str(&a, line, sizeof(line));
	assert_string_equal(line, "rule=demo interface=apparmor selinux=hidden:(inherit) apparmor=active:lsmns-demo");
	a.none = true;
	assignment_str(&a, line, sizeof(line));
	assert_non_null(strstr(line, "no assignment"));
	a.none = false;

	assert_int_equal(request_build(&a, 9, &out, &len, &err), 0);
	f = open_memstream(&text, &tlen);
	assert_non_null(f);
	request_dump(f, out, len);
	fclose(f);
	assert_non_null(strstr(text, "version=1 flags=0 pidfd=9 nentries=2"));
	assert_non_null(strstr(text, "interface_lsm=104 (apparmor)"));
	assert_non_null(strstr(text, "entry[0] mode=2 (hidden) id=101 (selinux) flags=0 len=32 ctx_len=0 ctx=(inherit)"));
	assert_non_null(strstr(text, "entry[1] mode=1 (active) id=104 (apparmor) flags=0 len=48 ctx_len=11 ctx=\"lsmns-demo\""));
	assert_non_null(strstr(text, "00000000  01 00 00 00"));
	free(text);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_request),
		cmocka_unit_test(test_full_request),
		cmocka_unit_test(test_spec_fallback),
		cmocka_unit_test(test_refuse_keys),
		cmocka_unit_test(test_refuse_lsm_list),
		cmocka_unit_test(test_refuse_nul_value),
		cmocka_unit_test(test_refuse_contexts),
		cmocka_unit_test(test_refuse_spec_conflict),
		cmocka_unit_test(test_refuse_release_interface),
		cmocka_unit_test(test_lsm_list),
		cmocka_unit_test(test_abi_layout),
		cmocka_unit_test(test_build_bytes),
		cmocka_unit_test(test_build_exact_multiple),
		cmocka_unit_test(test_build_max_ctx),
		cmocka_unit_test(test_build_refusals),
		cmocka_unit_test(test_dump_and_str),
	};

	return cmocka_run_group_tests_name("request", tests, NULL, NULL);
}
