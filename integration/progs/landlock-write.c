// SPDX-License-Identifier: GPL-2.0
/*
 * landlock-write: can this task open PATH for writing?
 *
 *   landlock-write [--restrict] PATH
 *
 * With --restrict, the task first gives itself a Landlock ruleset that
 * handles file writes and allows none, so the open must fail with EACCES
 * wherever Landlock enforces.  Prints "ok" (and exits 0) when the open
 * succeeded, else the errno's name (exit 1); exit 2 when the ruleset
 * cannot be made.  Used to show that an LSM without the lsmns_* hooks is
 * untouched by LSM namespaces.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int restrict_writes(void)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_WRITE_FILE,
	};
	int fd;

	fd = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (fd < 0) {
		fprintf(stderr, "landlock-write: landlock_create_ruleset: %s\n",
			strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, fd, 0)) {
		fprintf(stderr, "landlock-write: landlock_restrict_self: %s\n",
			strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--restrict")) {
		if (restrict_writes())
			return 2;
		path = argv[2];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: landlock-write [--restrict] PATH\n");
		return 2;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		const char *name = strerrorname_np(errno);

		printf("%s\n", name ? name : "?");
		return 1;
	}
	close(fd);
	printf("ok\n");
	return 0;
}
