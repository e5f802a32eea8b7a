// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end: run the lsmns-hook binary ($LSMNS_HOOK, default
 * build/lsmns-hook) as a runtime would, against a sleeping child as the
 * target and a regular file as the assign file, and check exit status,
 * stderr and the bytes written.
 */
#include <fcntl.h>
#include <poll.h>

#include "testutil.h"

/* Where the hook's standard output goes. */
enum out_mode { OUT_FILE, OUT_PIPE, OUT_DEVNULL, OUT_TTY };

struct run {
	int status;	/* exit status, or 128 + signal */
	char out[65536];
	char err[8192];
};

static const char *hook_path(void)
{
	const char *p = getenv("LSMNS_HOOK");

	return p && *p ? p : "build/lsmns-hook";
}

static void slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
}

/* Read what is there on @fd until EOF or EIO (a pty whose slave closed). */
static size_t drain(int fd, char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		ssize_t r;

		if (n + 1 >= size)
			break;
		r = read(fd, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

static void run_hook_out(struct run *r, const char *dir, const char *const *args,
			 const char *input, size_t input_len, enum out_mode mode);

/* Run the hook with @argv (after argv[0]) and @input on stdin. */
static void run_hook(struct run *r, const char *dir, const char *const *args,
		     const char *input, size_t input_len)
{
	run_hook_out(r, dir, args, input, input_len, OUT_FILE);
}

static void run_hook_out(struct run *r, const char *dir, const char *const *args,
			 const char *input, size_t input_len, enum out_mode mode)
{
	char *in = tu_path(dir, "stdin"), *out = tu_path(dir, "stdout"),
	     *errp = tu_path(dir, "stderr");
	const char *argv[16];
	int st, i = 0, pipefd[2] = { -1, -1 }, master = -1;
	char *slave = NULL;
	pid_t pid;

	bool no_seccomp = false;

	if (mode == OUT_PIPE)
		assert_int_equal(pipe(pipefd), 0);
	if (mode == OUT_TTY) {
		master = posix_openpt(O_RDWR | O_NOCTTY);
		assert_true(master >= 0);
		assert_int_equal(grantpt(master), 0);
		assert_int_equal(unlockpt(master), 0);
		slave = strdup(ptsname(master));
		assert_non_null(slave);
	}

	tu_write(in, input, input_len);
	argv[i++] = "lsmns-hook";
	for (; args && *args; args++) {
		no_seccomp = no_seccomp || !strcmp(*args, "--no-seccomp");
		argv[i++] = *args;
	}
	argv[i] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fi = open(in, O_RDONLY), fo,
		    fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		switch (mode) {
		case OUT_PIPE:
			fo = pipefd[1];
			close(pipefd[0]);
			break;
		case OUT_DEVNULL:
			fo = open("/dev/null", O_WRONLY);
			break;
		case OUT_TTY:
			fo = open(slave, O_WRONLY | O_NOCTTY);
			break;
		default:
			fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		}
		if (fi < 0 || fo < 0 || fe < 0)
			_exit(120);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		/*
		 * LeakSanitizer stops the world with clone and ptrace at exit,
		 * which the hook's seccomp filter kills: leaks are checked in
		 * the --no-seccomp runs (test_no_seccomp) instead.
		 */
		if (!no_seccomp)
			setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execv(hook_path(), (char *const *)argv);
		_exit(121);
	}
	r->out[0] = '\0';
	if (mode == OUT_PIPE) {
		close(pipefd[1]);
		drain(pipefd[0], r->out, sizeof(r->out));
		close(pipefd[0]);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (mode == OUT_FILE)
		slurp(out, r->out, sizeof(r->out));
	if (mode == OUT_TTY) {
		struct pollfd p = { .fd = master, .events = POLLIN };

		/* what the tty holds: the child is gone, nothing more comes */
		if (poll(&p, 1, 1000) > 0) {
			int fl = fcntl(master, F_GETFL);

			fcntl(master, F_SETFL, fl | O_NONBLOCK);
			drain(master, r->out, sizeof(r->out));
		}
		close(master);
		free(slave);
	}
	slurp(errp, r->err, sizeof(r->err));
	free(in);
	free(out);
	free(errp);
}

/* Exactly one line on stderr, "lsmns-hook: ...needle...". */
static void one_line(const struct run *r, const char *needle)
{
	const char *nl = strchr(r->err, '\n');

	if (strncmp(r->err, "lsmns-hook: ", 12) || !nl || nl[1] != '\0' ||
	    !strstr(r->err, needle))
		fail_msg("stderr is not one line with /%s/: <%s>", needle, r->err);
}

/* ---- fixture: a bundle, a policy, an assign file, a target ------------- */

static const char policy_json[] =
	"{\"version\":1,\"rules\":["
	"{\"name\":\"demo\",\"active\":[[\"selinux\"],[\"apparmor\"]],"
	" \"contexts\":{\"selinux\":[\"system_u:system_r:container_t:s0:c*\"],\"apparmor\":[\"lsmns-*\"]},"
	" \"hidden\":{\"apparmor\":\"lsmns-hidden\"},\"release\":[\"smack\"],\"default\":\"none\"}]}";

struct fx {
	char *dir, *bundle, *policy, *assign, *config;
	char pol_arg[512], assign_arg[512];
	pid_t target;
	struct run r;
};

static struct fx *fx;

static int setup(void **s)
{
	(void)s;
	fx = calloc(1, sizeof(*fx));
	assert_non_null(fx);
	fx->dir = tu_tmpdir();
	fx->bundle = tu_path(fx->dir, "bundle");
	assert_int_equal(mkdir(fx->bundle, 0700), 0);
	fx->config = tu_path(fx->bundle, "config.json");
	tu_write_str(fx->config, "{\"ociVersion\":\"1.0.2\",\"process\":{\"args\":[\"sh\"]},\"root\":{\"path\":\"rootfs\"}}");
	fx->policy = tu_path(fx->dir, "policy.json");
	tu_write_str(fx->policy, policy_json);
	fx->assign = tu_path(fx->dir, "assign");
	tu_write_str(fx->assign, "");
	snprintf(fx->pol_arg, sizeof(fx->pol_arg), "--policy=%s", fx->policy);
	snprintf(fx->assign_arg, sizeof(fx->assign_arg), "--assign-file=%s", fx->assign);
	fx->target = tu_sleeper();
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	tu_kill(fx->target);
	free(fx->bundle);
	free(fx->config);
	free(fx->policy);
	free(fx->assign);
	tu_rmdir(fx->dir);
	free(fx);
	return 0;
}

/* A state with the fixture's pid and bundle and extra annotations JSON. */
static char *state(const char *status, const char *annotations)
{
	static char buf[16384];

	snprintf(buf, sizeof(buf),
		 "{\"ociVersion\":\"1.0.2\",\"id\":\"ctr-1\",\"status\":\"%s\",\"pid\":%d,"
		 "\"bundle\":\"%s\",\"annotations\":{%s}}",
		 status, (int)fx->target, fx->bundle, annotations);
	return buf;
}

static const char sel_ann[] =
	"\"org.lsmns.lsm\":\"selinux\","
	"\"org.lsmns.selinux.context\":\"system_u:system_r:container_t:s0:c1,c2\"";

static void hook(const char *input, const char *const *extra)
{
	const char *args[12];
	int i = 0;

	args[i++] = fx->pol_arg;
	args[i++] = fx->assign_arg;
	for (; extra && *extra; extra++)
		args[i++] = *extra;
	args[i] = NULL;
	run_hook(&fx->r, fx->dir, args, input, strlen(input));
}

static size_t assign_size(void)
{
	struct stat sb;

	assert_int_equal(stat(fx->assign, &sb), 0);
	return (size_t)sb.st_size;
}

/* ---- command line ----------------------------------------------------------- */

static void test_cli(void **s)
{
	(void)s;
	run_hook(&fx->r, fx->dir, (const char *[]){ "--version", NULL }, "", 0);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.out, "lsmns-hook " HOOK_VERSION " (lsmns ABI 1)"));
	run_hook(&fx->r, fx->dir, (const char *[]){ "--help", NULL }, "", 0);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.out, "--check-policy FILE"));
	run_hook(&fx->r, fx->dir, (const char *[]){ "--bogus", NULL }, "", 0);
	assert_int_equal(fx->r.status, HOOK_ERR_USAGE);
	one_line(&fx->r, "invalid option --bogus");
	run_hook(&fx->r, fx->dir, (const char *[]){ "--policy", NULL }, "", 0);
	assert_int_equal(fx->r.status, HOOK_ERR_USAGE);
	run_hook(&fx->r, fx->dir, (const char *[]){ "extra", NULL }, "", 0);
	assert_int_equal(fx->r.status, HOOK_ERR_USAGE);
	one_line(&fx->r, "unexpected argument \"extra\"");
}

