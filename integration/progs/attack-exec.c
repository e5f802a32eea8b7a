// SPDX-License-Identifier: GPL-2.0
/*
 * attack-exec: a target for the LSM namespace hardening tests of class 5
 * (integration/tests/attack-exec.sh): an assigned transition must be
 * checked like an ordinary exec transition, under a tracer, under
 * no_new_privs and with state shared with another task.
 *
 *   attack-exec [OPTION]... DIR -- PROG [ARG]...
 *
 * Forks the target.  The target, optionally traced by its parent
 * (PTRACE_TRACEME), under no_new_privs, or sharing its fs_struct with a
 * sibling, waits until the file DIR/go exists and then execs PROG.  The
 * parent prints "target=PID" on stdout once the target waits (and the
 * tracer is in place), so an agent can assign the target in between;
 * then it reaps the target, continuing it from every ptrace stop.
 *
 *   --trace             the parent traces the target (PTRACE_TRACEME)
 *   --tracer-attr F V   with --trace: once tracing, the parent writes V to
 *                       the attribute file F (e.g. /proc/self/attr/selinux/exec)
 *                       and re-execs itself, so the tracer runs with a
 *                       context it could not have attached with
 *   --tracer-exe PATH   with --trace: once tracing (and after the writes),
 *                       the parent re-execs PATH, a copy of attack-exec
 *                       (e.g. one an AppArmor profile attaches to by
 *                       path); the default with --tracer-attr is
 *                       /proc/self/exe
 *   --target-attr F V   the target writes V to the attribute file F once
 *                       DIR/go exists, just before its execve (after the
 *                       agent's assignment; e.g. an AppArmor
 *                       "changeprofile P" to /proc/self/attr/apparmor/current)
 *   --nnp               the target sets no_new_privs before it waits
 *   --share-fs          the target starts a sibling with CLONE_FS that is
 *                       still alive at the execve (LSM_UNSAFE_SHARE)
 *
 * Exit: PROG's; 126 if the target's execve failed, after the line
 * "execve=ERRNO_NAME" on stdout (125 and "attr=ERRNO_NAME" if its
 * --target-attr write failed); 124 if DIR/go never came (60 s); 1 on a
 * setup error, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ATTRS 4

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case ENOEXEC: return "ENOEXEC";
	}
	return "E?";
}

static void pause_briefly(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Write @value to the attribute file @file; on failure errno says why. */
static int write_attr(const char *file, const char *value)
{
	ssize_t n;
	int fd = open(file, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		fprintf(stderr, "attack-exec: open %s: %s\n", file, strerror(err));
		errno = err;
		return -1;
	}
	n = write(fd, value, strlen(value));
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n != (ssize_t)strlen(value)) {
		fprintf(stderr, "attack-exec: write '%s' to %s: %s\n", value, file,
			n < 0 ? strerror(err) : "short write");
		errno = err;
		return -1;
	}
	return 0;
}

/* The CLONE_FS sibling: lives until the target's process ends. */
static int sibling(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;)
		pause();
	return 0;
}

/* The target: set up, wait for @go, exec @prog. */
static void target(int trace, int nnp, int share_fs, const char *go,
		   const char *tattr_file, const char *tattr_value, char **prog)
{
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (trace) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
			fprintf(stderr, "attack-exec: PTRACE_TRACEME: %s\n", strerror(errno));
			_exit(1);
		}
		raise(SIGSTOP);
	}
	if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		fprintf(stderr, "attack-exec: PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
		_exit(1);
	}
	if (share_fs) {
		/* A plain clone(2): a new process sharing our fs_struct. */
		pid_t s = syscall(SYS_clone, CLONE_FS | SIGCHLD, NULL, NULL, NULL, 0);

		if (s < 0) {
			fprintf(stderr, "attack-exec: clone(CLONE_FS): %s\n", strerror(errno));
			_exit(1);
		}
		if (!s)
			_exit(sibling());
	}
	for (i = 0; access(go, F_OK); i++) {
		if (i > 3000)
			_exit(124);
		pause_briefly();
	}
	if (tattr_file && write_attr(tattr_file, tattr_value)) {
		printf("attr=%s\n", errname(errno));
		fflush(stdout);
		_exit(125);
	}
	execvp(prog[0], prog);
	printf("execve=%s\n", errname(errno));
	fflush(stdout);
	_exit(126);
}

