// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns_abi_test: the LSM namespace assignment ABI
 * (/sys/kernel/security/lsmns/assign, <linux/lsmns.h>), one behaviour per
 * test, in the kernel's kselftest harness.
 *
 * Every test gets its own open assign file and its own target: a forked
 * child blocked on a pipe, named by a pidfd.  The target obeys commands
 * sent on that pipe (exit, or exec this program again in a given mode),
 * so a test can make it enter a namespace, fail an execve or exit.  Tests
 * that need a special target (non-dumpable, another Smack label, a
 * confined AppArmor profile, an SELinux container domain) start a second
 * one.  The errnos are the ones security/lsm_ns_assign.c returns (table
 * in docs/kernel-abi.md).
 *
 * Expects the lsmns demo policies loaded (policies/load-policies); tests
 * that need a policy, an LSM or lsmns.releasable= the boot lacks SKIP.
 *
 *   lsmns_abi_test [kselftest harness options: -l, -t NAME, ...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/lsm.h>
#include <linux/lsmns.h>

/* The harness's own code does not build with -Wextra: only for it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#include "lsmns-cmdline.h"
#include "lsmns-request.h"
#pragma GCC diagnostic pop

#define ASSIGN		"/sys/kernel/security/lsmns/assign"
#define SELF_EXE	"/proc/self/exe"
#define CHILD_ARG	"--lsmns-abi-child"

/* SELinux (policies/selinux/lsmns.cil) */
#define SE_CONTAINER	"system_u:system_r:container_t:s0:c1,c2"
#define SE_CONTAINER_OTHER "system_u:system_r:container_t:s0:c3,c4"
#define SE_FILE_TYPE	"system_u:object_r:lsmns_allowed_t:s0"
#define SE_UNKNOWN	"system_u:system_r:lsmns_abi_no_such_t:s0"
/* AppArmor (policies/apparmor/) */
#define AA_CONFINED	"lsmns-demo-apparmor"
#define AA_OTHER	"lsmns-attached"
#define AA_UNKNOWN	"lsmns-abi-no-such-profile"
/* Smack: a label the target takes, and one nobody ever names. */
#define SMACK_OTHER	"LsmnsAbiOther"
#define SMACK_UNKNOWN	"LsmnsAbiNoSuchLabel"

/* ---- requests ---- */

/* One per test process (the harness forks each test). */
static struct lsmns_req r;

/* Write @len bytes of @buf; 0 or the errno; the result read back in @res. */
static int write_buf(int fd, const void *buf, size_t len,
		     struct lsmns_assign_result *res)
{
	ssize_t n = write(fd, buf, len);
	int err = n < 0 ? errno : 0;

	if (!err && (size_t)n != len)
		err = -1;
	memset(res, 0xa5, sizeof(*res));
	if (read(fd, res, sizeof(*res)) != sizeof(*res))
		res->version = 0;
	return err;
}

static int req_write(int fd, struct lsmns_req *q, struct lsmns_assign_result *res)
{
	return write_buf(fd, q->buf, q->size, res);
}

/* ---- the boot ---- */

static const __u64 ns_lsms[] = { LSM_ID_SELINUX, LSM_ID_SMACK, LSM_ID_APPARMOR };
static const char *const ns_names[] = { "selinux", "smack", "apparmor" };

static int lsm_enabled(__u64 id)
{
	__u64 ids[32];
	__u32 size = sizeof(ids);
	long n, i;

	n = syscall(__NR_lsm_list_modules, ids, &size, 0);
	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

static const char *lsm_name(__u64 id)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (ns_lsms[i] == id)
			return ns_names[i];
	return "?";
}

/* Is @id named in lsmns.releasable= on the kernel command line? */
static int releasable(__u64 id)
{
	return lsmns_cmdline_releasable(lsm_name(id));
}

/* Does @path hold @needle? */
static int file_has(const char *path, const char *needle)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n, got = 0;

	if (fd < 0)
		return 0;
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	return strstr(buf, needle) != NULL;
}

/* The lsmns SELinux policy is loaded: the host runs in unconfined_t. */
static int selinux_policy(void)
{
	return lsm_enabled(LSM_ID_SELINUX) &&
	       file_has("/proc/self/attr/selinux/current", ":unconfined_t:");
}

