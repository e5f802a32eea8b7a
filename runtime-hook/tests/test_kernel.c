// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfd pinning, the assign file, the single write and reading back the
 * kernel's result; seccomp confinement.
 */
#include <errno.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "testutil.h"

static struct hook_err err;

static void test_pin_live(void **s)
{
	pid_t pid = tu_sleeper();
	int pidfd = -1;

	(void)s;
	assert_int_equal(kernel_pin(pid, &pidfd, &err), 0);
	assert_true(pidfd >= 0);
	close(pidfd);
	tu_kill(pid);
}

static void test_pin_refusals(void **s)
{
	int pidfd = -1;

	(void)s;
	assert_int_equal(kernel_pin(1, &pidfd, &err), -1);
	assert_err(&err, HOOK_ERR_TARGET, "refusing target pid 1");
	assert_int_equal(kernel_pin(getpid(), &pidfd, &err), -1);
	assert_err(&err, HOOK_ERR_TARGET, "refusing target pid");
	assert_int_equal(kernel_pin(getppid(), &pidfd, &err), -1);
	assert_err(&err, HOOK_ERR_TARGET, "the hook or its runtime");
	assert_int_equal(kernel_pin(tu_dead_pid(), &pidfd, &err), -1);
	assert_err(&err, HOOK_ERR_TARGET, "does not exist (container init gone?)");
}

static void test_open_assign(void **s)
{
	char *dir = tu_tmpdir(), *p = tu_path(dir, "assign");
	struct assign_file af;

	(void)s;
	assert_int_equal(kernel_open_assign(p, &af, &err), -1);
	assert_err(&err, HOOK_ERR_KERNEL, "cannot open assign file");
	assert_non_null(strstr(err.msg, "the kernel has no LSM namespaces (boot the lsmns kernel)"));
	tu_write_str(p, "");
	assert_int_equal(kernel_open_assign(p, &af, &err), 0);
	assert_true(af.regular);
	close(af.fd);
	/*
	 * Only securityfs is the kernel's file: anything else, even a
	 * device, is a stand-in with no result to read back.
	 */
	assert_int_equal(kernel_open_assign("/dev/null", &af, &err), 0);
	assert_true(af.regular);
	close(af.fd);
	free(p);
	tu_rmdir(dir);
}

static struct lsm_assignment two_entries(void)
{
	struct lsm_assignment a = { 0 };

	a.interface = HOOK_LSM_SELINUX;
	a.n = 2;
	a.e[0].lsm = HOOK_LSM_SELINUX;
	a.e[0].mode = LSMNS_MODE_ACTIVE;
	a.e[0].ctx = "system_u:system_r:container_t:s0:c1,c2";
	a.e[1].lsm = HOOK_LSM_APPARMOR;
	a.e[1].mode = LSMNS_MODE_HIDDEN;
	a.e[1].ctx = "lsmns-hidden";
	return a;
}

static void test_send_regular(void **s)
{
	char *dir = tu_tmpdir(), *p = tu_path(dir, "assign"), *back;
	struct lsm_assignment a = two_entries();
	struct assign_file af;
	unsigned long long ns;
	void *buf;
	size_t len, blen;

	(void)s;
	tu_write_str(p, "");
	assert_int_equal(kernel_open_assign(p, &af, &err), 0);
	assert_int_equal(request_build(&a, 42, &buf, &len, &err), 0);
	assert_int_equal(kernel_send(&af, buf, len, &a, &err), 0);
	/* a regular file has no result to report */
	assert_int_equal(kernel_result_ns(&af, &ns), -1);
	close(af.fd);
	back = tu_read(p, &blen);
	assert_int_equal(blen, len);
	assert_memory_equal(back, buf, len);
	free(back);
	free(buf);
	free(p);
	tu_rmdir(dir);
}

/*
 * A stand-in for the securityfs file: a socket whose peer stopped reading
 * (write fails with EPIPE) and queued a struct lsmns_assign_result for us
 * to read back.
 */
static struct assign_file refusing_file(const struct lsmns_assign_result *res,
					int *peer)
{
	struct assign_file af = { .fd = -1, .regular = false };
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	if (res)
		assert_int_equal(write(sv[1], res, sizeof(*res)), sizeof(*res));
	assert_int_equal(shutdown(sv[1], SHUT_RDWR), 0);
	af.fd = sv[0];
	*peer = sv[1];
	return af;
}

