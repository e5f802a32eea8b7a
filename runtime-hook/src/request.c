// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The request: what the container asks for (annotations, untrusted) and
 * the binary request of <linux/lsmns.h> built from what the policy allows.
 */
#include <stdlib.h>
#include <string.h>

#include "lsmns_hook.h"

static const char *const known_keys[] = {
	ANN_LSM, ANN_SELINUX_CTX, ANN_APPARMOR_PROFILE, ANN_SMACK_LABEL,
	ANN_RELEASE, ANN_INTERFACE,
};

int ctx_check(const char *s, size_t len, const char *what,
	      struct hook_err *err)
{
	size_t i;

	if (len == 0)
		return hook_fail(err, HOOK_ERR_REFUSED, "%s is empty", what);
	if (len > HOOK_MAX_CTX_LEN)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "%s is longer than %d bytes", what,
				 HOOK_MAX_CTX_LEN);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s contains a NUL byte", what);
		if (c < 0x20 || c == 0x7f)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s contains a control character (0x%02x)",
					 what, c);
	}
	return 0;
}

static int plain_value(const struct kv *e, struct hook_err *err)
{
	if (strlen(e->value) != e->value_len)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "annotation %s contains a NUL byte", e->key);
	return 0;
}

static const char *spec_label(const struct oci_config *cfg, int lsm)
{
	if (!cfg)
		return NULL;
	if (lsm == HOOK_LSM_SELINUX)
		return cfg->selinux_label;
	if (lsm == HOOK_LSM_APPARMOR)
		return cfg->apparmor_profile;
	return NULL;
}

int request_parse(const struct kv_list *ann, const struct oci_config *cfg,
		  struct lsm_request *req, struct hook_err *err)
{
	const struct kv *lsm, *e;
	size_t i, k;
	int l;

	memset(req, 0, sizeof(*req));
	req->interface = -1;

	/* Refuse unknown org.lsmns.* keys: a typo must not go unnoticed. */
	for (i = 0; ann && i < ann->n; i++) {
		const char *key = ann->v[i].key;
		bool known = false;

		if (strncmp(key, ANN_PREFIX, strlen(ANN_PREFIX)))
			continue;
		for (k = 0; k < sizeof(known_keys) / sizeof(known_keys[0]); k++)
			known = known || !strcmp(key, known_keys[k]);
		if (!known)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "unknown annotation %.128s (the hook knows " ANN_LSM ", " ANN_SELINUX_CTX ", " ANN_APPARMOR_PROFILE ", " ANN_SMACK_LABEL ", " ANN_RELEASE ", " ANN_INTERFACE ")",
					 key);
		if (ann->v[i].value_len > HOOK_MAX_LSMNS_VALUE_LEN)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "annotation %.128s is %zu bytes, more than the %d an org.lsmns.* value may have",
					 key, ann->v[i].value_len, HOOK_MAX_LSMNS_VALUE_LEN);
		if (strcmp(key, ANN_LSM) && !kv_find(ann, ANN_LSM))
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "annotation %.128s given without " ANN_LSM,
					 key);
	}

	lsm = kv_find(ann, ANN_LSM);
	if (!lsm)
		return 0;	/* no request: the policy default applies */
	req->present = true;
	if (plain_value(lsm, err) ||
	    lsm_list_parse(lsm->value, lsm->value_len, &req->active,
			   "annotation " ANN_LSM, err))
		goto fail;

	for (l = 0; l < HOOK_LSM_COUNT; l++) {
		const char *spec = spec_label(cfg, l);
		char what[96];

		e = kv_find(ann, hook_lsms[l].ctx_key);
		if (e) {
			snprintf(what, sizeof(what), "annotation %s",
				 hook_lsms[l].ctx_key);
			if (!(req->active.mask & LSM_BIT(l))) {
				hook_fail(err, HOOK_ERR_REFUSED,
					  "%s given but %s is not in " ANN_LSM,
					  what, hook_lsms[l].name);
				goto fail;
			}
			if (ctx_check(e->value, e->value_len, what, err))
				goto fail;
			if (spec && strcmp(spec, e->value)) {
				hook_fail(err, HOOK_ERR_REFUSED,
					  "%s \"%.128s\" conflicts with config.json process.%s \"%.128s\"",
					  what, e->value, hook_lsms[l].spec_field,
					  spec);
				goto fail;
			}
			req->ctx[l] = strdup(e->value);
		} else if (spec && (req->active.mask & LSM_BIT(l))) {
			snprintf(what, sizeof(what), "config.json process.%s",
				 hook_lsms[l].spec_field);
			if (ctx_check(spec, strlen(spec), what, err))
				goto fail;
			req->ctx[l] = strdup(spec);
		} else {
			continue;
		}
		if (!req->ctx[l]) {
			hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
			goto fail;
		}
	}

	e = kv_find(ann, ANN_RELEASE);
	if (e) {
		struct lsm_list rel;

		if (plain_value(e, err) ||
		    lsm_list_parse(e->value, e->value_len, &rel,
				   "annotation " ANN_RELEASE, err))
			goto fail;
		if (rel.mask & req->active.mask) {
			char b[64];

			hook_fail(err, HOOK_ERR_REFUSED,
				  "%s cannot be both active and released",
				  lsm_mask_str(rel.mask & req->active.mask, b,
					       sizeof(b)));
			goto fail;
		}
		req->release_mask = rel.mask;
	}

	e = kv_find(ann, ANN_INTERFACE);
	if (e) {
		if (plain_value(e, err))
			goto fail;
		req->interface = hook_lsm_by_name(e->value, e->value_len);
		if (req->interface < 0) {
			hook_fail(err, HOOK_ERR_REFUSED,
				  "annotation " ANN_INTERFACE ": unknown LSM \"%.64s\"",
				  e->value);
			goto fail;
		}
		if (!(req->active.mask & LSM_BIT(req->interface))) {
			hook_fail(err, HOOK_ERR_REFUSED,
				  "interface LSM %s is not in " ANN_LSM,
				  hook_lsms[req->interface].name);
			goto fail;
		}
	}
	return 0;
