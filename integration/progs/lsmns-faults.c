// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-faults: systematic allocation-failure injection over the LSM
 * namespace paths, on a kernel with CONFIG_FAULT_INJECTION (the debug
 * flavour).  For n = 1, 2, ... the n-th fault-injection point that the
 * task under test reaches fails (/proc/thread-self/fail-nth), until a run
 * reaches no n-th point: then every allocation of the path has failed
 * once.  After each run the outcome must be all or nothing:
 *
 *   assign   the agent's write fails with ENOMEM and the target's next
 *            execve runs outside any new namespace, or the write succeeds
 *            and the execve enters exactly the namespace it reported;
 *   exec     the target's execve fails (or the task dies past exec's
 *            point of no return), and the assignment is still pending for
 *            its next execve; or it runs in the assigned namespace;
 *   adopt    a privileged entrant of a bound cgroup: its execve fails, or
 *            its program runs in the bound namespace.
 *
 * Never a program in the host's namespace after an accepted assignment.
 * One TAP line per mode; details of a failure as "# " lines.
 *
 * usage: lsmns-faults MODE CGROUP ENTRY...   (MODE: assign, exec, adopt;
 *                                             CGROUP: a v2 cgroup dir,
 *                                             used by exec and adopt)
 *        lsmns-faults report                 (what the targets exec)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/lsm.h>
#include <linux/lsmns.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lsmns-request.h"

#define ASSIGN "/sys/kernel/security/lsmns/assign"
#define SELF "/proc/self/exe"
#define MAX_N 4000

static char cgroup[256];
static char bound_id[32];	/* "id=N\n" of the container adopt uses */
static struct lsmns_req request;

/* Arm the n-th fault-injection point of the calling thread (0: disarm). */
static int fail_nth(int n)
{
	char buf[16];
	int fd = open("/proc/thread-self/fail-nth", O_RDWR);
	int len = snprintf(buf, sizeof(buf), "%d", n);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, buf, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* Is the calling thread's armed point still ahead (no fault injected)? */
static int fail_nth_pending(void)
{
	char buf[16] = "";
	int fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && atoi(buf) > 0;
}

/*
 * The program the targets exec: says whether its execve consumed the
 * armed fault ("unconsumed" if not; it then disarms itself), and which
 * namespace it runs in, on one line to stdout.
 */
static int report(void)
{
	char ns[256] = "";
	int unconsumed = fail_nth_pending();
	int fd;
	ssize_t n;

	if (unconsumed)
		fail_nth(0);
	fd = open("/proc/self/attr/lsmns", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, ns, sizeof(ns) - 1);
	if (n > 0)
		ns[strcspn(ns, " \n")] = 0;
	printf("%s %s\n", unconsumed ? "unconsumed" : "consumed",
	       n > 0 ? ns : "id=?");
	return 0;
}

static int pidfd_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static void move_to_cgroup(const char *dir, pid_t pid)
{
	char path[320], buf[16];
	int fd, len;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	len = snprintf(buf, sizeof(buf), "%d", (int)pid);
	if (fd < 0 || write(fd, buf, len) != len) {
		fprintf(stderr, "lsmns-faults: cannot join %s: %s\n", dir,
			strerror(errno));
		exit(125);
	}
	close(fd);
}

/*
 * A child that waits for a byte on the returned pipe, then: joins
 * @cgroup_dir (if any), arms fail-nth @n (if > 0), and execs the report.
 * If that execve fails it writes "exec-failed ERRNO" and, with @retry,
 * execs again unarmed.  Its stdout goes to @out_w.
 */
static pid_t spawn_target(int *go_w, int out_w, const char *cgroup_dir, int n,
			  int retry)
{
	char *argv[] = { "lsmns-faults", "report", NULL };
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
		dup2(out_w, 1);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(p[0], &c, 1) != 1)
			_exit(124);
		if (cgroup_dir)
			move_to_cgroup(cgroup_dir, getpid());
		if (n > 0 && fail_nth(n))
			_exit(123);
		execv(SELF, argv);
		fail_nth(0);
		printf("exec-failed %d\n", errno);
		fflush(stdout);
		if (retry)
			execv(SELF, argv);
		_exit(126);
	}
	close(p[0]);
	*go_w = p[1];
	return pid;
}

