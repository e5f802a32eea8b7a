// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-fuzz: fuzz /sys/kernel/security/lsmns/assign from the guest.
 *
 *   lsmns-fuzz [-n REQUESTS] [-j WRITERS] [-s SEED] [-e EPOCHS]
 *		[-t TARGETS] [-c CHURN] [-q] [-x]
 *
 * Deterministic from SEED (printed first; default from the clock): each
 * writer's sequence of requests and each epoch's set of targets depend on
 * nothing else, only the interleaving does.  REQUESTS (default 100000)
 * are split over EPOCHS (default 10); in each epoch the coordinator makes
 * TARGETS tasks of every kind (default 24), forks WRITERS writer processes
 * (default 4) that share them, and meanwhile changes the world under them:
 * it lets targets exec, kills some, moves them between cgroups, removes
 * their cgroups and starts later entrants there.
 *
 * Requests are mutated valid ones and random ones: versions, flags, sizes
 * (short, huge, unaligned, crossing an unmapped page), entry counts,
 * duplicate and unknown LSM ids, modes 0..5, contexts with odd bytes, no
 * NUL, an embedded NUL, maximum length, interface LSMs and reserved fields.
 * Targets: children blocked before their first exec, a multi-threaded
 * child (pidfd_open with and without PIDFD_THREAD, leader and other
 * threads), zombies, reaped children (their pid may be reused), children
 * that exit by themselves or are killed, children that exec themselves in
 * a loop, children in a cgroup of their own that is removed while bound,
 * the writer itself, and descriptors that are no pidfd at all.
 *
 * Checks (TAP, one result each, "# " lines say what failed):
 *  1. every write returns success or a documented errno; when the request
 *     is malformed, exactly the errno and entry index the documented order
 *     of checks calls for (a model of that order is below), and for a
 *     well-formed one an errno the target phase can give, consistent with
 *     the target (EBADF for a non-pidfd, ESRCH for a dead task, never
 *     ESRCH for a task that is alive, an entry index only with an entry
 *     to blame);
 *  2. the result read back after a write matches it;
 *  3. at the end of each epoch every target still alive execs once more
 *     and runs in the namespace of the last accepted assignment: the one
 *     with the highest ns_id, whose modes are, slot by slot, the most
 *     restrictive of all accepted for it (never wider), with its interface
 *     LSM and its Smack and AppArmor contexts; none accepted: id=0.  A
 *     target that execs in a loop only ever moves to a child of the
 *     namespace it is in;
 *  4. later entrants of a bound cgroup adopt nothing or a namespace
 *     accepted for that cgroup's target;
 *  5. inside a namespace, opening the assign file and writing to one
 *     inherited from the agent are EPERM;
 *  6. lsmns/count returns to its value before the run once everything is
 *     reaped (polled: namespaces are freed after an RCU grace period).
 *
 * -x: an LSM may refuse an execve into an accepted assignment (a loaded
 *  policy); without it every such refusal is a failure (no policy loaded).
 * -c CHURN: how often targets exec and the world changes, in percent of
 *  the default 100 (a writer's own targets exec every ~35 requests, loop
 *  targets every ~1 ms); a fork and exec costs about 0.5 s on the debug
 *  kernel under TCG, where 5 keeps the run writing rather than exec'ing.
 * -q: no audit records of assignments during the run (an audit exclude
 *  rule, removed at the end): each costs ~3 ms on the debug kernel.
 *
 * Internal modes, exec'd by the fuzzer itself: --hold, --loop, --threads,
 * --probe (descriptors 3: report pipe, 4: command pipe, 5: an assign
 * file the agent opened).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/lsm.h>
/* The ABI header, as the kernel series installs it (kernel/uapi/). */
#include "../../kernel/uapi/linux/lsmns.h"
#include "lsmns-cmdline.h"
#include "lsmns-request.h"
#include "lsmns-testlib.h"
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static char self_exe[PATH_MAX];
static int allow_exec_refusal;
/* -c: how often targets exec, in percent of the default (execs are slow
 * on the debug kernel) */
static unsigned int churn = 100;
static int quiet_audit;

/* ---- deterministic random numbers (splitmix64) ---- */

static int chance(struct rng *r, unsigned int pct)
{
	return rn(r, 100) < pct;
}

/* ---- shared state (MAP_SHARED, set up before any fork) ---- */

enum { K_BLOCKED, K_THREADS, K_LOOP, K_ZOMBIE, K_REAPED, K_EXITING, K_CGROUP,
       K_NKINDS };
static const char *const kind_name[K_NKINDS] = {
	"blocked", "threads", "exec-loop", "zombie", "reaped", "exiting", "cgroup"
};
/* What a target's pidfd names. */
enum { P_PROCESS, P_THREAD_LEADER, P_THREAD_OTHER };

/* Target states (coordinator's view). */
enum { S_NEW, S_HOLD, S_DEAD, S_GONE };

#define MAXT 64
#define MAXACC 48
#define MAXPFD 8
#define NTHREADS 3
#define MAXENTRANTS 16
#define NFAILMSG 24

struct acc {
	uint64_t ns_id;
	uint64_t iface;
	uint8_t mode[NSLOT];
	uint8_t has_ctx[NSLOT];
	char ctx[NSLOT][40];
	int valid;
};

struct target {
	int kind;
	pid_t pid;
	int state;
	int may_die;		/* set before the coordinator kills it */
	int npfd;
	int pfd[MAXPFD];
	int pfd_kind[MAXPFD];
	pid_t tid[NTHREADS + 1];
	int rfd, cfd;		/* report pipe (read), command pipe (write) */
	char cg[80];		/* K_CGROUP: its cgroup, "" once removed */
	uint32_t nacc;
	struct acc acc[MAXACC];
	/* report lines */
	char line[512];
	size_t linelen;
	int reports;		/* "R" lines seen */
	char last_r[128];
	int exec_fail;		/* errno of the last "F" line */
	int violations;
	char vline[128];
};

struct entrant {
	pid_t pid;
	int rfd;
	int target;
	char out[128];
};

struct shared {
	uint64_t hist_ok;
	uint64_t hist[256];
	uint64_t writes;
	uint64_t pred_struct;	/* malformed: errno and index as modelled */
	uint64_t pred_target;	/* well formed: a target-phase errno */
	uint64_t efault, eperm_unpriv, nonleader_esrch;
	uint64_t accepted_smack_star, accepted_smack_web;
	uint64_t fail_errno, fail_result;	/* writers */
	uint64_t fail_verify, fail_entrant, fail_inside, fail_world;
	uint64_t fail_predict;	/* writers' own targets */
	uint64_t priv_targets, priv_execs, priv_predicted, priv_accepted;
	uint32_t nmsg;
	char msg[NFAILMSG][240];
	int nt;
	struct target t[MAXT];
};

static struct shared *sh;
static int g_assign_fd = -1;	/* inherited by targets as fd 5 */
static void child_fds(int rfd_w, int cfd_r);
static void exec_mode(const char *mode, char *extra);

static void failmsg(uint64_t *counter, const char *fmt, ...)
{
	uint32_t i;
	va_list ap;

	__atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST);
	i = __atomic_fetch_add(&sh->nmsg, 1, __ATOMIC_SEQ_CST);
	if (i >= NFAILMSG)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->msg[i], sizeof(sh->msg[i]), fmt, ap);
	va_end(ap);
}

/* ---- small helpers ---- */

/* mainline's type for modules out of tree (kernel patch 0100) */
#ifndef AUDIT_LSMNS_ASSIGN
#define AUDIT_LSMNS_ASSIGN AUDIT_KERNEL_OTHER
#endif

/*
 * -q: an audit rule that excludes the records of LSM namespace
 * assignment (type AUDIT_LSMNS_ASSIGN) for the run (@add) or removes it.
 * Every write makes one, which costs about 3 ms on the debug kernel under
 * TCG, ten times the write itself.  0 or the errno.
 */
static int audit_exclude(int add)
{
	struct {
		struct nlmsghdr nh;
		struct audit_rule_data r;
		uint32_t fill[AUDIT_MAX_FIELDS];
	} req;
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
		char more[256];
	} ack;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT), e;
	ssize_t n;

	if (fd < 0)
		return errno;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct audit_rule_data));
	req.nh.nlmsg_type = add ? AUDIT_ADD_RULE : AUDIT_DEL_RULE;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	req.r.flags = AUDIT_FILTER_EXCLUDE;
	req.r.action = AUDIT_NEVER;
	req.r.field_count = 1;
	req.r.fields[0] = AUDIT_MSGTYPE;
	req.r.fieldflags[0] = AUDIT_EQUAL;
	req.r.values[0] = AUDIT_LSMNS_ASSIGN;
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		e = errno;
		close(fd);
		return e;
	}
	n = recv(fd, &ack, sizeof(ack), 0);
	e = n < 0 ? errno :
	    ack.nh.nlmsg_type == NLMSG_ERROR ? -ack.err.error : 0;
	close(fd);
	return e;
}