static void test_check_policy(void **s)
{
	char arg[600];
	char *bad = tu_path(fx->dir, "bad.json");

	(void)s;
	snprintf(arg, sizeof(arg), "--check-policy=%s", fx->policy);
	run_hook(&fx->r, fx->dir, (const char *[]){ arg, NULL }, "", 0);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.out, "valid, 1 rule"));
	{
		size_t len;
		char *ex = tu_read("etc/policy.json.example", &len);

		tu_write(bad, ex, len);	/* a copy with mode 0644 */
		free(ex);
	}
	snprintf(arg, sizeof(arg), "--check-policy=%s", bad);
	run_hook(&fx->r, fx->dir, (const char *[]){ arg, NULL }, "", 0);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.out, "valid, 3 rules"));
	tu_write_str(bad, "{\"version\":1,\"rules\":[{\"name\":\"x\",\"active\":[[\"selinux\",\"tomoyo\"]]}]}");
	snprintf(arg, sizeof(arg), "--check-policy=%s", bad);
	run_hook(&fx->r, fx->dir, (const char *[]){ arg, NULL }, "", 0);
	assert_int_equal(fx->r.status, HOOK_ERR_POLICY);
	one_line(&fx->r, "unknown LSM \"tomoyo\"");
	run_hook(&fx->r, fx->dir, (const char *[]){ "--check-policy=/nonexistent", NULL }, "", 0);
	assert_int_equal(fx->r.status, HOOK_ERR_POLICY);
	one_line(&fx->r, "cannot open policy file /nonexistent");
	free(bad);
}