static int apparmor_profile(const char *name)
{
	char needle[128];

	snprintf(needle, sizeof(needle), "%s (", name);
	return lsm_enabled(LSM_ID_APPARMOR) &&
	       file_has("/sys/kernel/security/apparmor/profiles", needle);
}

/* An enabled namespaceable LSM other than @not (0: any), or 0. */
static __u64 other_lsm(__u64 not)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (ns_lsms[i] != not && lsm_enabled(ns_lsms[i]))
			return ns_lsms[i];
	return 0;
}

/* Drop @cap from the effective and permitted sets of this process. */
static int drop_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~(1U << (cap % 32));
	d[cap / 32].permitted &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &h, d);
}

static int pidfd_open(pid_t pid)
{
	return syscall(__NR_pidfd_open, pid, 0);
}

/* ---- targets ---- */

/*
 * A command on a target's pipe: 'x' exits; 'e' execs @path with
 * "CHILD_ARG MODE GO READY ARG" and the new program reports on READY.
 */
struct cmd {
	char cmd;
	char path[128];
	char mode[32];
	int arg;
};

/*
 * What a target sends on its ready pipe: 'R' and a status when it runs
 * (after its start or an exec), 'E' and the errno of a failed execve.
 */
struct report {
	char tag;
	unsigned char val;
};

struct target {
	pid_t pid;	/* 0 once reaped */
	int pidfd;
	int go;		/* write end of the command pipe */
	int ready;	/* read end of the report pipe */
};

static void report(int ready, char tag, int val)
{
	struct report rep = { tag, (unsigned char)val };

	if (write(ready, &rep, sizeof(rep)) != sizeof(rep))
		_exit(120);
}

/* Report @status, then obey commands until told to exit. */
static void __attribute__((noreturn)) target_loop(int go, int ready, int status)
{
	char gs[16], rs[16], as[16];
	struct cmd c;

	report(ready, 'R', status);
	for (;;) {
		if (read(go, &c, sizeof(c)) != sizeof(c) || c.cmd != 'e')
			_exit(0);
		snprintf(gs, sizeof(gs), "%d", go);
		snprintf(rs, sizeof(rs), "%d", ready);
		snprintf(as, sizeof(as), "%d", c.arg);
		execl(c.path, c.path, CHILD_ARG, c.mode, gs, rs, as, (char *)NULL);
		report(ready, 'E', errno);
	}
}

/* How a target prepares itself before it reports; 0 or an errno. */
typedef int (*prep_fn)(const char *arg);

static int write_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int prep_nondumpable(const char *arg)
{
	(void)arg;
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) ? errno : 0;
}

static int prep_smack_label(const char *label)
{
	return write_attr("/proc/thread-self/attr/smack/current", label);
}

static int prep_apparmor_profile(const char *profile)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "changeprofile %s", profile);
	return write_attr("/proc/thread-self/attr/apparmor/current", buf);
}

/* setexeccon(): the exec that follows enters that SELinux context. */
static int prep_selinux_exec(const char *context)
{
	return write_attr("/proc/thread-self/attr/selinux/exec", context);
}

static int wait_report(struct target *t, struct report *rep)
{
	struct pollfd p = { .fd = t->ready, .events = POLLIN };

	if (poll(&p, 1, 20000) != 1)
		return -ETIMEDOUT;
	if (read(t->ready, rep, sizeof(*rep)) != sizeof(*rep))
		return -EPIPE;
	return 0;
}

/*
 * Fork a target.  It runs @prep(@arg) (if any) and, if @exec_mode is set,
 * execs this program in that mode (which reports itself); returns 0 once
 * the target is blocked on its pipe, or a negative errno.
 */
