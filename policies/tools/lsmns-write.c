// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-write: copy standard input into FILE with a single write(2).
 *
 *   lsmns-write FILE < DATA
 *
 * Policy interfaces want one write per request: /sys/fs/selinux/load
 * rejects a policy split over several writes, smackfs load2 takes one rule
 * per write, apparmorfs .replace one profile.  busybox cat and echo give no
 * such guarantee and print no usable error, so the loader uses this.
 *
 * Exit 0 when the whole input was accepted; otherwise one line on stderr,
 * "lsmns-write: FILE: <the kernel's error>", and exit 1 (2 for usage).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUT_MAX (64u << 20) /* a binary policy is well below this */

int main(int argc, char **argv)
{
	size_t len = 0, cap = 1 << 16;
	char *buf;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fputs("usage: lsmns-write FILE < DATA\n", stderr);
		return 2;
	}
	buf = malloc(cap);
	if (!buf) {
		fputs("lsmns-write: out of memory\n", stderr);
		return 1;
	}
	for (;;) {
		if (len == cap) {
			char *bigger;

			if (cap >= INPUT_MAX) {
				fprintf(stderr, "lsmns-write: %s: input larger than %u bytes\n",
					argv[1], INPUT_MAX);
				return 1;
			}
			cap *= 2;
			bigger = realloc(buf, cap);
			if (!bigger) {
				fputs("lsmns-write: out of memory\n", stderr);
				return 1;
			}
			buf = bigger;
		}
		n = read(0, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "lsmns-write: reading input for %s: %s\n", argv[1],
				strerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "lsmns-write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	n = write(fd, buf, len);
	if (n < 0 || (size_t)n != len) {
		fprintf(stderr, "lsmns-write: %s: %s\n", argv[1],
			n < 0 ? strerror(errno) : "the kernel took only part of the input");
		return 1;
	}
	if (close(fd) != 0) {
		fprintf(stderr, "lsmns-write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
