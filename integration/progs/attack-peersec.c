// SPDX-License-Identifier: GPL-2.0
/*
 * attack-peersec: the peer label a host task sees on a unix stream socket
 * whose other end a task in an LSM namespace made (tests/attack-release.sh).
 * The host side runs the namespace side as a child command, so one call
 * is one experiment and the output comes in a fixed order.
 *
 *   attack-peersec serve PATH LSM -- CMD...
 *	listen on the unix stream socket PATH, run CMD (which connects to
 *	PATH, e.g. through lsmns-assign), accept its connection and print
 *	the accepted socket's SO_PEERSEC, read with the interface LSM set to
 *	LSM (/proc/self/attr/interface_lsm): "peer=LABEL", or
 *	"peer=error ERRNO", or "accept=none" when CMD never connected.
 *   attack-peersec connect PATH
 *	connect to PATH; print "connect=ok" or "connect=ERRNO"; then wait
 *	until the server closes the connection.
 *   attack-peersec pair LSM -- CMD...
 *	run CMD with a unix socket as fd 3; CMD runs "attack-peersec
 *	send-pair 3" (e.g. through lsmns-assign), which makes a socketpair
 *	and sends both ends back; print SO_PEERSEC of each end, read with
 *	the interface LSM set to LSM: "pair0=LABEL pair1=LABEL" (or
 *	"pairN=error ERRNO"), or "pair=none" when nothing came.
 *   attack-peersec send-pair FD
 *	socketpair(AF_UNIX, SOCK_STREAM), both ends sent over FD.
 *
 * CMD's output comes first (it has exited when the host side prints).
 * Exit: 0 when every label was printed, 1 otherwise (2: usage).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SO_PEERSEC
#define SO_PEERSEC 31
#endif

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "E?";
	}
}

static void die(const char *what)
{
	fprintf(stderr, "attack-peersec: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_interface(const char *lsm)
{
	int fd = open("/proc/self/attr/interface_lsm", O_WRONLY);

	if (fd < 0 || write(fd, lsm, strlen(lsm)) != (ssize_t)strlen(lsm))
		die("set the interface LSM");
	close(fd);
}

/* Print "NAME=LABEL" or "NAME=error ERRNO"; 0 when a label was printed. */
static int print_peersec(const char *name, int fd)
{
	char buf[4096];
	socklen_t len = sizeof(buf) - 1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len) < 0) {
		printf("%s=error %s", name, errname(errno));
		return 1;
	}
	buf[len] = '\0';
	printf("%s=%.*s", name, (int)strnlen(buf, len), buf);
	return 0;
}

static pid_t run(char **argv, int fd3)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (fd3 >= 0 && dup2(fd3, 3) < 0)
			die("dup2");
		execvp(argv[0], argv);
		die(argv[0]);
	}
	return pid;
}

/* Wait up to 10 s for @fd to be readable, or for @pid to be gone. */
static int wait_readable(int fd, pid_t pid, int *reaped)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int i;

	for (i = 0; i < 100; i++) {
		if (poll(&p, 1, 100) > 0)
			return 1;
		if (!*reaped && waitpid(pid, NULL, WNOHANG) == pid) {
			*reaped = 1;
			/* It may have connected or sent just before it exited. */
			return poll(&p, 1, 0) > 0;
		}
	}
	return 0;
}

static int cmd_serve(const char *path, const char *lsm, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd, afd, reaped = 0, rc = 1;
	pid_t pid;

	if (strlen(path) >= sizeof(sa.sun_path))
		return 2;
	strcpy(sa.sun_path, path);
	unlink(path);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		die("socket");
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("bind");
	if (listen(lfd, 1) < 0)
		die("listen");
	/* Anyone may connect: the client may run under another uid. */
	chmod(path, 0777);
	pid = run(argv, -1);
	set_interface(lsm);
	if (wait_readable(lfd, pid, &reaped) &&
	    (afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		rc = print_peersec("peer", afd);
		close(afd);
	} else {
		printf("accept=none");
	}
	if (!reaped) {
		/* The client only waits for this close; do not hang on it. */
		alarm(10);
		waitpid(pid, NULL, 0);
	}
	printf("\n");
	unlink(path);
	return rc;
}

static int cmd_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char c;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return 2;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		printf("connect=%s\n", errname(errno));
		return 1;
	}
	printf("connect=ok\n");
	fflush(stdout);
	/* Stay connected until the server has read the peer label. */
	while (read(fd, &c, 1) > 0)
		;
	return 0;
}

static int cmd_pair(const char *lsm, char **argv)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	char data;
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int ctl[2], fds[2], reaped = 0, rc = 1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl) < 0)
		die("socketpair");
	pid = run(argv, ctl[1]);
	close(ctl[1]);
	set_interface(lsm);
	if (wait_readable(ctl[0], pid, &reaped) && recvmsg(ctl[0], &msg, MSG_CMSG_CLOEXEC) > 0 &&
	    (c = CMSG_FIRSTHDR(&msg)) && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(2 * sizeof(int))) {
		memcpy(fds, CMSG_DATA(c), sizeof(fds));
		rc = print_peersec("pair0", fds[0]);
		printf(" ");
		rc |= print_peersec("pair1", fds[1]);
	} else {
		printf("pair=none");
	}
	if (!reaped)
		waitpid(pid, NULL, 0);
	printf("\n");
	return rc;
}

static int cmd_send_pair(int fd)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	char data = 'p';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("socketpair");
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(sv));
	memcpy(CMSG_DATA(c), sv, sizeof(sv));
	if (sendmsg(fd, &msg, 0) != 1)
		die("sendmsg");
	return 0;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 6 && !strcmp(argv[1], "serve") && !strcmp(argv[4], "--"))
		return cmd_serve(argv[2], argv[3], argv + 5);
	if (argc == 3 && !strcmp(argv[1], "connect"))
		return cmd_connect(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "pair") && !strcmp(argv[3], "--"))
		return cmd_pair(argv[2], argv + 4);
	if (argc == 3 && !strcmp(argv[1], "send-pair"))
		return cmd_send_pair(atoi(argv[2]));
	fputs("usage: attack-peersec serve PATH LSM -- CMD... | connect PATH |\n"
	      "       pair LSM -- CMD... | send-pair FD\n", stderr);
	return 2;
}