static void send_refused(const struct lsmns_assign_result *res, const char *needle)
{
	struct lsm_assignment a = two_entries();
	struct assign_file af;
	void *buf;
	size_t len;
	int peer;

	signal(SIGPIPE, SIG_IGN);
	af = refusing_file(res, &peer);
	assert_int_equal(request_build(&a, 42, &buf, &len, &err), 0);
	assert_int_equal(kernel_send(&af, buf, len, &a, &err), -1);
	assert_err(&err, HOOK_ERR_KERNEL, needle);
	free(buf);
	close(af.fd);
	close(peer);
}

static void test_send_failed_index(void **s)
{
	struct lsmns_assign_result res = {
		.version = LSMNS_ABI_VERSION, .error = -EACCES, .failed_index = 1,
	};

	(void)s;
	send_refused(&res, "kernel refused the assignment at entry 1 (apparmor hidden): Permission denied (errno 13): an LSM's policy");
	res.failed_index = 0;
	res.error = -EINVAL;
	send_refused(&res, "at entry 0 (selinux active): Invalid argument (errno 22)");
	res.failed_index = 7;	/* out of range: reported as a number */
	send_refused(&res, "at entry 7: Invalid argument");
}

static void test_send_no_index(void **s)
{
	struct lsmns_assign_result res = {
		.version = LSMNS_ABI_VERSION, .error = -EPERM,
		.failed_index = LSMNS_NO_INDEX,
	};

	(void)s;
	send_refused(&res, "kernel refused the assignment: Operation not permitted (errno 1): the hook lacks CAP_MAC_ADMIN");
	res.error = -EBUSY;
	send_refused(&res, "Device or resource busy (errno 16): the request would widen the target's namespace or the assignment already pending on it");
}

static void test_send_no_result(void **s)
{
	struct lsmns_assign_result bad = { .version = 99, .error = -EACCES, .failed_index = 0 };

	(void)s;
	/* nothing to read back: the write's own errno */
	send_refused(NULL, "kernel refused the assignment: Broken pipe (errno 32)");
	/* a result of another ABI version is ignored */
	send_refused(&bad, "kernel refused the assignment: Broken pipe");
}

static void test_result_ns(void **s)
{
	struct lsmns_assign_result res = {
		.version = LSMNS_ABI_VERSION, .error = 0,
		.failed_index = LSMNS_NO_INDEX, .ns_id = 77,
	};
	struct assign_file af;
	unsigned long long ns = 0;
	int peer;

	(void)s;
	af = refusing_file(&res, &peer);
	assert_int_equal(kernel_result_ns(&af, &ns), 0);
	assert_int_equal(ns, 77);
	close(af.fd);
	close(peer);
}

static void test_errno_hints(void **s)
{
	(void)s;
	assert_non_null(strstr(kernel_errno_hint(E2BIG, false), "bounds"));
	assert_non_null(strstr(kernel_errno_hint(ESRCH, false), "gone"));
	assert_non_null(strstr(kernel_errno_hint(ENOENT, false), "not enabled"));
	assert_non_null(strstr(kernel_errno_hint(EOPNOTSUPP, false), "released"));
	assert_non_null(strstr(kernel_errno_hint(EXDEV, false), "lsmns-hook(8)"));
	/* A refused released entry names the reason it can be refused for. */
	assert_non_null(strstr(kernel_errno_hint(EPERM, true), "lsmns.releasable="));
	assert_non_null(strstr(kernel_errno_hint(EACCES, true), "consent"));
	assert_non_null(strstr(kernel_errno_hint(EPERM, false), "CAP_MAC_ADMIN"));
}