static int target_start(struct target *t, prep_fn prep, const char *arg,
			const char *exec_mode)
{
	int go[2], ready[2];
	struct report rep;
	int rc;

	memset(t, 0, sizeof(*t));
	t->pidfd = -1;
	if (pipe(go) || pipe(ready))
		return -errno;
	t->pid = fork();
	if (t->pid < 0)
		return -errno;
	if (!t->pid) {
		int err = 0;

		close(go[1]);
		close(ready[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (prep)
			err = prep(arg);
		if (!err && exec_mode) {
			char gs[16], rs[16];

			snprintf(gs, sizeof(gs), "%d", go[0]);
			snprintf(rs, sizeof(rs), "%d", ready[1]);
			execl(SELF_EXE, SELF_EXE, CHILD_ARG, exec_mode, gs, rs,
			      "-1", (char *)NULL);
			err = errno;
		}
		target_loop(go[0], ready[1], err);
	}
	close(go[0]);
	close(ready[1]);
	t->go = go[1];
	t->ready = ready[0];
	t->pidfd = pidfd_open(t->pid);
	if (t->pidfd < 0)
		return -errno;
	rc = wait_report(t, &rep);
	if (rc)
		return rc;
	if (rep.tag != 'R' || rep.val)
		return -(int)rep.val;
	return 0;
}

/* Have the target exec @path in @mode; returns its report. */
static struct report target_exec(struct target *t, const char *path,
				 const char *mode, int arg)
{
	struct report rep = { 'X', 0 };
	struct cmd c = { .cmd = 'e', .arg = arg };

	snprintf(c.path, sizeof(c.path), "%s", path);
	snprintf(c.mode, sizeof(c.mode), "%s", mode);
	if (write(t->go, &c, sizeof(c)) != sizeof(c) || wait_report(t, &rep))
		rep.tag = 'X';
	return rep;
}

/* Tell the target to exit; with @reap, wait for it. */
static void target_exit(struct target *t, int reap)
{
	struct cmd c = { .cmd = 'x' };

	if (t->go > 0 && write(t->go, &c, sizeof(c)) != sizeof(c))
		kill(t->pid, SIGKILL);
	if (reap && t->pid > 0 && waitpid(t->pid, NULL, 0) == t->pid)
		t->pid = 0;
}

static void target_stop(struct target *t)
{
	if (t->pid > 0) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
		t->pid = 0;
	}
	if (t->go > 0)
		close(t->go);
	if (t->ready > 0)
		close(t->ready);
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->go = t->ready = 0;
	t->pidfd = -1;
}

/* ---- modes of this program run as a target ---- */

static int child_main(char **argv)
{
	const char *mode = argv[2];
	int go = atoi(argv[3]), ready = atoi(argv[4]), arg = atoi(argv[5]);
	int status = 0, fd;

	if (!strcmp(mode, "open-assign")) {
		fd = open(ASSIGN, O_RDWR);
		status = fd < 0 ? errno : 0;
	} else if (!strcmp(mode, "write-assign")) {
		struct lsmns_assign_hdr h = { .version = LSMNS_ABI_VERSION,
					      .pidfd = -1, .nentries = 1,
					      .size = sizeof(h) };

		status = write(arg, &h, sizeof(h)) < 0 ? errno : 0;
	}
	target_loop(go, ready, status);
}

/* ---- the fixture ---- */

FIXTURE(assign) {
	int fd;			/* the assign file, open O_RDWR */
	struct target t;	/* this test's target */
	struct target u;	/* a second, special one, if the test needs it */
	__u64 a, b;		/* two running namespaceable LSMs */
};

FIXTURE_SETUP(assign)
{
	unsigned int i, n = 0;

	signal(SIGPIPE, SIG_IGN);
	self->t.pidfd = self->u.pidfd = -1;
	self->fd = -1;
	for (i = 0; i < 3; i++)
		if (lsm_enabled(ns_lsms[i]))
			*(n++ ? &self->b : &self->a) = ns_lsms[i];
	if (n < 2)
		SKIP(return, "needs two of SELinux, Smack and AppArmor");
	/* Not O_CLOEXEC: a target that execs inherits it. */
	self->fd = open(ASSIGN, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", ASSIGN, strerror(errno));
	ASSERT_EQ(0, target_start(&self->t, NULL, NULL, NULL));
}

FIXTURE_TEARDOWN(assign)
{
	target_stop(&self->t);
	target_stop(&self->u);
	if (self->fd >= 0)
		close(self->fd);
}

/* The request most tests start from: a active, b hidden. */
static void base(FIXTURE_DATA(assign) *self, struct lsmns_req *q)
{
	lsmns_req_init(q, self->t.pidfd, 0);
	lsmns_req_add(q, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(q, self->b, LSMNS_MODE_HIDDEN, NULL);
}

/*
 * Write @q; expect @want (0 or an errno) from write() and, read back,
 * error -@want and failed_index @idx.
 */
#define EXPECT_ASSIGN(q, want, idx) do {				\
	struct lsmns_assign_result _res;				\
	int _err = req_write(self->fd, (q), &_res);			\
									\
	EXPECT_EQ((want), _err) TH_LOG("write: %s, want %s",		\
		_err > 0 ? strerror(_err) : "ok",			\
		(want) ? strerror(want) : "success");			\
	EXPECT_EQ((__u32)LSMNS_ABI_VERSION, _res.version);		\
	EXPECT_EQ(-(want), _res.error);					\
	EXPECT_EQ((__u32)(idx), _res.failed_index);			\
	if (want) {							\
		EXPECT_EQ(0ULL, _res.ns_id);				\
	} else {							\
		EXPECT_NE(0ULL, _res.ns_id);				\
	}								\
} while (0)

/* ---- success ---- */

TEST_F(assign, valid_request)
{
	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

TEST_F(assign, valid_request_with_interface_lsm)
{
	base(self, &r);
	lsmns_req_entry(&r, 1)->mode = LSMNS_MODE_ACTIVE;
	lsmns_req_hdr(&r)->interface_lsm = self->b;
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

/* ---- the caller ---- */

TEST_F(assign, unprivileged_write_eperm)
{
	ASSERT_EQ(0, drop_cap(CAP_MAC_ADMIN));
	base(self, &r);
	EXPECT_ASSIGN(&r, EPERM, LSMNS_NO_INDEX);
}

TEST_F(assign, unprivileged_open_eperm)
{
	ASSERT_EQ(0, drop_cap(CAP_MAC_ADMIN));
	EXPECT_EQ(-1, open(ASSIGN, O_RDWR));
	EXPECT_EQ(EPERM, errno);
}

/* A caller that is itself inside an LSM namespace: open is refused. */
TEST_F(assign, caller_in_namespace_open_eperm)
{
	struct report rep;

	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	rep = target_exec(&self->t, SELF_EXE, "open-assign", -1);
	ASSERT_EQ('R', rep.tag);
	EXPECT_EQ(EPERM, rep.val) TH_LOG("open inside: %s", strerror(rep.val));
}

/* ... and so is a write on a file it inherited from outside. */
TEST_F(assign, caller_in_namespace_write_eperm)
{
	struct report rep;

	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	rep = target_exec(&self->t, SELF_EXE, "write-assign", self->fd);
	ASSERT_EQ('R', rep.tag);
	EXPECT_EQ(EPERM, rep.val) TH_LOG("write inside: %s", strerror(rep.val));
}

/* ---- sizes ---- */

TEST_F(assign, short_write_einval)
{
	base(self, &r);
	r.size = sizeof(struct lsmns_assign_hdr) - 1;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, oversize_request_e2big)
{
	base(self, &r);
	r.size = LSMNS_MAX_REQUEST_SIZE + 8;
	lsmns_req_hdr(&r)->size = r.size;
	EXPECT_ASSIGN(&r, E2BIG, LSMNS_NO_INDEX);
}

TEST_F(assign, unreadable_buffer_efault)
{
	struct lsmns_assign_result res;
	void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(EFAULT, write_buf(self->fd, p, 64, &res));
	EXPECT_EQ(-EFAULT, res.error);
	EXPECT_EQ(LSMNS_NO_INDEX, res.failed_index);
}

TEST_F(assign, size_field_disagrees_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->size += 8;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, truncated_entry_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->nentries = 3;	/* the third one is missing */
	EXPECT_ASSIGN(&r, EINVAL, 2);
}

TEST_F(assign, context_beyond_request_einval)
{
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_HIDDEN, "0123456789");
	r.size -= 8;		/* cut the context's tail off */
	lsmns_req_hdr(&r)->size = r.size;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, trailing_bytes_einval)
{
	base(self, &r);
	r.size += 8;
	lsmns_req_hdr(&r)->size = r.size;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, empty_list_einval)
{
	lsmns_req_init(&r, self->t.pidfd, 0);
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, too_many_entries_e2big)
{
	unsigned int i;

	lsmns_req_init(&r, self->t.pidfd, 0);
	for (i = 0; i < LSMNS_MAX_ENTRIES + 1; i++)
		lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	EXPECT_ASSIGN(&r, E2BIG, LSMNS_NO_INDEX);
}

TEST_F(assign, context_too_long_e2big)
{
	static char big[LSMNS_MAX_CTX_LEN + 8];

	memset(big, 'a', LSMNS_MAX_CTX_LEN);	/* ctx_len MAX + 1 */
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_HIDDEN, big);
	EXPECT_ASSIGN(&r, E2BIG, 1);
}

/* ---- the header ---- */

TEST_F(assign, bad_version_eproto)
{
	base(self, &r);
	lsmns_req_hdr(&r)->version = LSMNS_ABI_VERSION + 1;
	EXPECT_ASSIGN(&r, EPROTO, LSMNS_NO_INDEX);
}

TEST_F(assign, version_zero_eproto)
{
	base(self, &r);
	lsmns_req_hdr(&r)->version = 0;
	EXPECT_ASSIGN(&r, EPROTO, LSMNS_NO_INDEX);
}

TEST_F(assign, header_flags_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->flags = 1;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, header_reserved_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->reserved = 1;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, no_active_entry_einval)
{
	base(self, &r);
	lsmns_req_entry(&r, 0)->mode = LSMNS_MODE_HIDDEN;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, interface_lsm_not_active_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->interface_lsm = self->b;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

TEST_F(assign, interface_lsm_not_namespaceable_einval)
{
	base(self, &r);
	lsmns_req_hdr(&r)->interface_lsm = LSM_ID_CAPABILITY;
	EXPECT_ASSIGN(&r, EINVAL, LSMNS_NO_INDEX);
}

/* ---- entries (the failing index is written back) ---- */

TEST_F(assign, unknown_lsm_id_enoent)
{
	base(self, &r);
	lsmns_req_add(&r, 9999, LSMNS_MODE_HIDDEN, NULL);
	EXPECT_ASSIGN(&r, ENOENT, 2);
}

TEST_F(assign, lsm_not_namespaceable_enoent)
{
	base(self, &r);
	lsmns_req_add(&r, LSM_ID_CAPABILITY, LSMNS_MODE_HIDDEN, NULL);
	EXPECT_ASSIGN(&r, ENOENT, 2);
}

TEST_F(assign, duplicate_lsm_eexist)
{
	base(self, &r);
	lsmns_req_add(&r, self->a, LSMNS_MODE_HIDDEN, NULL);
	EXPECT_ASSIGN(&r, EEXIST, 2);
}

TEST_F(assign, mode_zero_einval)
{
	base(self, &r);
	lsmns_req_entry(&r, 1)->mode = 0;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, mode_too_high_einval)
{
	base(self, &r);
	lsmns_req_entry(&r, 1)->mode = LSMNS_MODE_RELEASED + 1;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, entry_reserved_einval)
{
	base(self, &r);
	lsmns_req_entry(&r, 1)->reserved = 1;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, ctx_flags_einval)
{
	base(self, &r);
	lsmns_req_ctx(&r, 1)->flags = 1;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, ctx_len_not_aligned_size_einval)
{
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_HIDDEN, "abc");
	lsmns_req_ctx(&r, 1)->len -= 8;	/* 32 + ctx_len 4 needs 40 */
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, ctx_not_nul_terminated_einval)
{
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_HIDDEN, "abc");
	lsmns_req_ctx(&r, 1)->ctx[3] = 'x';
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, ctx_embedded_nul_einval)
{
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_HIDDEN, "abc");
	lsmns_req_ctx(&r, 1)->ctx[1] = 0;
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

/*
 * The result of a refused write names the entry at fault; a later write
 * on the same file replaces it.
 */
TEST_F(assign, failed_index_written_back)
{
	struct lsmns_assign_result res;
	__u64 c = 0;
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (ns_lsms[i] != self->a && ns_lsms[i] != self->b &&
		    lsm_enabled(ns_lsms[i]))
			c = ns_lsms[i];
	base(self, &r);
	if (c)
		lsmns_req_add(&r, c, LSMNS_MODE_HIDDEN, NULL);
	lsmns_req_add(&r, 9999, LSMNS_MODE_HIDDEN, NULL);
	ASSERT_EQ(ENOENT, req_write(self->fd, &r, &res));
	EXPECT_EQ((__u32)LSMNS_ABI_VERSION, res.version);
	EXPECT_EQ(-ENOENT, res.error);
	EXPECT_EQ(c ? 3U : 2U, res.failed_index);
	EXPECT_EQ(0U, res.reserved);
	EXPECT_EQ(0ULL, res.ns_id);
	/* The result is read once: then end of file until the next write. */
	ASSERT_EQ(0, read(self->fd, &res, sizeof(res)));
	/* A successful write clears it. */
	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

TEST_F(assign, result_read_too_short_einval)
{
	char buf[sizeof(struct lsmns_assign_result) - 1];

	EXPECT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * A write's result is read once: the read after it is end of file, so
 * cat and dd on the file stop.  The next write's result is read once
 * again.
 */
TEST_F(assign, result_read_once_then_eof)
{
	struct lsmns_assign_result res;

	base(self, &r);
	ASSERT_EQ((ssize_t)r.size, write(self->fd, r.buf, r.size));
	ASSERT_EQ((ssize_t)sizeof(res), read(self->fd, &res, sizeof(res)));
	EXPECT_EQ(0, res.error);
	EXPECT_EQ(0, read(self->fd, &res, sizeof(res)));
	lsmns_req_hdr(&r)->version = LSMNS_ABI_VERSION + 1;
	EXPECT_EQ(-1, write(self->fd, r.buf, r.size));
	EXPECT_EQ(EPROTO, errno);
	ASSERT_EQ((ssize_t)sizeof(res), read(self->fd, &res, sizeof(res)));
	EXPECT_EQ(-EPROTO, res.error);
	EXPECT_EQ(0, read(self->fd, &res, sizeof(res)));
}

/* Read without any write: at most one result, then end of file. */
TEST_F(assign, read_without_write_terminates)
{
	struct lsmns_assign_result res;
	ssize_t n = 1;
	int reads;

	for (reads = 0; reads < 4 && n > 0; reads++)
		n = read(self->fd, &res, sizeof(res));
	EXPECT_EQ(0, n);
	EXPECT_GE(2, reads);
}

/* ---- contexts each LSM does not know ---- */

TEST_F(assign, invalid_context_selinux_einval)
{
	if (!lsm_enabled(LSM_ID_SELINUX))
		SKIP(return, "SELinux is not enabled");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SELINUX), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SELINUX, LSMNS_MODE_HIDDEN, SE_UNKNOWN);
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, invalid_context_smack_einval)
{
	if (!lsm_enabled(LSM_ID_SMACK))
		SKIP(return, "Smack is not enabled");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SMACK), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SMACK, LSMNS_MODE_HIDDEN, SMACK_UNKNOWN);
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, invalid_context_apparmor_einval)
{
	if (!lsm_enabled(LSM_ID_APPARMOR))
		SKIP(return, "AppArmor is not enabled");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_APPARMOR), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_APPARMOR, LSMNS_MODE_HIDDEN, AA_UNKNOWN);
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

