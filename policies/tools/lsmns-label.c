// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-label: set or show one security xattr of a file (busybox has no
 * setfattr/getfattr/chcon).
 *
 *   lsmns-label FILE XATTR VALUE   set XATTR (e.g. security.selinux,
 *                                  security.SMACK64) to VALUE
 *   lsmns-label -g FILE XATTR      print XATTR's value
 *
 * Symbolic links are not followed (lsetxattr), so a label lands on the
 * link itself when FILE is one.  Exit 0 on success; otherwise one line on
 * stderr naming the file, the attribute and the kernel's error, exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#define VALUE_MAX 4096

static int usage(void)
{
	fputs("usage: lsmns-label FILE XATTR VALUE | lsmns-label -g FILE XATTR\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	char buf[VALUE_MAX + 1];
	ssize_t n;

	if (argc == 4 && strcmp(argv[1], "-g") == 0) {
		n = lgetxattr(argv[2], argv[3], buf, VALUE_MAX);
		if (n < 0) {
			fprintf(stderr, "lsmns-label: get %s of %s: %s\n", argv[3], argv[2],
				strerror(errno));
			return 1;
		}
		buf[n] = '\0';
		/* SELinux stores a trailing NUL; print the string once. */
		printf("%s\n", buf);
		return 0;
	}
	if (argc != 4 || argv[1][0] == '-')
		return usage();
	if (lsetxattr(argv[1], argv[2], argv[3], strlen(argv[3]), 0) != 0) {
		fprintf(stderr, "lsmns-label: set %s=%s on %s: %s\n", argv[2], argv[3], argv[1],
			strerror(errno));
		return 1;
	}
	return 0;
}
