/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the cmocka tests: temporary files, a sleeping target
 * process, and expectations on struct hook_err.
 */
#ifndef LSMNS_HOOK_TESTUTIL_H
#define LSMNS_HOOK_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lsmns_hook.h"

/* The error must have @status and its message must contain @needle. */
#define assert_err(err, st, needle)                                        \
	do {                                                               \
		if ((err)->status != (st) || !strstr((err)->msg, (needle))) \
			fail_msg("want status %d /%s/, got %d /%s/", (st),  \
				 (needle), (err)->status, (err)->msg);       \
	} while (0)

static inline char *tu_tmpdir(void)
{
	char tmpl[] = "/tmp/lsmns-hook-test.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static inline char *tu_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static inline void tu_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	/* independent of the umask: the hook refuses group-writable policies */
	assert_int_equal(chmod(path, 0644), 0);
}

static inline void tu_write_str(const char *path, const char *s)
{
	tu_write(path, s, strlen(s));
}

static inline char *tu_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* rm -r of a test directory (flat: files only). */
static inline void tu_rmdir(char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* A child that sleeps until killed: a real pid for pidfd_open(). */
static inline pid_t tu_sleeper(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static inline void tu_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A pid that is (very likely) free: a child that has been reaped. */
static inline pid_t tu_dead_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

#endif /* LSMNS_HOOK_TESTUTIL_H */