/* ---- success ----------------------------------------------------------------- */

static void test_assign_selinux(void **s)
{
	struct lsmns_assign_hdr hdr;
	struct lsmns_entry ent;
	struct lsm_ctx ctx;
	char *buf;
	size_t len;

	(void)s;
	hook(state("created", sel_ann), NULL);
	assert_int_equal(fx->r.status, 0);
	one_line(&fx->r, "container ctr-1 pid ");
	assert_non_null(strstr(fx->r.err, "allowed, assigned: rule=demo interface=selinux selinux=active:system_u:system_r:container_t:s0:c1,c2 apparmor=hidden:lsmns-hidden"));

	buf = tu_read(fx->assign, &len);
	assert_int_equal(len, 32 + 8 + 72 + 8 + 48);
	memcpy(&hdr, buf, sizeof(hdr));
	assert_int_equal(hdr.version, 1);
	assert_int_equal(hdr.flags, 0);
	assert_true(hdr.pidfd > 2);
	assert_int_equal(hdr.nentries, 2);
	assert_int_equal(hdr.size, len);
	assert_int_equal(hdr.reserved, 0);
	assert_int_equal(hdr.interface_lsm, LSM_ID_SELINUX);
	memcpy(&ent, buf + 32, sizeof(ent));
	memcpy(&ctx, buf + 40, sizeof(ctx));
	assert_int_equal(ent.mode, LSMNS_MODE_ACTIVE);
	assert_int_equal(ent.reserved, 0);
	assert_int_equal(ctx.id, LSM_ID_SELINUX);
	assert_int_equal(ctx.flags, 0);
	assert_int_equal(ctx.len, 72);
	assert_int_equal(ctx.ctx_len, 39);
	assert_string_equal(buf + 72, "system_u:system_r:container_t:s0:c1,c2");
	memcpy(&ent, buf + 112, sizeof(ent));
	memcpy(&ctx, buf + 120, sizeof(ctx));
	assert_int_equal(ent.mode, LSMNS_MODE_HIDDEN);
	assert_int_equal(ctx.id, LSM_ID_APPARMOR);
	assert_int_equal(ctx.len, 48);
	assert_int_equal(ctx.ctx_len, 13);
	assert_string_equal(buf + 152, "lsmns-hidden");
	free(buf);
}

static void test_assign_runc_prestart(void **s)
{
	(void)s;
	/* runc says "creating"; the hook is also correct as prestart */
	hook(state("creating", "\"org.lsmns.lsm\":\"apparmor\",\"org.lsmns.apparmor.profile\":\"lsmns-web\",\"org.lsmns.release\":\"smack\""), NULL);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.err, "smack=released:(inherit) apparmor=active:lsmns-web"));
	assert_int_equal(assign_size(), 32 + 8 + 32 + 8 + 48);
}