/* Read everything the targets printed (until every writer is gone). */
static void slurp(int fd, char *buf, size_t size)
{
	size_t used = 0;
	ssize_t n;

	while (used < size - 1 && (n = read(fd, buf + used, size - 1 - used)) > 0)
		used += n;
	buf[used] = 0;
}

/* @s on one line, for a "# " diagnostic. */
static const char *flat(const char *s)
{
	static char line[512];
	size_t i;

	for (i = 0; s[i] && i < sizeof(line) - 1; i++)
		line[i] = s[i] == '\n' ? '|' : s[i];
	line[i] = 0;
	return line;
}

/*
 * Assign @request to @pid; with @n > 0 the agent's n-th fault point in
 * the write fails.  Returns the write's errno (0: accepted), the result's
 * namespace id in @ns_id, and whether the armed point was reached.
 */
static int assign(pid_t pid, int n, uint64_t *ns_id, int *reached)
{
	struct lsmns_assign_result res = { 0 };
	int fd = open(ASSIGN, O_RDWR);
	int pidfd = pidfd_open(pid);
	int err = 0;

	if (fd < 0 || pidfd < 0) {
		fprintf(stderr, "lsmns-faults: cannot open %s or a pidfd: %s\n",
			ASSIGN, strerror(errno));
		exit(125);
	}
	lsmns_req_hdr(&request)->pidfd = pidfd;
	if (n > 0)
		fail_nth(n);
	if (write(fd, request.buf, request.size) != (ssize_t)request.size)
		err = errno;
	*reached = n > 0 && !fail_nth_pending();
	fail_nth(0);
	if (read(fd, &res, sizeof(res)) == sizeof(res) && !err)
		*ns_id = res.ns_id;
	close(pidfd);
	close(fd);
	return err;
}

static int wait_pid(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return st;
}

static int tap_n, tap_failed;

static void tap(int ok, const char *mode, int runs, int injected)
{
	tap_n++;
	tap_failed += !ok;
	printf("%s %d - %s: %d runs, %d injected failures, all or nothing\n",
	       ok ? "ok" : "not ok", tap_n, mode, runs, injected);
}

/* One run of MODE with the n-th point armed; 1 if it reached that point. */
static int run_once(const char *mode, int n, int *bad)
{
	char out[512], want[32], got[64];
	uint64_t ns_id = 0;
	int go, p[2], err, reached = 0, st;
	pid_t pid;

	if (pipe(p))
		exit(125);
	if (!strcmp(mode, "assign")) {
		pid = spawn_target(&go, p[1], NULL, 0, 0);
		close(p[1]);
		err = assign(pid, n, &ns_id, &reached);
		if (write(go, "x", 1) != 1)
			exit(125);
		slurp(p[0], out, sizeof(out));
		st = wait_pid(pid);
		if (err == 0)
			snprintf(want, sizeof(want), "id=%llu",
				 (unsigned long long)ns_id);
		else
			snprintf(want, sizeof(want), "id=0");
		sscanf(out, "%*s %63s", got);
		if ((err && err != ENOMEM) || strcmp(got, want)) {
			printf("# assign n=%d: write errno %d, target printed \"%s\" (status %d), want %s\n",
			       n, err, flat(out), st, want);
			(*bad)++;
		}
	} else if (!strcmp(mode, "exec")) {
		/* Exec with the fault armed in the target, then again unarmed. */
		pid = spawn_target(&go, p[1], NULL, n, 1);
		close(p[1]);
		err = assign(pid, 0, &ns_id, &reached);
		if (err) {
			printf("# exec n=%d: the assignment itself failed: %s\n",
			       n, strerror(err));
			(*bad)++;
		}
		if (write(go, "x", 1) != 1)
			exit(125);
		slurp(p[0], out, sizeof(out));
		st = wait_pid(pid);
		snprintf(want, sizeof(want), "id=%llu\n",
			 (unsigned long long)ns_id);
		reached = !strstr(out, "unconsumed");
		/*
		 * A program that printed where it runs, at its first or its
		 * second execve, is in the namespace.  One that printed
		 * nothing never ran: killed past exec's point of no return,
		 * or failed by the still armed fault in its own start-up.
		 * After a failed first execve the second one must run.
		 */
		if ((strstr(out, "id=") && !strstr(out, want)) ||
		    (strstr(out, "exec-failed") && !strstr(out, "id="))) {
			printf("# exec n=%d: target printed \"%s\" (status %d), want %s",
			       n, flat(out), st, want);
			(*bad)++;
		}
	} else {
		/* adopt: an entrant of the bound cgroup, armed at its exec. */
		pid = spawn_target(&go, p[1], cgroup, n, 0);
		close(p[1]);
		if (write(go, "x", 1) != 1)
			exit(125);
		slurp(p[0], out, sizeof(out));
		st = wait_pid(pid);
		reached = !strstr(out, "unconsumed");
		/* Printed where it runs: the bound namespace.  Else it never ran. */
		if (strstr(out, "id=") && !strstr(out, bound_id)) {
			printf("# adopt n=%d: entrant printed \"%s\" (status %d), want %s or nothing",
			       n, flat(out), st, bound_id);
			(*bad)++;
		}
		/* An entrant that adopted is in the namespace: it leaves. */
	}
	close(p[0]);
	close(go);
	return reached;
}

