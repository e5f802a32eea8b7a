// SPDX-License-Identifier: GPL-2.0
/*
 * audit-rule: add one syscall-exit audit rule in the guest, for tests that
 * need the records of a syscall's objects (PATH, and the stacking
 * series' AUDIT_MAC_OBJ_CONTEXTS) without auditctl in the initramfs.
 *
 *   audit-rule eacces-open
 *	log every openat(2) that fails with EACCES, with its PATH records
 *
 * Exit status 0 when the kernel accepted the rule; otherwise one line
 * naming the failed step, and exit 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(const char *what, int err)
{
	fprintf(stderr, "audit-rule: %s: %s\n", what, strerror(err));
	return 1;
}

static int add_eacces_open_rule(void)
{
	struct {
		struct nlmsghdr nlh;
		struct audit_rule_data rule;
	} req;
	struct {
		struct nlmsghdr nlh;
		struct nlmsgerr err;
	} ack;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t n;
	int fd;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = AUDIT_ADD_RULE;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nlh.nlmsg_seq = 1;
	req.rule.flags = AUDIT_FILTER_EXIT;
	req.rule.action = AUDIT_ALWAYS;
	req.rule.mask[SYS_openat / 32] |= 1U << (SYS_openat % 32);
	req.rule.field_count = 2;
	req.rule.fields[0] = AUDIT_ARCH;
	req.rule.fieldflags[0] = AUDIT_EQUAL;
	req.rule.values[0] = AUDIT_ARCH_X86_64;
	req.rule.fields[1] = AUDIT_EXIT;
	req.rule.fieldflags[1] = AUDIT_EQUAL;
	req.rule.values[1] = (__u32)-EACCES;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0)
		return fail("socket(NETLINK_AUDIT)", errno);
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return fail("send AUDIT_ADD_RULE", errno);
	n = recv(fd, &ack, sizeof(ack), 0);
	if (n < 0)
		return fail("receive the acknowledgement", errno);
	if ((size_t)n < sizeof(ack) || ack.nlh.nlmsg_type != NLMSG_ERROR)
		return fail("the kernel's answer", EPROTO);
	if (ack.err.error)
		return fail("AUDIT_ADD_RULE", -ack.err.error);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "eacces-open"))
		return add_eacces_open_rule();
	fprintf(stderr, "usage: audit-rule eacces-open\n");
	return 2;
}
