// SPDX-License-Identifier: GPL-2.0
/*
 * attack-fdpass: hand a descriptor the host opened to a task inside an
 * LSM namespace, which then writes through it (tests/attack-policy-fd.sh).
 * A global policy file must refuse the write because of who writes, not
 * only because of who opened it.
 *
 *   attack-fdpass serve SOCK FILE
 *	open FILE for writing, listen on the unix socket SOCK, send the
 *	descriptor (SCM_RIGHTS) to the first client, exit.  Prints nothing
 *	on success; "open=ERRNO" if FILE cannot be opened.
 *   attack-fdpass recv-write SOCK DATA
 *   attack-fdpass recv-copy SOCK SRC
 *	connect to SOCK, receive a descriptor, write DATA (or SRC's whole
 *	content) to it in one write(2).  Prints "write=ok" or "write=ERRNO".
 *   attack-fdpass hold FILE
 *	open FILE for writing as descriptor 3, print "ready" and sleep until
 *	killed (a host task whose descriptor pidfd_getfd can take).
 *   attack-fdpass getfd-write PID FD DATA
 *   attack-fdpass getfd-copy PID FD SRC
 *	pidfd_getfd(pidfd_open(PID), FD), then write DATA (SRC's content)
 *	to the copy.  Prints "getfd=ERRNO" or "write=ok"/"write=ERRNO".
 *   attack-fdpass write FD DATA
 *   attack-fdpass copy FD SRC
 *	write DATA (SRC's content) to the inherited descriptor FD in one
 *	write(2); prints "write=ok" or "write=ERRNO".
 *   attack-fdpass uring-exec CMD...
 *	make an io_uring and register the caller's credentials as a
 *	personality, then exec CMD with the ring open (io_uring descriptors
 *	cannot travel over SCM_RIGHTS) and its number and the personality
 *	id in $H3_RING_FD and $H3_RING_PERS.
 *   attack-fdpass uring-write FILE DATA
 *	through the ring of $H3_RING_FD, with the personality
 *	$H3_RING_PERS, openat FILE for writing and write DATA to it.
 *	Prints "open=ok|ERRNO write=ok|ERRNO".
 *   attack-fdpass uring-assign PID ENTRY...
 *	the same ring and personality: open lsmns/assign and write an
 *	assignment of the task PID (lsmns-assign's ENTRY syntax), then read
 *	the result.  Prints "open=... write=... result=ok ns_id=N" or the
 *	errors.
 *   attack-fdpass uring-read FILE
 *	the same ring and personality: open FILE for reading and read it.
 *	Prints "open=ok read=N" (N bytes) or the errors.
 *   attack-fdpass uring-own FILE DATA
 *	the same with a ring of its own and no personality (control).
 *
 * Exit: 0 when the line was printed (whatever the kernel answered), 1 on
 * a failure of the experiment itself (one line on stderr), 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/lsm.h>
/* The ABI header, as the kernel series installs it (kernel/uapi/). */
#include "../../kernel/uapi/linux/lsmns.h"
#include "lsmns-request.h"
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case EBUSY: return "EBUSY";
	case ESRCH: return "ESRCH";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	default: return "E?";
	}
}

static int die(const char *what)
{
	fprintf(stderr, "attack-fdpass: %s: %s\n", what, strerror(errno));
	return 1;
}

static int sock_at(const char *path, int listening)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || strlen(path) >= sizeof(a.sun_path))
		return -1;
	strcpy(a.sun_path, path);
	if (listening) {
		unlink(path);
		if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 1))
			return -1;
		chmod(path, 0777);
		return s;
	}
	return connect(s, (struct sockaddr *)&a, sizeof(a)) ? -1 : s;
}

/* Send @fd and @word over the first connection to @path. */
static int send_fd(const char *path, int fd, uint32_t word)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &word, .iov_len = sizeof(word) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	int l = sock_at(path, 1), s;

	if (l < 0)
		return die("listen");
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0)
		return die("accept");
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(s, &m, 0) != sizeof(word))
		return die("sendmsg");
	/* Wait for the client to finish, so the file outlives its use. */
	(void)!read(s, &word, 1);
	return 0;
}