static void usleep_(unsigned int us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the model of the documented order of checks ---- */

struct parsed {
	int err;		/* expected errno of the structural checks, 0 */
	uint32_t index;		/* expected failed_index */
	uint32_t nentries;
	int listed[NSLOT];
	uint32_t eidx[NSLOT];
	uint32_t mode[NSLOT];
	uint64_t iface;
	const unsigned char *ctx[NSLOT];
	uint64_t ctx_len[NSLOT];
	int32_t pidfd;
	/* per entry index: has a context, is released (for index checks) */
	uint8_t ent_ctx[LSMNS_MAX_ENTRIES], ent_rel[LSMNS_MAX_ENTRIES];
};

#define ALIGN8(x) (((x) + 7) & ~(uint64_t)7)

/*
 * The checks of docs/kernel-abi.md, "Errors, in the order they are
 * checked", on a request of @count readable bytes; the length checks
 * (shorter than the header, over LSMNS_MAX_REQUEST_SIZE) are the caller's.
 */
static void model(const unsigned char *buf, size_t count, struct parsed *p)
{
	struct lsmns_assign_hdr h;
	size_t off = sizeof(h);
	int first = -1, s;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->index = LSMNS_NO_INDEX;
	memcpy(&h, buf, sizeof(h));
	p->pidfd = h.pidfd;
	p->nentries = h.nentries;
	for (s = 0; s < NSLOT; s++) {
		p->mode[s] = LSMNS_MODE_HIDDEN;
		p->eidx[s] = LSMNS_NO_INDEX;
	}
	if (h.version != LSMNS_ABI_VERSION) {
		p->err = EPROTO;
		return;
	}
	if (h.flags || h.reserved || h.size != count || !h.nentries) {
		p->err = EINVAL;
		return;
	}
	if (h.nentries > LSMNS_MAX_ENTRIES) {
		p->err = E2BIG;
		return;
	}
	for (i = 0; i < h.nentries; i++) {
		struct lsmns_entry e;
		struct lsm_ctx c;
		uint64_t need;

		p->index = i;
		if (count - off < sizeof(e) + sizeof(c)) {
			p->err = EINVAL;
			return;
		}
		memcpy(&e, buf + off, sizeof(e));
		memcpy(&c, buf + off + sizeof(e), sizeof(c));
		if (e.reserved || c.flags) {
			p->err = EINVAL;
			return;
		}
		if (c.ctx_len > LSMNS_MAX_CTX_LEN) {
			p->err = E2BIG;
			return;
		}
		need = ALIGN8(sizeof(c) + c.ctx_len);
		if (c.len != need || count - off - sizeof(e) < need) {
			p->err = EINVAL;
			return;
		}
		if (c.ctx_len &&
		    strnlen((const char *)buf + off + sizeof(e) + sizeof(c),
			    c.ctx_len) != c.ctx_len - 1) {
			p->err = EINVAL;
			return;
		}
		if (e.mode < LSMNS_MODE_ACTIVE || e.mode > LSMNS_MODE_RELEASED) {
			p->err = EINVAL;
			return;
		}
		s = slot_of(c.id);
		if (s < 0 || !enabled[s]) {
			p->err = ENOENT;
			return;
		}
		if (p->listed[s]) {
			p->err = EEXIST;
			return;
		}
		p->listed[s] = 1;
		p->eidx[s] = i;
		p->mode[s] = e.mode;
		p->ctx[s] = c.ctx_len ? buf + off + sizeof(e) + sizeof(c) : NULL;
		p->ctx_len[s] = c.ctx_len;
		p->ent_ctx[i] = c.ctx_len != 0;
		p->ent_rel[i] = e.mode == LSMNS_MODE_RELEASED;
		off += sizeof(e) + need;
	}
	p->index = LSMNS_NO_INDEX;
	if (off != count) {
		p->err = EINVAL;
		return;
	}
	for (s = 0; s < NSLOT; s++) {
		if (p->mode[s] == LSMNS_MODE_ACTIVE &&
		    (first < 0 || p->eidx[s] < p->eidx[first]))
			first = s;
		if (p->mode[s] != LSMNS_MODE_RELEASED)
			continue;
		p->index = p->eidx[s];
		if (!releasable[s]) {
			p->err = EPERM;
			return;
		}
		if (p->ctx[s]) {
			p->err = EINVAL;
			return;
		}
		p->index = LSMNS_NO_INDEX;
	}
	if (first < 0) {
		p->err = EINVAL;
		return;
	}
	if (!h.interface_lsm) {
		p->iface = slot_id[first];
	} else {
		s = slot_of(h.interface_lsm);
		if (s < 0 || p->mode[s] != LSMNS_MODE_ACTIVE) {
			p->err = EINVAL;
			return;
		}
		p->iface = h.interface_lsm;
	}
}

/* ---- request generation ---- */

#define BUFSZ (LSMNS_MAX_REQUEST_SIZE + 8192)

struct gent {
	uint32_t mode, reserved;
	uint64_t id, flags, len, ctx_len;
	size_t nbytes;		/* bytes of ctx[] in the request */
	unsigned char ctx[LSMNS_MAX_CTX_LEN + 16];
};

struct greq {
	struct lsmns_assign_hdr h;
	uint32_t n;
	struct gent e[LSMNS_MAX_ENTRIES + 2];
};

static const char *const ctx_selinux[] = {
	"system_u:system_r:container_t:s0:c1,c2", "kernel",
	"unconfined_u:unconfined_r:unconfined_t:s0",
	"system_u:system_r:container_t:s0", "x:y:z", "::::",
};
static const char *const ctx_smack[] = {
	"_", "^", "*", "@", "?", "ContainerC", "floor", "Smack-Label_1",
};
static const char *const ctx_apparmor[] = {
	"unconfined", "lsmns-demo-apparmor", ":root:unconfined",
	"unconfined//&unconfined", "&unconfined", ":lsmns_fuzz:", "//", ":",
	"unconfined (enforce)", "=", "a//b//c",
};
/* Smack and AppArmor contexts the LSM knows with no policy loaded. */
static const char *const good_smack[] = { "_", "^", "*", "@", "?" };

static const uint64_t odd_ids[] = {
	0, LSM_ID_CAPABILITY, LSM_ID_TOMOYO, LSM_ID_YAMA, LSM_ID_LANDLOCK,
	LSM_ID_IMA, LSM_ID_BPF, 1, 99, 114, 9999, 0xffffffffULL,
	0x100000065ULL /* SELinux's id plus 2^32 */, ~0ULL,
};

static const uint64_t interesting[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 33, 39, 40, 64, 255, 4095,
	4096, 4097, 65535, 65536, 65537, 0x7fffffff, 0x80000000, 0xffffffff,
	0x100000000ULL, ~0ULL,
};

static void gen_ctx_bytes(struct rng *r, int slot, struct gent *e)
{
	const char *s = NULL;
	size_t n, i;

	switch (rn(r, 10)) {
	case 0: case 1: case 2: case 3:
		/* a name this LSM may know */
		if (slot == 0)
			s = ctx_selinux[rn(r, sizeof(ctx_selinux) / sizeof(*ctx_selinux))];
		else if (slot == 1)
			s = ctx_smack[rn(r, sizeof(ctx_smack) / sizeof(*ctx_smack))];
		else
			s = ctx_apparmor[rn(r, sizeof(ctx_apparmor) / sizeof(*ctx_apparmor))];
		break;
	case 4:
		s = good_smack[rn(r, 5)];
		break;
	case 5: /* odd bytes, no NUL inside */
		n = 1 + rn(r, 64);
		for (i = 0; i < n; i++)
			e->ctx[i] = 1 + rn(r, 255);
		e->ctx[n] = 0;
		e->nbytes = n + 1;
		return;
	case 6: /* printable with spaces and quotes (audit hex-encodes) */
		n = 1 + rn(r, 48);
		for (i = 0; i < n; i++)
			e->ctx[i] = " \"'abc:_/&=()*@^?\\\x7f"[rn(r, 20)];
		e->ctx[n] = 0;
		e->nbytes = n + 1;
		return;
	case 7: /* the longest context: LSMNS_MAX_CTX_LEN with its NUL */
		n = LSMNS_MAX_CTX_LEN - 1 - (chance(r, 50) ? 0 : rn(r, 8));
		memset(e->ctx, "a:_x"[rn(r, 4)], n);
		e->ctx[n] = 0;
		e->nbytes = n + 1;
		return;
	case 8: /* one past the longest */
		n = LSMNS_MAX_CTX_LEN + rn(r, 4);
		memset(e->ctx, 'b', n);
		e->ctx[n] = 0;
		e->nbytes = n + 1;
		return;
	default: /* empty string (ctx_len 1) */
		e->ctx[0] = 0;
		e->nbytes = 1;
		return;
	}
	n = strlen(s);
	memcpy(e->ctx, s, n + 1);
	e->nbytes = n + 1;
}

/* A request that is well formed more often than not. */
static void gen_structured(struct rng *r, struct greq *g, int32_t pidfd)
{
	int order[NSLOT] = { 0, 1, 2 }, i, j, t, nact = 0;
	uint32_t n;

	memset(&g->h, 0, sizeof(g->h));
	g->h.version = LSMNS_ABI_VERSION;
	g->h.pidfd = pidfd;
	for (i = NSLOT - 1; i > 0; i--) {
		j = rn(r, i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	n = 1 + rn(r, NSLOT);
	if (chance(r, 8))
		n = 1 + rn(r, LSMNS_MAX_ENTRIES + 1);	/* duplicates */
	g->n = n;
	for (i = 0; i < (int)n; i++) {
		struct gent *e = &g->e[i];
		int slot = order[i % NSLOT];

		memset(e, 0, offsetof(struct gent, ctx));
		e->id = slot_id[slot];
		if (chance(r, 5))
			e->id = odd_ids[rn(r, sizeof(odd_ids) / sizeof(*odd_ids))];
		/* active 45%, hidden 40%, released 12%, other 3% */
		t = rn(r, 100);
		e->mode = t < 45 ? LSMNS_MODE_ACTIVE :
			  t < 85 ? LSMNS_MODE_HIDDEN :
			  t < 97 ? LSMNS_MODE_RELEASED : rn(r, 6);
		if (e->mode == LSMNS_MODE_ACTIVE)
			nact++;
		if (i == (int)n - 1 && !nact && chance(r, 80))
			e->mode = LSMNS_MODE_ACTIVE;
		e->nbytes = 0;
		if (e->mode != LSMNS_MODE_RELEASED ? chance(r, 45) : chance(r, 5))
			gen_ctx_bytes(r, slot, e);
		e->ctx_len = e->nbytes;
		e->len = ALIGN8(sizeof(struct lsm_ctx) + e->nbytes);
	}
	t = rn(r, 10);
	if (t < 6)
		g->h.interface_lsm = 0;
	else if (t < 9)
		g->h.interface_lsm = slot_id[rn(r, NSLOT)];
	else
		g->h.interface_lsm = odd_ids[rn(r, sizeof(odd_ids) / sizeof(*odd_ids))];
}

/* Field-level mutations of a structured request. */
static void mutate_fields(struct rng *r, struct greq *g)
{
	struct gent *e = &g->e[rn(r, g->n)];
	size_t i;

	switch (rn(r, 14)) {
	case 0:
		g->h.version = chance(r, 50) ? rn(r, 4) : (uint32_t)rnd(r);
		break;
	case 1:
		g->h.flags = 1u << rn(r, 32);
		break;
	case 2:
		g->h.reserved = (uint32_t)rnd(r) | 1;
		break;
	case 3:
		e->mode = rn(r, 6);
		break;
	case 4:
		e->reserved = 1u << rn(r, 32);
		break;
	case 5:
		e->flags = 1ULL << rn(r, 64);
		break;
	case 6: /* len not the aligned size */
		e->len = chance(r, 50) ? e->len + 8 * (1 + rn(r, 3)) :
			 interesting[rn(r, sizeof(interesting) / sizeof(*interesting))];
		break;
	case 7: /* ctx_len disagrees with what is there */
		e->ctx_len = interesting[rn(r, sizeof(interesting) / sizeof(*interesting))];
		if (chance(r, 50))
			e->len = ALIGN8(sizeof(struct lsm_ctx) + e->ctx_len);
		break;
	case 8: /* no NUL at the end */
		if (e->nbytes)
			e->ctx[e->nbytes - 1] = 'z';
		break;
	case 9: /* an embedded NUL */
		if (e->nbytes > 2)
			e->ctx[rn(r, e->nbytes - 1)] = 0;
		break;
	case 10: /* a duplicate */
		if (g->n < LSMNS_MAX_ENTRIES && g->n >= 1) {
			g->e[g->n] = g->e[0];
			g->n++;
		}
		break;
	case 11:
		e->id = odd_ids[rn(r, sizeof(odd_ids) / sizeof(*odd_ids))];
		break;
	case 12:
		for (i = 0; i < e->nbytes - (e->nbytes ? 1 : 0); i++)
			if (chance(r, 20))
				e->ctx[i] = 0x80 + rn(r, 128);
		break;
	default:
		g->h.interface_lsm =
			interesting[rn(r, sizeof(interesting) / sizeof(*interesting))] +
			(chance(r, 50) ? 100 : 0);
		break;
	}
}

/* Lay @g out in @buf; return its size (capped at @cap). */
static size_t serialize(const struct greq *g, unsigned char *buf, size_t cap)
{
	size_t off = sizeof(g->h), pad;
	uint32_t i;

	for (i = 0; i < g->n; i++) {
		const struct gent *e = &g->e[i];
		struct lsmns_entry ent = { e->mode, e->reserved };
		struct lsm_ctx c = { .id = e->id, .flags = e->flags,
				     .len = e->len, .ctx_len = e->ctx_len };

		pad = ALIGN8(sizeof(c) + e->nbytes) - sizeof(c);
		if (off + sizeof(ent) + sizeof(c) + pad > cap)
			break;
		memcpy(buf + off, &ent, sizeof(ent));
		memcpy(buf + off + sizeof(ent), &c, sizeof(c));
		memcpy(buf + off + sizeof(ent) + sizeof(c), e->ctx, e->nbytes);
		memset(buf + off + sizeof(ent) + sizeof(c) + e->nbytes, 0,
		       pad - e->nbytes);
		off += sizeof(ent) + sizeof(c) + pad;
	}
	memcpy(buf, &g->h, sizeof(g->h));
	((struct lsmns_assign_hdr *)buf)->nentries = g->n;
	((struct lsmns_assign_hdr *)buf)->size = off;
	return off;
}

/* Bytes of @buf, after serialisation: flips and interesting words. */
static void mutate_bytes(struct rng *r, unsigned char *buf, size_t size)
{
	int k, n = 1 + rn(r, 4);
	uint64_t v;
	size_t at;

	for (k = 0; k < n && size; k++) {
		at = rn(r, size);
		if (chance(r, 50)) {
			buf[at] ^= 1u << rn(r, 8);
		} else {
			v = interesting[rn(r, sizeof(interesting) / sizeof(*interesting))];
			at &= ~(size_t)3;
			if (at + 4 <= size)
				memcpy(buf + at, &v, 4);
		}
	}
}

/*
 * One request for @pidfd in @buf: returns its length (the write's count,
 * which may differ from the header's size on purpose).
 */
static size_t gen_request(struct rng *r, unsigned char *buf, int32_t pidfd)
{
	static struct greq g;
	struct lsmns_assign_hdr *h = (void *)buf;
	size_t size, n;
	uint32_t t = rn(r, 100), k;

	if (t < 6) {
		/* random bytes, often with a plausible header */
		size = chance(r, 90) ? rn(r, 600) : rn(r, LSMNS_MAX_REQUEST_SIZE + 2048);
		for (n = 0; n < size; n++)
			buf[n] = rnd(r);
		if (size >= sizeof(*h) && chance(r, 70)) {
			h->version = LSMNS_ABI_VERSION;
			h->flags = 0;
			h->reserved = 0;
			h->size = size;
			h->pidfd = pidfd;
			h->nentries = rn(r, 5);
		}
		return size;
	}
	gen_structured(r, &g, pidfd);
	if (t >= 65) {
		for (k = 1 + (chance(r, 20) ? rn(r, 3) : 0); k; k--)
			mutate_fields(r, &g);
	}
	size = serialize(&g, buf, BUFSZ - 256);
	if (t >= 90)
		mutate_bytes(r, buf, size);
	t = rn(r, 100);
	if (t < 3 && size > 1) {
		/* a short write: header size disagrees */
		size = rn(r, size);
	} else if (t < 6) {
		/* trailing bytes, counted in the header or not */
		n = 1 + rn(r, 64);
		memset(buf + size, rn(r, 256), n);
		size += n;
		if (chance(r, 50))
			h->size = size;
	} else if (t < 8) {
		h->size = interesting[rn(r, sizeof(interesting) / sizeof(*interesting))];
	} else if (t < 10) {
		h->nentries = interesting[rn(r, sizeof(interesting) / sizeof(*interesting))];
	}
	return size;
}

/* ---- writers ---- */

/* What a descriptor number is, for a writer. */
enum { FD_NONE, FD_TARGET, FD_SELF, FD_PRIV, FD_STALE };
struct fdinfo {
	int what;
	int t, k;
};

static struct fdinfo fdmap[1024];

/*
 * ---- a writer's own targets ----
 * Only the writer that made one assigns it, so the writer knows the
 * namespace it runs in and the one pending on it, and predicts every
 * outcome of a well-formed request: EBUSY exactly when it would widen
 * either, otherwise each LSM's answer to its entry (with no policy
 * loaded: SELinux knows no context and consents to no release, Smack
 * knows its built-in labels and consents for a task with the agent's
 * label, AppArmor knows "unconfined" and releases unconfined tasks).
 * Then it execs, and must run in exactly the namespace predicted.
 */
#define NPRIV 3
#define NSTALE 4

struct priv {
	pid_t pid;
	int pfd, cfd, rfd;
	int budget, execs_left, unpredictable;
	uint8_t cur[NSLOT];
	uint64_t cur_id;
	int pending;
	uint8_t pend[NSLOT];
	uint64_t pend_id, pend_iface;
	int pend_has[NSLOT];
	char pend_ctx[NSLOT][48];
	char smack_label[48];
	char rbuf[512];
	size_t rlen;
};

static struct priv privs[NPRIV];
static int stale[NSTALE] = { -1, -1, -1, -1 };
static int nstale_next;

static void priv_spawn(struct rng *r, int i)
{
	struct priv *pv = &privs[i];
	int rp[2], cp[2], s;
	pid_t pid;

	memset(pv, 0, sizeof(*pv));
	pv->pid = -1;
	pv->pfd = pv->cfd = pv->rfd = -1;
	if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
		return;
	pid = fork();
	if (!pid) {
		char c = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_fds(rp[1], cp[0]);
		while (read(4, &c, 1) < 0 && errno == EINTR)
			;
		if (c == 'x')
			exec_mode("--hold", NULL);
		_exit(0);
	}
	close(rp[1]);
	close(cp[0]);
	if (pid < 0) {
		close(rp[0]);
		close(cp[1]);
		return;
	}
	fcntl(rp[0], F_SETFL, O_NONBLOCK);
	pv->pid = pid;
	pv->rfd = rp[0];
	pv->cfd = cp[1];
	pv->pfd = pidfd_open(pid, 0);
	if (pv->pfd >= 0 && pv->pfd < 1024)
		fdmap[pv->pfd] = (struct fdinfo){ FD_PRIV, i, 0 };
	for (s = 0; s < NSLOT; s++)
		pv->cur[s] = LSMNS_MODE_ACTIVE;
	snprintf(pv->smack_label, sizeof(pv->smack_label), "_");
	pv->budget = (5 + rn(r, 60)) * 100 / churn;
	pv->execs_left = 1 + rn(r, 3);
	__atomic_add_fetch(&sh->priv_targets, 1, __ATOMIC_RELAXED);
}

static void priv_retire(int i)
{
	struct priv *pv = &privs[i];

	if (pv->pid <= 0)
		return;
	kill(pv->pid, SIGKILL);
	waitpid(pv->pid, NULL, 0);
	close(pv->cfd);
	close(pv->rfd);
	/* Its pidfd now names a reaped task, whose pid may be reused. */
	if (stale[nstale_next] >= 0) {
		if (stale[nstale_next] < 1024)
			fdmap[stale[nstale_next]] = (struct fdinfo){ FD_NONE, 0, 0 };
		close(stale[nstale_next]);
	}
	stale[nstale_next] = pv->pfd;
	if (pv->pfd >= 0 && pv->pfd < 1024)
		fdmap[pv->pfd] = (struct fdinfo){ FD_STALE, 0, 0 };
	nstale_next = (nstale_next + 1) % NSTALE;
	pv->pid = -1;
}

static int known_smack(const char *l)
{
	size_t i;

	for (i = 0; i < sizeof(good_smack) / sizeof(*good_smack); i++)
		if (!strcmp(l, good_smack[i]))
			return 1;
	return 0;
}

/*
 * 0 or the errno (index in *idx) a well-formed request gets; -1: success
 * or EINVAL for its AppArmor entry (a label other than "unconfined");
 * -3: not predictable (an earlier such label was accepted, or an exec
 * failed); -5 (-x, a policy is loaded): anything but EBUSY.
 */
static int priv_predict(const struct priv *pv, const struct parsed *p,
			uint32_t *idx, uint8_t eff[NSLOT])
{
	const uint8_t *bound = pv->pending ? pv->pend : pv->cur;
	int s;

	*idx = LSMNS_NO_INDEX;
	for (s = 0; s < NSLOT; s++)
		eff[s] = p->listed[s] ? p->mode[s] :
			 bound[s] > LSMNS_MODE_HIDDEN ? bound[s] : LSMNS_MODE_HIDDEN;
	if (pv->unpredictable)
		return -3;
	for (s = 0; s < NSLOT; s++)
		if (eff[s] < bound[s])
			return EBUSY;
	/* A loaded policy decides the rest; it cannot make it EBUSY. */
	if (allow_exec_refusal)
		return -5;
	for (s = 0; s < NSLOT; s++) {
		if (!p->listed[s])
			continue;
		*idx = p->eidx[s];
		if (eff[s] == LSMNS_MODE_RELEASED &&
		    pv->cur[s] != LSMNS_MODE_RELEASED) {
			if (s == 0)
				return EACCES;
			if (s == 1 && strcmp(pv->smack_label, "_"))
				return EACCES;
		}
		if (!p->ctx[s])
			continue;
		if (s == 0)
			return EINVAL;
		if (s == 1 && !known_smack((const char *)p->ctx[s]))
			return EINVAL;
		/*
		 * Smack lets no task have "*" or "@" (smack_setprocattr(),
		 * SMACK64EXEC), and neither may an assignment.
		 */
		if (s == 1 && (!strcmp((const char *)p->ctx[s], "*") ||
			       !strcmp((const char *)p->ctx[s], "@")))
			return EINVAL;
		if (s == 2 && strcmp((const char *)p->ctx[s], "unconfined"))
			return -1;
	}
	*idx = LSMNS_NO_INDEX;
	return 0;
}

static void priv_accepted(struct priv *pv, const struct parsed *p,
			  const uint8_t eff[NSLOT], uint64_t ns_id, int predicted)
{
	int s;

	pv->pending = 1;
	memcpy(pv->pend, eff, NSLOT);
	pv->pend_id = ns_id;
	pv->pend_iface = p->iface;
	for (s = 0; s < NSLOT; s++) {
		pv->pend_has[s] = p->ctx[s] != NULL;
		if (p->ctx[s])
			snprintf(pv->pend_ctx[s], sizeof(pv->pend_ctx[s]), "%s",
				 (const char *)p->ctx[s]);
	}
	if (!predicted)
		pv->unpredictable = 1;
	__atomic_add_fetch(&sh->priv_accepted, 1, __ATOMIC_RELAXED);
}

/* Let it exec (into --hold) and check the namespace it runs in. */
static void priv_exec(int w, int i)
{
	struct priv *pv = &privs[i];
	struct pollfd pfd = { pv->rfd, POLLIN, 0 };
	char path[64], view[160], cur[128], *nl, *q;
	double end = now() + 60;
	uint64_t want_id = pv->pending ? pv->pend_id : pv->cur_id;
	const uint8_t *want = pv->pending ? pv->pend : pv->cur;
	struct nsview v;
	int s, bad = 0;

	if (write(pv->cfd, "x", 1) != 1)
		return;
	pv->rlen = 0;
	pv->rbuf[0] = 0;
	while (!strchr(pv->rbuf, '\n') && now() < end) {
		ssize_t n = read(pv->rfd, pv->rbuf + pv->rlen,
				 sizeof(pv->rbuf) - 1 - pv->rlen);

		if (n > 0) {
			pv->rlen += n;
			pv->rbuf[pv->rlen] = 0;
		} else {
			poll(&pfd, 1, 100);
		}
	}
	nl = strchr(pv->rbuf, '\n');
	if (!nl || pv->rbuf[0] != 'R') {
		/* a refused exec leaves the assignment pending, marked entered */
		pv->unpredictable = 1;
		if (!(allow_exec_refusal && pv->rbuf[0] == 'F'))
			failmsg(&sh->fail_predict,
				"writer %d: own target (pid %d): no report after its exec: '%s'",
				w, (int)pv->pid, pv->rbuf);
		pv->execs_left = 0;
		return;
	}
	*nl = 0;
	__atomic_add_fetch(&sh->priv_execs, 1, __ATOMIC_RELAXED);
	snprintf(path, sizeof(path), "/proc/%d/attr/lsmns", (int)pv->pid);
	read_file(path, view, sizeof(view));
	parse_view(view, &v);
	if (!v.ok || v.id != want_id)
		bad = 1;
	for (s = 0; s < NSLOT && !bad; s++)
		if (enabled[s] && v.mode[s] != want[s] && want_id)
			bad = 1;
	if (!bad && pv->pending &&
	    strcmp(v.iface, slot_name[slot_of(pv->pend_iface) < 0 ? 0 :
				      slot_of(pv->pend_iface)]))
		bad = 2;
	if (!bad && pv->pending && pv->pend_has[1] && enabled[1]) {
		snprintf(path, sizeof(path), "/proc/%d/attr/smack/current", (int)pv->pid);
		read_file(path, cur, sizeof(cur));
		if (strcmp(cur, pv->pend_ctx[1]))
			bad = 3;
	}
	if (!bad && v.id) {
		q = strstr(pv->rbuf, "open=");
		if (!q || atoi(q + 5) != EPERM || !(q = strstr(pv->rbuf, "inh=")) ||
		    atoi(q + 4) != EPERM)
			failmsg(&sh->fail_inside,
				"writer %d: own target in namespace %llu could use the assign file: %s",
				w, (unsigned long long)v.id, pv->rbuf);
	}
	if (bad)
		failmsg(&sh->fail_predict,
			"writer %d: own target (pid %d) after exec: %s: runs in '%s', want id=%llu modes %u,%u,%u%s",
			w, (int)pv->pid, bad == 1 ? "wrong namespace" :
			bad == 2 ? "wrong interface LSM" : "wrong Smack label",
			view, (unsigned long long)want_id, want[0], want[1], want[2],
			pv->pending ? "" : " (nothing pending)");
	if (pv->pending) {
		memcpy(pv->cur, pv->pend, NSLOT);
		pv->cur_id = pv->pend_id;
		if (pv->pend_has[1])
			memcpy(pv->smack_label, pv->pend_ctx[1], sizeof(pv->smack_label));
		pv->pending = 0;
	}
}

static void priv_tick(struct rng *r, int w, int i)
{
	struct priv *pv = &privs[i];

	if (--pv->budget > 0)
		return;
	if (pv->execs_left-- > 0) {
		priv_exec(w, i);
		pv->budget = (5 + rn(r, 40)) * 100 / churn;
		if (pv->execs_left > 0)
			return;
	}
	priv_retire(i);
	priv_spawn(r, i);
}


static int can_drop_mac_admin(void)
{
	struct __user_cap_header_struct hd = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &hd, d))
		return -1;
	d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN % 32));
	d[CAP_MAC_ADMIN / 32].permitted &= ~(1U << (CAP_MAC_ADMIN % 32));
	return syscall(SYS_capset, &hd, d);
}

