// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-timeit: run a command N times, one after the other, and report
 * its wall-clock time and the CPU time it used (user + system, from
 * wait4(2), so the command's own children are included once they are
 * waited for).  For the benchmarks that stress-ng has no stressor for:
 * container start latency and the hook's CPU time.
 *
 *   lsmns-timeit [-n N] [-i FILE] -- PROG [ARG]...
 *
 * -i FILE  each run reads its standard input from FILE, opened afresh
 *
 * Output, one line on stdout:
 *   runs=N wall_us_median=.. wall_us_min=.. wall_us_max=.. cpu_us_median=..
 * and exit 0; or, if the command could not run or any run exited
 * non-zero, no figure at all:
 *   failed run=R/N status=S
 * with the reason on stderr, and exit 1.  A caller must never read a
 * failed measurement as a figure: there is no runs= line then.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
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

int main(int argc, char **argv)
{
	static long long wall[MAX_RUNS], cpu[MAX_RUNS];
	const char *input = NULL;
	int n = 10, i = 1, r;

	while (i + 1 < argc && argv[i][0] == '-' && strcmp(argv[i], "--")) {
		if (!strcmp(argv[i], "-n"))
			n = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-i"))
			input = argv[i + 1];
		else
			break;
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc || n < 1 || n > MAX_RUNS) {
		fprintf(stderr, "usage: lsmns-timeit [-n 1..%d] [-i FILE] -- PROG [ARG]...\n",
			MAX_RUNS);
		return 2;
	}
	for (r = 0; r < n; r++) {
		struct rusage ru;
		long long t0 = now_us();
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			fprintf(stderr, "lsmns-timeit: fork: %s\n", strerror(errno));
			printf("failed run=%d/%d status=fork\n", r + 1, n);
			return 1;
		}
		if (!pid) {
			if (input) {
				int fd = open(input, O_RDONLY);

				if (fd < 0 || dup2(fd, 0) < 0) {
					fprintf(stderr, "lsmns-timeit: %s: %s\n", input,
						strerror(errno));
					_exit(126);
				}
				close(fd);
			}
			execvp(argv[i], argv + i);
			fprintf(stderr, "lsmns-timeit: exec %s: %s\n", argv[i], strerror(errno));
			_exit(127);
		}
		if (wait4(pid, &st, 0, &ru) < 0) {
			fprintf(stderr, "lsmns-timeit: wait4: %s\n", strerror(errno));
			printf("failed run=%d/%d status=wait4\n", r + 1, n);
			return 1;
		}
		wall[r] = now_us() - t0;
		cpu[r] = ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec +
			 ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

			fprintf(stderr, "lsmns-timeit: run %d of %s: status %d\n", r + 1, argv[i],
				status);
			printf("failed run=%d/%d status=%d\n", r + 1, n, status);
			return 1;
		}
	}
	{
		long long wmin, wmax, wmed, cmed;

		qsort(wall, n, sizeof(wall[0]), cmp_ll);
		wmin = wall[0];
		wmax = wall[n - 1];
		wmed = median(wall, n);
		cmed = median(cpu, n);
		printf("runs=%d wall_us_median=%lld wall_us_min=%lld wall_us_max=%lld cpu_us_median=%lld\n",
		       n, wmed, wmin, wmax, cmed);
	}
	return 0;
}
