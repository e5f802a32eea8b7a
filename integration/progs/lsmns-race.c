// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-race: races around LSM namespace assignment (issue 18), each many
 * times.  One TAP result per race; "# " lines give the outcome counts.
 *
 *   lsmns-race RACE[,RACE]... [-n ITERATIONS] [-s SEED]
 *
 * RACE is one of:
 *   exit         the target exits (or is killed) between the agent's pidfd
 *                lookup and its write: success or ESRCH, nothing else
 *   two-agents   two agents assign one target at the same moment: at least
 *                one wins; when both do, the later (higher ns_id) is no
 *                wider than the earlier; a loser (EBUSY) asked for more than
 *                the winner; the target's exec enters the winner's (the
 *                later's) namespace
 *   exec         the target execs while it is being assigned: every write is
 *                accepted (an exec in progress is waited for), and the
 *                program its exec runs is in the namespace, or (the exec was
 *                already past its check) in none and its next exec, made
 *                after the write returned, is; when the write returned
 *                before the exec started, the first one is in it
 *   thread-exec  the same, with a non-leader thread of a multi-threaded
 *                target exec'ing while the agent names the process (or its
 *                leader with PIDFD_THREAD)
 *   cgroup-rmdir a later entrant moves itself into a bound cgroup and execs
 *                while another task moves it out and a third removes the
 *                cgroup: the entrant runs in the bound namespace or in none
 *   last-exit    the last task of a namespace is killed and reaped while a
 *                later entrant of its cgroup execs: the entrant adopts it
 *                or nothing
 *   pid-reuse    a pidfd to a reaped child, after its pid was given to a new
 *                child (clone3 set_tid): ESRCH, and the new child's exec enters
 *                nothing, or the namespace its own assignment (through a
 *                pidfd of its own) gave it
 *   eintr        not a race: the target's exec is held up (its other thread,
 *                which the exec kills, is traced by us and not yet reaped)
 *                while an agent's write waits for it; a signal ends the
 *                write with EINTR, and nothing is installed
 *   all          every race above
 *   soak         not a race: ITERATIONS container cycles, each a task in a
 *                cgroup of its own assigned random modes, 1-3 later entrants
 *                that must adopt its namespace, now and then a narrower
 *                namespace for it (entrants then get that one), then exit
 *                and rmdir; lsmns/count checked every 100 cycles
 *
 * After each race: lsmns/count back to its value before (polled: the last
 * references go in RCU callbacks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/lsm.h>
#include <linux/sched.h>
/* The ABI header, as the kernel series installs it (kernel/uapi/). */
#include "../../kernel/uapi/linux/lsmns.h"
#include "lsmns-cmdline.h"
#include "lsmns-request.h"
#include "lsmns-testlib.h"
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static char self_exe[PATH_MAX];
static int tap_n, tap_failed;

/* ---- helpers ---- */

static struct rng rng;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A duration between @lo and @hi ns, about uniform in its logarithm. */
static uint64_t logrand(uint64_t lo, uint64_t hi)
{
	int a, b, e;
	uint64_t d;

	if (!lo)
		lo = 1;
	if (hi <= lo)
		return lo;
	a = 63 - __builtin_clzll(lo);
	b = 63 - __builtin_clzll(hi);
	e = a + rn(&rng, b - a + 1);
	d = (1ULL << e) + rn(&rng, 1u << (e < 30 ? e : 30));
	return d < lo ? lo : d > hi ? hi : d;
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/* Wait (up to 30 s) for lsmns/count to be @want; return what it is. */
static long settle_count(long want)
{
	long c = read_count();
	int i;

	for (i = 0; i < 300 && c != want; i++) {
		msleep(100);
		c = read_count();
	}
	return c;
}

/*
 * Random valid modes for every running LSM: at least one active; released
 * only where lsmns.releasable= allows it and the LSM consents with no
 * policy loaded (Smack and AppArmor, for an agent and target alike).
 */
static void random_modes(uint8_t mode[NSLOT])
{
	int s, act = 0;

	for (s = 0; s < NSLOT; s++) {
		mode[s] = 0;
		if (!enabled[s])
			continue;
		mode[s] = 1 + rn(&rng, s && releasable[s] ? 3 : 2);
		act |= mode[s] == LSMNS_MODE_ACTIVE;
	}
	if (!act)
		for (s = 0; s < NSLOT; s++)
			if (enabled[s]) {
				mode[s] = LSMNS_MODE_ACTIVE;
				break;
			}
}

static void build(struct lsmns_req *q, int pidfd, const uint8_t mode[NSLOT])
{
	int s;

	lsmns_req_init(q, pidfd, 0);
	for (s = 0; s < NSLOT; s++)
		if (enabled[s])
			lsmns_req_add(q, slot_id[s], mode[s], NULL);
}

/* Write @q on @fd: 0 or the errno; the ns_id given in *id. */
static int assign(int fd, const struct lsmns_req *q, uint64_t *id)
{
	struct lsmns_assign_result res;
	int e = 0;

	*id = 0;
	if (write(fd, q->buf, q->size) != (ssize_t)q->size)
		e = errno;
	if (read(fd, &res, sizeof(res)) == sizeof(res) && !e)
		*id = res.ns_id;
	return e;
}

static int view_of(pid_t pid, struct nsview *v)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/attr/lsmns", (int)pid);
	read_file(path, buf, sizeof(buf));
	parse_view(buf, v);
	return v->ok ? 0 : -1;
}

/* Read one line from @fd (up to @ms); 0 or -1. */
static int read_line(int fd, char *buf, size_t size, int ms)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	size_t have = 0;
	ssize_t n;

	buf[0] = 0;
	while (have < size - 1 && now_ns() < end) {
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(fd, buf + have, 1);
		if (n <= 0)
			return -1;
		if (buf[have] == '\n') {
			buf[have] = 0;
			return 0;
		}
		buf[++have] = 0;
	}
	return -1;
}