/* Report the target, then reap it, continuing it from ptrace stops. */
static int follow(pid_t pid)
{
	int st;

	printf("target=%d\n", (int)pid);
	fflush(stdout);
	for (;;) {
		if (waitpid(pid, &st, __WALL) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "attack-exec: waitpid: %s\n", strerror(errno));
			return 1;
		}
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st))
			return 128 + WTERMSIG(st);
		if (WIFSTOPPED(st)) {
			int sig = WSTOPSIG(st);

			/* SIGTRAP: the stop after a traced execve. */
			if (sig == SIGTRAP || sig == SIGSTOP)
				sig = 0;
			ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
		}
	}
}

static int usage(void)
{
	fputs("usage: attack-exec [--trace [--tracer-attr FILE VALUE]... [--tracer-exe PATH]]\n"
	      "                   [--target-attr FILE VALUE] [--nnp] [--share-fs] DIR -- PROG [ARG]...\n"
	      "       attack-exec --follow PID\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *attr_file[MAX_ATTRS], *attr_value[MAX_ATTRS];
	const char *tracer_exe = NULL, *tattr_file = NULL, *tattr_value = NULL;
	int trace = 0, nnp = 0, share_fs = 0, nattr = 0, i = 1, st;
	char go[4096], spid[16];
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--follow"))
		return follow(atoi(argv[2]));
	for (; i < argc && !strncmp(argv[i], "--", 2) && argv[i][2]; i++) {
		if (!strcmp(argv[i], "--trace"))
			trace = 1;
		else if (!strcmp(argv[i], "--nnp"))
			nnp = 1;
		else if (!strcmp(argv[i], "--share-fs"))
			share_fs = 1;
		else if (!strcmp(argv[i], "--tracer-attr") && i + 2 < argc && nattr < MAX_ATTRS) {
			attr_file[nattr] = argv[++i];
			attr_value[nattr++] = argv[++i];
		} else if (!strcmp(argv[i], "--target-attr") && i + 2 < argc) {
			tattr_file = argv[++i];
			tattr_value = argv[++i];
		} else if (!strcmp(argv[i], "--tracer-exe") && i + 1 < argc)
			tracer_exe = argv[++i];
		else
			return usage();
	}
	if (i + 2 >= argc || strcmp(argv[i + 1], "--") || ((nattr || tracer_exe) && !trace))
		return usage();
	if (nattr && !tracer_exe)
		tracer_exe = "/proc/self/exe";
	snprintf(go, sizeof(go), "%s/go", argv[i]);

	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "attack-exec: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid)
		target(trace, nnp, share_fs, go, tattr_file, tattr_value, argv + i + 2);
	if (trace) {
		/* The target stops itself once it is traced. */
		if (waitpid(pid, &st, __WALL) < 0 || !WIFSTOPPED(st)) {
			fprintf(stderr, "attack-exec: the target did not stop for its tracer\n");
			return 1;
		}
		if (ptrace(PTRACE_CONT, pid, NULL, NULL)) {
			fprintf(stderr, "attack-exec: PTRACE_CONT: %s\n", strerror(errno));
			return 1;
		}
	}
	if (!tracer_exe)
		return follow(pid);
	for (i = 0; i < nattr; i++)
		if (write_attr(attr_file[i], attr_value[i])) {
			kill(pid, SIGKILL);
			return 1;
		}
	snprintf(spid, sizeof(spid), "%d", (int)pid);
	execl(tracer_exe, "attack-exec", "--follow", spid, (char *)NULL);
	fprintf(stderr, "attack-exec: execve %s: %s\n", tracer_exe, strerror(errno));
	kill(pid, SIGKILL);
	return 1;
}
