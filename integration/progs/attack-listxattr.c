// SPDX-License-Identifier: GPL-2.0
/*
 * attack-listxattr: list the extended attribute names of a file, for the
 * attack tests (integration/tests/attack-hidden.sh); busybox has no
 * getfattr/attr, and attack-xattr reads one attribute by name.
 *
 *   attack-listxattr PATH    llistxattr: the names, one per line
 *
 * Exits 0; on failure prints the errno's symbolic name alone (EACCES,
 * ENOENT, EOPNOTSUPP, ...) on stdout and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ERANGE: return "ERANGE";
	default: return "E?";
	}
}

int main(int argc, char **argv)
{
	static char buf[65536];
	ssize_t n, i;

	if (argc != 2) {
		fputs("usage: attack-listxattr PATH\n", stderr);
		return 2;
	}
	n = llistxattr(argv[1], buf, sizeof(buf));
	if (n < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	for (i = 0; i < n; i += strlen(buf + i) + 1)
		printf("%s\n", buf + i);
	return 0;
}
