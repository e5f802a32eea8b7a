// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lsmns: the node operator's view of LSM namespaces.
 *
 *   lsmns ps [--json] [--all]
 *   lsmns explain ...        (explain.c: what the hook would decide)
 *   lsmns check-policy ...   (explain.c, lint.c: validate and lint)
 *
 * Lists every LSM namespace alive: id, parent, interface LSM, the mode of
 * each running LSM, the contexts assigned with it, the cgroup it is bound
 * to, and its tasks with each running LSM's context of them.
 *
 * Sources: /sys/kernel/security/lsmns/namespaces (the kernel's list, which
 * also holds namespaces no task is in: pending assignments, namespaces
 * alive through their cgroup binding), then /proc/PID/attr/lsmns of every
 * process for the tasks.  On a kernel without the list file only the
 * namespaces that have tasks are found, and a warning says so.
 *
 * Runs as root outside any LSM namespace; every failure is one line on
 * stderr and exit status 1 (2 for a usage error).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lsmns_hook.h"

#define PROG		"lsmns ps"
#define VERSION		"0.1.0"
#define SECFS		"/sys/kernel/security"
#define NS_LIST		SECFS "/lsmns/namespaces"
#define NS_DIR		SECFS "/lsmns"
#define LSM_LIST	SECFS "/lsm"

/* Bounds on what is read. */
#define MAX_LIST_SIZE	(64u << 20)	/* the kernel's namespace list */
#define MAX_ATTR_SIZE	8192u		/* one /proc attribute */
#define TEXT_WIDTH	100		/* plain text lines wrap at this */

/* The LSMs a namespace can hide, in the kernel's order. */
enum { SLOT_SELINUX, SLOT_SMACK, SLOT_APPARMOR, SLOTS };
static const char *const slot_name[SLOTS] = { "selinux", "smack", "apparmor" };

struct task {
	long pid;
	char comm[64];
	char *ctx[SLOTS];		/* attr/<lsm>/current, or NULL */
};

struct ns {
	uint64_t id, parent, cgroup;
	char iface[16];
	char mode[SLOTS][16];		/* "" if the kernel did not name it */
	char *ctx[SLOTS];		/* assigned contexts, or NULL */
	char *cgpath;			/* relative to the cgroup2 root */
	bool listed;			/* from the kernel's list */
	struct task *tasks;
	size_t ntasks, cap;
};

static struct {
	struct ns *v;
	size_t n, cap;
} nss;

static bool running[SLOTS];

/* Container cgroups whose tasks are in no LSM namespace (--unassigned). */
struct unassigned {
	char *cgpath;
	struct task *tasks;
	size_t ntasks;
};
static struct {
	struct unassigned *v;
	size_t n;
} unas;
static const char **cg_globs;
static size_t cg_nglobs;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/*
 * read_file - a whole file, NUL-terminated, at most @max bytes.
 * Return: the length, or -1 with errno set (EFBIG if larger than @max).
 */
static ssize_t read_file(const char *path, size_t max, char **out)
{
	size_t cap = 4096, n = 0;
	char *b;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	b = xrealloc(NULL, cap + 1);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap >= max) {
				free(b);
				close(fd);
				errno = EFBIG;
				return -1;
			}
			cap = cap * 2 > max ? max : cap * 2;
			b = xrealloc(b, cap + 1);
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(b);
			close(fd);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*out = b;
	return (ssize_t)n;
}

/* A /proc attribute without its trailing NULs and newlines, or NULL. */
static char *read_attr(const char *path)
{
	char *b;
	ssize_t n;

	n = read_file(path, MAX_ATTR_SIZE, &b);
	if (n < 0)
		return NULL;
	/* SELinux ends with a NUL, AppArmor with a newline. */
	while (n > 0 && (b[n - 1] == '\0' || b[n - 1] == '\n'))
		b[--n] = '\0';
	return b;	/* used as a C string: up to its first NUL */
}

static int slot_of(const char *name, size_t len)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		if (strlen(slot_name[i]) == len && !strncmp(name, slot_name[i], len))
			return i;
	return -1;
}

