// SPDX-License-Identifier: GPL-2.0
/*
 * stack-lsm: exercise the interfaces of the LSM stacking series.
 *
 *   stack-lsm interface                 print the interface LSM, from
 *                                       lsm_get_self_attr(LSM_ATTR_INTERFACE_LSM)
 *   stack-lsm set-interface ID|NAME [CMD ARG...]
 *                                       lsm_set_self_attr(LSM_ATTR_INTERFACE_LSM),
 *                                       then exec CMD if given
 *   stack-lsm as-uid UID CMD [ARG...]   exec CMD as UID (real, effective, saved)
 *   stack-lsm create-with ATTR VALUE PATH
 *                                       write VALUE to the attr file ATTR, then
 *                                       create PATH in the same process
 *   stack-lsm peersec                   SO_PEERSEC of a unix stream socketpair
 *   stack-lsm tcp-peersec               SO_PEERSEC of a TCP connection accepted
 *                                       on 127.0.0.1 ("none ERRNO" when the
 *                                       interface LSM has no peer label)
 *   stack-lsm scm                       SCM_SECURITY of a unix datagram
 *                                       ("none" if no message came)
 *   stack-lsm getxattr PATH NAME        print an extended attribute
 *   stack-lsm keysec                    KEYCTL_GET_SECURITY of a new key
 *
 * Exit status 0 on success; on failure one line naming the call and the
 * errno (its symbolic name, so scripts can match it), and exit 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/lsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <grp.h>
#include <unistd.h>

#ifndef LSM_ATTR_INTERFACE_LSM
#define LSM_ATTR_INTERFACE_LSM 107
#endif
#ifndef SO_PEERSEC
#define SO_PEERSEC 31
#endif
#ifndef SO_PASSSEC
#define SO_PASSSEC 34
#endif
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03
#endif

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case E2BIG: return "E2BIG";
	case ENODATA: return "ENODATA";
	default: return "E?";
	}
}

static int fail(const char *what)
{
	int e = errno;

	fprintf(stderr, "stack-lsm: %s: %s (%s)\n", what, errname(e), strerror(e));
	return 1;
}

static uint64_t lsm_id_of(const char *s)
{
	static const struct { const char *name; uint64_t id; } ids[] = {
		{ "capability", LSM_ID_CAPABILITY }, { "selinux", LSM_ID_SELINUX },
		{ "smack", LSM_ID_SMACK },	     { "apparmor", LSM_ID_APPARMOR },
	};
	char *end;
	unsigned long long v;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(s, ids[i].name))
			return ids[i].id;
	v = strtoull(s, &end, 0);
	return *end ? 0 : v;
}

static int do_interface(void)
{
	union {
		struct lsm_ctx ctx;
		char buf[256];
	} u;
	uint32_t size = sizeof(u);
	long n;

	n = syscall(__NR_lsm_get_self_attr, LSM_ATTR_INTERFACE_LSM, &u.ctx, &size, 0);
	if (n < 0)
		return fail("lsm_get_self_attr");
	if (n != 1 || u.ctx.ctx_len == 0 || u.ctx.ctx_len > sizeof(u) - sizeof(u.ctx)) {
		fprintf(stderr, "stack-lsm: lsm_get_self_attr: %ld entries\n", n);
		return 1;
	}
	printf("%llu %.*s\n", (unsigned long long)u.ctx.id, (int)u.ctx.ctx_len - 1,
	       (char *)u.ctx.ctx);
	return 0;
}

static int do_set_interface(const char *name, char **argv)
{
	union {
		struct lsm_ctx ctx;
		char buf[64];
	} u;

	memset(&u, 0, sizeof(u));
	u.ctx.id = lsm_id_of(name);
	u.ctx.len = sizeof(u.ctx);
	u.ctx.ctx_len = 0;
	if (syscall(__NR_lsm_set_self_attr, LSM_ATTR_INTERFACE_LSM, &u.ctx,
		    sizeof(u.ctx), 0) < 0)
		return fail("lsm_set_self_attr");
	if (argv[0]) {
		execvp(argv[0], argv);
		return fail("execvp");
	}
	return 0;
}

/*
 * Run CMD as UID (real, effective and saved), so that a setuid-root CMD
 * is a secure exec (AT_SECURE) for the kernel.
 */
static int do_as_uid(const char *uid_arg, char **argv)
{
	char *end;
	unsigned long uid;

	errno = 0;
	uid = strtoul(uid_arg, &end, 10);
	if (errno || *end || end == uid_arg || uid > 65535) {
		fprintf(stderr, "stack-lsm: as-uid: bad uid \"%s\"\n", uid_arg);
		return 2;
	}
	if (setgroups(0, NULL) < 0)
		return fail("setgroups");
	if (setresgid(uid, uid, uid) < 0)
		return fail("setresgid");
	if (setresuid(uid, uid, uid) < 0)
		return fail("setresuid");
	execvp(argv[0], argv);
	return fail("execvp");
}

/*
 * Write VALUE to one of this process' attr files (e.g. SELinux's fscreate),
 * then create PATH in the same process, so that the attribute applies.
 */
static int do_create_with(const char *attr, const char *value, const char *path)
{
	size_t len = strlen(value);
	int fd;

	fd = open(attr, O_WRONLY);
	if (fd < 0)
		return fail(attr);
	if (write(fd, value, len) != (ssize_t)len) {
		close(fd);
		return fail(attr);
	}
	close(fd);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return fail(path);
	close(fd);
	return 0;
}