/* ---- each LSM's policy refuses the move ---- */

/* SELinux: no process transition from unconfined_t to a file type. */
TEST_F(assign, selinux_policy_refuses_eacces)
{
	if (!selinux_policy())
		SKIP(return, "the lsmns SELinux policy is not loaded");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SELINUX), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SELINUX, LSMNS_MODE_ACTIVE, SE_FILE_TYPE);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

/*
 * SELinux: a container_t target at s0:c1,c2 (this program exec'd after
 * setexeccon) may not transition to s0:c3,c4 (the MCS constraint).
 */
TEST_F(assign, selinux_mcs_transition_refused_eacces)
{
	if (!selinux_policy())
		SKIP(return, "the lsmns SELinux policy is not loaded");
	ASSERT_EQ(0, target_start(&self->u, prep_selinux_exec, SE_CONTAINER,
				  "wait"));
	lsmns_req_init(&r, self->u.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SELINUX), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SELINUX, LSMNS_MODE_ACTIVE, SE_CONTAINER_OTHER);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

/* AppArmor: a confined target may not be moved to another profile. */
TEST_F(assign, apparmor_confined_target_eacces)
{
	if (!apparmor_profile(AA_CONFINED) || !apparmor_profile(AA_OTHER))
		SKIP(return, "AppArmor profiles %s and %s are not loaded",
		     AA_CONFINED, AA_OTHER);
	ASSERT_EQ(0, target_start(&self->u, prep_apparmor_profile,
				  AA_CONFINED, NULL));
	lsmns_req_init(&r, self->u.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_APPARMOR), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_APPARMOR, LSMNS_MODE_ACTIVE, AA_OTHER);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

