// SPDX-License-Identifier: GPL-2.0
/*
 * attack-auditread: read the kernel's audit records as a multicast
 * listener (NETLINK_AUDIT, group AUDIT_NLGRP_READLOG, CAP_AUDIT_READ),
 * the channel beside the kernel log through which a task could read the
 * contexts its LSM namespace hides (tests/attack-visible.sh).
 *
 *   attack-auditread NEEDLE SECONDS -- CMD...
 *	join the group, run CMD (which makes records), then print every
 *	record that holds NEEDLE as "record=TEXT", for at most SECONDS;
 *	"bind=ERRNO" if the group cannot be joined; "records=none" if no
 *	record held NEEDLE.
 *
 * Exit: 0 when a line was printed, 1 when the experiment failed (one line
 * on stderr), 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK,
				 .nl_groups = 1u << (AUDIT_NLGRP_READLOG - 1) };
	static char buf[1 << 16];
	int s, found = 0, st;
	time_t end;
	pid_t pid;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: attack-auditread NEEDLE SECONDS -- CMD...\n");
		return 2;
	}
	s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (s < 0) {
		fprintf(stderr, "attack-auditread: socket: %s\n", strerror(errno));
		return 1;
	}
	if (bind(s, (struct sockaddr *)&a, sizeof(a))) {
		printf("bind=%s\n", errno == EPERM ? "EPERM" : errno == EACCES ? "EACCES" : "E?");
		return 0;
	}
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		execvp(argv[4], argv + 4);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	end = time(NULL) + atoi(argv[2]);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = s, .events = POLLIN };
		struct nlmsghdr *h;
		ssize_t n;

		if (poll(&p, 1, 500) != 1)
			continue;
		n = recv(s, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = 0;
		h = (struct nlmsghdr *)buf;
		if (n < (ssize_t)NLMSG_HDRLEN)
			continue;
		{
			char *text = (char *)NLMSG_DATA(h);
			size_t len = h->nlmsg_len > NLMSG_HDRLEN && h->nlmsg_len <= (size_t)n ?
				     h->nlmsg_len - NLMSG_HDRLEN : 0;

			text[len] = 0;
			if (strstr(text, argv[1])) {
				printf("record=%s\n", text);
				found = 1;
			}
		}
	}
	if (!found)
		printf("records=none\n");
	return 0;
}
