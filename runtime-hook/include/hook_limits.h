/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every bound the hook applies to its inputs, in one place.
 */
#ifndef LSMNS_HOOK_LIMITS_H
#define LSMNS_HOOK_LIMITS_H

#include <linux/lsmns.h>

/* Sizes of the files the hook reads. */
#define HOOK_MAX_STATE_SIZE	(1024 * 1024)		/* OCI state on stdin */
#define HOOK_MAX_CONFIG_SIZE	(4 * 1024 * 1024)	/* <bundle>/config.json */
#define HOOK_MAX_POLICY_SIZE	(1024 * 1024)		/* policy.json */

/* Nesting depth json-c accepts in any document. */
#define HOOK_MAX_JSON_DEPTH	32

/* A context, profile or label: bytes without the NUL. */
#define HOOK_MAX_CTX_LEN	(LSMNS_MAX_CTX_LEN - 1)

/* Container id, bundle path, root path, annotation keys. */
#define HOOK_MAX_ID_LEN		1024
#define HOOK_MAX_PATH_LEN	4095
#define HOOK_MAX_KEY_LEN	1024
/*
 * Annotations.  The hook reads only org.lsmns.* (and the keys a policy
 * rule matches on), so only org.lsmns.* values have a bound of their own;
 * any other value, such as kubectl's last-applied-configuration, is
 * bounded only by all annotations together.  Kubernetes allows 256 KiB
 * for all of a pod's annotations: this accepts four times that.
 */
#define HOOK_MAX_LSMNS_VALUE_LEN	HOOK_MAX_CTX_LEN
#define HOOK_MAX_ANNOTATIONS_SIZE	(1024 * 1024)	/* keys + values */
#define HOOK_MAX_ANNOTATIONS		4096
/* Free text in the policy ("comment"). */
#define HOOK_MAX_VALUE_LEN		65536

/* Policy file. */
#define HOOK_MAX_RULES		1024
#define HOOK_MAX_PATTERNS	256	/* per list in a rule */
#define HOOK_MAX_NAME_LEN	256	/* rule names */

/* Length of a message line (stderr and syslog). */
#define HOOK_MSG_LEN		1024

#endif /* LSMNS_HOOK_LIMITS_H */
