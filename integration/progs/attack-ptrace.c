// SPDX-License-Identifier: GPL-2.0
/*
 * attack-ptrace: may this task take hold of another one
 * (tests/attack-reach-host.sh)?  A task inside an LSM namespace that can
 * ptrace a host task can make it do anything the host task may, outside
 * the namespace.
 *
 *   attack-ptrace seize PID
 *	PTRACE_SEIZE the task PID, then detach.  Prints "seize=ok" or
 *	"seize=ERRNO".
 *   attack-ptrace getfd PID FD
 *	pidfd_getfd(pidfd_open(PID), FD).  Prints "getfd=ok" or
 *	"getfd=ERRNO".
 *
 * Exit: 0 when the line was printed, 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EINVAL: return "EINVAL";
	default: return "E?";
	}
}

int main(int argc, char **argv)
{
	pid_t pid;
	int pidfd;

	if (argc == 3 && !strcmp(argv[1], "seize")) {
		pid = atoi(argv[2]);
		if (ptrace(PTRACE_SEIZE, pid, NULL, NULL)) {
			printf("seize=%s\n", errname(errno));
			return 0;
		}
		printf("seize=ok\n");
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "getfd")) {
		pidfd = syscall(SYS_pidfd_open, atoi(argv[2]), 0);
		if (pidfd < 0 || syscall(SYS_pidfd_getfd, pidfd, atoi(argv[3]), 0) < 0) {
			printf("getfd=%s\n", errname(errno));
			return 0;
		}
		printf("getfd=ok\n");
		return 0;
	}
	fprintf(stderr, "usage: attack-ptrace seize PID | getfd PID FD\n");
	return 2;
}
