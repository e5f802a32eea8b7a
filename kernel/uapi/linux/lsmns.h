/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * LSM namespaces: user space API.
 *
 * A privileged agent (the OCI hook lsmns-hook) asks the kernel to place a
 * target task in a new LSM namespace by writing one request to
 * /sys/kernel/security/lsmns/assign.  The request is pending on the target
 * and takes effect at its next execve().  After a failed write() the same
 * open file can be read() to obtain a struct lsmns_assign_result naming the
 * entry that failed.
 *
 * Request layout (all integers in host byte order, no implicit padding):
 *
 *   struct lsmns_assign_hdr         (32 bytes)
 *   nentries times:
 *     struct lsmns_entry            (8 bytes)
 *     struct lsm_ctx                (lsm_ctx.len bytes, a multiple of 8)
 *
 * lsm_ctx is the structure of <linux/lsm.h> used by lsm_get_self_attr(2):
 * id is the LSM id (LSM_ID_SELINUX, ...), flags must be 0, ctx_len is the
 * length of ctx[] including its terminating NUL (0 for "no context": keep
 * the inherited one), and len is sizeof(struct lsm_ctx) + ctx_len rounded up
 * to a multiple of 8.
 *
 * This header is the single definition of the ABI.  The kernel series adds
 * it as include/uapi/linux/lsmns.h; user space (runtime-hook/) builds
 * against this copy until the series is installed.
 */
#ifndef _UAPI_LINUX_LSMNS_H
#define _UAPI_LINUX_LSMNS_H

#include <linux/types.h>

/* Version of the request layout; the kernel refuses any other value. */
#define LSMNS_ABI_VERSION	1

/* Modes an LSM can have in a namespace. */
#define LSMNS_MODE_ACTIVE	1	/* enforces and is visible */
#define LSMNS_MODE_HIDDEN	2	/* enforces host policy, invisible */
#define LSMNS_MODE_RELEASED	3	/* does not decide (needs consent) */

/* Bounds; requests exceeding them fail with E2BIG. */
#define LSMNS_MAX_ENTRIES	16
#define LSMNS_MAX_CTX_LEN	4096	/* ctx_len, including NUL */
#define LSMNS_MAX_REQUEST_SIZE	65536

/**
 * struct lsmns_assign_hdr - head of an assignment request
 * @version: LSMNS_ABI_VERSION
 * @flags: must be 0
 * @pidfd: pidfd_open(2) descriptor of the target task
 * @nentries: number of entries that follow, 1..LSMNS_MAX_ENTRIES
 * @size: total size of the request in bytes, header included
 * @reserved: must be 0
 * @interface_lsm: LSM id answering attr/current and SO_PEERSEC inside the
 *	namespace; must name an active entry; 0 picks the first active entry
 */
struct lsmns_assign_hdr {
	__u32 version;
	__u32 flags;
	__s32 pidfd;
	__u32 nentries;
	__u32 size;
	__u32 reserved;
	__u64 interface_lsm;
};

/**
 * struct lsmns_entry - one LSM's part of a request, followed by a lsm_ctx
 * @mode: LSMNS_MODE_*
 * @reserved: must be 0
 */
struct lsmns_entry {
	__u32 mode;
	__u32 reserved;
};

/* Value of lsmns_assign_result.failed_index when no entry is to blame. */
#define LSMNS_NO_INDEX		0xffffffffU

/**
 * struct lsmns_assign_result - outcome of the last write on this open file
 * @version: LSMNS_ABI_VERSION
 * @error: 0 or the negative errno the write returned
 * @failed_index: index of the entry that was refused, or LSMNS_NO_INDEX
 * @reserved: 0
 * @ns_id: id of the namespace created (0 on failure)
 */
struct lsmns_assign_result {
	__u32 version;
	__s32 error;
	__u32 failed_index;
	__u32 reserved;
	__u64 ns_id;
};

#endif /* _UAPI_LINUX_LSMNS_H */
