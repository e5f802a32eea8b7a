// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-assign: drive /sys/kernel/security/lsmns/assign from the guest.
 *
 *   lsmns-assign run [-i LSM] ENTRY... -- PROG [ARG]...
 *	fork; assign the child to a new LSM namespace; the child then execs
 *	PROG (the assignment is committed at that execve).  Exit status is
 *	PROG's, or 126 if the execve failed (its errno is printed), or 125
 *	if the assignment failed.  $LSMNS_BETWEEN, if set, is run with
 *	system(3) after the assignment and before the child's execve, with
 *	$LSMNS_TARGET_PID set to the child's pid.
 *   lsmns-assign pid PID [-i LSM] ENTRY...
 *	assign the running task PID (it enters the namespace at its next
 *	execve).  Prints "ok ns_id=N" or "error=ERRNO_NAME entry=I" on
 *	stdout; exits 0, or 125 if the assignment was refused.
 *   lsmns-assign errno
 *	TAP: every errno of the assignment ABI, one test each.
 *
 * ENTRY is LSM:MODE[:CONTEXT], LSM one of selinux, smack, apparmor, MODE
 * one of active, hidden, released.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/lsm.h>
/* The ABI header, as the kernel series installs it (kernel/uapi/). */
#include "../../kernel/uapi/linux/lsmns.h"
#include "lsmns-cmdline.h"
#include "lsmns-request.h"
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ASSIGN "/sys/kernel/security/lsmns/assign"

/* Write @r; return 0 or the errno, and the result read back in @res. */
static int req_write(int fd, const struct lsmns_req *r,
		     struct lsmns_assign_result *res)
{
	int err = 0;

	if (write(fd, r->buf, r->size) != (ssize_t)r->size)
		err = errno;
	memset(res, 0, sizeof(*res));
	if (read(fd, res, sizeof(*res)) != sizeof(*res))
		res->error = 1;
	return err;
}

/* The assign file, or -1 after one line saying why it cannot be opened. */
static int open_assign(void)
{
	int fd = open(ASSIGN, O_RDWR);

	if (fd < 0)
		fprintf(stderr, "lsmns-assign: open %s: %s\n", ASSIGN,
			strerror(errno));
	return fd;
}

static int pidfd_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

/* A child that waits for a byte on @go, then execs argv (or exits 0). */
static pid_t spawn(int *go_w, char **argv)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(p[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(p[0], &c, 1) != 1)
			_exit(124);
		if (!argv)
			_exit(0);
		execvp(argv[0], argv);
		fprintf(stderr, "lsmns-assign: execve %s: %s\n", argv[0],
			strerror(errno));
		_exit(126);
	}
	close(p[0]);
	*go_w = p[1];
	return pid;
}

static int wait_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int cmd_run(int argc, char **argv)
{
	static struct lsmns_req r;
	struct lsmns_assign_result res;
	uint64_t iface = 0;
	int i = 0, fd, go, pidfd, err;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[0], "-i")) {
		iface = lsmns_lsm_id(argv[1]);
		i = 2;
	}
	lsmns_req_init(&r, -1, iface);
	for (; i < argc && strcmp(argv[i], "--"); i++)
		if (lsmns_req_parse_entry(&r, argv[i])) {
			fprintf(stderr, "lsmns-assign: bad entry %s\n", argv[i]);
			return 2;
		}
	if (i >= argc - 1) {
		fprintf(stderr, "lsmns-assign: run ENTRY... -- PROG\n");
		return 2;
	}
	fd = open_assign();
	if (fd < 0)
		return 125;
	pid = spawn(&go, argv + i + 1);
	pidfd = pidfd_open(pid);
	lsmns_req_hdr(&r)->pidfd = pidfd;
	err = req_write(fd, &r, &res);
	if (err) {
		fprintf(stderr,
			"lsmns-assign: assign: %s (error %d, entry %d)\n",
			strerror(err), res.error, (int)res.failed_index);
		kill(pid, SIGKILL);
		wait_status(pid);
		return 125;
	}
	/* Let a test change the world between assignment and execve. */
	if (getenv("LSMNS_BETWEEN")) {
		char spid[16];

		snprintf(spid, sizeof(spid), "%d", (int)pid);
		setenv("LSMNS_TARGET_PID", spid, 1);
	}
	if (getenv("LSMNS_BETWEEN") && system(getenv("LSMNS_BETWEEN")) != 0)
		fprintf(stderr, "lsmns-assign: LSMNS_BETWEEN failed\n");
	if (write(go, "x", 1) != 1)
		return 1;
	return wait_status(pid);
}

