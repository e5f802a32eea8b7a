// SPDX-License-Identifier: GPL-2.0
/*
 * attack-statmount: the mount options statmount(2) reports for the mount
 * a path is on (STATMOUNT_MNT_OPTS), the channel beside
 * /proc/PID/mountinfo where an LSM's mount options (SELinux context=,
 * seclabel; Smack smackfsdef=, ...) show (tests/attack-visible.sh).
 *
 *   attack-statmount PATH
 *	print "opts=OPTIONS" (empty when the mount has none), or
 *	"statmount=ERRNO".
 *
 * Exit: 0 when the line was printed, 1 when the path's mount id cannot be
 * found (one line on stderr), 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif
#ifndef __NR_statmount
#define __NR_statmount 457
#endif

int main(int argc, char **argv)
{
	static union {
		struct statmount sm;
		char buf[1 << 16];
	} u;
	struct mnt_id_req req = { .size = MNT_ID_REQ_SIZE_VER0 };
	struct statx stx;

	if (argc != 2) {
		fprintf(stderr, "usage: attack-statmount PATH\n");
		return 2;
	}
	if (statx(AT_FDCWD, argv[1], 0, STATX_MNT_ID_UNIQUE, &stx) ||
	    !(stx.stx_mask & STATX_MNT_ID_UNIQUE)) {
		fprintf(stderr, "attack-statmount: statx %s: no unique mount id (%s)\n",
			argv[1], strerror(errno));
		return 1;
	}
	req.mnt_id = stx.stx_mnt_id;
	req.param = STATMOUNT_MNT_OPTS;
	if (syscall(__NR_statmount, &req, &u.sm, sizeof(u), 0)) {
		printf("statmount=%s\n", errno == EPERM ? "EPERM" :
		       errno == EACCES ? "EACCES" : errno == ENOSYS ? "ENOSYS" :
		       errno == EINVAL ? "EINVAL" : "E?");
		return 0;
	}
	printf("opts=%s\n", (u.sm.mask & STATMOUNT_MNT_OPTS) ? u.sm.str + u.sm.mnt_opts : "");
	return 0;
}