/* ---- the target ---- */

TEST_F(assign, pidfd_closed_ebadf)
{
	int fd = pidfd_open(self->t.pid);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	base(self, &r);
	lsmns_req_hdr(&r)->pidfd = fd;
	EXPECT_ASSIGN(&r, EBADF, LSMNS_NO_INDEX);
}

TEST_F(assign, pidfd_negative_ebadf)
{
	base(self, &r);
	lsmns_req_hdr(&r)->pidfd = -1;
	EXPECT_ASSIGN(&r, EBADF, LSMNS_NO_INDEX);
}

TEST_F(assign, not_a_pidfd_ebadf)
{
	base(self, &r);
	lsmns_req_hdr(&r)->pidfd = self->fd;
	EXPECT_ASSIGN(&r, EBADF, LSMNS_NO_INDEX);
}

/* The target has exited but is not reaped (a zombie). */
TEST_F(assign, exited_target_esrch)
{
	siginfo_t si;

	target_exit(&self->t, 0);
	ASSERT_EQ(0, waitid(P_PID, self->t.pid, &si, WEXITED | WNOWAIT));
	base(self, &r);
	EXPECT_ASSIGN(&r, ESRCH, LSMNS_NO_INDEX);
}

TEST_F(assign, reaped_target_esrch)
{
	target_exit(&self->t, 1);
	ASSERT_EQ(0, self->t.pid);
	base(self, &r);
	EXPECT_ASSIGN(&r, ESRCH, LSMNS_NO_INDEX);
}

