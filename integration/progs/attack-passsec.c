// SPDX-License-Identifier: GPL-2.0
/*
 * attack-passsec: the security context a UDP receiver gets with
 * IP_PASSSEC (SCM_SECURITY), for tests/attack-passsec.sh: a reader in
 * an LSM namespace must not get the context of an LSM its namespace
 * hides.
 *
 *   attack-passsec recv PORT
 *	bind a UDP socket to 127.0.0.1:PORT with IP_PASSSEC, print "ready"
 *	on stderr, wait at most 10 s for one datagram and print
 *	"scm=CONTEXT" or "scm=none" (a datagram without SCM_SECURITY), or
 *	"recv=timeout".
 *   attack-passsec recvopts PORT
 *	the same with IP_RECVOPTS instead: print the datagram's IP options
 *	(where NetLabel puts a CIPSO label) as "opts=HEX", "opts=none", or
 *	"recv=timeout".
 *   attack-passsec send PORT
 *	send one datagram to 127.0.0.1:PORT.
 *
 * Exit: 0 when the line was printed, 1 when the experiment failed (one
 * line on stderr), 2 on usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IP_PASSSEC
#define IP_PASSSEC 18
#endif
#ifndef IP_RECVOPTS
#define IP_RECVOPTS 6
#endif
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03
#endif

static int die(const char *what)
{
	fprintf(stderr, "attack-passsec: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int s, one = 1;

	if (argc != 3 || (strcmp(argv[1], "recv") && strcmp(argv[1], "recvopts") &&
			  strcmp(argv[1], "send"))) {
		fprintf(stderr, "usage: attack-passsec recv|recvopts|send PORT\n");
		return 2;
	}
	a.sin_port = htons(atoi(argv[2]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0)
		return die("socket");
	if (!strcmp(argv[1], "send")) {
		if (sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) != 1)
			return die("sendto");
		return 0;
	}
	if (setsockopt(s, SOL_IP, strcmp(argv[1], "recv") ? IP_RECVOPTS : IP_PASSSEC,
		       &one, sizeof(one)))
		return die("setsockopt");
	if (bind(s, (struct sockaddr *)&a, sizeof(a)))
		return die("bind");
	fprintf(stderr, "ready\n");
	{
		struct pollfd p = { .fd = s, .events = POLLIN };
		char data[16], cbuf[4096];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *c;

		if (poll(&p, 1, 10000) != 1) {
			printf("recv=timeout\n");
			return 0;
		}
		if (recvmsg(s, &m, 0) < 0)
			return die("recvmsg");
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVOPTS) {
				size_t i, n = c->cmsg_len - CMSG_LEN(0);

				printf("opts=");
				for (i = 0; i < n; i++)
					printf("%02x", CMSG_DATA(c)[i]);
				printf("\n");
				return 0;
			}
			if (c->cmsg_level == SOL_IP && c->cmsg_type == SCM_SECURITY) {
				printf("scm=%.*s\n", (int)(c->cmsg_len - CMSG_LEN(0)),
				       (char *)CMSG_DATA(c));
				return 0;
			}
		}
		printf("%s=none\n", strcmp(argv[1], "recv") ? "opts" : "scm");
	}
	return 0;
}
