/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lsmns-hook: types shared along the data path
 *
 *   OCI state (stdin) + config.json  -> struct oci_state, struct oci_config
 *   annotations (+ spec fallback)    -> struct lsm_request     (untrusted)
 *   policy.json                      -> struct policy          (trusted)
 *   policy_decide()                  -> struct lsm_assignment  (allowed)
 *   request_build()                  -> bytes of <linux/lsmns.h>
 *   kernel_send()                    -> one write() to the assign file
 */
#ifndef LSMNS_HOOK_H
#define LSMNS_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/types.h>
#include <linux/lsmns.h>

#include "hook_limits.h"

#define HOOK_VERSION "0.1.0"

/* <linux/lsm.h> is in the uapi since 6.8; Debian 12 ships 6.1 headers. */
#if __has_include(<linux/lsm.h>)
#include <linux/lsm.h>
#else
struct lsm_ctx {
	__u64 id;
	__u64 flags;
	__u64 len;
	__u64 ctx_len;
	__u8 ctx[];
};
#define LSM_ID_SELINUX		101
#define LSM_ID_SMACK		102
#define LSM_ID_APPARMOR		104
#endif

/* Exit statuses (documented in lsmns-hook.8 and docs/runtime-hook.md). */
enum hook_status {
	HOOK_OK = 0,		/* assigned, nothing to do, dry run, policy valid */
	HOOK_ERR_INTERNAL = 1,	/* out of memory, seccomp, unexpected I/O */
	HOOK_ERR_USAGE = 2,	/* bad command line */
	HOOK_ERR_INPUT = 3,	/* bad OCI state or config.json */
	HOOK_ERR_POLICY = 4,	/* policy file missing or invalid */
	HOOK_ERR_REFUSED = 5,	/* request invalid or not allowed by policy */
	HOOK_ERR_TARGET = 6,	/* target process gone or unusable */
	HOOK_ERR_KERNEL = 7,	/* the kernel refused the assignment */
};

/* One error, carried up and printed once (stderr + syslog). */
struct hook_err {
	enum hook_status status;
	char msg[HOOK_MSG_LEN];
};