static int do_peersec(void)
{
	char buf[4096];
	socklen_t len = sizeof(buf) - 1;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return fail("socketpair");
	if (getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, buf, &len) < 0)
		return fail("getsockopt(SO_PEERSEC)");
	buf[len] = '\0';
	printf("%s\n", buf);
	return 0;
}

/*
 * The accepted socket of a TCP connection gets its peer label from the
 * request_sock, which carries the network label owner's secids only.
 */
static int do_tcp_peersec(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	char buf[4096];
	socklen_t len = sizeof(buf) - 1;
	int lfd, cfd, afd;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		return fail("socket");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return fail("bind");
	if (listen(lfd, 1) < 0)
		return fail("listen");
	if (getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0)
		return fail("getsockname");
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd < 0)
		return fail("socket");
	if (connect(cfd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return fail("connect");
	afd = accept(lfd, NULL, NULL);
	if (afd < 0)
		return fail("accept");
	if (getsockopt(afd, SOL_SOCKET, SO_PEERSEC, buf, &len) < 0) {
		printf("none %s\n", errname(errno));
		return 0;
	}
	buf[len] = '\0';
	printf("%s\n", buf);
	return 0;
}

static int do_scm(void)
{
	char cbuf[CMSG_SPACE(4096)];
	char data[8] = "x";
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int one = 1, sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return fail("socketpair");
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)) < 0)
		return fail("setsockopt(SO_PASSSEC)");
	if (send(sv[0], data, sizeof(data), 0) < 0)
		return fail("send");
	if (recvmsg(sv[1], &msg, 0) < 0)
		return fail("recvmsg");
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_SECURITY) {
			size_t n = c->cmsg_len - CMSG_LEN(0);

			printf("%.*s\n", (int)strnlen((char *)CMSG_DATA(c), n),
			       (char *)CMSG_DATA(c));
			return 0;
		}
	}
	printf("none\n");
	return 0;
}

static int do_getxattr(const char *path, const char *name)
{
	char buf[4096];
	ssize_t n = getxattr(path, name, buf, sizeof(buf) - 1);

	if (n < 0)
		return fail("getxattr");
	printf("%.*s\n", (int)strnlen(buf, n), buf);
	return 0;
}

/*
 * Print the xattr names of @path, one per line, after checking that the
 * size query, the listing itself and a buffer one byte short agree: a
 * module whose names the framework forgot to count shows up as a size
 * mismatch or as a short buffer that does not fail with ERANGE.
 */
static int do_listxattr(const char *path)
{
	char buf[4096], small[4096];
	ssize_t want, n;
	char *p;

	want = listxattr(path, NULL, 0);
	if (want < 0)
		return fail("listxattr(size query)");
	n = listxattr(path, buf, sizeof(buf));
	if (n < 0)
		return fail("listxattr");
	if (n != want) {
		fprintf(stderr, "stack-lsm: listxattr: size query said %zd, listing has %zd\n",
			want, n);
		return 1;
	}
	if (n > 0 && (listxattr(path, small, n - 1) >= 0 || errno != ERANGE)) {
		fprintf(stderr, "stack-lsm: listxattr: a buffer of %zd bytes for %zd did not fail with ERANGE\n",
			n - 1, n);
		return 1;
	}
	for (p = buf; p < buf + n; p += strlen(p) + 1)
		printf("%s\n", p);
	return 0;
}

static int do_keysec(void)
{
	char buf[4096];
	long key, n;

	key = syscall(__NR_add_key, "user", "stack-lsm", "x", 1,
		      KEY_SPEC_PROCESS_KEYRING);
	if (key < 0)
		return fail("add_key");
	n = syscall(__NR_keyctl, KEYCTL_GET_SECURITY, key, buf, sizeof(buf) - 1);
	if (n < 0)
		return fail("keyctl(KEYCTL_GET_SECURITY)");
	buf[n < (long)sizeof(buf) ? n : (long)sizeof(buf) - 1] = '\0';
	printf("%s\n", buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "interface"))
		return do_interface();
	if (argc >= 3 && !strcmp(argv[1], "set-interface"))
		return do_set_interface(argv[2], argv + 3);
	if (argc == 5 && !strcmp(argv[1], "create-with"))
		return do_create_with(argv[2], argv[3], argv[4]);
	if (argc >= 4 && !strcmp(argv[1], "as-uid"))
		return do_as_uid(argv[2], argv + 3);
	if (argc >= 2 && !strcmp(argv[1], "peersec"))
		return do_peersec();
	if (argc >= 2 && !strcmp(argv[1], "tcp-peersec"))
		return do_tcp_peersec();
	if (argc >= 2 && !strcmp(argv[1], "scm"))
		return do_scm();
	if (argc >= 4 && !strcmp(argv[1], "getxattr"))
		return do_getxattr(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "listxattr"))
		return do_listxattr(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "keysec"))
		return do_keysec();
	fprintf(stderr, "usage: stack-lsm interface | set-interface ID|NAME [CMD...] | as-uid UID CMD... |\n"
			"       create-with ATTR VALUE PATH |\n"
			"       peersec | tcp-peersec | scm | getxattr PATH NAME | listxattr PATH | keysec\n");
	return 2;
}