/* Decode the kernel's \ooo escapes in place. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

static struct ns *ns_find(uint64_t id)
{
	size_t i;

	for (i = 0; i < nss.n; i++)
		if (nss.v[i].id == id)
			return &nss.v[i];
	return NULL;
}

static struct ns *ns_add(uint64_t id)
{
	struct ns *ns;

	if (nss.n == nss.cap) {
		nss.cap = nss.cap ? nss.cap * 2 : 16;
		nss.v = xrealloc(nss.v, nss.cap * sizeof(*nss.v));
	}
	ns = &nss.v[nss.n++];
	memset(ns, 0, sizeof(*ns));
	ns->id = id;
	return ns;
}

/*
 * parse_ns_line - one line of lsmns/namespaces or /proc/PID/attr/lsmns:
 * "id=N parent=N interface=NAME LSM=MODE... [cgroup=N] [ctx_LSM=CTX]...".
 * Keys it does not know are skipped, so a newer kernel may add some.
 * Return: false if the line has no id.
 */
static bool parse_ns_line(char *line, struct ns *ns, bool with_ctx)
{
	bool have_id = false;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		const char *val;
		size_t klen;
		int slot;

		if (!eq)
			continue;
		klen = (size_t)(eq - tok);
		val = eq + 1;
		if (klen == 2 && !strncmp(tok, "id", 2)) {
			have_id = parse_u64(val, &ns->id);
		} else if (klen == 6 && !strncmp(tok, "parent", 6)) {
			if (!parse_u64(val, &ns->parent))
				ns->parent = 0;
		} else if (klen == 6 && !strncmp(tok, "cgroup", 6)) {
			if (!parse_u64(val, &ns->cgroup))
				ns->cgroup = 0;
		} else if (klen == 9 && !strncmp(tok, "interface", 9)) {
			snprintf(ns->iface, sizeof(ns->iface), "%s", val);
		} else if (klen > 4 && !strncmp(tok, "ctx_", 4)) {
			slot = slot_of(tok + 4, klen - 4);
			if (slot >= 0 && with_ctx && !ns->ctx[slot]) {
				ns->ctx[slot] = xstrdup(val);
				unescape(ns->ctx[slot]);
			}
		} else if ((slot = slot_of(tok, klen)) >= 0) {
			snprintf(ns->mode[slot], sizeof(ns->mode[slot]), "%s", val);
		}
	}
	return have_id;
}