/* Without seccomp (and so with LeakSanitizer in the ASan build). */
static void test_no_seccomp(void **s)
{
	static const char *const ns[] = { "--no-seccomp", NULL };

	(void)s;
	hook(state("created", sel_ann), ns);
	assert_int_equal(fx->r.status, 0);
	assert_int_equal(assign_size(), 168);
	tu_write_str(fx->assign, "");
	hook(state("created", "\"org.lsmns.lsm\":\"selinux\",\"org.lsmns.selinux.context\":\"bad\""), ns);
	assert_int_equal(fx->r.status, HOOK_ERR_REFUSED);
	hook("{", ns);
	assert_int_equal(fx->r.status, HOOK_ERR_INPUT);
	tu_write_str(fx->policy, "{\"version\":1,\"rules\":[{\"name\":\"x\",\"active\":7}]}");
	hook(state("created", sel_ann), ns);
	assert_int_equal(fx->r.status, HOOK_ERR_POLICY);
	tu_write_str(fx->policy, policy_json);
	hook(state("created", "\"org.lsmns.lsm\":\"selinux\""), (const char *[]){ "--no-seccomp", "--dry-run", NULL });
	assert_int_equal(fx->r.status, HOOK_ERR_REFUSED);
	hook(state("created", sel_ann), (const char *[]){ "--no-seccomp", "--dry-run", NULL });
	assert_int_equal(fx->r.status, 0);
	assert_int_equal(assign_size(), 0);
}

static void test_config_annotations_fallback(void **s)
{
	char st[1024];

	(void)s;
	/* no annotations in the state: config.json's are used */
	tu_write_str(fx->config, "{\"process\":{\"selinuxLabel\":\"system_u:system_r:container_t:s0:c4\"},"
				 "\"annotations\":{\"org.lsmns.lsm\":\"selinux\"}}");
	snprintf(st, sizeof(st), "{\"id\":\"ctr-2\",\"status\":\"created\",\"pid\":%d,\"bundle\":\"%s\"}",
		 (int)fx->target, fx->bundle);
	hook(st, NULL);
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.err, "selinux=active:system_u:system_r:container_t:s0:c4"));
}

static void test_dry_run(void **s)
{
	char missing[600];

	(void)s;
	/* the assign file is not even opened */
	snprintf(missing, sizeof(missing), "--assign-file=%s/nonexistent", fx->dir);
	run_hook(&fx->r, fx->dir, (const char *[]){ fx->pol_arg, missing, "--dry-run", NULL },
		 state("created", sel_ann), strlen(state("created", sel_ann)));
	assert_int_equal(fx->r.status, 0);
	one_line(&fx->r, "dry run, would assign: rule=demo");
	assert_non_null(strstr(fx->r.out, "version=1 flags=0 pidfd="));
	assert_non_null(strstr(fx->r.out, "entry[0] mode=1 (active) id=101 (selinux) flags=0 len=72 ctx_len=39 ctx=\"system_u:system_r:container_t:s0:c1,c2\""));
	assert_non_null(strstr(fx->r.out, "00000000  01 00 00 00"));
}

/* --dry-run wherever its standard output is: file, pipe, /dev/null, a terminal. */
static void test_dry_run_outputs(void **s)
{
	static const char *const names[] = { "file", "pipe", "/dev/null", "terminal" };
	const char *in = state("created", sel_ann);
	char input[16384];
	int m;

	(void)s;
	snprintf(input, sizeof(input), "%s", in);
	for (m = OUT_FILE; m <= OUT_TTY; m++) {
		run_hook_out(&fx->r, fx->dir, (const char *[]){ fx->pol_arg, "--dry-run", NULL },
			     input, strlen(input), (enum out_mode)m);
		if (fx->r.status != 0)
			fail_msg("--dry-run to a %s: exit %d, stderr <%s>", names[m],
				 fx->r.status, fx->r.err);
		one_line(&fx->r, "dry run, would assign: rule=demo");
		if (m != OUT_DEVNULL && !strstr(fx->r.out, "entry[0] mode=1 (active) id=101 (selinux)"))
			fail_msg("--dry-run to a %s printed <%s>", names[m], fx->r.out);
	}
	assert_int_equal(assign_size(), 0);
}

/*
 * A pod with kubectl's last-applied-configuration of 200 KiB: lsmns reads
 * only org.lsmns.*, so the size of another annotation refuses nothing,
 * in the OCI state and in config.json alike.
 */
