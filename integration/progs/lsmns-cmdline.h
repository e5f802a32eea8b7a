/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest programs' reading of the kernel command line, shared by
 * lsmns-assign.c and lsmns_abi_test.c (requests: lsmns-request.h).
 */
#ifndef LSMNS_CMDLINE_H
#define LSMNS_CMDLINE_H

#include <stdio.h>
#include <string.h>

/* Is the LSM called @name listed in lsmns.releasable= on /proc/cmdline? */
static inline int lsmns_cmdline_releasable(const char *name)
{
	char line[4096], *p, *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	p = strstr(line, "lsmns.releasable=");
	if (!p)
		return 0;
	p += strlen("lsmns.releasable=");
	p[strcspn(p, " \n")] = 0;
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, name))
			return 1;
	return 0;
}

#endif /* LSMNS_CMDLINE_H */