static void read_modules(void)
{
	char *b, *tok, *save = NULL;

	if (read_file(LSM_LIST, MAX_ATTR_SIZE, &b) < 0)
		die("cannot read %s: %s (is securityfs mounted?)", LSM_LIST,
		    strerror(errno));
	for (tok = strtok_r(b, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		int slot = slot_of(tok, strlen(tok));

		if (slot >= 0)
			running[slot] = true;
	}
	free(b);
}

/* The caller's own namespace id, from /proc/self/attr/lsmns. */
static uint64_t own_ns(void)
{
	struct ns self = { 0 };
	char *line = read_attr("/proc/self/attr/lsmns");

	if (!line)
		die("cannot read /proc/self/attr/lsmns: %s (not an LSM namespace kernel?)",
		    strerror(errno));
	if (!parse_ns_line(line, &self, false))
		die("cannot parse /proc/self/attr/lsmns");
	free(line);
	return self.id;
}

/* Return: true if the kernel's list was read, false if it has none. */
static bool read_kernel_list(void)
{
	char *b, *line, *save = NULL;
	struct stat sb;

	if (read_file(NS_LIST, MAX_LIST_SIZE, &b) < 0) {
		int e = errno;

		if (e == ENOENT && stat(NS_DIR, &sb) == 0)
			return false;
		if (e == ENOENT)
			die("this kernel has no LSM namespaces (%s is missing)", NS_DIR);
		if (e == EPERM || e == EACCES)
			die("%s: %s (needs CAP_MAC_ADMIN, outside any LSM namespace)",
			    NS_LIST, strerror(e));
		die("cannot read %s: %s", NS_LIST, strerror(e));
	}
	for (line = strtok_r(b, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ns tmp = { 0 }, *ns;
		int i;

		if (!parse_ns_line(line, &tmp, true)) {
			for (i = 0; i < SLOTS; i++)
				free(tmp.ctx[i]);
			continue;
		}
		ns = ns_find(tmp.id);
		if (!ns)
			ns = ns_add(tmp.id);
		tmp.listed = true;
		*ns = tmp;
	}
	free(b);
	return true;
}

static void add_task(struct ns *ns, long pid)
{
	struct task *t;
	char path[64], *comm;
	int i;

	if (ns->ntasks == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 8;
		ns->tasks = xrealloc(ns->tasks, ns->cap * sizeof(*ns->tasks));
	}
	t = &ns->tasks[ns->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	comm = read_attr(path);
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "?");
	free(comm);
	for (i = 0; i < SLOTS; i++) {
		if (!running[i])
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/attr/%s/current", pid,
			 slot_name[i]);
		t->ctx[i] = read_attr(path);
	}
}

/* Every process: its namespace, and the tasks of each namespace. */
/* The cgroup v2 path of @pid ("0::PATH"), or NULL. */
static char *task_cgroup(long pid)
{
	char path[64], *b, *p, *nl;

	snprintf(path, sizeof(path), "/proc/%ld/cgroup", pid);
	if (read_file(path, MAX_ATTR_SIZE, &b) < 0)
		return NULL;
	p = strstr(b, "0::");
	if (!p || (p != b && p[-1] != '\n')) {
		free(b);
		return NULL;
	}
	p += 3;
	nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	p = xstrdup(p);
	free(b);
	return p;
}

/* A task of the initial namespace: listed if it is in a container cgroup. */
static void note_unassigned(long pid)
{
	struct unassigned *u = NULL;
	struct task *t;
	char *cg = task_cgroup(pid), path[64], *comm;
	size_t i;

	if (!cg || !cgroup_is_container(cg, cg_globs, cg_nglobs)) {
		free(cg);
		return;
	}
	for (i = 0; i < unas.n && !u; i++)
		if (!strcmp(unas.v[i].cgpath, cg))
			u = &unas.v[i];
	if (!u) {
		unas.v = xrealloc(unas.v, (unas.n + 1) * sizeof(*unas.v));
		u = &unas.v[unas.n++];
		memset(u, 0, sizeof(*u));
		u->cgpath = cg;
	} else {
		free(cg);
	}
	u->tasks = xrealloc(u->tasks, (u->ntasks + 1) * sizeof(*u->tasks));
	t = &u->tasks[u->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	comm = read_attr(path);
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "?");
	free(comm);
}

static void scan_proc(bool all)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		die("cannot open /proc: %s", strerror(errno));
	while ((de = readdir(d))) {
		char path[64], *line;
		struct ns tmp = { 0 }, *ns;
		uint64_t pid;

		if (!parse_u64(de->d_name, &pid) || pid > INT32_MAX)
			continue;
		snprintf(path, sizeof(path), "/proc/%" PRIu64 "/attr/lsmns", pid);
		line = read_attr(path);
		if (!line)
			continue;	/* exited meanwhile */
		if (!parse_ns_line(line, &tmp, false)) {
			free(line);
			continue;
		}
		if (tmp.id == 0 && cg_globs)
			note_unassigned((long)pid);
		if (tmp.id == 0 && !all) {
			free(line);
			continue;
		}
		free(line);
		ns = ns_find(tmp.id);
		if (!ns) {
			/* Made after the list was read, or no list. */
			ns = ns_add(tmp.id);
			*ns = tmp;
		}
		add_task(ns, (long)pid);
	}
	closedir(d);
}

/* ---- cgroup ids to paths ------------------------------------------------ */

static char cg_root[4096];
static size_t cg_pending;

/* The cgroup2 mount point, from /proc/self/mountinfo. */
static bool find_cgroup2(void)
{
	char *b, *line, *save = NULL;
	bool found = false;

	if (read_file("/proc/self/mountinfo", MAX_LIST_SIZE, &b) < 0)
		return false;
	for (line = strtok_r(b, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sep = strstr(line, " - cgroup2 ");
		char mnt[4096];

		if (!sep)
			continue;
		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1) {
			unescape(mnt);	/* mountinfo escapes as \ooo too */
			snprintf(cg_root, sizeof(cg_root), "%s", mnt);
			found = true;
		}
	}
	free(b);
	return found;
}