static void test_big_unrelated_annotation(void **s)
{
	size_t big = 200 * 1024, n = big + 8192;
	char *in = malloc(n), *cfg = malloc(n), *p;

	(void)s;
	assert_non_null(in);
	assert_non_null(cfg);
	p = in + snprintf(in, n,
			  "{\"ociVersion\":\"1.0.2\",\"id\":\"ctr-1\",\"status\":\"created\",\"pid\":%d,"
			  "\"bundle\":\"%s\",\"annotations\":{%s,"
			  "\"kubectl.kubernetes.io/last-applied-configuration\":\"",
			  (int)fx->target, fx->bundle, sel_ann);
	memset(p, 'x', big);
	strcpy(p + big, "\"}}");
	hook(in, NULL);
	if (fx->r.status != 0)
		fail_msg("200 KiB annotation in the state: exit %d <%s>", fx->r.status, fx->r.err);
	one_line(&fx->r, "allowed, assigned: rule=demo");
	assert_int_equal(assign_size(), 168);

	/* the same pod through config.json (a state without annotations) */
	tu_write_str(fx->assign, "");
	p = cfg + snprintf(cfg, n, "{\"root\":{\"path\":\"rootfs\"},\"annotations\":{%s,"
			   "\"kubectl.kubernetes.io/last-applied-configuration\":\"", sel_ann);
	memset(p, 'x', big);
	strcpy(p + big, "\"}}");
	tu_write_str(fx->config, cfg);
	snprintf(in, n, "{\"id\":\"ctr-1\",\"status\":\"created\",\"pid\":%d,\"bundle\":\"%s\"}",
		 (int)fx->target, fx->bundle);
	hook(in, NULL);
	if (fx->r.status != 0)
		fail_msg("200 KiB annotation in config.json: exit %d <%s>", fx->r.status, fx->r.err);
	assert_int_equal(assign_size(), 168);
	free(in);
	free(cfg);
}

/* --log-file: the line, for runtimes that throw the hook's stderr away */
static void test_log_file(void **s)
{
	char arg[600], *log = tu_path(fx->dir, "hook.log"), *text;
	size_t len;

	(void)s;
	snprintf(arg, sizeof(arg), "--log-file=%s", log);
	hook(state("created", sel_ann), (const char *[]){ arg, NULL });
	assert_int_equal(fx->r.status, 0);
	hook(state("created", "\"org.lsmns.lsm\":\"smack\",\"org.lsmns.smack.label\":\"L\""),
	     (const char *[]){ arg, NULL });
	assert_int_equal(fx->r.status, HOOK_ERR_REFUSED);
	text = tu_read(log, &len);
	if (!strstr(text, "Z lsmns-hook[") || !strstr(text, ": container ctr-1 pid ") ||
	    !strstr(text, "allowed, assigned: rule=demo") ||
	    !strstr(text, "refused (request=smack smack=L): active LSM set {smack} is not allowed"))
		fail_msg("log file: <%s>", text);
	/* two decisions, two lines */
	assert_non_null(strchr(text, '\n'));
	assert_non_null(strchr(strchr(text, '\n') + 1, '\n'));
	assert_null(strchr(strchr(strchr(text, '\n') + 1, '\n') + 1, '\n'));
	free(text);
	/* a log that cannot be opened does not change the decision */
	snprintf(arg, sizeof(arg), "--log-file=%s/no/such/dir/log", fx->dir);
	tu_write_str(fx->assign, "");
	hook(state("created", sel_ann), (const char *[]){ arg, NULL });
	assert_int_equal(fx->r.status, 0);
	assert_non_null(strstr(fx->r.err, "cannot open log file"));
	assert_non_null(strstr(fx->r.err, "allowed, assigned"));
	free(log);
}

static void test_default_none(void **s)
{
	(void)s;
	hook(state("created", "\"io.other\":\"x\""), NULL);
	assert_int_equal(fx->r.status, 0);
	one_line(&fx->r, "allowed, no assignment (request=none; policy rule \"demo\" default \"none\")");
	assert_int_equal(assign_size(), 0);
}

/* ---- refusals ----------------------------------------------------------------- */

static void refused(const char *input, int status, const char *needle)
{
	hook(input, NULL);
	if (fx->r.status != status)
		fail_msg("status %d, want %d; stderr: %s", fx->r.status, status, fx->r.err);
	one_line(&fx->r, needle);
	/* nothing was written: no partial assignment */
	assert_int_equal(assign_size(), 0);
}

static void test_refuse_bad_state(void **s)
{
	char st[1024];

	(void)s;
	refused("", HOOK_ERR_INPUT, "refused: OCI state on stdin is empty");
	refused("{not json", HOOK_ERR_INPUT, "OCI state on stdin: invalid JSON");
	refused("[]", HOOK_ERR_INPUT, "expected a JSON object");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"status\":\"created\",\"pid\":0,\"bundle\":\"%s\"}", fx->bundle);
	refused(st, HOOK_ERR_INPUT, "pid is 0");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"status\":\"created\",\"bundle\":\"%s\"}", fx->bundle);
	refused(st, HOOK_ERR_INPUT, "missing \"pid\"");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"status\":\"created\",\"pid\":\"%d\",\"bundle\":\"%s\"}",
		 (int)fx->target, fx->bundle);
	refused(st, HOOK_ERR_INPUT, "\"pid\" must be an integer");
	refused(state("running", sel_ann), HOOK_ERR_INPUT, "status \"running\"");
	refused(state("created", "\"a\":1"), HOOK_ERR_INPUT, "\"a\" must be a string");
}

