// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bounded file input.
 */
#include <errno.h>
#include <fcntl.h>
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