/* Receive a descriptor (and a word) from @path; -1 after a message. */
static int recv_fd(const char *path, uint32_t *word)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = word, .iov_len = sizeof(*word) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int s, fd, i;

	for (i = 0; i < 50; i++) {
		s = sock_at(path, 0);
		if (s >= 0)
			break;
		usleep(100000);
	}
	if (s < 0) {
		die("connect");
		return -1;
	}
	if (recvmsg(s, &m, 0) != sizeof(*word)) {
		die("recvmsg");
		return -1;
	}
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS) {
		fprintf(stderr, "attack-fdpass: no descriptor came\n");
		return -1;
	}
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* The whole content of @path, in *@n bytes. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, r;
	char *b;

	*n = 0;
	if (!f)
		return NULL;
	b = malloc(cap);
	while (b && (r = fread(b + *n, 1, cap - *n, f)) > 0) {
		*n += r;
		if (*n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	return b;
}

static int write_report(int fd, const char *data, size_t n)
{
	if (write(fd, data, n) == (ssize_t)n)
		printf("write=ok\n");
	else
		printf("write=%s\n", errname(errno));
	return 0;
}

static int write_src(int fd, const char *src)
{
	size_t n;
	char *b = slurp(src, &n);

	if (!b)
		return die(src);
	return write_report(fd, b, n);
}

/* ---- io_uring, raw system calls (no liburing in the guest) ---- */

struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_map(struct ring *r, struct io_uring_params *p)
{
	size_t sq_len = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	size_t cq_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	char *sq, *cq;

	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned int *)(sq + p->sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p->sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p->sq_off.array);
	r->cq_head = (unsigned int *)(cq + p->cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p->cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p->cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
	return 0;
}

static int ring_setup(struct ring *r, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	r->fd = syscall(__NR_io_uring_setup, 4, p);
	if (r->fd < 0)
		return -1;
	return ring_map(r, p);
}

/* Submit @sqe and wait for its completion; its result (a -errno or >= 0). */
static int ring_run(struct ring *r, const struct io_uring_sqe *sqe)
{
	unsigned int tail = __atomic_load_n(r->sq_tail, __ATOMIC_ACQUIRE);
	unsigned int idx = tail & *r->sq_mask, head;
	int res;

	r->sqes[idx] = *sqe;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -errno;
	head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EFAULT;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* One operation through the ring, with personality @pers (0: none). */
static int uring_op(struct ring *r, unsigned int pers, int op, int fd,
		    const void *addr, unsigned int len, int flags)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = op;
	sqe.fd = fd;
	sqe.addr = (uintptr_t)addr;
	sqe.len = len;
	sqe.open_flags = flags;
	sqe.personality = pers;
	return ring_run(r, &sqe);
}

static int uring_open_write(struct ring *r, unsigned int pers,
			    const char *file, const char *data)
{
	int fd, res;

	fd = uring_op(r, pers, IORING_OP_OPENAT, AT_FDCWD, file, 0,
		      O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("open=%s write=none\n", errname(-fd));
		return 0;
	}
	res = uring_op(r, pers, IORING_OP_WRITE, fd, data, strlen(data), 0);
	printf("open=ok write=%s\n", res < 0 ? errname(-res) : "ok");
	return 0;
}

static int uring_read(struct ring *r, unsigned int pers, const char *file)
{
	static char buf[1 << 16];
	int fd, res;

	fd = uring_op(r, pers, IORING_OP_OPENAT, AT_FDCWD, file, 0,
		      O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("open=%s read=none\n", errname(-fd));
		return 0;
	}
	res = uring_op(r, pers, IORING_OP_READ, fd, buf, sizeof(buf), 0);
	if (res < 0)
		printf("open=ok read=%s\n", errname(-res));
	else
		printf("open=ok read=%d\n", res);
	return 0;
}

static int uring_assign(struct ring *r, unsigned int pers, pid_t pid,
			char **entries)
{
	static struct lsmns_req q;
	struct lsmns_assign_result out;
	int pidfd = syscall(SYS_pidfd_open, pid, 0), fd, res;

	if (pidfd < 0)
		return die("pidfd_open");
	lsmns_req_init(&q, pidfd, 0);
	for (; *entries; entries++)
		if (lsmns_req_parse_entry(&q, *entries)) {
			fprintf(stderr, "attack-fdpass: bad entry %s\n", *entries);
			return 2;
		}
	fd = uring_op(r, pers, IORING_OP_OPENAT, AT_FDCWD,
		      "/sys/kernel/security/lsmns/assign", 0, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("open=%s write=none\n", errname(-fd));
		return 0;
	}
	res = uring_op(r, pers, IORING_OP_WRITE, fd, q.buf, q.size, 0);
	if (res < 0) {
		printf("open=ok write=%s\n", errname(-res));
		return 0;
	}
	memset(&out, 0, sizeof(out));
	res = uring_op(r, pers, IORING_OP_READ, fd, &out, sizeof(out), 0);
	if (res != sizeof(out))
		printf("open=ok write=ok result=unread\n");
	else if (out.error)
		printf("open=ok write=ok result=error %d\n", out.error);
	else
		printf("open=ok write=ok result=ok ns_id=%llu\n",
		       (unsigned long long)out.ns_id);
	return 0;
}

int main(int argc, char **argv)
{
	struct io_uring_params p;
	struct ring r;
	uint32_t word;
	int fd, pidfd;

	if (argc == 4 && !strcmp(argv[1], "serve")) {
		fd = open(argv[3], O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("open=%s\n", errname(errno));
			return 0;
		}
		return send_fd(argv[2], fd, 0);
	}
	if (argc == 4 && (!strcmp(argv[1], "recv-write") || !strcmp(argv[1], "recv-copy"))) {
		fd = recv_fd(argv[2], &word);
		if (fd < 0)
			return 1;
		if (!strcmp(argv[1], "recv-copy"))
			return write_src(fd, argv[3]);
		return write_report(fd, argv[3], strlen(argv[3]));
	}
	if (argc == 3 && !strcmp(argv[1], "hold")) {
		fd = open(argv[2], O_WRONLY);
		if (fd < 0)
			return die(argv[2]);
		if (fd != 3 && (dup2(fd, 3) != 3 || close(fd)))
			return die("dup2");
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc == 5 && (!strcmp(argv[1], "getfd-write") || !strcmp(argv[1], "getfd-copy"))) {
		pidfd = syscall(SYS_pidfd_open, atoi(argv[2]), 0);
		if (pidfd < 0) {
			printf("getfd=%s\n", errname(errno));
			return 0;
		}
		fd = syscall(SYS_pidfd_getfd, pidfd, atoi(argv[3]), 0);
		if (fd < 0) {
			printf("getfd=%s\n", errname(errno));
			return 0;
		}
		if (!strcmp(argv[1], "getfd-copy"))
			return write_src(fd, argv[4]);
		return write_report(fd, argv[4], strlen(argv[4]));
	}
	if (argc == 4 && !strcmp(argv[1], "write"))
		return write_report(atoi(argv[2]), argv[3], strlen(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "copy"))
		return write_src(atoi(argv[2]), argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "uring-exec")) {
		char num[16];
		int pers;

		if (ring_setup(&r, &p))
			return die("io_uring_setup");
		pers = syscall(__NR_io_uring_register, r.fd,
			       IORING_REGISTER_PERSONALITY, NULL, 0);
		if (pers < 0)
			return die("IORING_REGISTER_PERSONALITY");
		/* io_uring_setup makes the descriptor close-on-exec. */
		if (fcntl(r.fd, F_SETFD, 0))
			return die("F_SETFD");
		snprintf(num, sizeof(num), "%d", r.fd);
		setenv("H3_RING_FD", num, 1);
		snprintf(num, sizeof(num), "%d", pers);
		setenv("H3_RING_PERS", num, 1);
		execvp(argv[2], argv + 2);
		return die(argv[2]);
	}
	if ((argc == 4 && !strcmp(argv[1], "uring-write")) ||
	    (argc == 3 && !strcmp(argv[1], "uring-read")) ||
	    (argc >= 4 && !strcmp(argv[1], "uring-assign"))) {
		const char *rfd = getenv("H3_RING_FD"), *pers = getenv("H3_RING_PERS");

		if (!rfd || !pers) {
			fprintf(stderr, "attack-fdpass: uring-write: no $H3_RING_FD/$H3_RING_PERS\n");
			return 1;
		}
		r.fd = atoi(rfd);
		/* Same sizes give the same offsets: learn them from a ring of our own. */
		{
			struct ring own;

			if (ring_setup(&own, &p))
				return die("io_uring_setup (offsets)");
			close(own.fd);
		}
		if (ring_map(&r, &p))
			return die("mmap of the inherited ring");
		if (!strcmp(argv[1], "uring-assign"))
			return uring_assign(&r, atoi(pers), atoi(argv[2]), argv + 3);
		if (!strcmp(argv[1], "uring-read"))
			return uring_read(&r, atoi(pers), argv[2]);
		return uring_open_write(&r, atoi(pers), argv[2], argv[3]);
	}
	if (argc == 4 && !strcmp(argv[1], "uring-own")) {
		if (ring_setup(&r, &p))
			return die("io_uring_setup");
		return uring_open_write(&r, 0, argv[2], argv[3]);
	}
	fprintf(stderr, "attack-fdpass: see the comment at the top for usage\n");
	return 2;
}