fail:
	request_free(req);
	return -1;
}

void request_free(struct lsm_request *req)
{
	int l;

	for (l = 0; l < HOOK_LSM_COUNT; l++)
		free(req->ctx[l]);
	memset(req, 0, sizeof(*req));
	req->interface = -1;
}

/* ---- binary request --------------------------------------------------- */

static size_t ctx_size(size_t ctx_len)
{
	return (sizeof(struct lsm_ctx) + ctx_len + 7) & ~(size_t)7;
}

int request_build(const struct lsm_assignment *a, int pidfd, void **out,
		  size_t *out_len, struct hook_err *err)
{
	struct lsmns_assign_hdr hdr;
	size_t size = sizeof(hdr), off;
	unsigned int i;
	char *buf;

	if (a->n == 0 || a->n > LSMNS_MAX_ENTRIES || a->n > HOOK_LSM_COUNT)
		return hook_fail(err, HOOK_ERR_INTERNAL,
				 "request with %u entries", a->n);
	for (i = 0; i < a->n; i++) {
		size_t cl = a->e[i].ctx ? strlen(a->e[i].ctx) + 1 : 0;

		if (cl > LSMNS_MAX_CTX_LEN)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s context is longer than %d bytes",
					 hook_lsms[a->e[i].lsm].name,
					 HOOK_MAX_CTX_LEN);
		size += sizeof(struct lsmns_entry) + ctx_size(cl);
	}
	if (size > LSMNS_MAX_REQUEST_SIZE)
		return hook_fail(err, HOOK_ERR_REFUSED,
				 "request of %zu bytes exceeds %d", size,
				 LSMNS_MAX_REQUEST_SIZE);

	buf = calloc(1, size);
	if (!buf)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");

	memset(&hdr, 0, sizeof(hdr));
	hdr.version = LSMNS_ABI_VERSION;
	hdr.flags = 0;
	hdr.pidfd = pidfd;
	hdr.nentries = a->n;
	hdr.size = (__u32)size;
	hdr.reserved = 0;
	hdr.interface_lsm = a->interface >= 0 ? hook_lsms[a->interface].id : 0;
	memcpy(buf, &hdr, sizeof(hdr));
	off = sizeof(hdr);

	for (i = 0; i < a->n; i++) {
		struct lsmns_entry ent = { .mode = a->e[i].mode, .reserved = 0 };
		struct lsm_ctx ctx;
		size_t cl = a->e[i].ctx ? strlen(a->e[i].ctx) + 1 : 0;

		memcpy(buf + off, &ent, sizeof(ent));
		off += sizeof(ent);
		memset(&ctx, 0, sizeof(ctx));
		ctx.id = hook_lsms[a->e[i].lsm].id;
		ctx.flags = 0;
		ctx.len = ctx_size(cl);
		ctx.ctx_len = cl;
		memcpy(buf + off, &ctx, sizeof(ctx));
		if (cl)
			memcpy(buf + off + sizeof(ctx), a->e[i].ctx, cl);
		off += ctx_size(cl);
	}
	*out = buf;
	*out_len = size;
	return 0;
}

