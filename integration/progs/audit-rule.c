// SPDX-License-Identifier: GPL-2.0
/*
 * audit-rule: add a syscall-exit audit rule in the guest, for tests that
 * need audit records without auditctl in the initramfs.
 *
 *   audit-rule eacces-open
 *	log every openat(2) that fails with EACCES, with its PATH records
 *   audit-rule lsm-field KEY SYSCALL FIELD OP VALUE [A1_LOW A1_HIGH]
 *	log SYSCALL (getpriority or openat) when the LSM rule field FIELD
 *	(subj_user, subj_role, subj_type, subj_sen, subj_clr, obj_user,
 *	obj_role, obj_type, obj_lev_low, obj_lev_high) compares with OP
 *	(= or !=) to VALUE, and, if given, the second syscall argument is
 *	within A1_LOW..A1_HIGH; the records carry key="KEY".  Audit logs
 *	an event once, with the key of the first rule that matches, so
 *	rules that must not shadow each other get distinct A1 ranges
 *   audit-rule trigger MARKER
 *	call getpriority(PRIO_PROCESS, MARKER): MARKER is no pid, so the
 *	call fails harmlessly, and its SYSCALL record shows a1=MARKER in hex
 *
 * Exit status 0 when the kernel accepted the rule; otherwise one line
 * naming the failed step (with the kernel's errno), and exit 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fail(const char *what, int err)
{
	fprintf(stderr, "audit-rule: %s: %s\n", what, strerror(err));
	return 1;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "audit-rule: %s: '%s'\n", what, arg);
	return 1;
}

static const struct {
	const char *name;
	__u32 field;
} lsm_fields[] = {
	{ "subj_user", AUDIT_SUBJ_USER },
	{ "subj_role", AUDIT_SUBJ_ROLE },
	{ "subj_type", AUDIT_SUBJ_TYPE },
	{ "subj_sen", AUDIT_SUBJ_SEN },
	{ "subj_clr", AUDIT_SUBJ_CLR },
	{ "obj_user", AUDIT_OBJ_USER },
	{ "obj_role", AUDIT_OBJ_ROLE },
	{ "obj_type", AUDIT_OBJ_TYPE },
	{ "obj_lev_low", AUDIT_OBJ_LEV_LOW },
	{ "obj_lev_high", AUDIT_OBJ_LEV_HIGH },
};

/* Send AUDIT_ADD_RULE with @rule (@len bytes, strings included). */
static int send_rule(const struct audit_rule_data *rule, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		struct nlmsgerr err;
	} ack;
	struct nlmsghdr *nlh;
	ssize_t n;
	int fd, err;

	nlh = calloc(1, NLMSG_SPACE(len));
	if (!nlh)
		return fail("allocate the request", errno);
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = AUDIT_ADD_RULE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	memcpy(NLMSG_DATA(nlh), rule, len);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0) {
		free(nlh);
		return fail("socket(NETLINK_AUDIT)", errno);
	}
	n = sendto(fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel));
	free(nlh);
	if (n < 0) {
		err = errno;
		close(fd);
		return fail("send AUDIT_ADD_RULE", err);
	}
	n = recv(fd, &ack, sizeof(ack), 0);
	err = errno;
	close(fd);
	if (n < 0)
		return fail("receive the acknowledgement", err);
	if ((size_t)n < sizeof(ack) || ack.nlh.nlmsg_type != NLMSG_ERROR)
		return fail("the kernel's answer", EPROTO);
	if (ack.err.error)
		return fail("AUDIT_ADD_RULE", -ack.err.error);
	return 0;
}

/* Append field @field compared with @op to the number @value. */
static void add_field(struct audit_rule_data *rule, __u32 field, __u32 op,
		      __u32 value)
{
	__u32 i = rule->field_count++;

	rule->fields[i] = field;
	rule->fieldflags[i] = op;
	rule->values[i] = value;
}

/* A new exit rule for @syscall on x86_64, with room for @strings bytes. */
static struct audit_rule_data *exit_rule(int syscall, size_t strings)
{
	struct audit_rule_data *rule;

	rule = calloc(1, sizeof(*rule) + strings);
	if (!rule)
		return NULL;
	rule->flags = AUDIT_FILTER_EXIT;
	rule->action = AUDIT_ALWAYS;
	rule->mask[syscall / 32] |= 1U << (syscall % 32);
	add_field(rule, AUDIT_ARCH, AUDIT_EQUAL, AUDIT_ARCH_X86_64);
	return rule;
}

