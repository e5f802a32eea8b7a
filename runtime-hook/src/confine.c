// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Self-confinement with libseccomp, once every input is open.
 *
 * After confine() the hook only reads the files it already opened, computes,
 * writes the request, and logs.  Everything else kills the process
 * (SCMP_ACT_KILL_PROCESS): a violation means a bug or an exploit, the
 * runtime sees the hook die and aborts the container, the kernel's audit log
 * records the syscall.  EPERM was rejected: a code path that carries on
 * after an unexpected EPERM is harder to reason about than one that stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <seccomp.h>

#include "lsmns_hook.h"

struct allowed_syscall {
	int nr;
	unsigned int nargs;
	struct scmp_arg_cmp arg;
};

#define ALLOW(name) { SCMP_SYS(name), 0, { 0, 0, 0, 0 } }
/* Allowed only if argument @a compares (@op, mask/value @da) true. */
#define ALLOW_IF(name, a, o, da, db) \
	{ SCMP_SYS(name), 1, { .arg = (a), .op = (o), .datum_a = (da), .datum_b = (db) } }

int confine(struct hook_err *err)
{
	const struct allowed_syscall allow[] = {
		/* the work: read inputs, write the request and the logs */
		ALLOW(read),
		ALLOW(pread64),
		ALLOW(write),
		ALLOW(writev),
		ALLOW(close),
		ALLOW(fstat),
		ALLOW_IF(newfstatat, 3, SCMP_CMP_EQ, AT_EMPTY_PATH, 0),
		ALLOW(lseek),
		/* memory (json-c), never executable */
		ALLOW(brk),
		ALLOW_IF(mmap, 2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0),
		ALLOW_IF(mprotect, 2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0),
		ALLOW(munmap),
		ALLOW(mremap),
		ALLOW(madvise),
		/* syslog(3): send on the socket opened by openlog(LOG_NDELAY);
		 * reconnecting after a syslogd restart needs socket+connect */
		ALLOW(getpid),
		ALLOW(sendto),
		ALLOW(connect),
		ALLOW_IF(socket, 0, SCMP_CMP_EQ, AF_UNIX, 0),
		ALLOW(clock_gettime),
		ALLOW(gettimeofday),
		ALLOW(getrandom),
#ifdef HOOK_SANITIZER_BUILD
		/* the ASan/UBSan runtime of the test build; never in production */
		ALLOW(sigaltstack),
		ALLOW(gettid),
#endif
		/* leaving */
		ALLOW(rt_sigreturn),
		ALLOW(exit_group),
		ALLOW(exit),
	};
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (!ctx)
		return hook_fail(err, HOOK_ERR_INTERNAL, "seccomp_init failed");
	for (i = 0; i < sizeof(allow) / sizeof(allow[0]); i++) {
		if (allow[i].nargs)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, allow[i].nr,
					      1, allow[i].arg);
		else
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, allow[i].nr, 0);
		if (rc < 0) {
			seccomp_release(ctx);
			return hook_fail(err, HOOK_ERR_INTERNAL,
					 "seccomp rule for syscall %d: %s",
					 allow[i].nr, strerror(-rc));
		}
	}
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0)
		return hook_fail(err, HOOK_ERR_INTERNAL, "seccomp_load: %s",
				 strerror(-rc));
	return 0;
}
