/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building an LSM namespace assignment request (struct lsmns_assign_hdr,
 * then one struct lsmns_entry + struct lsm_ctx per LSM), shared by
 * lsmns-assign.c and lsmns_abi_test.c.  Include it after linux/lsmns.h
 * and linux/lsm.h.
 */
#ifndef LSMNS_REQUEST_H
#define LSMNS_REQUEST_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Room for the largest request the kernel takes, and a bit over it. */
struct lsmns_req {
	size_t size;
	unsigned char buf[LSMNS_MAX_REQUEST_SIZE + 64];
};

static inline struct lsmns_assign_hdr *lsmns_req_hdr(struct lsmns_req *q)
{
	return (struct lsmns_assign_hdr *)q->buf;
}

/* An empty request for the task behind @pidfd. */
static inline void lsmns_req_init(struct lsmns_req *q, int pidfd,
				  __u64 interface_lsm)
{
	memset(q, 0, sizeof(*q));
	lsmns_req_hdr(q)->version = LSMNS_ABI_VERSION;
	lsmns_req_hdr(q)->pidfd = pidfd;
	lsmns_req_hdr(q)->interface_lsm = interface_lsm;
	q->size = sizeof(struct lsmns_assign_hdr);
	lsmns_req_hdr(q)->size = q->size;
}

/* Append an entry; @ctx NULL means ctx_len 0 (keep the current context). */
static inline void lsmns_req_add(struct lsmns_req *q, __u64 id, __u32 mode,
				 const char *ctx)
{
	struct lsmns_entry *e = (void *)(q->buf + q->size);
	struct lsm_ctx *c = (void *)(e + 1);
	size_t clen = ctx ? strlen(ctx) + 1 : 0;

	e->mode = mode;
	c->id = id;
	c->ctx_len = clen;
	c->len = (sizeof(*c) + clen + 7) & ~(size_t)7;
	if (ctx)
		memcpy(c->ctx, ctx, clen);
	q->size += sizeof(*e) + c->len;
	lsmns_req_hdr(q)->size = q->size;
	lsmns_req_hdr(q)->nentries++;
}

/* Entry @i of @q (the entries must be there: nothing is checked). */
static inline struct lsmns_entry *lsmns_req_entry(struct lsmns_req *q,
						  unsigned int i)
{
	size_t off = sizeof(struct lsmns_assign_hdr);
	struct lsmns_entry *e;

	for (;;) {
		e = (void *)(q->buf + off);
		if (!i--)
			return e;
		off += sizeof(*e) + ((struct lsm_ctx *)(e + 1))->len;
	}
}

/* The lsm_ctx of entry @i of @q. */
static inline struct lsm_ctx *lsmns_req_ctx(struct lsmns_req *q, unsigned int i)
{
	return (struct lsm_ctx *)(lsmns_req_entry(q, i) + 1);
}

/* LSM_ID_* of an LSM's name, or the number @name spells. */
static inline __u64 lsmns_lsm_id(const char *name)
{
	if (!strcmp(name, "selinux"))
		return LSM_ID_SELINUX;
	if (!strcmp(name, "smack"))
		return LSM_ID_SMACK;
	if (!strcmp(name, "apparmor"))
		return LSM_ID_APPARMOR;
	if (!strcmp(name, "capability"))
		return LSM_ID_CAPABILITY;
	if (!strcmp(name, "landlock"))
		return LSM_ID_LANDLOCK;
	return strtoull(name, NULL, 0);
}

/* LSMNS_MODE_* of a mode's name, or the number @name spells. */
static inline __u32 lsmns_mode(const char *name)
{
	if (!strcmp(name, "active"))
		return LSMNS_MODE_ACTIVE;
	if (!strcmp(name, "hidden"))
		return LSMNS_MODE_HIDDEN;
	if (!strcmp(name, "released"))
		return LSMNS_MODE_RELEASED;
	return strtoul(name, NULL, 0);
}

/*
 * Append the entry "LSM:MODE[:CONTEXT]" (as the guest tools take it on
 * their command lines); @arg is cut up.  Returns 0, or -1 if malformed.
 */
static inline int lsmns_req_parse_entry(struct lsmns_req *q, char *arg)
{
	char *save, *lsm = strtok_r(arg, ":", &save);
	char *mode = strtok_r(NULL, ":", &save);
	char *ctx = strtok_r(NULL, "", &save);

	if (!lsm || !mode)
		return -1;
	lsmns_req_add(q, lsmns_lsm_id(lsm), lsmns_mode(mode), ctx);
	return 0;
}

#endif /* LSMNS_REQUEST_H */