static const char *lsm_id_name(__u64 id)
{
	int l;

	for (l = 0; l < HOOK_LSM_COUNT; l++)
		if (hook_lsms[l].id == id)
			return hook_lsms[l].name;
	return id ? "?" : "first-active";
}

void request_dump(FILE *f, const void *data, size_t len)
{
	const unsigned char *p = data;
	struct lsmns_assign_hdr hdr;
	size_t off, i;
	__u32 n;

	fprintf(f, "# lsmns assign request, %zu bytes\n", len);
	if (len < sizeof(hdr))
		return;
	memcpy(&hdr, p, sizeof(hdr));
	fprintf(f, "version=%u flags=%u pidfd=%d nentries=%u size=%u reserved=%u interface_lsm=%llu (%s)\n",
		hdr.version, hdr.flags, hdr.pidfd, hdr.nentries, hdr.size,
		hdr.reserved, (unsigned long long)hdr.interface_lsm,
		lsm_id_name(hdr.interface_lsm));
	off = sizeof(hdr);
	for (n = 0; n < hdr.nentries; n++) {
		struct lsmns_entry ent;
		struct lsm_ctx ctx;

		if (off + sizeof(ent) + sizeof(ctx) > len)
			break;
		memcpy(&ent, p + off, sizeof(ent));
		memcpy(&ctx, p + off + sizeof(ent), sizeof(ctx));
		fprintf(f, "entry[%u] mode=%u (%s) id=%llu (%s) flags=%llu len=%llu ctx_len=%llu ctx=",
			n, ent.mode, hook_mode_name(ent.mode),
			(unsigned long long)ctx.id, lsm_id_name(ctx.id),
			(unsigned long long)ctx.flags,
			(unsigned long long)ctx.len,
			(unsigned long long)ctx.ctx_len);
		if (ctx.ctx_len && ctx.ctx_len <= LSMNS_MAX_CTX_LEN &&
		    off + sizeof(ent) + sizeof(ctx) + ctx.ctx_len <= len)
			fprintf(f, "\"%.*s\"\n", (int)ctx.ctx_len - 1,
				(const char *)p + off + sizeof(ent) + sizeof(ctx));
		else
			fprintf(f, "(inherit)\n");
		if (ctx.len < sizeof(ctx) || ctx.len > len)
			break;
		off += sizeof(ent) + ctx.len;
	}
	for (i = 0; i < len; i += 16) {
		size_t j;

		fprintf(f, "%08zx ", i);
		for (j = i; j < i + 16 && j < len; j++)
			fprintf(f, " %02x", p[j]);
		fprintf(f, "\n");
	}
}

void assignment_str(const struct lsm_assignment *a, char *buf, size_t size)
{
	size_t o = 0;
	unsigned int i;

	if (!size)
		return;
	buf[0] = '\0';
	if (a->none) {
		snprintf(buf, size, "rule=%s no assignment (policy default \"none\")",
			 a->rule ? a->rule : "?");
		return;
	}
	o += (size_t)snprintf(buf, size, "rule=%s interface=%s",
			      a->rule ? a->rule : "?",
			      a->interface >= 0 ? hook_lsms[a->interface].name
						: "first-active");
	for (i = 0; i < a->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, " %s=%s:%s",
				      hook_lsms[a->e[i].lsm].name,
				      hook_mode_name(a->e[i].mode),
				      a->e[i].ctx ? a->e[i].ctx : "(inherit)");
}
