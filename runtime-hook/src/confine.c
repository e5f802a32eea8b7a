// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Self-confinement once every input is open: the BPF program libseccomp
 * made from the allowlist in filter_gen.c at build time (what it allows and
 * why is said there), handed to the kernel as it is.
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include "hook_filter.h"
#include "lsmns_hook.h"

int confine(struct hook_err *err)
{
	struct sock_fprog prog = {
		.len = sizeof(hook_filter) / sizeof(hook_filter[0]),
		.filter = (struct sock_filter *)hook_filter,
	};

	/* what seccomp_load() does with libseccomp's defaults */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return hook_fail(err, HOOK_ERR_INTERNAL, "seccomp_load: %s",
				 strerror(errno));
	return 0;
}
