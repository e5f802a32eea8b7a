// SPDX-License-Identifier: GPL-2.0
/*
 * attack-thread-exec: a multi-threaded target for the LSM namespace
 * hardening tests (issue 17, class 4: an execve from another thread than
 * the one the agent's pidfd names).
 *
 *   attack-thread-exec INFO GO N K PROG [ARG]...
 *
 * Starts N threads besides the main one (the thread-group leader) and
 * writes "PID TID1 ... TIDN" to the file INFO (through INFO.tmp and a
 * rename, so a reader never sees half a line).  Then it waits until the
 * file GO exists, and thread K (0: the leader, 1..N: the others) calls
 * execv(PROG, ARGS); the other threads wait until that execve ends them.
 *
 * Exit: PROG's; 126 if the execve failed (its errno on stderr); 2 on bad
 * usage; 1 if the threads could not be set up.
 *
 * No -pthread is needed: since glibc 2.34 the thread functions are in
 * libc itself, also for a static link.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 16

static const char *go_file;
static int execer;			/* K */
static char **prog;			/* PROG [ARG]... */
static pid_t tids[MAX_THREADS + 1];	/* [0]: the leader */
static pthread_barrier_t started;

static void pause_briefly(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Wait for GO; then exec if this is thread K, else wait to be ended. */
static void run(int me)
{
	if (me != execer)
		for (;;)
			pause();
	while (access(go_file, F_OK))
		pause_briefly();
	execv(prog[0], prog);
	fprintf(stderr, "attack-thread-exec: thread %d: execve %s: %s\n", me,
		prog[0], strerror(errno));
	exit(126);	/* the whole thread group */
}

static void *thread_main(void *arg)
{
	int me = (int)(long)arg;

	tids[me] = gettid();
	pthread_barrier_wait(&started);
	run(me);
	return NULL;
}

static int write_info(const char *info, int n)
{
	char tmp[4096];
	FILE *f;
	int i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", info);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	for (i = 0; i <= n; i++)
		fprintf(f, "%s%d", i ? " " : "", (int)tids[i]);
	fprintf(f, "\n");
	if (fclose(f))
		return -1;
	return rename(tmp, info);
}

int main(int argc, char **argv)
{
	pthread_t t;
	int n, i;

	if (argc < 6) {
		fprintf(stderr, "usage: attack-thread-exec INFO GO N K PROG [ARG]...\n");
		return 2;
	}
	go_file = argv[2];
	n = atoi(argv[3]);
	execer = atoi(argv[4]);
	prog = argv + 5;
	if (n < 1 || n > MAX_THREADS || execer < 0 || execer > n) {
		fprintf(stderr, "attack-thread-exec: want 1 <= N <= %d, 0 <= K <= N\n",
			MAX_THREADS);
		return 2;
	}
	tids[0] = gettid();
	if (pthread_barrier_init(&started, NULL, n + 1))
		return 1;
	for (i = 1; i <= n; i++)
		if (pthread_create(&t, NULL, thread_main, (void *)(long)i)) {
			fprintf(stderr, "attack-thread-exec: pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&started);
	if (write_info(argv[1], n)) {
		fprintf(stderr, "attack-thread-exec: write %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	run(0);
	return 1;
}
