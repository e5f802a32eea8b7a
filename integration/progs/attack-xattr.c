// SPDX-License-Identifier: GPL-2.0
/*
 * attack-xattr: set, remove or show one extended attribute and say what
 * the kernel answered, for the attack tests (integration/tests/attack-*.sh).
 * busybox has no setfattr; lsmns-label cannot remove and prints the error
 * as prose, while a test wants to compare the errno.
 *
 *   attack-xattr set PATH NAME VALUE   lsetxattr (VALUE without its NUL)
 *   attack-xattr remove PATH NAME      lremovexattr
 *   attack-xattr get PATH NAME         lgetxattr: print the value (a
 *                                      trailing NUL stripped)
 *
 * Prints "ok" (set, remove) or the value (get) and exits 0; on failure
 * prints the errno's symbolic name alone (EPERM, EACCES, ENODATA, ...) on
 * stdout and exits 1.
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
	case EINVAL: return "EINVAL";
	case ENODATA: return "ENODATA";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ERANGE: return "ERANGE";
	case EEXIST: return "EEXIST";
	default: return "E?";
	}
}

static int fail(void)
{
	printf("%s\n", errname(errno));
	return 1;
}

int main(int argc, char **argv)
{
	char buf[4097];
	ssize_t n;

	if (argc == 5 && !strcmp(argv[1], "set")) {
		if (lsetxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0))
			return fail();
		puts("ok");
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "remove")) {
		if (lremovexattr(argv[2], argv[3]))
			return fail();
		puts("ok");
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "get")) {
		n = lgetxattr(argv[2], argv[3], buf, sizeof(buf) - 1);
		if (n < 0)
			return fail();
		printf("%.*s\n", (int)strnlen(buf, n), buf);
		return 0;
	}
	fputs("usage: attack-xattr set PATH NAME VALUE | remove PATH NAME | get PATH NAME\n",
	      stderr);
	return 2;
}