static const char *errno_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case E2BIG: return "E2BIG";
	case EPROTO: return "EPROTO";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	}
	return "other";
}

static int cmd_pid(int argc, char **argv)
{
	static struct lsmns_req r;
	struct lsmns_assign_result res;
	uint64_t iface = 0;
	int i = 1, fd, pidfd, err;

	if (argc < 2) {
		fprintf(stderr, "lsmns-assign: pid PID [-i LSM] ENTRY...\n");
		return 2;
	}
	if (argc > 3 && !strcmp(argv[1], "-i")) {
		iface = lsmns_lsm_id(argv[2]);
		i = 3;
	}
	pidfd = pidfd_open(atoi(argv[0]));
	if (pidfd < 0) {
		fprintf(stderr, "lsmns-assign: pidfd_open %s: %s\n", argv[0],
			strerror(errno));
		return 125;
	}
	lsmns_req_init(&r, pidfd, iface);
	for (; i < argc; i++)
		if (lsmns_req_parse_entry(&r, argv[i])) {
			fprintf(stderr, "lsmns-assign: bad entry %s\n", argv[i]);
			return 2;
		}
	fd = open_assign();
	if (fd < 0)
		return 125;
	err = req_write(fd, &r, &res);
	if (err) {
		printf("error=%s entry=%d\n", errno_name(err),
		       (int)res.failed_index);
		return 125;
	}
	printf("ok ns_id=%llu\n", (unsigned long long)res.ns_id);
	return 0;
}

/* Is @lsm named in lsmns.releasable= on the kernel command line? */
static int releasable(uint64_t id)
{
	static const char *const names[] = { "selinux", "smack", "apparmor" };
	static const uint64_t ids[] = { LSM_ID_SELINUX, LSM_ID_SMACK,
					LSM_ID_APPARMOR };
	int i;

	for (i = 0; i < 3; i++)
		if (ids[i] == id)
			return lsmns_cmdline_releasable(names[i]);
	return 0;
}

/* ---- errno table ---- */

static int tap_n, tap_failed;

static void tap(int ok, const char *desc, int got, int want)
{
	tap_n++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_n, desc);
	if (!ok) {
		printf("# got %d (%s), want %d (%s)\n", got, strerror(got),
		       want, strerror(want));
		tap_failed++;
	}
}