/* Record an error; always returns -1.  Control bytes are escaped. */
int hook_fail(struct hook_err *err, enum hook_status status,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The LSMs the hook knows, in a fixed order (also the order of entries). */
enum hook_lsm {
	HOOK_LSM_SELINUX,
	HOOK_LSM_SMACK,
	HOOK_LSM_APPARMOR,
	HOOK_LSM_COUNT
};

struct hook_lsm_info {
	const char *name;	/* as in org.lsmns.lsm and the policy */
	__u64 id;		/* LSM_ID_* */
	const char *ctx_key;	/* annotation carrying its context */
	const char *spec_field;	/* process.<field> in config.json, or NULL */
};

extern const struct hook_lsm_info hook_lsms[HOOK_LSM_COUNT];

/* Index of an LSM name (exact, case-sensitive), or -1. */
int hook_lsm_by_name(const char *name, size_t len);
const char *hook_mode_name(__u32 mode);

#define LSM_BIT(i) (1u << (i))

/* Annotation keys (stable ABI of the hook, see docs/runtime-hook.md). */
#define ANN_PREFIX		"org.lsmns."
#define ANN_LSM			"org.lsmns.lsm"
#define ANN_SELINUX_CTX		"org.lsmns.selinux.context"
#define ANN_APPARMOR_PROFILE	"org.lsmns.apparmor.profile"
#define ANN_SMACK_LABEL		"org.lsmns.smack.label"
#define ANN_RELEASE		"org.lsmns.release"
#define ANN_INTERFACE		"org.lsmns.interface"

/* Image annotations the policy's "image" match looks at, in order. */
#define ANN_IMAGE_CRIO		"io.kubernetes.cri-o.ImageName"
#define ANN_IMAGE_CRI		"io.kubernetes.cri.image-name"

/* An ordered set of LSMs. */
struct lsm_list {
	unsigned int n;
	unsigned int mask;
	int idx[HOOK_LSM_COUNT];
};

/* Parse "a,b,c" into @out; refuses empty items, unknown and repeated names. */
int lsm_list_parse(const char *s, size_t len, struct lsm_list *out,
		   const char *what, struct hook_err *err);
/* "selinux,apparmor" into @buf. */
const char *lsm_mask_str(unsigned int mask, char *buf, size_t size);

/* Annotations (string to string). */
struct kv {
	char *key;
	char *value;
	size_t value_len;	/* may contain NUL bytes: checked by users */
};

struct kv_list {
	struct kv *v;
	size_t n;
};

const struct kv *kv_find(const struct kv_list *l, const char *key);
void kv_list_free(struct kv_list *l);

/* ---- state.c: OCI state and config.json ---------------------------- */

struct oci_state {
	char *id;
	char *status;
	char *bundle;
	int pid;
	bool has_annotations;
	struct kv_list annotations;
};

struct oci_config {
	char *selinux_label;	/* process.selinuxLabel */
	char *apparmor_profile;	/* process.apparmorProfile */
	char *root_path;	/* root.path, made absolute against the bundle */
	bool has_annotations;
	struct kv_list annotations;
};

int state_parse(const char *buf, size_t len, struct oci_state *st,
		struct hook_err *err);
void state_free(struct oci_state *st);
int config_parse(const char *buf, size_t len, const char *bundle,
		 struct oci_config *cfg, struct hook_err *err);
void config_free(struct oci_config *cfg);

/* The annotations that carry the request: the state's, else config.json's. */
const struct kv_list *request_annotations(const struct oci_state *st,
					  const struct oci_config *cfg);

/* ---- request.c: the container's (untrusted) request ---------------- */

struct lsm_request {
	bool present;			/* org.lsmns.lsm was given */
	struct lsm_list active;
	unsigned int release_mask;
	int interface;			/* hook_lsm index, -1 if not given */
	char *ctx[HOOK_LSM_COUNT];	/* requested context, NULL if none */
};

/* Check a context/profile/label: 1..HOOK_MAX_CTX_LEN bytes, no control bytes. */
int ctx_check(const char *s, size_t len, const char *what,
	      struct hook_err *err);

int request_parse(const struct kv_list *ann, const struct oci_config *cfg,
		  struct lsm_request *req, struct hook_err *err);
void request_free(struct lsm_request *req);

/* What the policy allows: the entries to send. */
struct lsm_assignment {
	bool none;			/* nothing to assign (policy default) */
	const char *rule;		/* name of the deciding rule */
	int interface;			/* hook_lsm index */
	unsigned int n;
	struct {
		int lsm;		/* hook_lsm index */
		__u32 mode;		/* LSMNS_MODE_* */
		const char *ctx;	/* NULL: keep the inherited context */
	} e[HOOK_LSM_COUNT];
};

/* Build the binary request; *buf is malloc()ed. */
int request_build(const struct lsm_assignment *a, int pidfd, void **buf,
		  size_t *len, struct hook_err *err);
/* Human-readable dump of a binary request (for --dry-run). */
void request_dump(FILE *f, const void *buf, size_t len);
/* One-line summary: "lsm=selinux selinux=ctx apparmor(hidden)=..." */
void assignment_str(const struct lsm_assignment *a, char *buf, size_t size);

/* ---- policy.c: host policy ----------------------------------------- */

enum policy_default {
	POLICY_DEFAULT_REFUSE,	/* no request: refuse the container */
	POLICY_DEFAULT_NONE,	/* no request: leave it in the parent namespace */
	POLICY_DEFAULT_ASSIGN,	/* no request: treat "default" as the request */
};

struct pattern_list {
	char **p;
	size_t n;
};

struct policy_match {
	struct kv_list annotations;	/* values are fnmatch patterns */
	char *id;
	char *bundle;
	char *root_path;
	char *image;
};

struct policy_rule {
	char *name;
	struct policy_match match;
	unsigned int *active_sets;	/* masks of allowed active sets */
	size_t nactive_sets;
	struct pattern_list contexts[HOOK_LSM_COUNT];
	bool hidden_set[HOOK_LSM_COUNT];
	char *hidden[HOOK_LSM_COUNT];	/* NULL: inherit */
	unsigned int release_mask;
	unsigned int interface_mask;	/* 0: any active LSM */
	/*
	 * "selinux_mcs": "runtime": an active SELinux context must be the
	 * runtime's process.selinuxLabel (the runtime allocates one category
	 * pair per pod) and have exactly one pair, s0:cN,cM.
	 */
	bool selinux_mcs_runtime;
	enum policy_default default_action;
	struct lsm_request default_req;
};

struct policy {
	struct policy_rule *rules;
	size_t nrules;
};

int policy_parse(const char *buf, size_t len, struct policy *pol,
		 struct hook_err *err);
void policy_free(struct policy *pol);
const struct policy_rule *policy_match(const struct policy *pol,
				       const struct oci_state *st,
				       const struct oci_config *cfg);
/* Whether @r matches; if not, the failing condition, value and pattern in @why. */
bool policy_rule_explain_match(const struct policy_rule *r,
			       const struct oci_state *st,
			       const struct oci_config *cfg,
			       char *why, size_t size);
/* Check a request against one rule and fill @a. */
int policy_check(const struct policy_rule *r, const struct lsm_request *req,
		 const struct oci_config *cfg, struct lsm_assignment *a,
		 struct hook_err *err);
/* Find the rule, pick the request (or the default) and check it. */
int policy_decide(const struct policy *pol, const struct oci_state *st,
		  const struct oci_config *cfg, const struct lsm_request *req,
		  struct lsm_assignment *a, struct hook_err *err);

/* True if @ctx's level is exactly one category pair "s0:cN,cM", N < M < 1024. */
bool selinux_level_is_pair(const char *ctx);

/* ---- explain.c: lsmns explain, lsmns check-policy ------------------- */

/* Each returns an exit status; argv[0] is the command's name. */
int explain_main(int argc, char **argv);
int check_policy_main(int argc, char **argv);
/*
 * Lint a parsed policy: print "warning: ..." (and "note: ...") lines to
 * @out; return the number of warnings.  @securityfs: where to look for the
 * loaded AppArmor profiles, or NULL.
 */
size_t policy_lint(const struct policy *pol, const char *securityfs, FILE *out);

/* ---- util.c -------------------------------------------------------- */

/*
 * Container cgroups, as podman, CRI-O, containerd and docker name them;
 * lsmns ps --unassigned lists the ones whose tasks have no LSM namespace.
 */
extern const char *const container_cgroup_globs[];
extern const size_t container_cgroup_nglobs;
/* @path (relative to the cgroup2 root) is a container's, by @globs. */
bool cgroup_is_container(const char *path, const char *const *globs, size_t n);

/* Open a regular file for reading (O_NOFOLLOW on the last component). */
int open_regular(int dirfd, const char *path, const char *what,
		 enum hook_status status, struct hook_err *err);
/* Read all of @fd (at most @max bytes) into a NUL-terminated buffer. */
int read_bounded(int fd, size_t max, const char *what, char **buf,
		 size_t *len, enum hook_status status, struct hook_err *err);

/* The policy must not be writable by anyone but root / the hook's user. */
int check_trusted_file(int fd, const char *what, const char *path,
		       enum hook_status status, struct hook_err *err);

/* ---- json.c -------------------------------------------------------- */

struct json_object;
/* Parse a whole buffer (strict, depth-bounded, no trailing data). */
int json_parse_buffer(const char *buf, size_t len, const char *what,
		      struct json_object **out, enum hook_status status,
		      struct hook_err *err);

/* ---- kernel.c ------------------------------------------------------ */

/*
 * The assign file: securityfs's, or any other file standing in for it
 * (tests, --assign-file), which has no result to read back.
 */
struct assign_file {
	int fd;
	bool regular;	/* not on securityfs: no result to read back */
	/* What tells why the kernel says EPERM (priv_facts), opened before
	 * confine() and read only then; -1 where it could not be opened.
	 * facts_open: kernel_open_assign() opened them. */
	int facts_fd[3];
	bool facts_open;
	/* Why the kernel said EPERM, worked out when it did. */
	char eperm_why[384];
};

/*
 * What decides whether the kernel lets this process assign: CAP_MAC_ADMIN
 * in the initial user namespace, and no LSM namespace of its own.  Read
 * from /proc/self before confine(); -1 where it could not be read.
 */
struct priv_facts {
	int cap_mac_admin;		/* in the effective set */
	int init_userns;		/* uid_map is the identity map */
	long long lsmns_id;		/* /proc/self/attr/lsmns id=, -1 unknown */
};

#define PRIV_FACTS_FILES 3
void priv_facts_read(struct priv_facts *f);
/* The same in two steps: the files opened (before confine()), then read. */
void priv_facts_open(int fds[PRIV_FACTS_FILES]);
void priv_facts_from(const int fds[PRIV_FACTS_FILES], struct priv_facts *f);
void priv_facts_close(int fds[PRIV_FACTS_FILES]);
/* The likeliest cause of an EPERM from the assign file, and the fix. */
void priv_explain_eperm(const struct priv_facts *f, char *buf, size_t size);

int kernel_pin(int pid, int *pidfd, struct hook_err *err);
int kernel_open_assign(const char *path, struct assign_file *af,
		       struct hook_err *err);
/* One write() of the whole request; on failure, read back the result. */
int kernel_send(struct assign_file *af, const void *buf, size_t len,
		const struct lsm_assignment *a, struct hook_err *err);
const char *kernel_errno_hint(int e, bool released_entry);
/* The assign file and what kernel_open_assign() opened with it. */
void kernel_close_assign(struct assign_file *af);
/* After a successful write: the namespace id the kernel reports. */
int kernel_result_ns(const struct assign_file *af, unsigned long long *ns_id);

/* ---- confine.c ----------------------------------------------------- */

int confine(struct hook_err *err);

/* ---- log.c --------------------------------------------------------- */

void log_open(void);
/* One line to stderr ("lsmns-hook: ...") and syslog at @prio. */
void log_line(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Escape control bytes of @in into @out (always NUL-terminated). */
void log_sanitize(const char *in, char *out, size_t size);
extern bool log_quiet_stderr;
/* --log-file: a copy of every line, opened before confine(); -1 if none. */
extern int log_file_fd;

#endif /* LSMNS_HOOK_H */