/* A child without CAP_MAC_ADMIN: every write and open is EPERM. */
static void unprivileged_round(struct rng *r, int fd, unsigned char *buf,
			       int32_t pidfd)
{
	pid_t pid = fork();
	int st, i;

	if (pid < 0)
		return;
	if (!pid) {
		int bad = 0;

		if (can_drop_mac_admin())
			_exit(3);
		for (i = 0; i < 16; i++) {
			size_t size = gen_request(r, buf, pidfd);

			if (size < sizeof(struct lsmns_assign_hdr))
				size = sizeof(struct lsmns_assign_hdr);
			errno = 0;
			if (write(fd, buf, size) >= 0 || errno != EPERM)
				bad = 1;
		}
		if (open(ASSIGN, O_RDWR) >= 0 || errno != EPERM)
			bad = 2;
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		failmsg(&sh->fail_errno,
			"writer without CAP_MAC_ADMIN: a write or open was not EPERM (status %d)",
			st);
	else
		__atomic_add_fetch(&sh->eperm_unpriv, 16, __ATOMIC_RELAXED);
}

static void record_accept(struct target *t, const struct parsed *p,
			  const struct lsmns_assign_result *res)
{
	uint32_t i = __atomic_fetch_add(&t->nacc, 1, __ATOMIC_SEQ_CST);
	struct acc *a;
	int s;

	if (i >= MAXACC)
		return;
	a = &t->acc[i];
	a->ns_id = res->ns_id;
	a->iface = p->iface;
	for (s = 0; s < NSLOT; s++) {
		a->mode[s] = p->mode[s];
		a->has_ctx[s] = p->ctx[s] != NULL;
		if (p->ctx[s])
			snprintf(a->ctx[s], sizeof(a->ctx[s]), "%s",
				 (const char *)p->ctx[s]);
	}
	__atomic_store_n(&a->valid, 1, __ATOMIC_RELEASE);
}

static int in_set(int e, const int *set)
{
	for (; *set >= 0; set++)
		if (*set == e)
			return 1;
	return 0;
}

/* Errnos of the target phase, for a request that parses. */
static const int phase2[] = { 0, EBADF, EINTR, ESRCH, EACCES, EBUSY, EINVAL,
			      EOPNOTSUPP, ENOMEM, -1 };

static void writer(int w, uint64_t seed, long nreq, int shared_fd)
{
	struct rng r = { seed ^ (0xa0761d6478bd642fULL * (uint64_t)(w + 1)) };
	unsigned char *area, *guard, *buf;
	long pagesz = sysconf(_SC_PAGESIZE);
	size_t area_len = BUFSZ + 2 * pagesz;
	struct lsmns_assign_result res;
	int fd, selfpfd, devnull, i, k;
	long n;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(ASSIGN, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		failmsg(&sh->fail_errno, "writer %d: open %s: %s", w, ASSIGN,
			strerror(errno));
		_exit(1);
	}
	selfpfd = pidfd_open(getpid(), 0);
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	/* The request area ends at an unmapped page (EFAULT cases). */
	area = mmap(NULL, area_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		_exit(1);
	guard = area + area_len - pagesz;
	mprotect(guard, pagesz, PROT_NONE);
	buf = area + pagesz;

	memset(fdmap, 0, sizeof(fdmap));
	for (i = 0; i < sh->nt; i++)
		for (k = 0; k < sh->t[i].npfd; k++)
			if (sh->t[i].pfd[k] >= 0 && sh->t[i].pfd[k] < 1024)
				fdmap[sh->t[i].pfd[k]] =
					(struct fdinfo){ FD_TARGET, i, k };
	if (selfpfd >= 0 && selfpfd < 1024)
		fdmap[selfpfd] = (struct fdinfo){ FD_SELF, 0, 0 };
	for (i = 0; i < NPRIV; i++)
		priv_spawn(&r, i);

	for (n = 0; n < nreq; n++) {
		int32_t pidfd;
		struct parsed p;
		struct fdinfo fi = { FD_NONE, 0, 0 };
		unsigned char *wbuf;
		size_t size;
		ssize_t rc;
		int e, wfd, own, place, expect_exact = -1, pred = -2;
		uint32_t t = rn(&r, 100), pidx = LSMNS_NO_INDEX;
		uint8_t eff[NSLOT];
		int tick = -1;

		if (t < 4) {
			pidfd = selfpfd;
		} else if (t < 8) {
			static const int32_t bad[] = { -1, 1023, 999, INT32_MAX,
						       INT32_MIN };
			pidfd = chance(&r, 50) ? bad[rn(&r, 5)] :
				chance(&r, 50) ? devnull : fd;
		} else if (t < 11) {
			pidfd = stale[rn(&r, NSTALE)];
		} else if (t < 50) {
			tick = rn(&r, NPRIV);
			pidfd = privs[tick].pfd;
		} else if (sh->nt) {
			struct target *tg = &sh->t[rn(&r, sh->nt)];

			pidfd = tg->npfd ? tg->pfd[rn(&r, tg->npfd)] : -1;
		} else {
			pidfd = selfpfd;
		}
		size = gen_request(&r, buf, pidfd);

		/* Where the request is and how it is written. */
		place = rn(&r, 100);
		wbuf = buf;
		if (place < 4 && size) {
			/* crossing into the unmapped page */
			size_t in = 1 + rn(&r, size);

			wbuf = guard - in;
			memmove(wbuf, buf, in);
		} else if (place < 5) {
			wbuf = NULL;
		} else if (place < 30) {
			wbuf = buf + 1 + rn(&r, 7);
			memmove(wbuf, buf, size);
		} else if (place < 33) {
			/* a count over the limit, whatever follows */
			size = LSMNS_MAX_REQUEST_SIZE + 1 +
			       rn(&r, chance(&r, 50) ? 16 : 1 << 20);
			wbuf = chance(&r, 50) ? NULL : buf;
		}

		/* The expectation. */
		memset(&p, 0, sizeof(p));
		if (size < sizeof(struct lsmns_assign_hdr)) {
			p.index = LSMNS_NO_INDEX;
			expect_exact = EINVAL;
		} else if (size > LSMNS_MAX_REQUEST_SIZE) {
			p.index = LSMNS_NO_INDEX;
			expect_exact = E2BIG;
		} else if (!wbuf || wbuf + size > guard) {
			p.index = LSMNS_NO_INDEX;
			expect_exact = EFAULT;
		} else {
			model(wbuf, size, &p);
			if (p.err)
				expect_exact = p.err;
			else if (p.pidfd >= 0 && p.pidfd < 1024)
				fi = fdmap[p.pidfd];
		}
		if (fi.what == FD_PRIV && privs[fi.t].pid > 0)
			pred = priv_predict(&privs[fi.t], &p, &pidx, eff);

		/*
		 * The open file the coordinator shares with every writer, for
		 * requests that cannot be accepted: its result is anybody's,
		 * and an accepted one must be read back (its ns_id).
		 */
		own = !(expect_exact >= 0 || fi.what == FD_NONE ||
			fi.what == FD_STALE ||
			(fi.what == FD_TARGET &&
			 (sh->t[fi.t].kind == K_ZOMBIE || sh->t[fi.t].kind == K_REAPED))) ||
		      !chance(&r, 15);
		wfd = own ? fd : shared_fd;
		errno = 0;
		rc = write(wfd, wbuf, size);
		e = rc < 0 ? errno : 0;
		__atomic_add_fetch(&sh->writes, 1, __ATOMIC_RELAXED);
		if (e >= 0 && e < 256) {
			if (e)
				__atomic_add_fetch(&sh->hist[e], 1, __ATOMIC_RELAXED);
			else
				__atomic_add_fetch(&sh->hist_ok, 1, __ATOMIC_RELAXED);
		}
		if (!e && rc != (ssize_t)size)
			failmsg(&sh->fail_errno, "write of %zu bytes returned %zd",
				size, rc);
		if (own) {
			memset(&res, 0xa5, sizeof(res));
			rc = read(fd, &res, sizeof(res));
		}

		if (expect_exact >= 0) {
			if (e != expect_exact)
				failmsg(&sh->fail_errno,
					"malformed request (%zu bytes, seed %#llx writer %d #%ld): %s, documented order says %s (index %d)",
					size, (unsigned long long)seed, w, n,
					ename(e), ename(expect_exact), (int)p.index);
			else if (expect_exact == EFAULT)
				__atomic_add_fetch(&sh->efault, 1, __ATOMIC_RELAXED);
			else
				__atomic_add_fetch(&sh->pred_struct, 1, __ATOMIC_RELAXED);
		} else {
			struct target *tg = fi.what == FD_TARGET ? &sh->t[fi.t] : NULL;
			int pk = tg ? tg->pfd_kind[fi.k] : -1;
			int ok = in_set(e, phase2);
			const char *why = "not an errno of the target phase";

			if (ok && fi.what == FD_NONE && e != EBADF) {
				ok = 0;
				why = "the pidfd field is no pidfd: want EBADF";
			}
			if (ok && (fi.what == FD_STALE ||
				   (tg && (tg->kind == K_ZOMBIE || tg->kind == K_REAPED))) &&
			    e != ESRCH) {
				ok = 0;
				why = "the target is dead: want ESRCH";
			}
			if (ok && e == ESRCH &&
			    (fi.what == FD_SELF || fi.what == FD_PRIV ||
			     (tg && pk != P_THREAD_OTHER && tg->kind != K_ZOMBIE &&
			      tg->kind != K_REAPED && tg->kind != K_EXITING &&
			      !__atomic_load_n(&tg->may_die, __ATOMIC_SEQ_CST)))) {
				ok = 0;
				why = "ESRCH for a task that is alive";
			}
			if (ok && pred >= 0 &&
			    (e != pred || (own && pred && res.failed_index != pidx))) {
				ok = 0;
				why = pred == EBUSY ? "a wider request than the namespace or the pending one: want EBUSY" :
				      !pred ? "want success" : "not the predicted errno and index";
			}
			if (ok && pred == -1 && e && e != EINVAL) {
				ok = 0;
				why = "only an AppArmor label may be refused (EINVAL)";
			}
			if (ok && pred == -5 && e == EBUSY) {
				ok = 0;
				why = "EBUSY for a request no wider than the namespace or the pending one";
			}
			if (ok && tg && pk == P_THREAD_OTHER && e == ESRCH)
				__atomic_add_fetch(&sh->nonleader_esrch, 1, __ATOMIC_RELAXED);
			if (ok && pred >= 0)
				__atomic_add_fetch(&sh->priv_predicted, 1, __ATOMIC_RELAXED);
			if (!ok)
				failmsg(pred >= -1 || pred == -5 ? &sh->fail_predict : &sh->fail_errno,
					"well-formed request for %s (pidfd kind %d, seed %#llx writer %d #%ld): %s (index %d): %s%s%s (index %d)",
					fi.what == FD_SELF ? "the writer itself" :
					fi.what == FD_PRIV ? "a writer's own target" :
					fi.what == FD_STALE ? "a reaped own target" :
					tg ? kind_name[tg->kind] : "a non-pidfd",
					pk, (unsigned long long)seed, w, n,
					ename(e), own ? (int)res.failed_index : -2, why,
					pred >= 0 ? ", predicted " : "",
					pred >= 0 ? ename(pred) : "", (int)pidx);
			else
				__atomic_add_fetch(&sh->pred_target, 1, __ATOMIC_RELAXED);
		}

		if (own) {
			/* The result of this write, then end of file. */
			if (rc != sizeof(res) || res.version != LSMNS_ABI_VERSION ||
			    res.error != -e || (!e) != (res.ns_id != 0) ||
			    (expect_exact > 0 && expect_exact != EFAULT &&
			     res.failed_index != p.index) ||
			    (expect_exact < 0 && res.failed_index != LSMNS_NO_INDEX &&
			     (res.failed_index >= p.nentries ||
			      (e == EINVAL && !p.ent_ctx[res.failed_index]) ||
			      (e == EOPNOTSUPP && !p.ent_rel[res.failed_index]) ||
			      (e == EACCES && !p.ent_ctx[res.failed_index] &&
			       !p.ent_rel[res.failed_index]) ||
			      e == ESRCH || e == EBADF || e == EBUSY || e == EINTR))) {
				failmsg(&sh->fail_result,
					"result after %s (want index %d): read %zd, version %u error %d index %d ns_id %llu",
					ename(e), (int)p.index, rc, res.version, res.error,
					(int)res.failed_index, (unsigned long long)res.ns_id);
			}
			if (chance(&r, 5) && read(fd, &res, sizeof(res)) != 0)
				failmsg(&sh->fail_result, "second read after a write is not end of file");
		}
		if (!e && expect_exact < 0 && own) {
			if (fi.what == FD_TARGET)
				record_accept(&sh->t[fi.t], &p, &res);
			if (fi.what == FD_PRIV)
				priv_accepted(&privs[fi.t], &p, eff, res.ns_id,
					      pred >= 0 || pred == -5);
			if (p.ctx[1] && !strcmp((const char *)p.ctx[1], "*"))
				failmsg(&sh->accepted_smack_star,
					"an assignment to the Smack label \"*\" was accepted (seed %#llx writer %d request %ld)",
					(unsigned long long)seed, w, n);
			if (p.ctx[1] && !strcmp((const char *)p.ctx[1], "@"))
				failmsg(&sh->accepted_smack_web,
					"an assignment to the Smack label \"@\" was accepted (seed %#llx writer %d request %ld)",
					(unsigned long long)seed, w, n);
		}
		if (tick >= 0)
			priv_tick(&r, w, tick);

		/* Now and then: reopen, or a round without CAP_MAC_ADMIN. */
		if (chance(&r, 1)) {
			close(fd);
			fd = open(ASSIGN, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				_exit(1);
		}
		if (rn(&r, 4000) == 0)
			unprivileged_round(&r, fd, buf, selfpfd);
	}
	/* Whatever is still pending is entered by a last exec, and checked. */
	for (i = 0; i < NPRIV; i++) {
		if (privs[i].pid > 0 && privs[i].pending)
			priv_exec(w, i);
		priv_retire(i);
	}
	_exit(0);
}

/* ---- programs the targets exec (internal modes) ---- */

static void self_view(char *buf, size_t size)
{
	if (read_file("/proc/self/attr/lsmns", buf, size) < 0)
		snprintf(buf, size, "unreadable");
}

/* A request for the calling task itself, on fd 5 (inherited): EPERM. */
static int inherited_write(void)
{
	static struct lsmns_req q;
	int pfd = pidfd_open(getpid(), 0), e;

	lsmns_req_init(&q, pfd, 0);
	lsmns_req_add(&q, LSM_ID_SELINUX, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&q, LSM_ID_SMACK, LSMNS_MODE_ACTIVE, NULL);
	lsmns_req_add(&q, LSM_ID_APPARMOR, LSMNS_MODE_ACTIVE, NULL);
	e = write(5, q.buf, q.size) < 0 ? errno : 0;
	close(pfd);
	return e;
}

static void exec_mode(const char *mode, char *extra)
{
	char *argv[] = { (char *)"lsmns-fuzz", (char *)mode, extra, NULL };

	execv(self_exe, argv);
	dprintf(3, "F %d\n", errno);
	_exit(126);
}

/* --hold: report "R VIEW open=E inh=E", then obey 'x' (exec) or 'q'. */
static int mode_hold(void)
{
	char view[160];
	struct nsview v;
	int oe = -1, ie = -1, fd;
	char c;

	self_view(view, sizeof(view));
	parse_view(view, &v);
	if (v.ok && v.id) {
		fd = open(ASSIGN, O_RDWR);
		oe = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		ie = inherited_write();
	}
	dprintf(3, "R %s open=%d inh=%d\n", view, oe, ie);
	for (;;) {
		ssize_t n = read(4, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1 || c == 'q')
			_exit(0);
		if (c == 'x')
			exec_mode("--hold", NULL);
	}
}

/*
 * --loop LAST: exec itself until told 'h' (then --hold) or 'q'; each time
 * the namespace must be the one before or a child of it ("V" otherwise).
 */
static int mode_loop(const char *last)
{
	char view[160], arg[48], *colon;
	struct nsview v;
	uint64_t prev = strtoull(last, &colon, 10);
	unsigned long delay = *colon == ':' ? strtoul(colon + 1, NULL, 10) : 1000;
	char c;

	self_view(view, sizeof(view));
	parse_view(view, &v);
	if (!v.ok)
		dprintf(3, "V unreadable attr/lsmns: %s\n", view);
	else if (v.id != prev && v.parent != prev)
		dprintf(3, "V from id=%llu to %s\n", (unsigned long long)prev, view);
	fcntl(4, F_SETFL, O_NONBLOCK);
	if (read(4, &c, 1) == 1) {
		if (c == 'h')
			exec_mode("--hold", NULL);
		if (c == 'q')
			_exit(0);
	}
	usleep_(delay / 2 + (getpid() % 7) * delay / 7);
	snprintf(arg, sizeof(arg), "%llu:%lu", (unsigned long long)(v.ok ? v.id : prev),
		 delay);
	exec_mode("--loop", arg);
	return 1;
}

static int thr_pipe[NTHREADS + 1][2];
static pid_t thr_tid[NTHREADS + 1];
static pthread_barrier_t thr_started;

static void *thr_main(void *arg)
{
	int me = (int)(long)arg;
	char c;

	thr_tid[me] = gettid();
	pthread_barrier_wait(&thr_started);
	while (read(thr_pipe[me][0], &c, 1) != 1)
		;
	exec_mode("--hold", NULL);
	return NULL;
}

/* --threads: NTHREADS threads besides the leader; "T TID0 TID1..."; then
 * 'x' K makes thread K exec --hold, 'q' ends it. */
static int mode_threads(void)
{
	pthread_t t;
	int i;
	char cmd[2];

	for (i = 0; i <= NTHREADS; i++)
		if (pipe2(thr_pipe[i], O_CLOEXEC))
			_exit(1);
	thr_tid[0] = gettid();
	pthread_barrier_init(&thr_started, NULL, NTHREADS + 1);
	for (i = 1; i <= NTHREADS; i++)
		if (pthread_create(&t, NULL, thr_main, (void *)(long)i))
			_exit(1);
	pthread_barrier_wait(&thr_started);
	{
		char line[128];
		int len = snprintf(line, sizeof(line), "T");

		for (i = 0; i <= NTHREADS; i++)
			len += snprintf(line + len, sizeof(line) - len, " %d",
					(int)thr_tid[i]);
		len += snprintf(line + len, sizeof(line) - len, "\n");
		if (write(3, line, len) != len)
			_exit(1);
	}
	for (;;) {
		ssize_t n = read(4, cmd, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1 || cmd[0] == 'q')
			_exit(0);
		if (cmd[0] != 'x')
			continue;
		if (read(4, cmd + 1, 1) != 1)
			_exit(0);
		i = cmd[1] % (NTHREADS + 1);
		if (!i)
			exec_mode("--hold", NULL);
		if (write(thr_pipe[i][1], "x", 1) != 1)
			_exit(1);
		pause();
	}
}

/* --probe: a later entrant's program: "P VIEW". */
static int mode_probe(void)
{
	char view[160];

	self_view(view, sizeof(view));
	dprintf(3, "P %s\n", view);
	return 0;
}

/* ---- the coordinator ---- */

/* In a child about to exec or run as a target: fds 3, 4, 5. */
static void child_fds(int rfd_w, int cfd_r)
{
	int a = fcntl(rfd_w, F_DUPFD, 100), b = fcntl(cfd_r, F_DUPFD, 100);
	int c = fcntl(g_assign_fd, F_DUPFD, 100);

	dup2(a, 3);
	dup2(b, 4);
	dup2(c, 5);
	close(a);
	close(b);
	close(c);
}

static void tg_send(struct target *t, const char *s, size_t n)
{
	if (t->cfd >= 0 && write(t->cfd, s, n) != (ssize_t)n) {
		/* the target is gone; nothing to do */
	}
}

/* Take the complete lines a target has reported so far. */
static void tg_drain(struct target *t, int idx)
{
	char buf[512];
	ssize_t n;
	char *nl;

	if (t->rfd < 0)
		return;
	for (;;) {
		n = read(t->rfd, buf, sizeof(buf));
		if (n <= 0)
			return;
		if (t->linelen + n >= sizeof(t->line))
			t->linelen = 0;
		memcpy(t->line + t->linelen, buf, n);
		t->linelen += n;
		t->line[t->linelen] = 0;
		while ((nl = strchr(t->line, '\n'))) {
			*nl = 0;
			switch (t->line[0]) {
			case 'R':
				t->reports++;
				snprintf(t->last_r, sizeof(t->last_r), "%s", t->line + 2);
				break;
			case 'F':
				t->exec_fail = atoi(t->line + 2);
				if (!allow_exec_refusal)
					failmsg(&sh->fail_world,
						"target %d (%s): an execve failed: %s",
						idx, kind_name[t->kind],
						strerror(t->exec_fail));
				break;
			case 'V':
				t->violations++;
				snprintf(t->vline, sizeof(t->vline), "%s", t->line + 2);
				break;
			}
			t->linelen -= nl + 1 - t->line;
			memmove(t->line, nl + 1, t->linelen + 1);
		}
	}
}

/* Wait until target @t has sent @want "R" reports (or @ms pass). */
static int tg_wait_report(struct target *t, int idx, int want, int ms)
{
	double end = now() + ms / 1000.0;
	struct pollfd pfd = { t->rfd, POLLIN, 0 };

	tg_drain(t, idx);
	while (t->reports < want && now() < end) {
		poll(&pfd, 1, 100);
		tg_drain(t, idx);
		if (t->exec_fail)
			return -1;
	}
	return t->reports >= want ? 0 : -1;
}

static int make_target(struct target *t, int idx, int kind, struct rng *r,
		       unsigned int epoch)
{
	int rp[2], cp[2];
	pid_t pid;
	char buf[128];

	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->rfd = t->cfd = -1;
	if (pipe2(rp, O_CLOEXEC) || pipe2(cp, O_CLOEXEC))
		return -1;
	if (kind == K_CGROUP) {
		snprintf(t->cg, sizeof(t->cg), CGROOT "/lsmns-fuzz-%u-%d", epoch, idx);
		if (mkdir(t->cg, 0755) && errno != EEXIST)
			t->cg[0] = 0;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		unsigned int delay = rn(r, 40000);
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_fds(rp[1], cp[0]);
		switch (kind) {
		case K_ZOMBIE:
		case K_REAPED:
			_exit(0);
		case K_EXITING:
			usleep_(delay);
			_exit(0);
		case K_LOOP: {
			char arg[32];

			snprintf(arg, sizeof(arg), "0:%u", 100000 / churn);
			exec_mode("--loop", arg);
			break;
		}
		case K_THREADS:
			exec_mode("--threads", NULL);
			break;
		case K_CGROUP:
			if (t->cg[0]) {
				snprintf(buf, sizeof(buf), "%s/cgroup.procs", t->cg);
				write_str(buf, "0");
			}
			/* fall through */
		default:
			while (read(4, &c, 1) < 0 && errno == EINTR)
				;
			if (c == 'x')
				exec_mode("--hold", NULL);
			_exit(0);
		}
		_exit(1);
	}
	close(rp[1]);
	close(cp[0]);
	fcntl(rp[0], F_SETFL, O_NONBLOCK);
	t->pid = pid;
	t->rfd = rp[0];
	t->cfd = cp[1];
	t->pfd[t->npfd] = pidfd_open(pid, 0);
	t->pfd_kind[t->npfd++] = P_PROCESS;
	if (kind == K_ZOMBIE || kind == K_REAPED || kind == K_EXITING)
		t->may_die = 1;
	if (kind == K_ZOMBIE) {
		siginfo_t si;

		waitid(P_PID, pid, &si, WEXITED | WNOWAIT);
		t->state = S_DEAD;
	} else if (kind == K_REAPED) {
		waitpid(pid, NULL, 0);
		t->state = S_GONE;
	} else if (kind == K_THREADS) {
		struct pollfd pfd = { t->rfd, POLLIN, 0 };
		double end = now() + 30;
		int i, k;

		while (!strchr(t->line, '\n') && now() < end) {
			ssize_t n;

			poll(&pfd, 1, 100);
			n = read(t->rfd, t->line + t->linelen,
				 sizeof(t->line) - 1 - t->linelen);
			if (n > 0) {
				t->linelen += n;
				t->line[t->linelen] = 0;
			}
		}
		if (t->line[0] == 'T') {
			char *p = t->line + 1;

			for (i = 0; i <= NTHREADS; i++)
				t->tid[i] = strtol(p, &p, 10);
			t->pfd[t->npfd] = pidfd_open(pid, PIDFD_THREAD);
			t->pfd_kind[t->npfd++] = P_THREAD_LEADER;
			for (k = 1; k <= NTHREADS && t->npfd < MAXPFD; k++) {
				t->pfd[t->npfd] = pidfd_open(t->tid[k], PIDFD_THREAD);
				t->pfd_kind[t->npfd++] = P_THREAD_OTHER;
			}
		} else {
			failmsg(&sh->fail_world, "threads target did not start");
		}
		t->line[0] = 0;
		t->linelen = 0;
	}
	return 0;
}

static void kill_target(struct target *t)
{
	__atomic_store_n(&t->may_die, 1, __ATOMIC_SEQ_CST);
	if (t->state != S_GONE && t->pid > 0)
		kill(t->pid, SIGKILL);
	t->state = S_DEAD;
}

static int try_rmdir(const char *path, int tries)
{
	while (tries-- > 0) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		msleep(2);
	}
	return -1;
}

static struct entrant entrants[MAXENTRANTS];
static int nentrants;

/* A later entrant: moves itself into @t's cgroup and execs --probe. */
static void spawn_entrant(struct target *t, int idx)
{
	struct entrant *en;
	char procs[128];
	int rp[2], dummy[2];
	pid_t pid;

	if (nentrants >= MAXENTRANTS || !t->cg[0])
		return;
	if (pipe2(rp, O_CLOEXEC) || pipe2(dummy, O_CLOEXEC))
		return;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", t->cg);
	pid = fork();
	if (!pid) {
		int e;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_fds(rp[1], dummy[0]);
		e = write_str(procs, "0");
		if (e) {
			dprintf(3, "J %d\n", e);
			_exit(0);
		}
		exec_mode("--probe", NULL);
	}
	close(rp[1]);
	close(dummy[0]);
	close(dummy[1]);
	if (pid < 0) {
		close(rp[0]);
		return;
	}
	en = &entrants[nentrants++];
	en->pid = pid;
	en->rfd = rp[0];
	en->target = idx;
	en->out[0] = 0;
}

struct totals {
	long verified, assigned, unassigned, entrants, adopted, inside_checks;
	long exec_loops;
};

static void verify_target(struct target *t, int idx, struct totals *tot,
			  uint64_t seed)
{
	char path[64], view[160], cur[256];
	struct nsview v;
	uint64_t maxid = 0;
	uint8_t maxmode[NSLOT] = { 0, 0, 0 };
	const struct acc *last = NULL;
	uint32_t n = t->nacc < MAXACC ? t->nacc : MAXACC, i;
	int s, before = t->reports, rv, oe, ie;
	char *p;

	if (t->state == S_DEAD || t->state == S_GONE)
		return;
	if (t->kind == K_ZOMBIE || t->kind == K_REAPED || t->kind == K_EXITING)
		return;
	/* The final exec: into --hold, entering whatever is pending. */
	tg_drain(t, idx);
	before = t->reports;
	if (t->kind == K_LOOP && t->state == S_NEW)
		tg_send(t, "h", 1);
	else if (t->kind == K_THREADS && t->state == S_NEW)
		tg_send(t, (char[]){ 'x', (char)(idx % (NTHREADS + 1)) }, 2);
	else
		tg_send(t, "x", 1);
	t->state = S_HOLD;
	if (tg_wait_report(t, idx, before + 1, 60000)) {
		if (!t->exec_fail || !allow_exec_refusal) {
			failmsg(&sh->fail_verify,
				"target %d (%s, pid %d): no report after its final exec%s%s",
				idx, kind_name[t->kind], (int)t->pid,
				t->exec_fail ? ": execve failed: " : "",
				t->exec_fail ? strerror(t->exec_fail) : "");
		}
		return;
	}
	if (t->violations) {
		failmsg(&sh->fail_verify, "exec-loop target %d moved to a namespace that is not a child of its own: %s",
			idx, t->vline);
	}
	snprintf(path, sizeof(path), "/proc/%d/attr/lsmns", (int)t->pid);
	read_file(path, view, sizeof(view));
	parse_view(view, &v);
	tot->verified++;

	/* Inside: the assign file is refused (open, and the inherited fd). */
	p = strstr(t->last_r, "open=");
	oe = p ? atoi(p + 5) : -2;
	p = strstr(t->last_r, "inh=");
	ie = p ? atoi(p + 4) : -2;
	if (v.ok && v.id) {
		tot->inside_checks++;
		if (oe != EPERM || ie != EPERM) {
			failmsg(&sh->fail_inside,
				"target %d in namespace %llu: open of the assign file gave %s, a write to an inherited one %s (want EPERM)",
				idx, (unsigned long long)v.id, ename(oe), ename(ie));
		}
	}

	for (i = 0; i < n; i++) {
		const struct acc *a = &t->acc[i];

		if (!__atomic_load_n(&a->valid, __ATOMIC_ACQUIRE))
			continue;
		if (a->ns_id > maxid) {
			maxid = a->ns_id;
			last = a;
		}
		for (s = 0; s < NSLOT; s++)
			if (a->mode[s] > maxmode[s])
				maxmode[s] = a->mode[s];
	}
	if (!v.ok) {
		failmsg(&sh->fail_verify, "target %d: cannot read %s", idx, path);
		return;
	}
	if (!t->nacc) {
		tot->unassigned++;
		if (v.id) {
			failmsg(&sh->fail_verify,
				"target %d (%s): no assignment accepted, runs in %s",
				idx, kind_name[t->kind], view);
		}
		return;
	}
	tot->assigned++;
	rv = 0;
	if (t->nacc <= MAXACC ? v.id != maxid : v.id < maxid)
		rv = 1;
	for (s = 0; s < NSLOT; s++)
		if (enabled[s] && (t->nacc <= MAXACC ? v.mode[s] != maxmode[s] :
				   v.mode[s] < maxmode[s]))
			rv = 1;
	if (!rv && last && t->nacc <= MAXACC &&
	    strcmp(v.iface, slot_name[slot_of(last->iface) < 0 ? 0 : slot_of(last->iface)]))
		rv = 2;
	if (!rv && v.parent) {
		for (i = 0; i < n && t->acc[i].ns_id != v.parent; i++)
			;
		if (i == n && t->nacc <= MAXACC)
			rv = 3;
	}
	if (!rv && last && t->nacc <= MAXACC && v.id == maxid) {
		for (s = 1; s < NSLOT; s++) {
			if (!enabled[s] || !last->has_ctx[s] || strlen(last->ctx[s]) > 32)
				continue;
			/* AppArmor shows a label by its own name of it */
			if (s == 2 && strcmp(last->ctx[s], "unconfined"))
				continue;
			snprintf(path, sizeof(path), "/proc/%d/attr/%s/current",
				 (int)t->pid, slot_name[s]);
			read_file(path, cur, sizeof(cur));
			if (strncmp(cur, last->ctx[s], strlen(last->ctx[s])))
				rv = 4;
		}
	}
	if (rv) {
		failmsg(&sh->fail_verify,
			"target %d (%s, seed %#llx): %s: runs in '%s'; accepted %u, last ns_id %llu modes %u,%u,%u iface %llu%s%s%s",
			idx, kind_name[t->kind], (unsigned long long)seed,
			rv == 1 ? "not the narrowest accepted namespace" :
			rv == 2 ? "wrong interface LSM" :
			rv == 3 ? "parent is no namespace it was in" :
			"context is not the assigned one",
			view, t->nacc, (unsigned long long)maxid,
			maxmode[0], maxmode[1], maxmode[2],
			(unsigned long long)(last ? last->iface : 0),
			rv == 4 ? " current '" : "", rv == 4 ? cur : "",
			rv == 4 ? "'" : "");
	}
}

static void verify_entrants(struct totals *tot)
{
	int i, st;
	uint32_t k;

	for (i = 0; i < nentrants; i++) {
		struct entrant *en = &entrants[i];
		struct target *t = &sh->t[en->target];
		struct pollfd pfd = { en->rfd, POLLIN, 0 };
		struct nsview v;
		ssize_t n;
		size_t have = 0;
		double end = now() + 60;

		while (now() < end) {
			n = read(en->rfd, en->out + have, sizeof(en->out) - 1 - have);
			if (n > 0) {
				have += n;
				en->out[have] = 0;
				if (strchr(en->out, '\n'))
					break;
				continue;
			}
			if (n == 0)
				break;
			poll(&pfd, 1, 100);
		}
		waitpid(en->pid, &st, 0);
		close(en->rfd);
		tot->entrants++;
		if (en->out[0] == 'J')
			continue;	/* could not join: its cgroup was gone */
		if (en->out[0] != 'P') {
			if (en->out[0] == 'F' && allow_exec_refusal)
				continue;
			failmsg(&sh->fail_entrant, "entrant of target %d: reported '%s' (status %d)",
				en->target, en->out, st);
			continue;
		}
		parse_view(en->out + 2, &v);
		if (!v.ok || !v.id)
			continue;
		tot->adopted++;
		for (k = 0; k < t->nacc && k < MAXACC; k++)
			if (t->acc[k].ns_id == v.id)
				break;
		if ((k == t->nacc || k == MAXACC) && t->nacc <= MAXACC) {
			failmsg(&sh->fail_entrant,
				"entrant of target %d adopted namespace %llu, which was never accepted for it",
				en->target, (unsigned long long)v.id);
		}
	}
	nentrants = 0;
}

/* Make the world change under the writers: one action. */
static void act(struct rng *r, unsigned int epoch)
{
	int idx = rn(r, sh->nt);
	struct target *t = &sh->t[idx];
	char root_procs[] = CGROOT "/cgroup.procs", pidstr[16];

	(void)epoch;
	tg_drain(t, idx);
	switch (t->kind) {
	case K_BLOCKED:
	case K_THREADS:
		if (t->state == S_NEW && chance(r, 60)) {
			if (t->kind == K_THREADS)
				tg_send(t, (char[]){ 'x', (char)rn(r, NTHREADS + 1) }, 2);
			else
				tg_send(t, "x", 1);
			t->state = S_HOLD;
		} else if (t->state == S_HOLD && chance(r, 60)) {
			tg_send(t, "x", 1);
		} else if (t->state != S_DEAD && chance(r, 10)) {
			kill_target(t);
		}
		break;
	case K_CGROUP:
		if (t->state == S_NEW && chance(r, 50)) {
			tg_send(t, "x", 1);
			t->state = S_HOLD;
		} else if (t->cg[0] && chance(r, 50)) {
			spawn_entrant(t, idx);
		} else if (t->state == S_HOLD && t->cg[0] && chance(r, 30)) {
			if (chance(r, 50)) {
				/* out of its cgroup, alive; then remove it */
				snprintf(pidstr, sizeof(pidstr), "%d", (int)t->pid);
				write_str(root_procs, pidstr);
			} else {
				kill_target(t);
			}
			if (!try_rmdir(t->cg, 200))
				t->cg[0] = 0;
		}
		break;
	case K_LOOP:
		if (t->state == S_NEW && chance(r, 3))
			kill_target(t);
		break;
	default:
		break;
	}
}

static const int kinds_plan[] = {
	K_BLOCKED, K_BLOCKED, K_BLOCKED, K_BLOCKED, K_BLOCKED, K_BLOCKED,
	K_THREADS, K_THREADS, K_LOOP, K_LOOP, K_ZOMBIE, K_ZOMBIE, K_REAPED,
	K_REAPED, K_EXITING, K_EXITING, K_EXITING, K_CGROUP, K_CGROUP,
	K_CGROUP, K_BLOCKED, K_BLOCKED, K_THREADS, K_CGROUP,
};

static int run_epoch(unsigned int epoch, uint64_t seed, int nt, int nw,
		     long per_writer, struct totals *tot)
{
	struct rng r = { seed ^ (0xe7037ed1a0b428dbULL * (epoch + 1)) };
	pid_t wpid[64];
	int i, k, st, live;

	memset(sh->t, 0, sizeof(sh->t));
	sh->nt = 0;
	for (i = 0; i < nt && i < MAXT; i++) {
		int kind = kinds_plan[(i + epoch) % (sizeof(kinds_plan) / sizeof(*kinds_plan))];

		if (make_target(&sh->t[i], i, kind, &r, epoch))
			return -1;
		sh->nt = i + 1;
	}
	for (i = 0; i < nw; i++) {
		wpid[i] = fork();
		if (!wpid[i])
			writer(i, seed ^ ((uint64_t)epoch << 40), per_writer, g_assign_fd);
	}
	/* The world changes while the writers run. */
	for (;;) {
		for (live = 0, i = 0; i < nw; i++) {
			if (!wpid[i])
				continue;
			if (waitpid(wpid[i], &st, WNOHANG) == wpid[i]) {
				if (!WIFEXITED(st) || WEXITSTATUS(st))
					failmsg(&sh->fail_world, "writer %d ended with status %#x",
						i, st);
				wpid[i] = 0;
			} else {
				live++;
			}
		}
		if (!live)
			break;
		usleep_((2000 + rn(&r, 20000)) * 100 / churn);
		act(&r, epoch);
	}
	for (i = 0; i < sh->nt; i++)
		verify_target(&sh->t[i], i, tot, seed);
	verify_entrants(tot);
	/* Everything goes; cgroups too. */
	for (i = 0; i < sh->nt; i++) {
		struct target *t = &sh->t[i];

		if (t->state == S_HOLD || t->state == S_NEW)
			tg_send(t, "q", 1);
		if (t->state != S_GONE) {
			if (t->kind == K_LOOP)
				tot->exec_loops++;
			kill(t->pid, SIGKILL);
			waitpid(t->pid, NULL, 0);
		}
		for (k = 0; k < t->npfd; k++)
			if (t->pfd[k] >= 0)
				close(t->pfd[k]);
		close(t->rfd);
		close(t->cfd);
		if (t->cg[0] && try_rmdir(t->cg, 500))
			failmsg(&sh->fail_world, "cannot remove %s: %s", t->cg,
				strerror(errno));
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: lsmns-fuzz [-n REQUESTS] [-j WRITERS] [-s SEED] [-e EPOCHS] [-t TARGETS] [-c CHURN] [-q] [-x]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long nreq = 100000, base, end_count = -1;
	int nw = 4, ne = 10, nt = 24, opt, tapn = 0, s;
	uint64_t seed = 0;
	struct totals tot;
	double t0, t_end;
	unsigned int e;
	int have_seed = 0;

	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		snprintf(self_exe, sizeof(self_exe), "%s", argv[0]);
	if (argc >= 2 && !strcmp(argv[1], "--hold"))
		return mode_hold();
	if (argc >= 3 && !strcmp(argv[1], "--loop"))
		return mode_loop(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "--threads"))
		return mode_threads();
	if (argc >= 2 && !strcmp(argv[1], "--probe"))
		return mode_probe();

	while ((opt = getopt(argc, argv, "n:j:s:e:t:xc:q")) != -1) {
		switch (opt) {
		case 'n': nreq = strtol(optarg, NULL, 0); break;
		case 'j': nw = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); have_seed = 1; break;
		case 'e': ne = atoi(optarg); break;
		case 't': nt = atoi(optarg); break;
		case 'x': allow_exec_refusal = 1; break;
		case 'c': churn = atoi(optarg); break;
		case 'q': quiet_audit = 1; break;
		default: usage();
		}
	}
	if (nw < 1 || nw > 64 || ne < 1 || nt < 1 || nt > MAXT || nreq < 1 ||
	    churn < 1 || churn > 1000)
		usage();
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# lsmns-fuzz: seed=%#llx requests=%ld writers=%d epochs=%d targets=%d churn=%u%%\n",
	       (unsigned long long)seed, nreq, nw, ne, nt, churn);
	probe_lsms();
	printf("# LSMs: selinux=%d smack=%d apparmor=%d; releasable: %d %d %d\n",
	       enabled[0], enabled[1], enabled[2], releasable[0], releasable[1],
	       releasable[2]);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	/* Inherited by writers (shared result state) and targets (fd 5). */
	g_assign_fd = open(ASSIGN, O_RDWR);
	if (g_assign_fd < 0) {
		printf("Bail out! open %s: %s\n", ASSIGN, strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	if (quiet_audit && (s = audit_exclude(1)))
		printf("# cannot exclude the assignment audit records: %s\n",
		       strerror(s));
	else if (quiet_audit)
		printf("# assignment audit records excluded for the run (audit rule)\n");
	base = read_count();
	memset(&tot, 0, sizeof(tot));
	t0 = now();
	for (e = 0; e < (unsigned int)ne; e++) {
		long per = nreq / ne / nw + ((long)e < (nreq / nw) % ne);

		if (run_epoch(e, seed, nt, nw, per, &tot)) {
			printf("Bail out! epoch %u: cannot make targets: %s\n", e,
			       strerror(errno));
			return 1;
		}
	}
	t_end = now();
	close(g_assign_fd);
	if (quiet_audit && (s = audit_exclude(0)))
		failmsg(&sh->fail_world, "cannot remove the audit exclude rule: %s",
			strerror(s));
	/* Namespaces are freed after an RCU grace period: poll. */
	for (s = 0; s < 600; s++) {
		end_count = read_count();
		if (end_count == base)
			break;
		msleep(100);
	}

	printf("# %llu writes in %.1f s (%.0f/s)\n", (unsigned long long)sh->writes,
	       t_end - t0, sh->writes / (t_end - t0 > 0 ? t_end - t0 : 1));
	printf("# results: ok=%llu", (unsigned long long)sh->hist_ok);
	for (s = 1; s < 256; s++)
		if (sh->hist[s])
			printf(" %s=%llu", ename(s), (unsigned long long)sh->hist[s]);
	printf("\n# malformed, errno and index as documented: %llu; EFAULT: %llu; well formed, target-phase errno: %llu; unprivileged EPERM: %llu; non-leader PIDFD_THREAD ESRCH: %llu\n",
	       (unsigned long long)sh->pred_struct, (unsigned long long)sh->efault,
	       (unsigned long long)sh->pred_target,
	       (unsigned long long)sh->eperm_unpriv,
	       (unsigned long long)sh->nonleader_esrch);
	printf("# writers' own targets: %llu, execs checked %llu, writes predicted exactly %llu, accepted %llu\n",
	       (unsigned long long)sh->priv_targets, (unsigned long long)sh->priv_execs,
	       (unsigned long long)sh->priv_predicted, (unsigned long long)sh->priv_accepted);
	printf("# targets verified after a final exec: %ld (assigned %ld, not assigned %ld); exec-loop targets %ld; entrants %ld (adopted %ld); namespaced tasks probing the assign file %ld\n",
	       tot.verified, tot.assigned, tot.unassigned, tot.exec_loops,
	       tot.entrants, tot.adopted, tot.inside_checks);
	for (s = 0; s < (int)sh->nmsg && s < NFAILMSG; s++)
		printf("# FAIL: %s\n", sh->msg[s]);
	if (sh->nmsg > NFAILMSG)
		printf("# ... and %u more failures\n", sh->nmsg - NFAILMSG);

	printf("%sok %d - fuzz: %llu writes, each success or the documented errno (as the documented order predicts when malformed)\n",
	       sh->fail_errno ? "not " : "", ++tapn, (unsigned long long)sh->writes);
	printf("%sok %d - fuzz: a writer's own targets: every well-formed request gets the predicted outcome (EBUSY exactly when it widens the namespace or the pending one), every exec the predicted namespace\n",
	       sh->fail_predict || !sh->priv_execs ? "not " : "", ++tapn);
	printf("%sok %d - fuzz: every result read back matches its write\n",
	       sh->fail_result ? "not " : "", ++tapn);
	printf("%sok %d - fuzz: %ld targets exec'd at the end, each in the last, narrowest namespace accepted for it or id=0 if none (no half assignment)\n",
	       sh->fail_verify || !tot.verified ? "not " : "", ++tapn, tot.verified);
	printf("%sok %d - fuzz: %ld later entrants of bound cgroups adopt nothing or a namespace accepted there\n",
	       sh->fail_entrant ? "not " : "", ++tapn, tot.entrants);
	printf("%sok %d - fuzz: %ld namespaced tasks: open of the assign file and a write to an inherited one are EPERM\n",
	       sh->fail_inside ? "not " : "", ++tapn, tot.inside_checks);
	printf("%sok %d - fuzz: the targets, writers and cgroups behaved (every exec of a target succeeded, every cgroup could be removed)\n",
	       sh->fail_world ? "not " : "", ++tapn);
	printf("%sok %d - fuzz: no assignment gave the Smack label \"*\" or \"@\" (accepted %llu and %llu times)\n",
	       sh->accepted_smack_star || sh->accepted_smack_web ? "not " : "", ++tapn,
	       (unsigned long long)sh->accepted_smack_star,
	       (unsigned long long)sh->accepted_smack_web);
	printf("%sok %d - fuzz: lsmns/count back to %ld (now %ld)\n",
	       end_count != base ? "not " : "", ++tapn, base, end_count);
	printf("1..%d\n", tapn);
	return (sh->nmsg || end_count != base) ? 1 : 0;
}