static int enabled(uint64_t id)
{
	uint64_t ids[32];
	uint32_t size = sizeof(ids);
	int n, i;

	n = syscall(__NR_lsm_list_modules, ids, &size, 0);
	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

struct ctx {
	int fd;
	int pidfd;
	pid_t pid;
	int go;
	uint64_t a, b;	/* two running LSMs */
};

static void expect(struct ctx *t, struct lsmns_req *r, int want, int want_index,
		   const char *desc)
{
	struct lsmns_assign_result res;
	int err = req_write(t->fd, r, &res);
	int ok = err == want;

	if (ok && want && res.error != -want)
		ok = 0;
	if (ok && want_index != -2 && (int)res.failed_index != want_index)
		ok = 0;
	tap(ok, desc, err, want);
	if (!ok)
		printf("# result: error %d failed_index %d\n", res.error,
		       (int)res.failed_index);
}

static void base(struct ctx *t, struct lsmns_req *r)
{
	lsmns_req_init(r, t->pidfd, 0);
	lsmns_req_add(r, t->a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(r, t->b, LSMNS_MODE_HIDDEN, NULL);
}

static int cmd_errno(void)
{
	static struct lsmns_req r;
	struct ctx t;
	struct lsmns_assign_hdr *h = lsmns_req_hdr(&r);
	uint64_t all[3] = { LSM_ID_SELINUX, LSM_ID_SMACK, LSM_ID_APPARMOR };
	int i, n = 0, fd2, st;
	pid_t pid, dead;

	for (i = 0; i < 3; i++)
		if (enabled(all[i]))
			(n++ ? &t.b : &t.a)[0] = all[i];
	if (n < 2) {
		printf("1..0 # SKIP needs two of SELinux, Smack, AppArmor\n");
		return 0;
	}
	t.fd = open(ASSIGN, O_RDWR);
	if (t.fd < 0) {
		printf("Bail out! open %s: %s\n", ASSIGN, strerror(errno));
		return 1;
	}
	t.pid = spawn(&t.go, NULL);
	t.pidfd = pidfd_open(t.pid);

	/* Structure. */
	base(&t, &r);
	h->version = 2;
	expect(&t, &r, EPROTO, LSMNS_NO_INDEX, "bad version: EPROTO");
	base(&t, &r);
	h->flags = 1;
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "flags set: EINVAL");
	base(&t, &r);
	h->reserved = 1;
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "header reserved set: EINVAL");
	base(&t, &r);
	h->size += 8;
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "size field disagrees with write: EINVAL");
	base(&t, &r);
	r.size = sizeof(*h) - 1;
	expect(&t, &r, EINVAL, -2, "short write: EINVAL");
	base(&t, &r);
	r.size = LSMNS_MAX_REQUEST_SIZE + 8;
	h->size = r.size;
	expect(&t, &r, E2BIG, -2, "oversize request: E2BIG");
	lsmns_req_init(&r, t.pidfd, 0);
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "empty list: EINVAL");
	lsmns_req_init(&r, t.pidfd, 0);
	for (i = 0; i < LSMNS_MAX_ENTRIES + 1; i++)
		lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, NULL);
	expect(&t, &r, E2BIG, LSMNS_NO_INDEX, "too many entries: E2BIG");

	/* Entries. */
	base(&t, &r);
	lsmns_req_add(&r, LSM_ID_CAPABILITY, LSMNS_MODE_HIDDEN, NULL);
	expect(&t, &r, ENOENT, 2, "LSM that cannot be namespaced: ENOENT");
	base(&t, &r);
	lsmns_req_add(&r, 9999, LSMNS_MODE_HIDDEN, NULL);
	expect(&t, &r, ENOENT, 2, "unknown LSM id: ENOENT");
	base(&t, &r);
	lsmns_req_add(&r, t.b, LSMNS_MODE_HIDDEN, NULL);
	expect(&t, &r, EEXIST, 2, "duplicate LSM: EEXIST");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, t.b, 7, NULL);
	expect(&t, &r, EINVAL, 1, "bad mode: EINVAL");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, NULL);
	if (!releasable(t.b)) {
		lsmns_req_add(&r, t.b, LSMNS_MODE_RELEASED, NULL);
		expect(&t, &r, EPERM, 1,
		       "released without lsmns.releasable=: EPERM");
	} else {
		lsmns_req_add(&r, t.b, LSMNS_MODE_RELEASED, "ctx");
		expect(&t, &r, EINVAL, 1, "released with a context: EINVAL");
	}
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_HIDDEN, NULL);
	lsmns_req_add(&r, t.b, LSMNS_MODE_HIDDEN, NULL);
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "nothing active: EINVAL");
	base(&t, &r);
	h->interface_lsm = t.b;
	expect(&t, &r, EINVAL, LSMNS_NO_INDEX, "interface LSM not active: EINVAL");
	base(&t, &r);
	lsmns_req_ctx(&r, 0)->flags = 1;
	expect(&t, &r, EINVAL, 0, "lsm_ctx flags set: EINVAL");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, "abc");
	lsmns_req_ctx(&r, 0)->ctx[3] = 'x';
	expect(&t, &r, EINVAL, 0, "context not NUL-terminated: EINVAL");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, "abc");
	lsmns_req_ctx(&r, 0)->len += 8;
	expect(&t, &r, EINVAL, 0, "lsm_ctx.len not the aligned size: EINVAL");
	{
		static char big[LSMNS_MAX_CTX_LEN + 8];

		memset(big, 'a', LSMNS_MAX_CTX_LEN + 1);
		lsmns_req_init(&r, t.pidfd, 0);
		lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, big);
		expect(&t, &r, E2BIG, 0, "context too long: E2BIG");
	}
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, "no-such-context-lsmns");
	expect(&t, &r, EINVAL, 0, "context the LSM does not know: EINVAL");

	/* Target. */
	base(&t, &r);
	h->pidfd = 1000;
	expect(&t, &r, EBADF, LSMNS_NO_INDEX, "bad pidfd: EBADF");
	base(&t, &r);
	h->pidfd = t.fd;
	expect(&t, &r, EBADF, LSMNS_NO_INDEX, "not a pidfd: EBADF");
	dead = fork();
	if (!dead)
		_exit(0);
	fd2 = pidfd_open(dead);
	waitpid(dead, &st, 0);
	base(&t, &r);
	h->pidfd = fd2;
	expect(&t, &r, ESRCH, LSMNS_NO_INDEX, "exited target: ESRCH");
	close(fd2);

	/*
	 * Success, then second assignments while the first is pending: one
	 * that narrows replaces it, one that widens what is pending is EBUSY.
	 */
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, t.b, LSMNS_MODE_ACTIVE, NULL);
	expect(&t, &r, 0, LSMNS_NO_INDEX, "valid request: success");
	base(&t, &r);
	expect(&t, &r, 0, LSMNS_NO_INDEX,
	       "second assignment that narrows the pending one: success");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&r, t.b, LSMNS_MODE_ACTIVE, NULL);
	expect(&t, &r, EBUSY, LSMNS_NO_INDEX,
	       "second assignment wider than the pending one: EBUSY");
	lsmns_req_init(&r, t.pidfd, 0);
	lsmns_req_add(&r, t.a, LSMNS_MODE_HIDDEN, NULL);
	lsmns_req_add(&r, t.b, LSMNS_MODE_ACTIVE, NULL);
	expect(&t, &r, EBUSY, LSMNS_NO_INDEX,
	       "second assignment showing an LSM the pending one hides: EBUSY");

	/* Unprivileged caller: the open file is refused to it too. */
	pid = fork();
	if (!pid) {
		struct __user_cap_header_struct hd = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];

		syscall(SYS_capget, &hd, d);
		d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN % 32));
		d[CAP_MAC_ADMIN / 32].permitted &= ~(1U << (CAP_MAC_ADMIN % 32));
		if (syscall(SYS_capset, &hd, d))
			_exit(3);
		base(&t, &r);
		if (write(t.fd, r.buf, r.size) >= 0 || errno != EPERM)
			_exit(1);
		if (open(ASSIGN, O_RDWR) >= 0 || errno != EPERM)
			_exit(2);
		_exit(0);
	}
	st = wait_status(pid);
	tap(st == 0, "caller without CAP_MAC_ADMIN: EPERM (write and open)",
	    st, 0);

	close(t.go);
	wait_status(t.pid);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "pid"))
		return cmd_pid(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "errno"))
		return cmd_errno();
	fprintf(stderr, "usage: lsmns-assign run ENTRY... -- PROG | pid PID ENTRY... | errno\n");
	return 2;
}
