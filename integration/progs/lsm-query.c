// SPDX-License-Identifier: GPL-2.0
/*
 * lsm-query: ask the kernel's LSM syscalls what a task can see.
 *
 *   lsm-query list         one line per LSM from lsm_list_modules(2)
 *   lsm-query get ATTR     "lsm value" per entry of lsm_get_self_attr(2);
 *                          ATTR is current, exec, fscreate, keycreate,
 *                          prev or sockcreate
 *
 * Exit status 0 on success; on failure one line naming the syscall and the
 * errno, and exit 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/lsm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *lsm_name(uint64_t id)
{
	switch (id) {
	case LSM_ID_CAPABILITY: return "capability";
	case LSM_ID_SELINUX: return "selinux";
	case LSM_ID_SMACK: return "smack";
	case LSM_ID_TOMOYO: return "tomoyo";
	case LSM_ID_APPARMOR: return "apparmor";
	case LSM_ID_YAMA: return "yama";
	case LSM_ID_LOADPIN: return "loadpin";
	case LSM_ID_SAFESETID: return "safesetid";
	case LSM_ID_LOCKDOWN: return "lockdown";
	case LSM_ID_BPF: return "bpf";
	case LSM_ID_LANDLOCK: return "landlock";
	default: return NULL;
	}
}

static const struct {
	const char *name;
	unsigned int attr;
} attrs[] = {
	{ "current", LSM_ATTR_CURRENT },   { "exec", LSM_ATTR_EXEC },
	{ "fscreate", LSM_ATTR_FSCREATE }, { "keycreate", LSM_ATTR_KEYCREATE },
	{ "prev", LSM_ATTR_PREV },	   { "sockcreate", LSM_ATTR_SOCKCREATE },
};

static void print_lsm(uint64_t id)
{
	const char *name = lsm_name(id);

	if (name)
		printf("%s", name);
	else
		printf("lsm-%llu", (unsigned long long)id);
}

static int do_list(void)
{
	uint64_t ids[64];
	uint32_t size = sizeof(ids);
	long n = syscall(__NR_lsm_list_modules, ids, &size, 0);

	if (n < 0) {
		fprintf(stderr, "lsm-query: lsm_list_modules: %s\n", strerror(errno));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		print_lsm(ids[i]);
		putchar('\n');
	}
	return 0;
}

static int do_get(const char *attr_name)
{
	unsigned int attr = 0;
	uint32_t size = 65536;
	struct lsm_ctx *buf, *ctx;
	long n;

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!strcmp(attrs[i].name, attr_name))
			attr = attrs[i].attr;
	if (!attr) {
		fprintf(stderr, "lsm-query: unknown attribute '%s'\n", attr_name);
		return 2;
	}
	buf = calloc(1, size);
	if (!buf) {
		fprintf(stderr, "lsm-query: out of memory\n");
		return 1;
	}
	n = syscall(__NR_lsm_get_self_attr, attr, buf, &size, 0);
	if (n < 0) {
		fprintf(stderr, "lsm-query: lsm_get_self_attr(%s): %s\n", attr_name,
			strerror(errno));
		free(buf);
		return 1;
	}
	ctx = buf;
	for (long i = 0; i < n; i++) {
		print_lsm(ctx->id);
		/* Contexts are NUL terminated; print up to the first NUL. */
		printf(" %.*s\n", (int)strnlen((char *)ctx->ctx, ctx->ctx_len),
		       (char *)ctx->ctx);
		ctx = (struct lsm_ctx *)((char *)ctx + ctx->len);
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "list"))
		return do_list();
	if (argc == 3 && !strcmp(argv[1], "get"))
		return do_get(argv[2]);
	fprintf(stderr, "usage: lsm-query list | lsm-query get ATTR\n");
	return 2;
}