static int add_eacces_open_rule(void)
{
	struct audit_rule_data *rule = exit_rule(SYS_openat, 0);
	int rc;

	if (!rule)
		return fail("allocate the rule", errno);
	add_field(rule, AUDIT_EXIT, AUDIT_EQUAL, (__u32)-EACCES);
	rc = send_rule(rule, sizeof(*rule));
	free(rule);
	return rc;
}

/* Append string field @field (compared with @op) holding @value. */
static void add_string_field(struct audit_rule_data *rule, __u32 field,
			     __u32 op, const char *value)
{
	size_t len = strlen(value);

	add_field(rule, field, op, len);
	memcpy(rule->buf + rule->buflen, value, len);
	rule->buflen += len;
}

/* Parse a number for an a1 bound or a marker: 0 to 0x7fffffff. */
static int parse_u31(const char *s, __u32 *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || !*s || v > 0x7fffffff)
		return -1;
	*out = v;
	return 0;
}

static int add_lsm_field_rule(const char *key, const char *syscall,
			      const char *field, const char *op,
			      const char *value, const char *a1_low,
			      const char *a1_high)
{
	__u32 low = 0, high = 0;
	struct audit_rule_data *rule;
	__u32 field_id = 0, op_id;
	size_t i;
	int nr, rc;

	if (!strcmp(syscall, "getpriority"))
		nr = SYS_getpriority;
	else if (!strcmp(syscall, "openat"))
		nr = SYS_openat;
	else
		return bad("unknown syscall (getpriority or openat)", syscall);
	for (i = 0; i < sizeof(lsm_fields) / sizeof(lsm_fields[0]); i++)
		if (!strcmp(field, lsm_fields[i].name))
			field_id = lsm_fields[i].field;
	if (!field_id)
		return bad("unknown LSM field", field);
	if (!strcmp(op, "="))
		op_id = AUDIT_EQUAL;
	else if (!strcmp(op, "!="))
		op_id = AUDIT_NOT_EQUAL;
	else
		return bad("unknown operator (= or !=)", op);
	if (strlen(key) > AUDIT_MAX_KEY_LEN)
		return bad("key too long", key);
	if (a1_low && parse_u31(a1_low, &low))
		return bad("not an a1 bound (0 to 0x7fffffff)", a1_low);
	if (a1_high && parse_u31(a1_high, &high))
		return bad("not an a1 bound (0 to 0x7fffffff)", a1_high);

	rule = exit_rule(nr, strlen(value) + strlen(key));
	if (!rule)
		return fail("allocate the rule", errno);
	add_string_field(rule, field_id, op_id, value);
	if (a1_low) {
		add_field(rule, AUDIT_ARG1, AUDIT_GREATER_THAN_OR_EQUAL, low);
		add_field(rule, AUDIT_ARG1, AUDIT_LESS_THAN_OR_EQUAL, high);
	}
	add_string_field(rule, AUDIT_FILTERKEY, AUDIT_EQUAL, key);
	rc = send_rule(rule, sizeof(*rule) + rule->buflen);
	free(rule);
	return rc;
}

static int trigger(const char *marker)
{
	__u32 who;

	if (parse_u31(marker, &who))
		return bad("not a marker (0 to 0x7fffffff)", marker);
	errno = 0;
	if (getpriority(PRIO_PROCESS, (id_t)who) == -1 && errno != ESRCH)
		return fail("getpriority", errno);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "eacces-open"))
		return add_eacces_open_rule();
	if ((argc == 7 || argc == 9) && !strcmp(argv[1], "lsm-field"))
		return add_lsm_field_rule(argv[2], argv[3], argv[4], argv[5],
					  argv[6], argc == 9 ? argv[7] : NULL,
					  argc == 9 ? argv[8] : NULL);
	if (argc == 3 && !strcmp(argv[1], "trigger"))
		return trigger(argv[2]);
	fprintf(stderr, "usage: audit-rule eacces-open\n"
		"       audit-rule lsm-field KEY getpriority|openat FIELD =|!= VALUE [A1_LOW A1_HIGH]\n"
		"       audit-rule trigger MARKER\n");
	return 2;
}