static void test_refuse_oversize_state(void **s)
{
	size_t n = HOOK_MAX_STATE_SIZE + 16;
	char *big = malloc(n + 1);

	(void)s;
	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	big[n] = '\0';
	refused(big, HOOK_ERR_INPUT, "OCI state on stdin is larger than 1048576 bytes");
	free(big);
}

static void test_refuse_policy(void **s)
{
	(void)s;
	unlink(fx->policy);
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "no policy file at ");
	assert_non_null(strstr(fx->r.err, fx->policy));
	tu_write_str(fx->policy, "{\"version\":1,\"rules\":[{\"name\":\"x\",\"oops\":1}]}");
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "policy rule \"x\": unknown member \"oops\"");
	tu_write_str(fx->policy, "");
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "policy is empty");
	tu_write_str(fx->policy, policy_json);
	assert_int_equal(chmod(fx->policy, 0666), 0);
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "is writable by group or others: refusing to trust it");
	assert_int_equal(chmod(fx->policy, 0620), 0);
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "writable by group or others");
	if (geteuid() == 0) {
		assert_int_equal(chmod(fx->policy, 0644), 0);
		assert_int_equal(chown(fx->policy, 12345, 0), 0);
		refused(state("created", sel_ann), HOOK_ERR_POLICY, "is owned by uid 12345");
	}
	unlink(fx->policy);
	assert_int_equal(mkdir(fx->policy, 0700), 0);
	refused(state("created", sel_ann), HOOK_ERR_POLICY, "is not a regular file");
	rmdir(fx->policy);
}

static void test_refuse_config(void **s)
{
	char *big;
	size_t n = HOOK_MAX_CONFIG_SIZE + 16;

	(void)s;
	tu_write_str(fx->config, "{\"process\":");
	refused(state("created", sel_ann), HOOK_ERR_INPUT, "config.json: invalid JSON");
	tu_write_str(fx->config, "{\"process\":{\"selinuxLabel\":7}}");
	refused(state("created", sel_ann), HOOK_ERR_INPUT, "\"selinuxLabel\" must be a string");
	big = malloc(n);
	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	tu_write(fx->config, big, n);
	free(big);
	refused(state("created", sel_ann), HOOK_ERR_INPUT, "config.json is larger than 4194304 bytes");
	unlink(fx->config);
	refused(state("created", sel_ann), HOOK_ERR_INPUT, "cannot open bundle config");
}

static void test_refuse_request(void **s)
{
	(void)s;
	refused(state("created", "\"org.lsmns.lsm\":\"tomoyo\""), HOOK_ERR_REFUSED,
		"unknown LSM \"tomoyo\"");
	refused(state("created", "\"org.lsmns.lsm\":\"selinux\",\"org.lsmns.selinux.context\":\"system_u:system_r:spc_t:s0\""),
		HOOK_ERR_REFUSED, "selinux context \"system_u:system_r:spc_t:s0\" is not allowed by policy rule \"demo\"");
	assert_non_null(strstr(fx->r.err, "container ctr-1 pid"));
	assert_non_null(strstr(fx->r.err, "refused (request=selinux selinux=system_u:system_r:spc_t:s0)"));
	refused(state("created", "\"org.lsmns.lsm\":\"selinux,apparmor\""), HOOK_ERR_REFUSED,
		"active LSM set {selinux,apparmor} is not allowed");
	refused(state("created", "\"org.lsmns.lsm\":\"smack\",\"org.lsmns.smack.label\":\"L\""), HOOK_ERR_REFUSED,
		"active LSM set {smack} is not allowed");
	refused(state("created", "\"org.lsmns.lsm\":\"apparmor\",\"org.lsmns.apparmor.profile\":\"lsmns-x\",\"org.lsmns.release\":\"selinux\""),
		HOOK_ERR_REFUSED, "releasing selinux is not allowed");
	refused(state("created", "\"org.lsmns.lsm\":\"selinux\",\"org.lsmns.selinux.context\":\"a\\u001b[2Jb\""),
		HOOK_ERR_REFUSED, "control character (0x1b)");
	/* the escape never reaches the terminal */
	assert_null(strchr(fx->r.err, '\x1b'));
	refused(state("created", "\"org.lsmns.smack.label\":\"L\""), HOOK_ERR_REFUSED,
		"given without org.lsmns.lsm");
}