/*
 * The container adopt needs: a task assigned @request that entered its
 * namespace in @cgroup and stays there until killed.
 */
static pid_t start_container(void)
{
	char *argv[] = { "sleep", "100000", NULL };
	uint64_t ns_id;
	int go, reached, st;
	pid_t pid;
	char c;
	int p[2];

	if (pipe(p))
		exit(125);
	pid = fork();
	if (!pid) {
		close(p[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(p[0], &c, 1) != 1)
			_exit(124);
		execvp(argv[0], argv);
		_exit(126);
	}
	close(p[0]);
	go = p[1];
	move_to_cgroup(cgroup, pid);
	if (assign(pid, 0, &ns_id, &reached)) {
		fprintf(stderr, "lsmns-faults: cannot assign the container: %s\n",
			strerror(errno));
		exit(125);
	}
	if (write(go, "x", 1) != 1)
		exit(125);
	close(go);
	/* Its execve has entered the namespace (and bound it) once it runs. */
	for (st = 0; st < 100; st++) {
		char path[64], buf[64] = "";
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/attr/lsmns", (int)pid);
		fd = open(path, O_RDONLY);
		if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 &&
		    strncmp(buf, "id=0 ", 5)) {
			close(fd);
			buf[strcspn(buf, " \n")] = 0;
			snprintf(bound_id, sizeof(bound_id), "%s\n", buf);
			return pid;
		}
		if (fd >= 0)
			close(fd);
		usleep(50000);
	}
	fprintf(stderr, "lsmns-faults: the container never entered its namespace\n");
	exit(125);
}

int main(int argc, char **argv)
{
	pid_t container = 0;
	int i, n, bad = 0, injected = 0;

	if (argc == 2 && !strcmp(argv[1], "report"))
		return report();
	if (argc < 4 || (strcmp(argv[1], "assign") && strcmp(argv[1], "exec") &&
			 strcmp(argv[1], "adopt"))) {
		fprintf(stderr, "usage: lsmns-faults assign|exec|adopt CGROUP ENTRY...\n");
		return 2;
	}
	snprintf(cgroup, sizeof(cgroup), "%s", argv[2]);
	lsmns_req_init(&request, -1, 0);
	for (i = 3; i < argc; i++)
		if (lsmns_req_parse_entry(&request, argv[i])) {
			fprintf(stderr, "lsmns-faults: bad entry %s\n", argv[i]);
			return 2;
		}
	if (fail_nth(0)) {
		fprintf(stderr, "lsmns-faults: no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)\n");
		return 125;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "adopt"))
		container = start_container();
	for (n = 1; n <= MAX_N; n++) {
		if (!run_once(argv[1], n, &bad))
			break;
		injected++;
	}
	if (container) {
		kill(container, SIGKILL);
		wait_pid(container);
	}
	tap(!bad && n <= MAX_N && injected > 0, argv[1], n, injected);
	return tap_failed ? 1 : 0;
}
