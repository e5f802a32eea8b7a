// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-pair: the CPU time of two commands, run alternately run by run, so
 * that whatever else the machine does weighs on both alike (run in two
 * blocks, one of them can fall in a busy minute and the other not).
 *
 *   cpu-pair -n N -i FILE -- CMD-A [ARG]... ::: CMD-B [ARG]...
 *
 * CMD-A reads FILE on its standard input (opened afresh each run), CMD-B
 * /dev/null; both write to /dev/null.  Prints two lines, A's then B's:
 *   runs=N wall_us_median=.. wall_us_min=.. wall_us_max=.. cpu_us_median=..
 * (CPU = user + system from wait4(2): exec, loading and every system call
 * count) and exits 0; if a run fails, prints
 *   failed run=R/N status=S
 * with the command on stderr, and exits 1: no figure for either.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 10000

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* One run of @argv with @input on stdin; its CPU and wall time, or -1. */
static int run_once(char **argv, const char *input, long long *cpu, long long *wall)
{
	struct rusage ru;
	long long t0 = now_us();
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("cpu-pair: fork");
		return -1;
	}
	if (pid == 0) {
		int in = open(input, O_RDONLY | O_CLOEXEC);
		int out = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("cpu-pair: wait4");
		return -1;
	}
	*wall = now_us() - t0;
	*cpu = ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : status;
}

int main(int argc, char **argv)
{
	static long long cpu[2][MAX_RUNS], wall[2][MAX_RUNS];
	const char *input = NULL;
	char **cmd[2] = { NULL, NULL };
	int n = 0, i, r, c;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-i") && i + 1 < argc)
			input = argv[++i];
		else if (!strcmp(argv[i], "--"))
			break;
	}
	if (i < argc)
		cmd[0] = &argv[i + 1];
	for (i++; i < argc; i++) {
		if (!strcmp(argv[i], ":::")) {
			argv[i] = NULL;
			cmd[1] = &argv[i + 1];
			break;
		}
	}
	if (n < 1 || n > MAX_RUNS || !input || !cmd[0] || !cmd[0][0] || !cmd[1] || !cmd[1][0]) {
		fprintf(stderr, "usage: cpu-pair -n N (1..%d) -i FILE -- CMD-A [ARG]... ::: CMD-B [ARG]...\n",
			MAX_RUNS);
		return 2;
	}
	for (r = 0; r < n; r++) {
		for (c = 0; c < 2; c++) {
			int st = run_once(cmd[c], c ? "/dev/null" : input, &cpu[c][r], &wall[c][r]);

			if (st) {
				printf("failed run=%d/%d status=%d\n", r + 1, n, st);
				fprintf(stderr, "cpu-pair: %s failed (wait status %d)\n", cmd[c][0], st);
				return 1;
			}
		}
	}
	for (c = 0; c < 2; c++) {
		long long wmed = median(wall[c], n);

		printf("runs=%d wall_us_median=%lld wall_us_min=%lld wall_us_max=%lld cpu_us_median=%lld\n",
		       n, wmed, wall[c][0], wall[c][n - 1], median(cpu[c], n));
	}
	return 0;
}