/*
 * Every refusal class names its cause and what to change, in its one line.
 * (The policy, state, config, target and kernel classes are above.)
 */
static void test_refusals_name_the_fix(void **s)
{
	static char big[HOOK_MAX_LSMNS_VALUE_LEN + 64];
	char st[8192];

	(void)s;
	/* no rule matches: every rule tried, the field, the value, the pattern */
	tu_write_str(fx->policy,
		     "{\"version\":1,\"rules\":["
		     "{\"name\":\"team-a\",\"match\":{\"annotations\":{\"io.kubernetes.pod.namespace\":\"team-a\"}}},"
		     "{\"name\":\"demo\",\"match\":{\"root_path\":\"/var/lib/lsmns/*\"}},"
		     "{\"name\":\"web\",\"match\":{\"image\":\"registry.example/web/*\"}}]}");
	refused(state("created", "\"io.kubernetes.pod.namespace\":\"team-b\",\"org.lsmns.lsm\":\"selinux\""),
		HOOK_ERR_REFUSED, "no policy rule matches this container (3 tried: ");
	assert_non_null(strstr(fx->r.err, "\"team-a\": annotation io.kubernetes.pod.namespace \"team-b\" does not match \"team-a\""));
	assert_non_null(strstr(fx->r.err, "\"demo\": root_path \""));
	assert_non_null(strstr(fx->r.err, "does not match \"/var/lib/lsmns/*\""));
	assert_non_null(strstr(fx->r.err, "\"web\": image: no io.kubernetes.cri-o.ImageName"));
	assert_non_null(strstr(fx->r.err, "or a last catch-all rule"));
	tu_write_str(fx->policy, policy_json);

	/* not allowed by the rule: what the rule does allow */
	refused(state("created", "\"org.lsmns.lsm\":\"selinux\",\"org.lsmns.selinux.context\":\"system_u:system_r:spc_t:s0\""),
		HOOK_ERR_REFUSED, "(its selinux patterns: \"system_u:system_r:container_t:s0:c*\")");
	refused(state("created", "\"org.lsmns.lsm\":\"smack\",\"org.lsmns.smack.label\":\"L\""),
		HOOK_ERR_REFUSED, "(it allows {selinux} or {apparmor}): ask for an allowed set in org.lsmns.lsm");
	refused(state("created", "\"org.lsmns.lsm\":\"apparmor\",\"org.lsmns.apparmor.profile\":\"lsmns-x\",\"org.lsmns.release\":\"selinux\""),
		HOOK_ERR_REFUSED, "(it allows releasing: smack)");
	/* a misspelt key: the keys the hook knows */
	refused(state("created", "\"org.lsmns.lsm\":\"selinux\",\"org.lsmns.selinux.contxt\":\"x\""),
		HOOK_ERR_REFUSED, "unknown annotation org.lsmns.selinux.contxt (the hook knows org.lsmns.lsm, org.lsmns.selinux.context,");
	/* an org.lsmns.* value over its bound */
	memset(big, 'a', sizeof(big) - 1);
	snprintf(st, sizeof(st), "\"org.lsmns.lsm\":\"smack\",\"org.lsmns.smack.label\":\"%s\"", big);
	refused(state("created", st), HOOK_ERR_REFUSED, "more than the 4095 an org.lsmns.* value may have");
	/* a rule without a default and a container without a request */
	tu_write_str(fx->policy, "{\"version\":1,\"rules\":[{\"name\":\"strict\",\"active\":[[\"selinux\"]],"
		     "\"contexts\":{\"selinux\":[\"*\"]}}]}");
	refused(state("created", "\"io.other\":\"x\""), HOOK_ERR_REFUSED,
		"has no default: add org.lsmns.lsm to the container, or a \"default\" to the rule");
	/*
	 * A pod the policy expects a request from (its namespace's rule has no
	 * default) arrives without one: the line says the request went missing.
	 */
	tu_write_str(fx->policy, "{\"version\":1,\"rules\":[{\"name\":\"team-a\","
		     "\"match\":{\"annotations\":{\"io.kubernetes.pod.namespace\":\"team-a\"}},"
		     "\"active\":[[\"selinux\"]],\"contexts\":{\"selinux\":[\"*\"]},\"default\":\"refuse\"},"
		     "{\"name\":\"rest\",\"default\":\"none\"}]}");
	refused(state("created", "\"io.kubernetes.pod.namespace\":\"team-a\""), HOOK_ERR_REFUSED,
		"no org.lsmns.lsm request, and policy rule \"team-a\", which this container matches on annotation io.kubernetes.pod.namespace \"team-a\", refuses containers without one");
	assert_non_null(strstr(fx->r.err, "something dropped them on the way"));
	/* control: another namespace's pod without a request runs, unassigned */
	hook(state("created", "\"io.kubernetes.pod.namespace\":\"team-b\""), NULL);
	assert_int_equal(fx->r.status, 0);
	one_line(&fx->r, "allowed, no assignment (request=none; policy rule \"rest\" default \"none\")");
	tu_write_str(fx->policy, policy_json);
}

