// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LSMs lsmns-hook knows and lists of them.
 */
#include <stdio.h>
#include <string.h>

#include "lsmns_hook.h"

const struct hook_lsm_info hook_lsms[HOOK_LSM_COUNT] = {
	[HOOK_LSM_SELINUX] = {
		.name = "selinux", .id = LSM_ID_SELINUX,
		.ctx_key = ANN_SELINUX_CTX, .spec_field = "selinuxLabel",
	},
	[HOOK_LSM_SMACK] = {
		.name = "smack", .id = LSM_ID_SMACK,
		.ctx_key = ANN_SMACK_LABEL, .spec_field = NULL,
	},
	[HOOK_LSM_APPARMOR] = {
		.name = "apparmor", .id = LSM_ID_APPARMOR,
		.ctx_key = ANN_APPARMOR_PROFILE, .spec_field = "apparmorProfile",
	},
};

int hook_lsm_by_name(const char *name, size_t len)
{
	int i;

	for (i = 0; i < HOOK_LSM_COUNT; i++)
		if (strlen(hook_lsms[i].name) == len &&
		    !memcmp(hook_lsms[i].name, name, len))
			return i;
	return -1;
}

const char *hook_mode_name(__u32 mode)
{
	switch (mode) {
	case LSMNS_MODE_ACTIVE:
		return "active";
	case LSMNS_MODE_HIDDEN:
		return "hidden";
	case LSMNS_MODE_RELEASED:
		return "released";
	default:
		return "invalid";
	}
}

int lsm_list_parse(const char *s, size_t len, struct lsm_list *out,
		   const char *what, struct hook_err *err)
{
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return hook_fail(err, HOOK_ERR_REFUSED, "%s is empty", what);
	while (i <= len) {
		size_t start, end;
		int idx;

		while (i < len && s[i] == ' ')
			i++;
		start = i;
		while (i < len && s[i] != ',')
			i++;
		end = i;
		while (end > start && s[end - 1] == ' ')
			end--;
		if (end == start)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s has an empty item", what);
		idx = hook_lsm_by_name(s + start, end - start);
		if (idx < 0)
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s: unknown LSM \"%.*s\" (known: selinux, smack, apparmor)",
					 what, (int)(end - start > 64 ? 64 : end - start),
					 s + start);
		if (out->mask & LSM_BIT(idx))
			return hook_fail(err, HOOK_ERR_REFUSED,
					 "%s names %s twice", what,
					 hook_lsms[idx].name);
		out->mask |= LSM_BIT(idx);
		out->idx[out->n++] = idx;
		i++;	/* skip ',' (or step past the end) */
	}
	return 0;
}

const char *lsm_mask_str(unsigned int mask, char *buf, size_t size)
{
	size_t o = 0;
	int i;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < HOOK_LSM_COUNT; i++) {
		if (!(mask & LSM_BIT(i)))
			continue;
		o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s",
				      o ? "," : "", hook_lsms[i].name);
		if (o >= size)
			break;
	}
	if (!buf[0])
		snprintf(buf, size, "none");
	return buf;
}
