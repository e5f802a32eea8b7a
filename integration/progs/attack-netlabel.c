// SPDX-License-Identifier: GPL-2.0
/*
 * attack-netlabel: read or change NetLabel's unlabeled accept flag over
 * generic netlink, as netlabelctl's "unlbl accept" does.
 *
 *   attack-netlabel get         prints the flag (0 or 1)
 *   attack-netlabel set 0|1     prints "ok" or the kernel's error
 *
 * The flag is global: whether the whole system lets unlabeled packets in
 * for SELinux and Smack.  attack-global.sh changes it from the host
 * (the control) and tries to from inside LSM namespaces.
 * Exit 0 when the request was answered (even with an error), 1 when the
 * NetLabel family or the socket could not be reached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* net/netlabel/netlabel_unlabeled.h: not uapi, the wire values are. */
#define NLBL_UNLBL_NAME "NLBL_UNLBL"
#define NLBL_PROTO_VERSION 3
#define NLBL_UNLABEL_C_ACCEPT 1
#define NLBL_UNLABEL_C_LIST 2
#define NLBL_UNLABEL_A_ACPTFLG 1

struct msg {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	char attrs[256];
};

static int put_attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *na = (struct nlattr *)((char *)m + NLMSG_ALIGN(m->nh.nlmsg_len));
	size_t total = NLA_HDRLEN + len;

	if (NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(total) > sizeof(*m))
		return -1;
	na->nla_type = type;
	na->nla_len = total;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	m->nh.nlmsg_len = NLMSG_ALIGN(m->nh.nlmsg_len) + NLA_ALIGN(total);
	return 0;
}

/* One request, one answer: *err the ACK's error (0), or the reply in @ans. */
static int roundtrip(int fd, struct msg *req, char *ans, size_t size, int *err)
{
	static uint32_t seq = 1;
	struct nlmsghdr *nh;
	ssize_t n;

	req->nh.nlmsg_seq = seq++;
	req->nh.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (send(fd, req, req->nh.nlmsg_len, 0) < 0)
		return -1;
	*err = 1;
	while (*err == 1) {
		n = recv(fd, ans, size, 0);
		if (n < 0)
			return -1;
		for (nh = (struct nlmsghdr *)ans; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_ERROR) {
				*err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
				break;
			}
		}
	}
	return 0;
}

/* The first attribute of @type in the genl reply in @ans, or NULL. */
static struct nlattr *reply_attr(char *ans, size_t len, uint16_t type)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)ans;
	struct nlattr *na;
	int rem;

	if (!NLMSG_OK(nh, len) || nh->nlmsg_type == NLMSG_ERROR)
		return NULL;
	na = (struct nlattr *)((char *)NLMSG_DATA(nh) + GENL_HDRLEN);
	rem = nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	while (rem >= (int)NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && na->nla_len <= rem) {
		if ((na->nla_type & NLA_TYPE_MASK) == type)
			return na;
		rem -= NLA_ALIGN(na->nla_len);
		na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char ans[8192];
	struct msg req;
	struct nlattr *na;
	struct timeval tmo = { .tv_sec = 5 };
	int fd, err, family;
	uint8_t flag;

	if (argc < 2 || (strcmp(argv[1], "get") && (strcmp(argv[1], "set") || argc != 3))) {
		fprintf(stderr, "usage: attack-netlabel get | set 0|1\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0) {
		fprintf(stderr, "attack-netlabel: socket: %s\n", strerror(errno));
		return 1;
	}
	/* A request the kernel ignores must not hang the test. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo))) {
		fprintf(stderr, "attack-netlabel: SO_RCVTIMEO: %s\n", strerror(errno));
		return 1;
	}

	/* The family's id, from the generic netlink controller. */
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.nh.nlmsg_type = GENL_ID_CTRL;
	req.gh.cmd = CTRL_CMD_GETFAMILY;
	req.gh.version = 1;
	put_attr(&req, CTRL_ATTR_FAMILY_NAME, NLBL_UNLBL_NAME, sizeof(NLBL_UNLBL_NAME));
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0 || recv(fd, ans, sizeof(ans), 0) < 0) {
		fprintf(stderr, "attack-netlabel: generic netlink controller: %s\n", strerror(errno));
		return 1;
	}
	na = reply_attr(ans, sizeof(ans), CTRL_ATTR_FAMILY_ID);
	if (!na) {
		fprintf(stderr, "attack-netlabel: no %s family (NetLabel not built in?)\n", NLBL_UNLBL_NAME);
		return 1;
	}
	family = *(uint16_t *)((char *)na + NLA_HDRLEN);

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.nh.nlmsg_type = family;
	req.gh.version = NLBL_PROTO_VERSION;
	if (!strcmp(argv[1], "get")) {
		req.gh.cmd = NLBL_UNLABEL_C_LIST;
		req.nh.nlmsg_flags = NLM_F_REQUEST;
		if (send(fd, &req, req.nh.nlmsg_len, 0) < 0 || recv(fd, ans, sizeof(ans), 0) < 0) {
			fprintf(stderr, "attack-netlabel: list: %s\n", strerror(errno));
			return 1;
		}
		na = reply_attr(ans, sizeof(ans), NLBL_UNLABEL_A_ACPTFLG);
		if (!na) {
			struct nlmsghdr *nh = (struct nlmsghdr *)ans;

			printf("%s\n", nh->nlmsg_type == NLMSG_ERROR ?
			       strerror(-((struct nlmsgerr *)NLMSG_DATA(nh))->error) :
			       "no accept flag in the reply");
			return 0;
		}
		printf("%u\n", *((uint8_t *)na + NLA_HDRLEN));
		return 0;
	}
	flag = argv[2][0] == '1';
	req.gh.cmd = NLBL_UNLABEL_C_ACCEPT;
	put_attr(&req, NLBL_UNLABEL_A_ACPTFLG, &flag, sizeof(flag));
	if (roundtrip(fd, &req, ans, sizeof(ans), &err)) {
		fprintf(stderr, "attack-netlabel: accept: %s\n", strerror(errno));
		return 1;
	}
	printf("%s\n", err ? strerror(-err) : "ok");
	return 0;
}
