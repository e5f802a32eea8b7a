// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel side: pin the target with a pidfd, open the assign file and
 * send the request in one write().
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lsmns_hook.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int kernel_pin(int pid, int *pidfd, struct hook_err *err)
{
	int fd;

	if (pid <= 1 || pid == getpid() || pid == getppid())
		return hook_fail(err, HOOK_ERR_TARGET,
				 "refusing target pid %d (init, the hook or its runtime)",
				 pid);
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		int e = errno;

		if (e == ESRCH)
			return hook_fail(err, HOOK_ERR_TARGET,
					 "target pid %d does not exist (container init gone?)",
					 pid);
		if (e == EINVAL)
			return hook_fail(err, HOOK_ERR_TARGET,
					 "pid %d is not a process (thread-group leader)",
					 pid);
		return hook_fail(err, HOOK_ERR_TARGET, "pidfd_open(%d): %s",
				 pid, strerror(e));
	}
	*pidfd = fd;
	return 0;
}

int kernel_open_assign(const char *path, struct assign_file *af,
		       struct hook_err *err)
{
	struct statfs sfs;
	int f = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);

	if (f < 0) {
		int e = errno;

		return hook_fail(err, HOOK_ERR_KERNEL,
				 "cannot open assign file %.256s: %s%s", path,
				 strerror(e),
				 e == ENOENT ? " (kernel without lsmns, or securityfs not mounted)"
					     : "");
	}
	af->fd = f;
	/*
	 * securityfs files are regular files too: only the filesystem tells
	 * the kernel's assign file (with a result to read back) from the
	 * plain file the tests use in its place.
	 */
	af->regular = !(fstatfs(f, &sfs) == 0 && sfs.f_type == SECURITYFS_MAGIC);
	return 0;
}

const char *kernel_errno_hint(int e, bool released_entry)
{
	if (released_entry) {
		switch (e) {
		case EPERM:
			return "the LSM is not named in the kernel's lsmns.releasable= boot parameter";
		case EACCES:
			return "the LSM's own policy does not consent to releasing it for this process";
		case EINVAL:
			return "a released LSM takes no context";
		case EOPNOTSUPP:
			return "the LSM cannot be released (it implements no consent)";
		}
	}
	switch (e) {
	case EPERM:
		return "the hook lacks CAP_MAC_ADMIN in the initial user namespace, or runs inside an LSM namespace";
	case EACCES:
		return "an LSM's policy or the ptrace access check refused the assignment";
	case ESRCH:
		return "the target process is gone";
	case EINVAL:
		return "the kernel found the request or a context invalid";
	case E2BIG:
		return "the request exceeds the kernel's bounds";
	case EBUSY:
		return "the request would widen the target's namespace or the assignment already pending on it";
	case ENOENT:
		return "an LSM in the request is not enabled on this host";
	case EOPNOTSUPP:
		return "an LSM in the request cannot be released";
	default:
		return "see lsmns-hook(8)";
	}
}

static int read_result(int fd, struct lsmns_assign_result *res)
{
	ssize_t r = pread(fd, res, sizeof(*res), 0);

	if (r < 0 && errno == ESPIPE)
		r = read(fd, res, sizeof(*res));
	if (r != (ssize_t)sizeof(*res) || res->version != LSMNS_ABI_VERSION)
		return -1;
	return 0;
}

int kernel_send(const struct assign_file *af, const void *buf, size_t len,
		const struct lsm_assignment *a, struct hook_err *err)
{
	struct lsmns_assign_result res;
	char where[160] = "";
	bool released_entry = false;
	ssize_t w;
	int e;

	do {
		w = write(af->fd, buf, len);
	} while (w < 0 && errno == EINTR);
	if (w == (ssize_t)len)
		return 0;
	if (w >= 0)
		return hook_fail(err, HOOK_ERR_KERNEL,
				 "short write to the assign file (%zd of %zu bytes)",
				 w, len);
	e = errno;
	if (!af->regular && read_result(af->fd, &res) == 0) {
		if (res.error < 0)
			e = -res.error;
		if (res.failed_index != LSMNS_NO_INDEX) {
			if (res.failed_index < a->n) {
				unsigned int i = res.failed_index;

				released_entry = a->e[i].mode == LSMNS_MODE_RELEASED;
				snprintf(where, sizeof(where),
					 " at entry %u (%s %s)", i,
					 hook_lsms[a->e[i].lsm].name,
					 hook_mode_name(a->e[i].mode));
			} else {
				snprintf(where, sizeof(where), " at entry %u",
					 res.failed_index);
			}
		}
	}
	return hook_fail(err, HOOK_ERR_KERNEL,
			 "kernel refused the assignment%s: %s (errno %d): %s",
			 where, strerror(e), e,
			 kernel_errno_hint(e, released_entry));
}

int kernel_result_ns(const struct assign_file *af, unsigned long long *ns_id)
{
	struct lsmns_assign_result res;

	if (af->regular || read_result(af->fd, &res) || res.error)
		return -1;
	*ns_id = res.ns_id;
	return 0;
}
