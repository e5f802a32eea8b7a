// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel side: pin the target with a pidfd, open the assign file and
 * send the request in one write().
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

#define CAP_MAC_ADMIN_BIT 33

static const char *const priv_facts_files[PRIV_FACTS_FILES] = {
	"/proc/self/status", "/proc/self/uid_map", "/proc/self/attr/lsmns",
};

void priv_facts_open(int fds[PRIV_FACTS_FILES])
{
	int i;

	for (i = 0; i < PRIV_FACTS_FILES; i++)
		fds[i] = open(priv_facts_files[i], O_RDONLY | O_CLOEXEC | O_NOCTTY);
}

void priv_facts_close(int fds[PRIV_FACTS_FILES])
{
	int i;

	for (i = 0; i < PRIV_FACTS_FILES; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/* A small /proc file, opened before, into @buf; false if it cannot be read. */
static bool read_small(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0)
		return false;
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

void priv_facts_from(const int fds[PRIV_FACTS_FILES], struct priv_facts *f)
{
	char buf[4096], *p;
	unsigned long long a, b, c;

	f->cap_mac_admin = f->init_userns = -1;
	f->lsmns_id = -1;
	if (read_small(fds[0], buf, sizeof(buf)) &&
	    (p = strstr(buf, "\nCapEff:")) &&
	    sscanf(p + 8, "%llx", &a) == 1)
		f->cap_mac_admin = !!(a & (1ULL << CAP_MAC_ADMIN_BIT));
	if (read_small(fds[1], buf, sizeof(buf)) &&
	    sscanf(buf, "%llu %llu %llu", &a, &b, &c) == 3)
		f->init_userns = a == 0 && b == 0 && c == 4294967295ULL;
	if (read_small(fds[2], buf, sizeof(buf)) &&
	    (p = strstr(buf, "id=")) && (p == buf || p[-1] == ' '))
		f->lsmns_id = strtoll(p + 3, NULL, 10);
}

void priv_facts_read(struct priv_facts *f)
{
	int fds[PRIV_FACTS_FILES];

	priv_facts_open(fds);
	priv_facts_from(fds, f);
	priv_facts_close(fds);
}

void priv_explain_eperm(const struct priv_facts *f, char *buf, size_t size)
{
	if (f->lsmns_id > 0)
		snprintf(buf, size,
			 "the hook runs inside LSM namespace %lld, and only a process outside every LSM namespace may assign: run the runtime (and so the hook) on the host, not in a container",
			 f->lsmns_id);
	else if (f->init_userns == 0)
		snprintf(buf, size,
			 "the hook runs in a user namespace (rootless podman, or a runtime inside a container) and CAP_MAC_ADMIN counts only in the initial one: run the runtime as real root on the host");
	else if (f->cap_mac_admin == 0)
		snprintf(buf, size,
			 "the hook has no CAP_MAC_ADMIN in its effective set: run the runtime as root with its full capability set (the hook inherits the runtime's capabilities)");
	else if (f->cap_mac_admin == 1)
		snprintf(buf, size,
			 "the hook holds CAP_MAC_ADMIN, so an LSM refused the capability check: SELinux needs \"allow <the hook's domain> self:capability2 mac_admin\", an AppArmor profile on the runtime needs \"capability mac_admin\"; the AVC or apparmor=\"DENIED\" record in the audit log names it");
	else
		snprintf(buf, size,
			 "the hook lacks CAP_MAC_ADMIN in the initial user namespace, runs inside an LSM namespace, or an LSM refused the capability (/proc/self could not be read to tell which)");
}

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
	struct priv_facts facts;
	int f = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);

	/*
	 * Why the kernel would say EPERM is needed only when it does, but the
	 * files that tell must be opened before confine(): opened now, read
	 * (what costs) only on an EPERM.
	 */
	priv_facts_open(af->facts_fd);
	af->facts_open = true;
	if (f < 0) {
		int e = errno;
		const char *why = "";

		priv_facts_from(af->facts_fd, &facts);
		priv_explain_eperm(&facts, af->eperm_why, sizeof(af->eperm_why));

		if (e == ENOENT)
			why = ": the kernel has no LSM namespaces (boot the lsmns kernel) or securityfs is not mounted (mount -t securityfs securityfs /sys/kernel/security)";
		else if (e == EPERM)
			why = af->eperm_why;
		else if (e == EACCES)
			why = ": file permissions: the assign file is root's, run the runtime as root";
		return hook_fail(err, HOOK_ERR_KERNEL,
				 "cannot open assign file %.256s: %s%s%s", path,
				 strerror(e), e == EPERM ? ": " : "", why);
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

int kernel_send(struct assign_file *af, const void *buf, size_t len,
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
	if (e == EPERM && !released_entry && af->facts_open) {
		struct priv_facts facts;

		priv_facts_from(af->facts_fd, &facts);
		priv_explain_eperm(&facts, af->eperm_why, sizeof(af->eperm_why));
	}
	return hook_fail(err, HOOK_ERR_KERNEL,
			 "kernel refused the assignment%s: %s (errno %d): %s",
			 where, strerror(e), e,
			 e == EPERM && !released_entry && af->eperm_why[0] ?
				af->eperm_why : kernel_errno_hint(e, released_entry));
}

void kernel_close_assign(struct assign_file *af)
{
	if (af->facts_open)
		priv_facts_close(af->facts_fd);
	af->facts_open = false;
	if (af->fd >= 0)
		close(af->fd);
	af->fd = -1;
}

int kernel_result_ns(const struct assign_file *af, unsigned long long *ns_id)
{
	struct lsmns_assign_result res;

	if (af->regular || read_result(af->fd, &res) || res.error)
		return -1;
	*ns_id = res.ns_id;
	return 0;
}