static void test_refuse_spec_conflict(void **s)
{
	(void)s;
	tu_write_str(fx->config, "{\"process\":{\"apparmorProfile\":\"unconfined\"}}");
	refused(state("created", sel_ann), HOOK_ERR_REFUSED,
		"config.json process.apparmorProfile \"unconfined\" conflicts with the hidden apparmor context \"lsmns-hidden\"");
	tu_write_str(fx->config, "{\"process\":{\"selinuxLabel\":\"system_u:system_r:container_t:s0:c9\"}}");
	refused(state("created", sel_ann), HOOK_ERR_REFUSED, "conflicts with config.json process.selinuxLabel");
}

static void test_refuse_target(void **s)
{
	char st[1024];

	(void)s;
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"status\":\"created\",\"pid\":%d,\"bundle\":\"%s\","
		 "\"annotations\":{%s}}", (int)tu_dead_pid(), fx->bundle, sel_ann);
	refused(st, HOOK_ERR_TARGET, "does not exist (container init gone?)");
	snprintf(st, sizeof(st), "{\"id\":\"c\",\"status\":\"created\",\"pid\":1,\"bundle\":\"%s\","
		 "\"annotations\":{%s}}", fx->bundle, sel_ann);
	refused(st, HOOK_ERR_TARGET, "refusing target pid 1");
}

static void test_refuse_assign_file(void **s)
{
	char arg[600];

	(void)s;
	snprintf(arg, sizeof(arg), "--assign-file=%s/nonexistent", fx->dir);
	run_hook(&fx->r, fx->dir, (const char *[]){ fx->pol_arg, arg, NULL },
		 state("created", sel_ann), strlen(state("created", sel_ann)));
	assert_int_equal(fx->r.status, HOOK_ERR_KERNEL);
	one_line(&fx->r, "cannot open assign file");
	assert_non_null(strstr(fx->r.err, "the kernel has no LSM namespaces"));
	/* the kernel refusing the write: /dev/full returns ENOSPC */
	run_hook(&fx->r, fx->dir, (const char *[]){ fx->pol_arg, "--assign-file=/dev/full", NULL },
		 state("created", sel_ann), strlen(state("created", sel_ann)));
	assert_int_equal(fx->r.status, HOOK_ERR_KERNEL);
	one_line(&fx->r, "kernel refused the assignment: No space left on device (errno 28)");
	/*
	 * An EPERM from the write, which comes after confinement: its cause is
	 * read then from /proc/self files opened before.  A uid_map that is
	 * already written refuses every write with EPERM.  The hook must say
	 * why (every explanation starts "the hook"), not die of its filter.
	 */
	run_hook(&fx->r, fx->dir, (const char *[]){ fx->pol_arg, "--assign-file=/proc/self/uid_map", NULL },
		 state("created", sel_ann), strlen(state("created", sel_ann)));
	assert_int_equal(fx->r.status, HOOK_ERR_KERNEL);
	one_line(&fx->r, "kernel refused the assignment: Operation not permitted (errno 1): the hook ");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_cli),
		T(test_check_policy),
		T(test_assign_selinux),
		T(test_assign_runc_prestart),
		T(test_no_seccomp),
		T(test_config_annotations_fallback),
		T(test_dry_run),
		T(test_dry_run_outputs),
		T(test_big_unrelated_annotation),
		T(test_log_file),
		T(test_default_none),
		T(test_refuse_bad_state),
		T(test_refuse_oversize_state),
		T(test_refuse_policy),
		T(test_refuse_config),
		T(test_refuse_request),
		T(test_refusals_name_the_fix),
		T(test_refuse_spec_conflict),
		T(test_refuse_target),
		T(test_refuse_assign_file),
	};

	return cmocka_run_group_tests_name("e2e", tests, NULL, NULL);
}
