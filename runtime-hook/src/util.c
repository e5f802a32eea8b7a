// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bounded file input.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lsmns_hook.h"

int open_regular(int dirfd, const char *path, const char *what,
		 enum hook_status status, struct hook_err *err)
{
	struct stat sb;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;

		hook_fail(err, status, "cannot open %s %.256s: %s", what, path,
			  strerror(e));
		errno = e;	/* callers may give a better message */
		return -1;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return hook_fail(err, status, "%s %.256s is not a regular file",
				 what, path);
	}
	return fd;
}

int read_bounded(int fd, size_t max, const char *what, char **buf,
		 size_t *len, enum hook_status status, struct hook_err *err)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return hook_fail(err, HOOK_ERR_INTERNAL, "out of memory");
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap > max) {
				free(b);
				return hook_fail(err, status,
						 "%s is larger than %zu bytes",
						 what, max);
			}
			cap *= 2;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				return hook_fail(err, HOOK_ERR_INTERNAL,
						 "out of memory");
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				/* a non-blocking pipe on stdin (before confine) */
				struct pollfd p = { .fd = fd, .events = POLLIN };

				if (poll(&p, 1, -1) >= 0 || errno == EINTR)
					continue;
			}
			free(b);
			return hook_fail(err, status, "cannot read %s: %s",
					 what, strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(b);
			return hook_fail(err, status,
					 "%s is larger than %zu bytes", what, max);
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int check_trusted_file(int fd, const char *what, const char *path,
		       enum hook_status status, struct hook_err *err)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0)
		return hook_fail(err, status, "cannot stat %s %.256s: %s", what,
				 path, strerror(errno));
	if (sb.st_mode & (S_IWGRP | S_IWOTH))
		return hook_fail(err, status,
				 "%s %.256s is writable by group or others: refusing to trust it",
				 what, path);
	if (sb.st_uid != 0 && sb.st_uid != geteuid())
		return hook_fail(err, status,
				 "%s %.256s is owned by uid %u, not by root or the hook's user: refusing to trust it",
				 what, path, (unsigned int)sb.st_uid);
	return 0;
}

const char *const container_cgroup_globs[] = {
	"*/libpod-*",		/* podman */
	"*/crio-*",		/* CRI-O */
	"*/cri-containerd-*",	/* containerd */
	"*/docker-*",		/* docker */
};
const size_t container_cgroup_nglobs =
	sizeof(container_cgroup_globs) / sizeof(container_cgroup_globs[0]);

bool cgroup_is_container(const char *path, const char *const *globs, size_t n)
{
	size_t i;

	/* the runtime's monitor (conmon) runs next to the container, not in it */
	if (strstr(path, "conmon"))
		return false;
	for (i = 0; i < n; i++)
		if (fnmatch(globs[i], path, 0) == 0)
			return true;
	return false;
}