static int cg_visit(const char *path, const struct stat *sb, int type,
		    struct FTW *ftw)
{
	size_t i;

	(void)ftw;
	if (type != FTW_D)
		return 0;
	for (i = 0; i < nss.n; i++) {
		struct ns *ns = &nss.v[i];

		/* A cgroup v2 id is its kernfs inode number (64-bit). */
		if (ns->cgroup && !ns->cgpath && (uint64_t)sb->st_ino == ns->cgroup) {
			const char *rel = path + strlen(cg_root);

			ns->cgpath = xstrdup(*rel ? rel : "/");
			cg_pending--;
		}
	}
	return cg_pending ? 0 : 1;
}

static void resolve_cgroups(void)
{
	size_t i;

	for (i = 0; i < nss.n; i++)
		if (nss.v[i].cgroup)
			cg_pending++;
	if (!cg_pending || !find_cgroup2())
		return;
	nftw(cg_root, cg_visit, 32, FTW_PHYS | FTW_MOUNT);
}

/* ---- output ------------------------------------------------------------- */

static int cmp_ns(const void *a, const void *b)
{
	const struct ns *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Terminal-safe copy of an untrusted string: \ooo for the unprintable. */
static const char *safe(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			n += (size_t)snprintf(buf + n, size - n, "\\%03o", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * Print "KEY=VALUE" items after @lead (which ends with its separator) on
 * one line while they fit in TEXT_WIDTH columns, then on continuation
 * lines indented to @indent.
 */
static void print_items(const char *lead, int indent, char items[][4200],
			int nitems)
{
	int col, i;

	col = printf("%s", lead);
	for (i = 0; i < nitems; i++) {
		int len = (int)strlen(items[i]);

		if (i > 0 && col + 1 + len > TEXT_WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (i > 0) {
			col += printf(" ");
		}
		col += printf("%s", items[i]);
	}
	printf("\n");
}

/* What keeps a namespace without tasks alive, as far as can be seen. */
static const char *why_empty(const struct ns *ns, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < nss.n; i++)
		if (nss.v[i].parent == ns->id && nss.v[i].id != ns->id) {
			snprintf(buf, size, "parent of namespace %" PRIu64,
				 nss.v[i].id);
			return buf;
		}
	if (!ns->listed)
		return "its tasks exited meanwhile";
	if (!ns->cgroup)
		return "assigned, not entered yet";
	return "held by an open file or socket, or its last task is exiting";
}

static void print_unassigned_text(void)
{
	char buf[4096];
	size_t i, j;

	printf("\n%zu container cgroup%s without an LSM namespace\n", unas.n,
	       unas.n == 1 ? "" : "s");
	for (i = 0; i < unas.n; i++) {
		printf("  %s\n", safe(unas.v[i].cgpath, buf, sizeof(buf)));
		for (j = 0; j < unas.v[i].ntasks; j++)
			printf("    %7ld %s\n", unas.v[i].tasks[j].pid,
			       safe(unas.v[i].tasks[j].comm, buf, 16));
	}
}

static void print_text(bool have_list)
{
	char items[SLOTS + 1][4200], buf[4096];
	size_t i, j;
	int k, n;

	printf("%zu LSM namespace%s", nss.n, nss.n == 1 ? "" : "s");
	printf(" (running:");
	for (k = 0, n = 0; k < SLOTS; k++)
		if (running[k])
			printf("%s%s", n++ ? "," : " ", slot_name[k]);
	printf(")%s\n", have_list ? "" :
	       "; no kernel list: namespaces without tasks are not shown");
	for (i = 0; i < nss.n; i++) {
		struct ns *ns = &nss.v[i];

		printf("\nnamespace %" PRIu64 "  parent %" PRIu64 "  interface %s\n",
		       ns->id, ns->parent, ns->iface[0] ? ns->iface : "?");
		for (k = 0, n = 0; k < SLOTS; k++)
			if (ns->mode[k][0])
				snprintf(items[n++], sizeof(items[0]), "%s=%s",
					 slot_name[k], ns->mode[k]);
		print_items("  modes    ", 11, items, n);
		for (k = 0, n = 0; k < SLOTS; k++)
			if (ns->ctx[k])
				snprintf(items[n++], sizeof(items[0]), "%s=%s",
					 slot_name[k], safe(ns->ctx[k], buf, sizeof(buf)));
		if (n)
			print_items("  contexts ", 11, items, n);
		else
			printf("  contexts %s\n", ns->listed ? "(none assigned)" :
			       "(unknown: not in the kernel list)");
		if (!ns->cgroup)
			printf("  cgroup   %s\n", ns->listed ? "(not bound)" : "(unknown)");
		else
			printf("  cgroup   %" PRIu64 " %s\n", ns->cgroup,
			       ns->cgpath ? safe(ns->cgpath, buf, sizeof(buf)) :
			       "(removed)");
		if (!ns->ntasks) {
			printf("  tasks    none (%s)\n", why_empty(ns, buf, sizeof(buf)));
			continue;
		}
		printf("  tasks    %zu\n", ns->ntasks);
		for (j = 0; j < ns->ntasks; j++) {
			struct task *t = &ns->tasks[j];
			char lead[128];

			snprintf(lead, sizeof(lead), "    %7ld %-15s ", t->pid,
				 safe(t->comm, buf, 16));
			for (k = 0, n = 0; k < SLOTS; k++)
				if (running[k])
					snprintf(items[n++], sizeof(items[0]), "%s=%s",
						 slot_name[k], t->ctx[k] ?
						 safe(t->ctx[k], buf, sizeof(buf)) : "-");
			print_items(lead, 28, items, n);
		}
	}
	if (cg_globs)
		print_unassigned_text();
}

static json_object *jstr(const char *s)
{
	json_object *o = json_object_new_string(s);

	if (!o)
		die("out of memory");
	return o;
}

static json_object *jobj(void)
{
	json_object *o = json_object_new_object();

	if (!o)
		die("out of memory");
	return o;
}

static json_object *jarr(void)
{
	json_object *o = json_object_new_array();

	if (!o)
		die("out of memory");
	return o;
}

static void jadd(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add(o, key, v))
		die("out of memory");
}

static void print_json(bool have_list)
{
	json_object *root = jobj(), *mods = jarr(), *list = jarr();
	size_t i, j;
	int k;

	for (k = 0; k < SLOTS; k++)
		if (running[k])
			json_object_array_add(mods, jstr(slot_name[k]));
	jadd(root, "modules", mods);
	jadd(root, "source", jstr(have_list ? "kernel" : "proc"));
	for (i = 0; i < nss.n; i++) {
		struct ns *ns = &nss.v[i];
		json_object *o = jobj(), *modes = jobj(), *ctx = jobj(),
			    *tasks = jarr(), *cg;

		jadd(o, "id", json_object_new_uint64(ns->id));
		jadd(o, "parent", json_object_new_uint64(ns->parent));
		jadd(o, "interface", jstr(ns->iface[0] ? ns->iface : "?"));
		for (k = 0; k < SLOTS; k++) {
			if (ns->mode[k][0])
				jadd(modes, slot_name[k], jstr(ns->mode[k]));
			if (ns->ctx[k])
				jadd(ctx, slot_name[k], jstr(ns->ctx[k]));
		}
		jadd(o, "modes", modes);
		jadd(o, "contexts", ctx);
		if (ns->cgroup) {
			cg = jobj();
			jadd(cg, "id", json_object_new_uint64(ns->cgroup));
			jadd(cg, "path", ns->cgpath ? jstr(ns->cgpath) : NULL);
		} else {
			cg = NULL;
		}
		jadd(o, "cgroup", cg);
		jadd(o, "listed", json_object_new_boolean(ns->listed));
		for (j = 0; j < ns->ntasks; j++) {
			struct task *t = &ns->tasks[j];
			json_object *to = jobj(), *tc = jobj();

			jadd(to, "pid", json_object_new_int64(t->pid));
			jadd(to, "comm", jstr(t->comm));
			for (k = 0; k < SLOTS; k++)
				if (running[k])
					jadd(tc, slot_name[k], t->ctx[k] ?
					     jstr(t->ctx[k]) : NULL);
			jadd(to, "contexts", tc);
			json_object_array_add(tasks, to);
		}
		jadd(o, "tasks", tasks);
		json_object_array_add(list, o);
	}
	jadd(root, "namespaces", list);
	if (cg_globs) {
		json_object *ua = jarr();

		for (i = 0; i < unas.n; i++) {
			json_object *o = jobj(), *tasks = jarr();

			jadd(o, "cgroup", jstr(unas.v[i].cgpath));
			for (j = 0; j < unas.v[i].ntasks; j++) {
				json_object *to = jobj();

				jadd(to, "pid", json_object_new_int64(unas.v[i].tasks[j].pid));
				jadd(to, "comm", jstr(unas.v[i].tasks[j].comm));
				json_object_array_add(tasks, to);
			}
			jadd(o, "tasks", tasks);
			json_object_array_add(ua, o);
		}
		jadd(root, "unassigned", ua);
	}
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lsmns ps [--json] [--all] [--unassigned] [--cgroup GLOB]...\n"
		"       lsmns explain [--policy FILE] [--json] INPUT\n"
		"       lsmns check-policy FILE...\n"
		"ps: list every LSM namespace alive: modes, interface LSM, assigned\n"
		"contexts, bound cgroup, and its tasks with their contexts.\n"
		"explain: what lsmns-hook would decide for a config.json, a Kubernetes\n"
		"object or annotations, rule by rule (lsmns explain --help).\n"
		"check-policy: validate and lint host policies (lsmns check-policy --help).\n"
		"\n"
		"  -j, --json     JSON instead of text\n"
		"  -a, --all      also the initial namespace (id 0) and its tasks\n"
		"  -u, --unassigned  also the container cgroups whose tasks are in no\n"
		"                 LSM namespace (podman, CRI-O, containerd, docker names)\n"
		"  -c, --cgroup GLOB  a container cgroup is one matching GLOB (repeatable;\n"
		"                 implies --unassigned)\n"
		"  -h, --help     this text\n"
		"  -V, --version  the version\n"
		"Runs as root, outside any LSM namespace.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "unassigned", no_argument, NULL, 'u' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = false, all = false, unassigned = false, have_list;
	uint64_t self;
	size_t i;
	int c;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("lsmns %s\n", VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "explain"))
		return explain_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check-policy"))
		return check_policy_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "ps")) {
		fprintf(stderr, "lsmns: unknown command '%s' (try: lsmns ps, lsmns explain, lsmns check-policy)\n", argv[1]);
		return 2;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "jauc:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'a':
			all = true;
			break;
		case 'u':
			unassigned = true;
			break;
		case 'c':
			cg_globs = xrealloc(cg_globs, (cg_nglobs + 1) * sizeof(*cg_globs));
			cg_globs[cg_nglobs++] = optarg;
			unassigned = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("lsmns %s\n", VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'lsmns ps --help'.\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (unassigned && !cg_globs) {
		cg_globs = (const char **)container_cgroup_globs;
		cg_nglobs = container_cgroup_nglobs;
	}
	if (geteuid() != 0)
		die("must be run as root");
	read_modules();
	self = own_ns();
	if (self != 0)
		die("runs outside any LSM namespace only (this task is in namespace %" PRIu64 ")",
		    self);
	have_list = read_kernel_list();
	if (!have_list)
		fprintf(stderr, PROG ": warning: the kernel has no %s; namespaces "
			"without tasks are not shown\n", NS_LIST);
	if (all && !ns_find(0)) {
		struct ns *init = ns_add(0);
		int k;

		snprintf(init->iface, sizeof(init->iface), "default");
		for (k = 0; k < SLOTS; k++)
			if (running[k])
				snprintf(init->mode[k], sizeof(init->mode[k]), "active");
		init->listed = have_list;
	}
	scan_proc(all);
	resolve_cgroups();
	qsort(nss.v, nss.n, sizeof(*nss.v), cmp_ns);
	for (i = 0; i < nss.n; i++)
		qsort(nss.v[i].tasks, nss.v[i].ntasks, sizeof(struct task), cmp_task);
	if (json)
		print_json(have_list);
	else
		print_text(have_list);
	if (fflush(stdout) || ferror(stdout))
		die("cannot write the output: %s", strerror(errno));
	return 0;
}