/*
 * A non-dumpable target and a caller without CAP_SYS_PTRACE (still with
 * CAP_MAC_ADMIN): no ptrace-attach access.
 */
TEST_F(assign, ptrace_denied_eacces)
{
	ASSERT_EQ(0, target_start(&self->u, prep_nondumpable, NULL, NULL));
	ASSERT_EQ(0, drop_cap(CAP_SYS_PTRACE));
	base(self, &r);
	lsmns_req_hdr(&r)->pidfd = self->u.pidfd;
	EXPECT_ASSIGN(&r, EACCES, LSMNS_NO_INDEX);
}

/* The control: the same target, the caller with CAP_SYS_PTRACE. */
TEST_F(assign, ptrace_nondumpable_with_cap_accepted)
{
	ASSERT_EQ(0, target_start(&self->u, prep_nondumpable, NULL, NULL));
	base(self, &r);
	lsmns_req_hdr(&r)->pidfd = self->u.pidfd;
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

/* ---- a second assignment ---- */

TEST_F(assign, second_narrowing_accepted)
{
	struct lsmns_assign_result res;
	__u64 first;

	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_ACTIVE, NULL);
	ASSERT_EQ(0, req_write(self->fd, &r, &res));
	first = res.ns_id;
	base(self, &r);
	ASSERT_EQ(0, req_write(self->fd, &r, &res));
	EXPECT_EQ(0, res.error);
	EXPECT_NE(0ULL, res.ns_id);
	EXPECT_NE(first, res.ns_id);
}