/* Each cause of EPERM is named with its fix. */
static void test_eperm_causes(void **s)
{
	struct priv_facts f;
	char buf[512];

	(void)s;
	f = (struct priv_facts){ .cap_mac_admin = 1, .init_userns = 1, .lsmns_id = 4 };
	priv_explain_eperm(&f, buf, sizeof(buf));
	assert_non_null(strstr(buf, "inside LSM namespace 4"));
	assert_non_null(strstr(buf, "run the runtime (and so the hook) on the host"));
	f = (struct priv_facts){ .cap_mac_admin = 1, .init_userns = 0, .lsmns_id = 0 };
	priv_explain_eperm(&f, buf, sizeof(buf));
	assert_non_null(strstr(buf, "runs in a user namespace (rootless podman"));
	f = (struct priv_facts){ .cap_mac_admin = 0, .init_userns = 1, .lsmns_id = 0 };
	priv_explain_eperm(&f, buf, sizeof(buf));
	assert_non_null(strstr(buf, "no CAP_MAC_ADMIN in its effective set"));
	f = (struct priv_facts){ .cap_mac_admin = 1, .init_userns = 1, .lsmns_id = 0 };
	priv_explain_eperm(&f, buf, sizeof(buf));
	assert_non_null(strstr(buf, "an LSM refused the capability check"));
	assert_non_null(strstr(buf, "capability2 mac_admin"));
	f = (struct priv_facts){ .cap_mac_admin = -1, .init_userns = -1, .lsmns_id = -1 };
	priv_explain_eperm(&f, buf, sizeof(buf));
	assert_non_null(strstr(buf, "could not be read"));
	/* this test's own process: the facts are read, not guessed */
	priv_facts_read(&f);
	assert_int_not_equal(f.cap_mac_admin, -1);
	assert_int_not_equal(f.init_userns, -1);
	if (geteuid() == 0 && f.init_userns == 1)
		assert_int_equal(f.cap_mac_admin, 1);
}

/* lsmns ps --unassigned: which cgroups are containers'. */
static void test_container_cgroups(void **s)
{
	static const char *const mine[] = { "/op-*" };
	const char *const *g = container_cgroup_globs;
	size_t n = container_cgroup_nglobs;

	(void)s;
	assert_true(cgroup_is_container("/machine.slice/libpod-0123abcd.scope", g, n));
	assert_true(cgroup_is_container("/libpod_parent/libpod-0123abcd", g, n));
	assert_true(cgroup_is_container("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1.slice/crio-0123.scope", g, n));
	assert_true(cgroup_is_container("/system.slice/containerd.service/kubepods-pod1/cri-containerd-0123.scope", g, n));
	assert_true(cgroup_is_container("/system.slice/docker-0123.scope", g, n));
	/* the runtime's monitor and the host's own services are not containers */
	assert_false(cgroup_is_container("/machine.slice/libpod-conmon-0123abcd.scope", g, n));
	assert_false(cgroup_is_container("/libpod_parent/conmon", g, n));
	assert_false(cgroup_is_container("/system.slice/sshd.service", g, n));
	assert_false(cgroup_is_container("/", g, n));
	assert_true(cgroup_is_container("/op-big", mine, 1));
	assert_false(cgroup_is_container("/other", mine, 1));
}

/* Run @fn in a confined child; return its wait status. */
static int confined_child(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct hook_err e;

		if (confine(&e))
			_exit(100);
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void allowed_work(void)
{
	char *p = malloc(1 << 20);	/* mmap */
	int fds[2] = { -1, -1 };

	if (!p)
		_exit(101);
	memset(p, 1, 1 << 20);
	free(p);
	if (write(STDERR_FILENO, "", 0) < 0)
		_exit(102);
	close(fds[0]);
}

static void forbidden_open(void)
{
	syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY);
}

static void forbidden_exec(void)
{
	syscall(SYS_execve, "/bin/true", (char *[]){ "true", NULL }, (char *[]){ NULL });
}

static void forbidden_socket(void)
{
	syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
}

static void forbidden_exec_mmap(void)
{
	syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void test_confine(void **s)
{
	int st;

	(void)s;
	st = confined_child(allowed_work);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	st = confined_child(forbidden_open);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	st = confined_child(forbidden_exec);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
	st = confined_child(forbidden_socket);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
	st = confined_child(forbidden_exec_mmap);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pin_live),
		cmocka_unit_test(test_pin_refusals),
		cmocka_unit_test(test_open_assign),
		cmocka_unit_test(test_send_regular),
		cmocka_unit_test(test_send_failed_index),
		cmocka_unit_test(test_send_no_index),
		cmocka_unit_test(test_send_no_result),
		cmocka_unit_test(test_result_ns),
		cmocka_unit_test(test_errno_hints),
		cmocka_unit_test(test_eperm_causes),
		cmocka_unit_test(test_container_cgroups),
		cmocka_unit_test(test_confine),
	};

	return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