/* ---- failures ---- */

static int nfail;
static char failbuf[8][300];
static uint64_t race_t0;

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (nfail < 8) {
		va_start(ap, fmt);
		vsnprintf(failbuf[nfail], sizeof(failbuf[nfail]), fmt, ap);
		va_end(ap);
	}
	nfail++;
}

static void result(const char *name, long base, const char *fmt, ...)
{
	char desc[300];
	long c = settle_count(base);
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	printf("# %s: %s (%.1f s)\n", name, desc, (now_ns() - race_t0) / 1e9);
	if (c != base)
		fail("lsmns/count is %ld after the race, %ld before", c, base);
	tap_n++;
	if (nfail) {
		tap_failed++;
		printf("not ok %d - race %s\n", tap_n, name);
		for (i = 0; i < nfail && i < 8; i++)
			printf("# %s\n", failbuf[i]);
		if (nfail > 8)
			printf("# ... and %d more\n", nfail - 8);
	} else {
		printf("ok %d - race %s: %s; lsmns/count back to %ld\n", tap_n,
		       name, desc, base);
	}
	nfail = 0;
	race_t0 = now_ns();
}

/* ---- the programs children exec (internal modes) ---- */

static void exec_report(void)
{
	char *argv[] = { (char *)"lsmns-race", (char *)"--report", NULL };

	execv(self_exe, argv);
	dprintf(3, "F %d\n", errno);
	_exit(126);
}

/*
 * --report: "V <attr/lsmns>" on fd 3; then 'x' on fd 4 execs it once
 * more, anything else (or end of file) ends it.
 */
static int mode_report(void)
{
	char buf[200];
	int fd = open("/proc/self/attr/lsmns", O_RDONLY);
	ssize_t k = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (k < 0)
		k = snprintf(buf, sizeof(buf), "unreadable");
	buf[k] = 0;
	if (k && buf[k - 1] == '\n')
		buf[k - 1] = 0;
	dprintf(3, "V %s\n", buf);
	if (read(4, buf, 1) == 1 && buf[0] == 'x')
		exec_report();
	return 0;
}

/*
 * In a child: the report pipe's write end @rp[1] to fd 3, the command
 * pipe's read end @cp[0] to fd 4; the parent's ends closed, so that the
 * child sees end of file when the parent closes its end.
 */
static void child_fds(const int rp[2], const int cp[2])
{
	int a = fcntl(rp[1], F_DUPFD, 100), b = fcntl(cp[0], F_DUPFD, 100);

	close(rp[0]);
	close(cp[1]);
	dup2(a, 3);
	dup2(b, 4);
	close(a);
	close(b);
}

/* Shared memory of a race: flags, timestamps. */
struct shm {
	volatile int go;
	volatile int ready;
	volatile uint64_t t_exec;	/* when the target called execve */
	volatile uint64_t t_ret[4];	/* when each agent's write returned */
	volatile int err[4];
	volatile uint64_t id[4];
	uint8_t mode[4][NSLOT];
};

static struct shm *shm;
static int afd;
static uint64_t write_ns = 20000;	/* a write's duration, measured */
static uint64_t exec_ns = 1000000;	/* fork, exec and report, measured */

static void wait_go(int it)
{
	while (shm->go != it)
		;
}

/* How long a valid write to a blocked child takes, for the delays. */
static void calibrate(void)
{
	static struct lsmns_req q;
	uint8_t mode[NSLOT];
	uint64_t t0, id, best = ~0ULL;
	long base = read_count();
	int p[2], i, pfd;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return;
	pid = fork();
	if (!pid) {
		char c;

		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(0);
		_exit(0);
	}
	close(p[0]);
	pfd = pidfd_open(pid, 0);
	for (i = 0; i < 20; i++) {
		random_modes(mode);
		mode[0] = enabled[0] ? LSMNS_MODE_ACTIVE : 0;
		build(&q, pfd, mode);
		t0 = now_ns();
		assign(afd, &q, &id);
		if (now_ns() - t0 < best)
			best = now_ns() - t0;
	}
	close(p[1]);
	close(pfd);
	waitpid(pid, NULL, 0);
	if (best < 1000000)
		write_ns = best;
	/* An exec: fork, execve, its report. */
	for (i = 0, best = ~0ULL; i < 5; i++) {
		int rp[2], cp[2];
		char line[256];

		if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
			break;
		t0 = now_ns();
		pid = fork();
		if (!pid) {
			child_fds(rp, cp);
			exec_report();
		}
		close(rp[1]);
		close(cp[0]);
		if (!read_line(rp[0], line, sizeof(line), 30000) &&
		    now_ns() - t0 < best)
			best = now_ns() - t0;
		close(rp[0]);
		close(cp[1]);
		waitpid(pid, NULL, 0);
	}
	if (best < 10000000000ULL)
		exec_ns = best;
	settle_count(base);
}

/* ---- race: the target exits between pidfd lookup and write ---- */