TEST_F(assign, second_widening_ebusy)
{
	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_ACTIVE, NULL);
	EXPECT_ASSIGN(&r, EBUSY, LSMNS_NO_INDEX);
}

TEST_F(assign, second_showing_hidden_lsm_ebusy)
{
	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_HIDDEN, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_ACTIVE, NULL);
	EXPECT_ASSIGN(&r, EBUSY, LSMNS_NO_INDEX);
}

/* Once the target's execve has started to enter the pending assignment
 * it cannot be replaced, even after that execve failed. */
TEST_F(assign, second_after_failed_exec_ebusy)
{
	char path[] = "/tmp/lsmns-abi-noexec.XXXXXX";
	struct report rep;
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ(8, write(fd, "\1\2\3\4\5\6\7\10", 8));
	ASSERT_EQ(0, fchmod(fd, 0755));
	close(fd);
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_ACTIVE, NULL);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	rep = target_exec(&self->t, path, "wait", -1);
	unlink(path);
	ASSERT_EQ('E', rep.tag);
	EXPECT_EQ(ENOEXEC, rep.val) TH_LOG("execve: %s", strerror(rep.val));
	base(self, &r);
	EXPECT_ASSIGN(&r, EBUSY, LSMNS_NO_INDEX);
}

/* A target already in a namespace: it may not see more than it does. */
TEST_F(assign, nested_widening_ebusy)
{
	struct report rep;

	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	rep = target_exec(&self->t, SELF_EXE, "wait", -1);
	ASSERT_EQ('R', rep.tag);
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, self->b, LSMNS_MODE_ACTIVE, NULL);
	EXPECT_ASSIGN(&r, EBUSY, LSMNS_NO_INDEX);
}

