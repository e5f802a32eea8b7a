// SPDX-License-Identifier: GPL-2.0
/*
 * attack-thread-assign: assign one thread of a process to a new LSM
 * namespace through a thread pidfd (issue 17, class 4).
 *
 *   attack-thread-assign TID ENTRY...
 *
 * Like `lsmns-assign pid`, but the request's pidfd is
 * pidfd_open(TID, PIDFD_THREAD): it names the single thread TID, which
 * may be any thread of its group (pidfd_open without PIDFD_THREAD takes
 * only a thread-group leader).  ENTRY is LSM:MODE[:CONTEXT] as for
 * lsmns-assign.  Prints "ok ns_id=N" or "error=ERRNO (TEXT) entry=I"
 * (ERRNO a number) on stdout; exits 0, or 125 if the pidfd or the
 * assignment failed, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/lsm.h>
/* The ABI header, as the kernel series installs it (kernel/uapi/). */
#include "../../kernel/uapi/linux/lsmns.h"
#include "lsmns-request.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* <linux/pidfd.h>, Linux 6.9 */
#endif

#define ASSIGN "/sys/kernel/security/lsmns/assign"

static int parse_entry(struct lsmns_req *r, char *arg)
{
	char *lsm = strtok(arg, ":");
	char *mode = strtok(NULL, ":");
	char *ctx = strtok(NULL, "");
	uint64_t id;
	uint32_t m;

	if (!lsm || !mode)
		return -1;
	if (!strcmp(lsm, "selinux"))
		id = LSM_ID_SELINUX;
	else if (!strcmp(lsm, "smack"))
		id = LSM_ID_SMACK;
	else if (!strcmp(lsm, "apparmor"))
		id = LSM_ID_APPARMOR;
	else
		return -1;
	if (!strcmp(mode, "active"))
		m = LSMNS_MODE_ACTIVE;
	else if (!strcmp(mode, "hidden"))
		m = LSMNS_MODE_HIDDEN;
	else if (!strcmp(mode, "released"))
		m = LSMNS_MODE_RELEASED;
	else
		return -1;
	lsmns_req_add(r, id, m, ctx);
	return 0;
}

int main(int argc, char **argv)
{
	static struct lsmns_req r;
	struct lsmns_assign_result res;
	int i, fd, pidfd, err = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: attack-thread-assign TID ENTRY...\n");
		return 2;
	}
	pidfd = syscall(SYS_pidfd_open, atoi(argv[1]), PIDFD_THREAD);
	if (pidfd < 0) {
		fprintf(stderr, "attack-thread-assign: pidfd_open %s, PIDFD_THREAD: %s\n",
			argv[1], strerror(errno));
		return 125;
	}
	lsmns_req_init(&r, pidfd, 0);
	for (i = 2; i < argc; i++)
		if (parse_entry(&r, argv[i])) {
			fprintf(stderr, "attack-thread-assign: bad entry %s\n", argv[i]);
			return 2;
		}
	fd = open(ASSIGN, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "attack-thread-assign: open %s: %s\n", ASSIGN,
			strerror(errno));
		return 125;
	}
	if (write(fd, r.buf, r.size) != (ssize_t)r.size)
		err = errno;
	memset(&res, 0, sizeof(res));
	if (read(fd, &res, sizeof(res)) != sizeof(res))
		res.failed_index = LSMNS_NO_INDEX;
	if (err) {
		printf("error=%d (%s) entry=%d\n", err, strerror(err),
		       (int)res.failed_index);
		return 125;
	}
	printf("ok ns_id=%llu\n", (unsigned long long)res.ns_id);
	return 0;
}