static void race_exit(int iters)
{
	static struct lsmns_req q;
	long base = read_count();
	int it, ok = 0, srch = 0, killed = 0;

	for (it = 1; it <= iters; it++) {
		uint8_t mode[NSLOT];
		uint64_t id, d = logrand(100, 4 * write_ns);
		int by_kill = rn(&rng, 2), pfd, e;
		pid_t pid = fork();

		if (!pid) {
			wait_go(it);
			spin_ns(d);
			_exit(0);
		}
		pfd = pidfd_open(pid, 0);
		random_modes(mode);
		build(&q, pfd, mode);
		shm->go = it;
		if (by_kill) {
			spin_ns(logrand(100, 2 * write_ns));
			kill(pid, SIGKILL);
			killed++;
		}
		e = assign(afd, &q, &id);
		if (!e)
			ok++;
		else if (e == ESRCH)
			srch++;
		else
			fail("iteration %d: %s, want success or ESRCH", it, ename(e));
		waitpid(pid, NULL, 0);
		/* Reaped now: the same pidfd must find nothing. */
		e = assign(afd, &q, &id);
		if (e != ESRCH)
			fail("iteration %d: write after the target was reaped: %s, want ESRCH",
			     it, ename(e));
		close(pfd);
	}
	result("exit", base, "%d iterations (%d killed): accepted %d, ESRCH %d",
	       iters, killed, ok, srch);
}

/* ---- race: two agents at once ---- */

static void agent_loop(int me, int iters, int pfd_src_pid_pipe)
{
	static struct lsmns_req q;
	int fd = open(ASSIGN, O_RDWR | O_CLOEXEC);
	int it;
	pid_t pid;

	for (it = 1; it <= iters; it++) {
		int pfd;
		uint64_t id;

		/* the target of this iteration: its pid comes on the pipe */
		if (read(pfd_src_pid_pipe, &pid, sizeof(pid)) != sizeof(pid))
			_exit(1);
		pfd = pidfd_open(pid, 0);
		build(&q, pfd, shm->mode[me]);
		__atomic_add_fetch(&shm->ready, 1, __ATOMIC_SEQ_CST);
		wait_go(it);
		shm->err[me] = assign(fd, &q, &id);
		shm->id[me] = id;
		shm->t_ret[me] = now_ns();
		close(pfd);
		__atomic_add_fetch(&shm->ready, 1, __ATOMIC_SEQ_CST);
	}
	_exit(0);
}

static int wider(const uint8_t *a, const uint8_t *b)
{
	int s;

	for (s = 0; s < NSLOT; s++)
		if (enabled[s] && a[s] < b[s])
			return 1;
	return 0;
}