TEST_F(assign, nested_same_modes_accepted)
{
	struct report rep;

	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
	rep = target_exec(&self->t, SELF_EXE, "wait", -1);
	ASSERT_EQ('R', rep.tag);
	base(self, &r);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

/* ---- releasing an LSM ---- */

/* An LSM (not @active) that lsmns.releasable= names, or 0. */
static __u64 releasable_lsm(__u64 active)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (ns_lsms[i] != active && lsm_enabled(ns_lsms[i]) &&
		    releasable(ns_lsms[i]))
			return ns_lsms[i];
	return 0;
}

TEST_F(assign, release_not_releasable_eperm)
{
	__u64 rel = 0;
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (ns_lsms[i] != self->a && lsm_enabled(ns_lsms[i]) &&
		    !releasable(ns_lsms[i]))
			rel = ns_lsms[i];
	if (!rel)
		SKIP(return, "lsmns.releasable= names every LSM");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, rel, LSMNS_MODE_RELEASED, NULL);
	EXPECT_ASSIGN(&r, EPERM, 1);
}

TEST_F(assign, release_with_context_einval)
{
	__u64 rel = releasable_lsm(self->a);

	if (!rel)
		SKIP(return, "no LSM is named in lsmns.releasable=");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, rel, LSMNS_MODE_RELEASED, "ctx");
	EXPECT_ASSIGN(&r, EINVAL, 1);
}

TEST_F(assign, release_accepted)
{
	__u64 rel = releasable_lsm(self->a);

	if (!rel)
		SKIP(return, "no LSM is named in lsmns.releasable=");
	if (rel == LSM_ID_SELINUX && !selinux_policy())
		SKIP(return, "the lsmns SELinux policy is not loaded");
	lsmns_req_init(&r, self->t.pidfd, 0);
	lsmns_req_add(&r, self->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, rel, LSMNS_MODE_RELEASED, NULL);
	EXPECT_ASSIGN(&r, 0, LSMNS_NO_INDEX);
}

/* Smack consents only for a target with the agent's own label. */
TEST_F(assign, release_refused_smack_eacces)
{
	if (!lsm_enabled(LSM_ID_SMACK) || !releasable(LSM_ID_SMACK))
		SKIP(return, "Smack is not enabled or not in lsmns.releasable=");
	ASSERT_EQ(0, target_start(&self->u, prep_smack_label, SMACK_OTHER, NULL));
	lsmns_req_init(&r, self->u.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SMACK), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SMACK, LSMNS_MODE_RELEASED, NULL);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

/* AppArmor consents only for an unconfined target. */
TEST_F(assign, release_refused_apparmor_eacces)
{
	if (!lsm_enabled(LSM_ID_APPARMOR) || !releasable(LSM_ID_APPARMOR))
		SKIP(return, "AppArmor is not enabled or not in lsmns.releasable=");
	if (!apparmor_profile(AA_CONFINED))
		SKIP(return, "AppArmor profile %s is not loaded", AA_CONFINED);
	ASSERT_EQ(0, target_start(&self->u, prep_apparmor_profile,
				  AA_CONFINED, NULL));
	lsmns_req_init(&r, self->u.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_APPARMOR), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_APPARMOR, LSMNS_MODE_RELEASED, NULL);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

/*
 * SELinux consents by policy (lsmns { release }), which the lsmns policy
 * grants only from unconfined_t to unconfined_t: a container_t target
 * (this program exec'd after setexeccon) is refused.
 */
TEST_F(assign, release_refused_selinux_eacces)
{
	if (!lsm_enabled(LSM_ID_SELINUX) || !releasable(LSM_ID_SELINUX))
		SKIP(return, "SELinux is not enabled or not in lsmns.releasable=");
	if (!selinux_policy())
		SKIP(return, "the lsmns SELinux policy is not loaded");
	ASSERT_EQ(0, target_start(&self->u, prep_selinux_exec, SE_CONTAINER,
				  "wait"));
	lsmns_req_init(&r, self->u.pidfd, 0);
	lsmns_req_add(&r, other_lsm(LSM_ID_SELINUX), LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, LSM_ID_SELINUX, LSMNS_MODE_RELEASED, NULL);
	EXPECT_ASSIGN(&r, EACCES, 1);
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], CHILD_ARG))
		return child_main(argv);
	return test_harness_run(argc, argv);
}
