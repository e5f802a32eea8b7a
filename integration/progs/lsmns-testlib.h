/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lsmns-fuzz.c and lsmns-race.c both need: the LSMs that can have a
 * namespace slot and which of them this boot runs and may release, a
 * seeded random generator (a run is repeated from its printed seed),
 * errno names for TAP lines, the namespace view of /proc/PID/attr/lsmns,
 * and small file and time helpers.  Include it after linux/lsm.h,
 * linux/lsmns.h and lsmns-cmdline.h.
 */
#ifndef LSMNS_TESTLIB_H
#define LSMNS_TESTLIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ASSIGN "/sys/kernel/security/lsmns/assign"
#define COUNT "/sys/kernel/security/lsmns/count"
#define CGROOT "/sys/fs/cgroup"

#define NSLOT 3
static const uint64_t slot_id[NSLOT] = { LSM_ID_SELINUX, LSM_ID_SMACK,
					 LSM_ID_APPARMOR };
static const char *const slot_name[NSLOT] = { "selinux", "smack", "apparmor" };
/* Filled by probe_lsms(): running, and named in lsmns.releasable=. */
static int enabled[NSLOT], releasable[NSLOT];

static inline int slot_of(uint64_t id)
{
	int i;

	for (i = 0; i < NSLOT; i++)
		if (slot_id[i] == id)
			return i;
	return -1;
}

static inline void probe_lsms(void)
{
	uint64_t ids[32];
	uint32_t size = sizeof(ids);
	int n, i, s;

	n = syscall(__NR_lsm_list_modules, ids, &size, 0);
	for (i = 0; i < n; i++) {
		s = slot_of(ids[i]);
		if (s >= 0)
			enabled[s] = 1;
	}
	for (s = 0; s < NSLOT; s++)
		releasable[s] = lsmns_cmdline_releasable(slot_name[s]);
}

/* splitmix64: small, fast, and the same sequence for the same seed. */
struct rng {
	uint64_t s;
};

static inline uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number below @n (0 when @n is 0). */
static inline uint32_t rn(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* The name of an errno the assignment ABI documents, else "errnoN". */
static inline const char *ename(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case EPROTO: return "EPROTO";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBADF: return "EBADF";
	case EINTR: return "EINTR";
	case ESRCH: return "ESRCH";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOMEM: return "ENOMEM";
	}
	snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

/* A task's namespace as /proc/PID/attr/lsmns shows it. */
struct nsview {
	int ok;			/* the file had an id */
	uint64_t id, parent;
	char iface[16];
	int mode[NSLOT];	/* LSMNS_MODE_*, 0: not shown, -1: unknown */
};

static inline void parse_view(const char *s, struct nsview *v)
{
	char buf[256], *tok, *save;
	int i;

	memset(v, 0, sizeof(*v));
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strncmp(tok, "id=", 3)) {
			v->id = strtoull(tok + 3, NULL, 10);
			v->ok = 1;
		} else if (!strncmp(tok, "parent=", 7)) {
			v->parent = strtoull(tok + 7, NULL, 10);
		} else if (!strncmp(tok, "interface=", 10)) {
			snprintf(v->iface, sizeof(v->iface), "%s", tok + 10);
		} else {
			for (i = 0; i < NSLOT; i++) {
				size_t l = strlen(slot_name[i]);

				if (strncmp(tok, slot_name[i], l) || tok[l] != '=')
					continue;
				if (!strcmp(tok + l + 1, "active"))
					v->mode[i] = LSMNS_MODE_ACTIVE;
				else if (!strcmp(tok + l + 1, "hidden"))
					v->mode[i] = LSMNS_MODE_HIDDEN;
				else if (!strcmp(tok + l + 1, "released"))
					v->mode[i] = LSMNS_MODE_RELEASED;
				else
					v->mode[i] = -1;
			}
		}
	}
}

static inline int pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

static inline void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Read @path into @buf (NUL-terminated, trailing newlines and NULs cut):
 * its length, or -errno with @buf empty.
 */
static inline int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	/* attr/current values may end with NUL or a newline */
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == 0))
		buf[--n] = 0;
	return (int)n;
}

/* lsmns/count, or -1. */
static inline long read_count(void)
{
	char buf[32];

	if (read_file(COUNT, buf, sizeof(buf)) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Write @s to @path in one write(): 0 or the errno. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	e = n < 0 ? errno : 0;
	close(fd);
	return e;
}

#endif /* LSMNS_TESTLIB_H */