static void race_two(int iters)
{
	long base = read_count();
	int pp[2][2], it, a, both = 0, one = 0, k;
	pid_t ag[2];
	char line[256];

	for (a = 0; a < 2; a++) {
		if (pipe(pp[a]))
			return;
		ag[a] = fork();
		if (!ag[a]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(pp[a][1]);
			agent_loop(a, iters, pp[a][0]);
		}
		close(pp[a][0]);
	}
	for (it = 1; it <= iters; it++) {
		int rp[2], cp[2], win = -1;
		struct nsview v;
		pid_t pid;

		if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
			break;
		pid = fork();
		if (!pid) {
			char c;

			child_fds(rp, cp);
			if (read(4, &c, 1) != 1)
				_exit(0);
			exec_report();
		}
		close(rp[1]);
		close(cp[0]);
		for (a = 0; a < 2; a++) {
			random_modes(shm->mode[a]);
			shm->err[a] = -1;
		}
		shm->ready = 0;
		for (a = 0; a < 2; a++)
			if (write(pp[a][1], &pid, sizeof(pid)) != sizeof(pid))
				fail("agent %d is gone", a);
		while (shm->ready < 2)
			;
		shm->go = it;
		while (shm->ready < 4)
			;
		/* Who won, and is that consistent? */
		for (a = 0; a < 2; a++)
			if (shm->err[a] && shm->err[a] != EBUSY)
				fail("iteration %d: agent %d: %s, want success or EBUSY",
				     it, a, ename(shm->err[a]));
		if (!shm->err[0] && !shm->err[1]) {
			both++;
			k = shm->id[0] > shm->id[1] ? 0 : 1;	/* the later */
			win = k;
			if (wider(shm->mode[k], shm->mode[!k]))
				fail("iteration %d: both accepted, the later (ns %llu) wider than the earlier",
				     it, (unsigned long long)shm->id[k]);
		} else if (!shm->err[0] || !shm->err[1]) {
			one++;
			win = shm->err[0] ? 1 : 0;
			if (!wider(shm->mode[!win], shm->mode[win]))
				fail("iteration %d: agent %d refused (EBUSY) though it asked for no more than the winner",
				     it, !win);
		} else {
			fail("iteration %d: neither agent succeeded (%s, %s)", it,
			     ename(shm->err[0]), ename(shm->err[1]));
		}
		/* The target's exec enters the winner's namespace. */
		if (write(cp[1], "x", 1) != 1 || read_line(rp[0], line, sizeof(line), 30000) ||
		    line[0] != 'V') {
			fail("iteration %d: the target did not report after its exec ('%s')",
			     it, line);
		} else if (win >= 0 && (view_of(pid, &v) || v.id != shm->id[win])) {
			fail("iteration %d: the target runs in '%s', want ns %llu",
			     it, line + 2, (unsigned long long)shm->id[win]);
		} else if (win >= 0) {
			for (k = 0; k < NSLOT; k++)
				if (enabled[k] && v.mode[k] != shm->mode[win][k])
					fail("iteration %d: %s is mode %d, want %d", it,
					     slot_name[k], v.mode[k], shm->mode[win][k]);
		}
		close(cp[1]);
		close(rp[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	for (a = 0; a < 2; a++) {
		close(pp[a][1]);
		kill(ag[a], SIGKILL);
		waitpid(ag[a], NULL, 0);
	}
	result("two-agents", base,
	       "%d iterations: both accepted (a narrowing replace) %d, one accepted and one EBUSY %d",
	       iters, both, one);
}

/* ---- race: the target (or another of its threads) execs ---- */

static pthread_barrier_t thr_started;
static volatile int thr_go_it;
static int thr_execer;
static uint64_t thr_delay;

static void *thr_main(void *arg)
{
	int me = (int)(long)arg;

	pthread_barrier_wait(&thr_started);
	if (me != thr_execer)
		for (;;)
			pause();
	wait_go(thr_go_it);
	spin_ns(thr_delay);
	shm->t_exec = now_ns();
	exec_report();
	return NULL;
}

static void race_exec(int iters, int threaded)
{
	static struct lsmns_req q;
	long base = read_count();
	int it, first_in = 0, second_in = 0, bad_order = 0, pfkind[2] = { 0, 0 };
	const char *name = threaded ? "thread-exec" : "exec";

	for (it = 1; it <= iters; it++) {
		int rp[2], cp[2], pfd, e, tpfd = 0;
		uint8_t mode[NSLOT];
		/*
		 * Either the target waits d after "go" before its execve, or
		 * the agent waits w before its write: the exec's own setup
		 * (before it takes cred_guard_mutex) lasts a good part of an
		 * exec, so the agent must often come well after it starts.
		 */
		int agent_late = rn(&rng, 2);
		uint64_t id, t_ret;
		uint64_t d = agent_late ? 0 : logrand(100, 3 * write_ns);
		uint64_t w = agent_late ? logrand(1000, exec_ns) : 0;
		char l1[256], l2[256];
		struct nsview v1, v2;
		pid_t pid;

		if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
			break;
		shm->ready = 0;
		shm->t_exec = 0;
		pid = fork();
		if (!pid) {
			child_fds(rp, cp);
			if (threaded) {
				pthread_t t;
				int i;

				thr_go_it = it;
				thr_delay = d;
				thr_execer = 1 + (it % 3);
				pthread_barrier_init(&thr_started, NULL, 4);
				for (i = 1; i <= 3; i++)
					if (pthread_create(&t, NULL, thr_main, (void *)(long)i))
						_exit(1);
				pthread_barrier_wait(&thr_started);
				shm->ready = 1;
				for (;;)
					pause();
			}
			shm->ready = 1;
			wait_go(it);
			spin_ns(d);
			shm->t_exec = now_ns();
			exec_report();
		}
		close(rp[1]);
		close(cp[0]);
		while (!shm->ready)
			;
		if (threaded && rn(&rng, 2)) {
			/* the leader, named as a thread */
			pfd = pidfd_open(pid, PIDFD_THREAD);
			tpfd = 1;
		} else {
			pfd = pidfd_open(pid, 0);
		}
		pfkind[tpfd]++;
		random_modes(mode);
		build(&q, pfd, mode);
		shm->go = it;
		spin_ns(w);
		e = assign(afd, &q, &id);
		t_ret = now_ns();
		if (e)
			fail("iteration %d: %s, want success (an exec in progress is waited for)",
			     it, ename(e));
		/* The second exec only once the write has returned. */
		l2[0] = 0;
		if (read_line(rp[0], l1, sizeof(l1), 30000) || l1[0] != 'V' ||
		    write(cp[1], "x", 1) != 1 ||
		    read_line(rp[0], l2, sizeof(l2), 30000) || l2[0] != 'V') {
			fail("iteration %d: no reports from the two execs ('%s', '%s')",
			     it, l1, l2);
		} else if (!e) {
			parse_view(l1 + 2, &v1);
			parse_view(l2 + 2, &v2);
			if (v1.id == id) {
				first_in++;
				if (v2.id != id)
					fail("iteration %d: the second exec left namespace %llu: '%s'",
					     it, (unsigned long long)id, l2 + 2);
			} else if (v1.id == 0 && v2.id == id) {
				second_in++;
				if (t_ret < shm->t_exec) {
					bad_order++;
					fail("iteration %d: the write returned %llu ns before the exec started, yet the exec ran outside the namespace",
					     it, (unsigned long long)(shm->t_exec - t_ret));
				}
			} else {
				fail("iteration %d: accepted ns %llu, the execs ran in '%s' then '%s'",
				     it, (unsigned long long)id, l1 + 2, l2 + 2);
			}
		}
		close(pfd);
		close(cp[1]);
		close(rp[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	(void)bad_order;
	if (threaded)
		result(name, base,
		       "%d iterations (process pidfd %d, leader PIDFD_THREAD %d): the first exec in the namespace %d, the next one %d",
		       iters, pfkind[0], pfkind[1], first_in, second_in);
	else
		result(name, base,
		       "%d iterations: the first exec in the namespace %d, the next one %d",
		       iters, first_in, second_in);
}

/* ---- races at a bound cgroup ---- */

/*
 * A container: a child in cgroup @cg, assigned @mode, exec'd into
 * "--report 1" (so it entered its namespace, now bound to @cg).  Returns
 * its pid, the namespace in *ns; -1 on failure.
 */
static pid_t container(const char *cg, const uint8_t mode[NSLOT], uint64_t *ns,
		       int *cmd_w, int *rep_r)
{
	static struct lsmns_req q;
	char procs[128], line[256];
	int rp[2], cp[2], pfd, e;
	struct nsview v;
	pid_t pid;

	if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
		return -1;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	pid = fork();
	if (!pid) {
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_fds(rp, cp);
		if (write_str(procs, "0"))
			_exit(1);
		if (read(4, &c, 1) != 1)
			_exit(0);
		exec_report();
	}
	close(rp[1]);
	close(cp[0]);
	*cmd_w = cp[1];
	*rep_r = rp[0];
	pfd = pidfd_open(pid, 0);
	build(&q, pfd, mode);
	e = assign(afd, &q, ns);
	close(pfd);
	if (e) {
		fail("assigning the container: %s", ename(e));
		return pid;
	}
	if (write(cp[1], "x", 1) != 1 || read_line(rp[0], line, sizeof(line), 30000) ||
	    view_of(pid, &v) || v.id != *ns)
		fail("the container does not run in ns %llu: '%s'",
		     (unsigned long long)*ns, line);
	return pid;
}

/* An entrant: moves itself into @cg (0 on success, or the errno), then on
 * "go" execs "--report 1". */
static pid_t entrant(const char *cg, int *rep_r, int it, uint64_t d)
{
	char procs[128];
	int rp[2], cp[2];
	pid_t pid;

	if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
		return -1;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	pid = fork();
	if (!pid) {
		int e;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_fds(rp, cp);
		e = write_str(procs, "0");
		__atomic_add_fetch(&shm->ready, 1, __ATOMIC_SEQ_CST);
		if (e) {
			dprintf(3, "J %d\n", e);
			_exit(0);
		}
		wait_go(it);
		spin_ns(d);
		exec_report();
	}
	close(rp[1]);
	close(cp[0]);
	close(cp[1]);
	*rep_r = rp[0];
	return pid;
}

static void race_cgroup_rmdir(int iters)
{
	long base = read_count();
	int it, adopted = 0, none = 0, nojoin = 0, removed = 0;
	char cg[80], line[256], pidstr[16];

	for (it = 1; it <= iters; it++) {
		uint8_t mode[NSLOT];
		uint64_t ns = 0;
		int cw, cr, er, k;
		pid_t ctr, en, mover, remover;
		struct nsview v;

		snprintf(cg, sizeof(cg), CGROOT "/lsmns-race-%d", it);
		if (mkdir(cg, 0755)) {
			fail("mkdir %s: %s", cg, strerror(errno));
			break;
		}
		random_modes(mode);
		ctr = container(cg, mode, &ns, &cw, &cr);
		if (ctr < 0)
			break;
		/* The container leaves (moved by its parent); the binding stays. */
		snprintf(pidstr, sizeof(pidstr), "%d", (int)ctr);
		write_str(CGROOT "/cgroup.procs", pidstr);
		shm->ready = 0;
		en = entrant(cg, &er, it, logrand(100, exec_ns));
		while (!shm->ready)
			;
		/* Another task moves the entrant out, a third removes the cgroup. */
		mover = fork();
		if (!mover) {
			char s[16];

			snprintf(s, sizeof(s), "%d", (int)en);
			wait_go(it);
			spin_ns(logrand(100, exec_ns));
			write_str(CGROOT "/cgroup.procs", s);
			_exit(0);
		}
		remover = fork();
		if (!remover) {
			wait_go(it);
			for (k = 0; k < 20000; k++)
				if (!rmdir(cg) || errno == ENOENT)
					_exit(0);
			_exit(1);
		}
		shm->go = it;
		if (read_line(er, line, sizeof(line), 30000)) {
			fail("iteration %d: the entrant did not report", it);
		} else if (line[0] == 'J') {
			nojoin++;
		} else if (line[0] != 'V') {
			fail("iteration %d: the entrant: '%s'", it, line);
		} else {
			parse_view(line + 2, &v);
			if (v.id == ns)
				adopted++;
			else if (v.ok && !v.id)
				none++;
			else
				fail("iteration %d: the entrant runs in '%s', want ns %llu or none",
				     it, line + 2, (unsigned long long)ns);
		}
		close(er);
		kill(en, SIGKILL);
		waitpid(en, NULL, 0);
		waitpid(mover, NULL, 0);
		waitpid(remover, &k, 0);
		if (WIFEXITED(k) && !WEXITSTATUS(k))
			removed++;
		rmdir(cg);
		close(cw);
		close(cr);
		kill(ctr, SIGKILL);
		waitpid(ctr, NULL, 0);
	}
	result("cgroup-rmdir", base,
	       "%d iterations: the entrant adopted %d, ran in no namespace %d; its cgroup was removed under it %d times",
	       iters, adopted, none, removed);
	(void)nojoin;
}


/* ---- an agent interrupted while the target's exec holds it up ---- */

static void on_alarm(int sig)
{
	(void)sig;
}

static volatile pid_t eintr_tid;

static void *eintr_thread(void *arg)
{
	(void)arg;
	eintr_tid = gettid();
	for (;;)
		pause();
	return NULL;
}

/*
 * The target's leader execs while its other thread is traced by us: the
 * exec kills that thread and, holding cred_guard_mutex, waits until we
 * reap it (the classic ptrace and exec wait).  An agent's write meanwhile
 * waits for the mutex, interruptibly: a signal ends it with EINTR, and
 * nothing is installed (the exec, once we reap the thread, and the next
 * one run in no namespace).
 */
static void race_eintr(int iters)
{
	static struct lsmns_req q;
	struct sigaction sa = { .sa_handler = on_alarm };
	long base = read_count();
	int it, eintr = 0;
	char line[256];

	for (it = 1; it <= iters; it++) {
		int rp[2], cp[2], st, k, pfd;
		uint8_t mode[NSLOT];
		pid_t pid, agent;
		pid_t tid;
		struct nsview v;

		if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
			break;
		shm->ready = 0;
		shm->err[0] = -1;
		pid = fork();
		if (!pid) {
			pthread_t t;
			char c;

			child_fds(rp, cp);
			if (pthread_create(&t, NULL, eintr_thread, NULL))
				_exit(1);
			while (!eintr_tid)
				;
			shm->id[0] = eintr_tid;
			shm->ready = 1;
			if (read(4, &c, 1) != 1)
				_exit(0);
			exec_report();
		}
		close(rp[1]);
		close(cp[0]);
		while (!shm->ready)
			;
		tid = (pid_t)shm->id[0];
		if (ptrace(PTRACE_SEIZE, tid, 0, 0)) {
			fail("iteration %d: PTRACE_SEIZE of the target's thread: %s",
			     it, strerror(errno));
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(rp[0]);
			close(cp[1]);
			break;
		}
		/*
		 * The exec: it takes cred_guard_mutex, kills the traced thread
		 * and waits for us to reap it; once the thread is dead (seen
		 * without reaping it) the mutex is held.
		 */
		if (write(cp[1], "x", 1) != 1)
			fail("iteration %d: the target is gone", it);
		{
			siginfo_t si;

			if (waitid(P_PID, tid, &si, WEXITED | WNOWAIT | __WALL))
				fail("iteration %d: waiting for the traced thread: %s",
				     it, strerror(errno));
		}
		agent = fork();
		if (!agent) {
			uint64_t id;

			sigaction(SIGALRM, &sa, NULL);
			pfd = pidfd_open(pid, 0);
			random_modes(mode);
			build(&q, pfd, mode);
			shm->ready = 2;
			shm->err[0] = assign(afd, &q, &id);
			shm->ready = 3;
			_exit(0);
		}
		while (shm->ready < 2)
			;
		/* Signal it until its write returns (the first may come early). */
		for (k = 0; k < 3000 && shm->ready != 3; k++) {
			msleep(k < 5 ? 2 : 10);
			kill(agent, SIGALRM);
		}
		waitpid(agent, NULL, 0);
		if (shm->err[0] == EINTR)
			eintr++;
		else
			fail("iteration %d: an agent signalled while the target's exec holds cred_guard_mutex: %s, want EINTR",
			     it, ename(shm->err[0]));
		/* Reap the killed thread: the exec goes on. */
		if (waitpid(tid, &st, __WALL) != tid)
			fail("iteration %d: reaping the traced thread: %s", it, strerror(errno));
		if (read_line(rp[0], line, sizeof(line), 30000) || line[0] != 'V') {
			fail("iteration %d: the target's exec did not finish ('%s')", it, line);
		} else {
			parse_view(line + 2, &v);
			if (!v.ok || v.id)
				fail("iteration %d: after an interrupted assignment the exec runs in '%s'",
				     it, line + 2);
			else if (write(cp[1], "x", 1) != 1 ||
				 read_line(rp[0], line, sizeof(line), 30000) ||
				 (parse_view(line + 2, &v), !v.ok || v.id))
				fail("iteration %d: after an interrupted assignment the next exec runs in '%s'",
				     it, line + 2);
		}
		close(rp[0]);
		close(cp[1]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	result("eintr", base,
	       "%d iterations: EINTR %d, and nothing installed", iters, eintr);
}

static void race_last_exit(int iters)
{
	long base = read_count();
	int it, adopted = 0, none = 0;
	char cg[80], line[256];

	for (it = 1; it <= iters; it++) {
		uint8_t mode[NSLOT];
		uint64_t ns = 0;
		int cw, cr, er;
		pid_t ctr, en;
		struct nsview v;

		snprintf(cg, sizeof(cg), CGROOT "/lsmns-race-last-%d", it);
		if (mkdir(cg, 0755)) {
			fail("mkdir %s: %s", cg, strerror(errno));
			break;
		}
		random_modes(mode);
		ctr = container(cg, mode, &ns, &cw, &cr);
		if (ctr < 0)
			break;
		shm->ready = 0;
		/* up to several RCU grace periods after the kill */
		en = entrant(cg, &er, it, logrand(1000, 200000000));
		while (!shm->ready)
			;
		shm->go = it;
		/* The namespace's last task goes while the entrant execs. */
		kill(ctr, SIGKILL);
		waitpid(ctr, NULL, 0);
		if (read_line(er, line, sizeof(line), 30000) || line[0] != 'V') {
			fail("iteration %d: the entrant: '%s'", it, line);
		} else {
			parse_view(line + 2, &v);
			if (v.id == ns)
				adopted++;
			else if (v.ok && !v.id)
				none++;
			else
				fail("iteration %d: the entrant runs in '%s', want ns %llu or none",
				     it, line + 2, (unsigned long long)ns);
		}
		close(er);
		close(cw);
		close(cr);
		kill(en, SIGKILL);
		waitpid(en, NULL, 0);
		if (rmdir(cg))
			fail("iteration %d: rmdir %s: %s", it, cg, strerror(errno));
	}
	result("last-exit", base,
	       "%d iterations: the entrant adopted the namespace %d, none (it was gone) %d",
	       iters, adopted, none);
}

/* ---- race: pid reuse under a pidfd ---- */

static void race_pid_reuse(int iters)
{
	static struct lsmns_req q;
	long base = read_count();
	char line[256];
	int it, reused = 0, tries_total = 0, fresh = 0, last_err = 0;

	for (it = 1; it <= iters; it++) {
		uint8_t mode[NSLOT], m2[NSLOT];
		uint64_t id, id2 = 0;
		int pfd, pfd2, e, k, rp[2], cp[2], with_fresh = rn(&rng, 2);
		pid_t old, pid = -1;
		struct nsview v;

		old = fork();
		if (!old)
			_exit(0);
		pfd = pidfd_open(old, 0);
		waitpid(old, NULL, 0);
		/*
		 * The next child gets the reaped child's pid: clone3() with
		 * set_tid (checkpoint/restore's way); tried a few times, since
		 * another task can hold it for a while.
		 */
		for (k = 0; k < 20; k++) {
			pid_t want = old;
			struct clone_args ca = {
				.exit_signal = SIGCHLD,
				.set_tid = (uint64_t)(uintptr_t)&want,
				.set_tid_size = 1,
			};

			if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
				break;
			pid = syscall(SYS_clone3, &ca, sizeof(ca));
			if (pid < 0) {
				last_err = errno;
				close(rp[0]);
				close(rp[1]);
				close(cp[0]);
				close(cp[1]);
				msleep(1);
				continue;
			}
			if (!pid) {
				char c;

				child_fds(rp, cp);
				if (read(4, &c, 1) != 1)
					_exit(0);
				exec_report();
			}
			close(rp[1]);
			close(cp[0]);
			if (pid == old)
				break;
			close(cp[1]);
			close(rp[0]);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		tries_total += k + 1;
		if (pid != old) {
			close(pfd);
			continue;
		}
		reused++;
		/* Half the time the new child has an assignment of its own. */
		random_modes(m2);
		if (with_fresh) {
			pfd2 = pidfd_open(pid, 0);
			build(&q, pfd2, m2);
			if ((e = assign(afd, &q, &id2)))
				fail("iteration %d: assigning the new child: %s", it, ename(e));
			close(pfd2);
			fresh++;
		}
		random_modes(mode);
		build(&q, pfd, mode);
		e = assign(afd, &q, &id);
		if (e != ESRCH)
			fail("iteration %d: the pidfd of a reaped child whose pid %d is now another's: %s, want ESRCH",
			     it, (int)old, ename(e));
		if (write(cp[1], "x", 1) != 1 || read_line(rp[0], line, sizeof(line), 30000) ||
		    line[0] != 'V') {
			fail("iteration %d: the new child did not report", it);
		} else {
			parse_view(line + 2, &v);
			if (!v.ok || v.id != id2)
				fail("iteration %d: the new child with the reused pid runs in '%s', want %s %llu",
				     it, line + 2, id2 ? "its own namespace" : "none, id",
				     (unsigned long long)id2);
		}
		close(cp[1]);
		close(rp[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(pfd);
	}
	if (reused < iters / 2)
		fail("the pid was reused in only %d of %d iterations (clone3 with set_tid: %s)",
		     reused, iters, strerror(last_err));
	result("pid-reuse", base,
	       "%d iterations, the pid reused in %d (%d forks; %d new children with an assignment of their own): ESRCH, and the new child in its own namespace or none",
	       iters, reused, tries_total, fresh);
}

/* ---- soak: container cycles ---- */

/* Modes no wider than @cur (a nested namespace), at least one active. */
static void narrower_modes(const uint8_t cur[NSLOT], uint8_t mode[NSLOT])
{
	int s, act = 0, tries;

	for (tries = 0; tries < 20; tries++) {
		act = 0;
		for (s = 0; s < NSLOT; s++) {
			mode[s] = 0;
			if (!enabled[s])
				continue;
			mode[s] = cur[s];
			if (mode[s] < LSMNS_MODE_RELEASED && rn(&rng, 3) == 0)
				mode[s]++;
			if (mode[s] == LSMNS_MODE_RELEASED && (!s || !releasable[s]))
				mode[s] = cur[s] == LSMNS_MODE_RELEASED ?
					  LSMNS_MODE_RELEASED : LSMNS_MODE_HIDDEN;
			act |= mode[s] == LSMNS_MODE_ACTIVE;
		}
		if (act)
			return;
	}
	memcpy(mode, cur, NSLOT);
}

static int modes_match(const struct nsview *v, const uint8_t mode[NSLOT])
{
	int s;

	for (s = 0; s < NSLOT; s++)
		if (enabled[s] && v->mode[s] != mode[s])
			return 0;
	return 1;
}

/*
 * One container: a task in its own cgroup, assigned random modes and
 * entered at its exec; 1-3 later entrants adopt its namespace; now and
 * then a narrower namespace for its task, which entrants then get; then
 * everything exits and the cgroup goes.
 */
static void race_soak(int iters)
{
	static struct lsmns_req q;
	long base = read_count(), c;
	int it, entrants = 0, nested = 0;
	char cg[80], line[256];

	for (it = 1; it <= iters; it++) {
		uint8_t mode[NSLOT], m2[NSLOT];
		uint64_t ns = 0, ns2;
		int cw, cr, er, k, n, e, pfd;
		pid_t ctr, en;
		struct nsview v;

		snprintf(cg, sizeof(cg), CGROOT "/lsmns-soak-%d", it);
		if (mkdir(cg, 0755)) {
			fail("cycle %d: mkdir %s: %s", it, cg, strerror(errno));
			break;
		}
		random_modes(mode);
		ctr = container(cg, mode, &ns, &cw, &cr);
		if (ctr < 0) {
			fail("cycle %d: no container", it);
			break;
		}
		if (view_of(ctr, &v) || v.id != ns || !modes_match(&v, mode))
			fail("cycle %d: the container's namespace is not ns %llu with modes %u,%u,%u",
			     it, (unsigned long long)ns, mode[0], mode[1], mode[2]);
		if (rn(&rng, 10) < 3) {
			/* A narrower namespace for the container's task. */
			narrower_modes(mode, m2);
			pfd = pidfd_open(ctr, 0);
			build(&q, pfd, m2);
			e = assign(afd, &q, &ns2);
			close(pfd);
			if (e) {
				fail("cycle %d: a narrower assignment: %s", it, ename(e));
			} else if (write(cw, "x", 1) != 1 ||
				   read_line(cr, line, sizeof(line), 60000) ||
				   view_of(ctr, &v) || v.id != ns2 || v.parent != ns ||
				   !modes_match(&v, m2)) {
				fail("cycle %d: after its exec, the container is not in ns %llu (parent %llu): '%s'",
				     it, (unsigned long long)ns2, (unsigned long long)ns, line);
			} else {
				nested++;
				ns = ns2;
			}
		}
		n = 1 + rn(&rng, 3);
		for (k = 0; k < n; k++) {
			shm->ready = 0;
			en = entrant(cg, &er, it, 0);
			while (!shm->ready)
				;
			shm->go = it;
			if (read_line(er, line, sizeof(line), 60000) || line[0] != 'V') {
				fail("cycle %d: entrant %d: '%s'", it, k, line);
			} else {
				parse_view(line + 2, &v);
				if (v.id != ns)
					fail("cycle %d: entrant %d runs in '%s', want ns %llu",
					     it, k, line + 2, (unsigned long long)ns);
			}
			entrants++;
			close(er);
			kill(en, SIGKILL);
			waitpid(en, NULL, 0);
		}
		close(cw);
		close(cr);
		kill(ctr, SIGKILL);
		waitpid(ctr, NULL, 0);
		if (rmdir(cg))
			fail("cycle %d: rmdir %s: %s", it, cg, strerror(errno));
		if (it % 100 == 0 && (c = settle_count(base)) != base)
			fail("after cycle %d: lsmns/count %ld, want %ld", it, c, base);
	}
	result("soak", base,
	       "%d container cycles: %d later entrants, %d nested namespaces, each in the namespace it should be",
	       iters, entrants, nested);
}

/* Is @name one of the comma-separated @list? */
static int named(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *race;
	int iters = 200, opt, all;
	uint64_t seed = 0;

	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		snprintf(self_exe, sizeof(self_exe), "%s", argv[0]);
	if (argc >= 2 && !strcmp(argv[1], "--report"))
		return mode_report();
	if (argc < 2) {
		fprintf(stderr, "usage: lsmns-race RACE[,RACE]... [-n ITER] [-s SEED]; RACE: exit two-agents exec thread-exec cgroup-rmdir last-exit pid-reuse eintr all soak\n");
		return 2;
	}
	race = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			iters = atoi(optarg);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (!seed)
		seed = now_ns() ^ ((uint64_t)getpid() << 32);
	rng.s = seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	probe_lsms();
	printf("# lsmns-race %s: seed=%#llx iterations=%d\n", race,
	       (unsigned long long)seed, iters);
	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	afd = open(ASSIGN, O_RDWR | O_CLOEXEC);
	if (shm == MAP_FAILED || afd < 0) {
		printf("Bail out! %s: %s\n", ASSIGN, strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	calibrate();
	printf("# a write takes about %llu us, a fork and exec %llu us\n",
	       (unsigned long long)write_ns / 1000, (unsigned long long)exec_ns / 1000);
	all = !strcmp(race, "all");
	race_t0 = now_ns();
	if (all || named(race, "exit"))
		race_exit(iters);
	if (all || named(race, "two-agents"))
		race_two(iters);
	if (all || named(race, "exec"))
		race_exec(iters, 0);
	if (all || named(race, "thread-exec"))
		race_exec(iters, 1);
	if (all || named(race, "cgroup-rmdir"))
		race_cgroup_rmdir(iters);
	if (all || named(race, "last-exit"))
		race_last_exit(iters);
	if (all || named(race, "pid-reuse"))
		race_pid_reuse(iters);
	if (all || named(race, "eintr"))
		race_eintr(iters);
	if (named(race, "soak"))
		race_soak(iters);
	if (!tap_n) {
		printf("Bail out! unknown race %s\n", race);
		return 2;
	}
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
