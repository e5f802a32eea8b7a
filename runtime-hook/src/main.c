// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lsmns-hook: OCI createRuntime hook placing a container in an LSM namespace.
 *
 * One path through:
 *   1. open:    syslog socket, state (stdin), policy file, config.json,
 *               pidfd of the target, the assign file
 *   2. confine: seccomp; from here on no new files, no exec
 *   3. parse:   policy, config.json, the request in the annotations
 *   4. decide:  the first matching policy rule allows or refuses
 *   5. act:     build the binary request, one write() (or print it: --dry-run)
 * Nothing is written to the kernel before step 5, so a refusal leaves
 * nothing behind.  Every failure is one line on stderr and syslog and a
 * non-zero exit status (see enum hook_status).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "jsonutil.h"
#include "lsmns_hook.h"

#define DEFAULT_POLICY	"/etc/lsmns/policy.json"
#define DEFAULT_ASSIGN	"/sys/kernel/security/lsmns/assign"

struct hook_opts {
	const char *policy;
	const char *assign;
	const char *check_policy;
	const char *log_file;
	bool dry_run;
	bool no_seccomp;
};

struct hook_run {
	struct hook_opts opt;
	int policy_fd, config_fd, pidfd;
	struct assign_file assign;
	char *state_buf, *policy_buf, *config_buf;
	size_t state_len, policy_len, config_len;
	bool have_state, have_config, have_policy, have_req;
	struct oci_state st;
	struct oci_config cfg;
	struct policy pol;
	struct lsm_request req;
	struct lsm_assignment a;
	void *wire;
	size_t wire_len;
	struct hook_err err;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lsmns-hook [OPTION]...\n"
		"OCI createRuntime hook: reads the OCI state on stdin and places the\n"
		"container in an LSM namespace allowed by the host policy.\n"
		"\n"
		"  --policy FILE        policy file (default " DEFAULT_POLICY ")\n"
		"  --assign-file PATH   kernel assign file (default " DEFAULT_ASSIGN ")\n"
		"  --dry-run            print the request instead of sending it\n"
		"  --check-policy FILE  validate and lint a policy file and exit\n"
		"  --explain [OPT] IN   what the hook would decide for a config.json,\n"
		"                       Kubernetes object or annotations (lsmns explain)\n"
		"  --log-file FILE      append every decision line to FILE too (for\n"
		"                       runtimes that discard the hook's stderr)\n"
		"  --no-seccomp         do not confine the hook (debugging only)\n"
		"  --version            print the version and exit\n"
		"  --help               print this help and exit\n"
		"\n"
		"Exit status: 0 ok, 1 internal error, 2 usage, 3 bad OCI state or\n"
		"config.json, 4 policy file missing or invalid, 5 refused by policy,\n"
		"6 target process gone, 7 refused by the kernel.  See lsmns-hook(8).\n");
}

static int parse_args(int argc, char **argv, struct hook_opts *o)
{
	enum { OPT_POLICY = 256, OPT_ASSIGN, OPT_DRY, OPT_CHECK, OPT_NOSECCOMP,
	       OPT_LOGFILE, OPT_VERSION, OPT_HELP };
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "assign-file", required_argument, NULL, OPT_ASSIGN },
		{ "dry-run", no_argument, NULL, OPT_DRY },
		{ "check-policy", required_argument, NULL, OPT_CHECK },
		{ "no-seccomp", no_argument, NULL, OPT_NOSECCOMP },
		{ "log-file", required_argument, NULL, OPT_LOGFILE },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->policy = DEFAULT_POLICY;
	o->assign = DEFAULT_ASSIGN;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_POLICY:
			o->policy = optarg;
			break;
		case OPT_ASSIGN:
			o->assign = optarg;
			break;
		case OPT_DRY:
			o->dry_run = true;
			break;
		case OPT_CHECK:
			o->check_policy = optarg;
			break;
		case OPT_NOSECCOMP:
			o->no_seccomp = true;
			break;
		case OPT_LOGFILE:
			o->log_file = optarg;
			break;
		case OPT_VERSION:
			printf("lsmns-hook %s (lsmns ABI %d)\n", HOOK_VERSION,
			       LSMNS_ABI_VERSION);
			exit(HOOK_OK);
		case OPT_HELP:
			usage(stdout);
			exit(HOOK_OK);
		default:
			fprintf(stderr, "lsmns-hook: invalid option %s (try --help)\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		/* runtimes pass args[0] only; anything more is a mistake */
		fprintf(stderr, "lsmns-hook: unexpected argument \"%.64s\" (try --help)\n",
			argv[optind]);
		return -1;
	}
	return 0;
}

static int check_policy(const char *path)
{
	struct hook_err err = { 0 };
	struct policy pol;
	char *buf;
	size_t len;
	int fd;

	fd = open_regular(AT_FDCWD, path, "policy file", HOOK_ERR_POLICY, &err);
	if (fd < 0)
		goto fail;
	if (check_trusted_file(fd, "policy file", path, HOOK_ERR_POLICY, &err)) {
		close(fd);
		goto fail;
	}
	if (read_bounded(fd, HOOK_MAX_POLICY_SIZE, "policy file", &buf, &len,
			 HOOK_ERR_POLICY, &err)) {
		close(fd);
		goto fail;
	}
	close(fd);
	if (policy_parse(buf, len, &pol, &err)) {
		free(buf);
		goto fail;
	}
	{
		size_t n = policy_lint(&pol, NULL, stdout);

		printf("policy %s: valid, %zu rule%s, %zu lint warning%s%s\n", path,
		       pol.nrules, pol.nrules == 1 ? "" : "s", n, n == 1 ? "" : "s",
		       n ? " (the hook still loads it; lsmns check-policy fails on them)" : "");
	}
	policy_free(&pol);
	free(buf);
	return HOOK_OK;
fail:
	fprintf(stderr, "lsmns-hook: %s\n", err.msg);
	return err.status;
}

/* Step 1: everything that needs open() or new descriptors. */
static int open_inputs(struct hook_run *h)
{
	char path[HOOK_MAX_PATH_LEN + 16];

	if (read_bounded(STDIN_FILENO, HOOK_MAX_STATE_SIZE, "OCI state on stdin",
			 &h->state_buf, &h->state_len, HOOK_ERR_INPUT, &h->err))
		return -1;
	if (state_parse(h->state_buf, h->state_len, &h->st, &h->err))
		return -1;
	h->have_state = true;

	h->policy_fd = open_regular(AT_FDCWD, h->opt.policy, "policy file",
				    HOOK_ERR_POLICY, &h->err);
	if (h->policy_fd < 0 && errno == ENOENT)
		return hook_fail(&h->err, HOOK_ERR_POLICY,
				 "no policy file at %.256s: refusing every request (see lsmns-hook(8))",
				 h->opt.policy);
	if (h->policy_fd < 0 ||
	    check_trusted_file(h->policy_fd, "policy file", h->opt.policy,
			       HOOK_ERR_POLICY, &h->err))
		return -1;

	snprintf(path, sizeof(path), "%s/config.json", h->st.bundle);
	h->config_fd = open_regular(AT_FDCWD, path, "bundle config",
				    HOOK_ERR_INPUT, &h->err);
	if (h->config_fd < 0)
		return -1;

	if (kernel_pin(h->st.pid, &h->pidfd, &h->err))
		return -1;
	if (!h->opt.dry_run &&
	    kernel_open_assign(h->opt.assign, &h->assign, &h->err))
		return -1;
	return 0;
}

/* Step 3 and 4. */
static int parse_and_decide(struct hook_run *h)
{
	if (read_bounded(h->policy_fd, HOOK_MAX_POLICY_SIZE, "policy file",
			 &h->policy_buf, &h->policy_len, HOOK_ERR_POLICY, &h->err))
		return -1;
	if (policy_parse(h->policy_buf, h->policy_len, &h->pol, &h->err))
		return -1;
	h->have_policy = true;

	if (read_bounded(h->config_fd, HOOK_MAX_CONFIG_SIZE, "config.json",
			 &h->config_buf, &h->config_len, HOOK_ERR_INPUT, &h->err))
		return -1;
	if (config_parse(h->config_buf, h->config_len, h->st.bundle, &h->cfg,
			 &h->err))
		return -1;
	h->have_config = true;

	if (request_parse(request_annotations(&h->st, &h->cfg), &h->cfg,
			  &h->req, &h->err))
		return -1;
	h->have_req = true;
	return policy_decide(&h->pol, &h->st, &h->cfg, &h->req, &h->a, &h->err);
}

static void describe_request(const struct hook_run *h, char *buf, size_t size)
{
	char set[64];
	size_t o;
	int l;

	if (!h->have_req) {
		snprintf(buf, size, "request=?");
		return;
	}
	if (!h->req.present) {
		snprintf(buf, size, "request=none");
		return;
	}
	o = (size_t)snprintf(buf, size, "request=%s",
			     lsm_mask_str(h->req.active.mask, set, sizeof(set)));
	for (l = 0; l < HOOK_LSM_COUNT && o < size; l++)
		if (h->req.ctx[l])
			o += (size_t)snprintf(buf + o, size - o, " %s=%.200s",
					      hook_lsms[l].name, h->req.ctx[l]);
	if (h->req.release_mask && o < size)
		snprintf(buf + o, size - o, " release=%s",
			 lsm_mask_str(h->req.release_mask, set, sizeof(set)));
}

/*
 * --dry-run's output, rendered in memory and written with write(2): stdio
 * on a terminal or a character device such as /dev/null (what crun gives
 * hooks) would first ask the kernel with ioctl(TCGETS) whether it is a
 * terminal, a call the seccomp filter does not allow.
 */
static int print_dump(struct hook_run *h)
{
	char *text = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return hook_fail(&h->err, HOOK_ERR_INTERNAL, "out of memory");
	request_dump(f, h->wire, h->wire_len);
	if (fclose(f)) {
		free(text);
		return hook_fail(&h->err, HOOK_ERR_INTERNAL, "out of memory");
	}
	while (off < len) {
		ssize_t w = write(STDOUT_FILENO, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = errno;

			free(text);
			return hook_fail(&h->err, HOOK_ERR_INTERNAL,
					 "cannot write the dry run to standard output: %s",
					 w < 0 ? strerror(e) : "short write");
		}
		off += (size_t)w;
	}
	free(text);
	return 0;
}

static int run(struct hook_run *h)
{
	unsigned long long ns_id;
	char what[HOOK_MSG_LEN];

	if (open_inputs(h))
		return -1;
	if (h->opt.no_seccomp)
		syslog(LOG_WARNING, "running without seccomp (--no-seccomp)");
	else if (confine(&h->err))
		return -1;
	if (parse_and_decide(h))
		return -1;

	describe_request(h, what, sizeof(what));
	if (h->a.none) {
		log_line(LOG_INFO,
			 "container %.128s pid %d: allowed, no assignment (%s; policy rule \"%s\" default \"none\")",
			 h->st.id, h->st.pid, what, h->a.rule);
		return 0;
	}
	if (request_build(&h->a, h->pidfd, &h->wire, &h->wire_len, &h->err))
		return -1;
	assignment_str(&h->a, what, sizeof(what));
	if (h->opt.dry_run) {
		if (print_dump(h))
			return -1;
		log_line(LOG_INFO, "container %.128s pid %d: dry run, would assign: %s",
			 h->st.id, h->st.pid, what);
		return 0;
	}
	if (kernel_send(&h->assign, h->wire, h->wire_len, &h->a, &h->err))
		return -1;
	if (kernel_result_ns(&h->assign, &ns_id) == 0)
		log_line(LOG_INFO, "container %.128s pid %d: allowed, assigned lsm namespace %llu: %s",
			 h->st.id, h->st.pid, ns_id, what);
	else
		log_line(LOG_INFO, "container %.128s pid %d: allowed, assigned: %s",
			 h->st.id, h->st.pid, what);
	return 0;
}

static void cleanup(struct hook_run *h)
{
	if (h->have_req)
		request_free(&h->req);
	if (h->have_config)
		config_free(&h->cfg);
	if (h->have_policy)
		policy_free(&h->pol);
	if (h->have_state)
		state_free(&h->st);
	free(h->wire);
	free(h->state_buf);
	free(h->policy_buf);
	free(h->config_buf);
	if (h->policy_fd >= 0)
		close(h->policy_fd);
	if (h->config_fd >= 0)
		close(h->config_fd);
	if (h->pidfd >= 0)
		close(h->pidfd);
	kernel_close_assign(&h->assign);
}

int main(int argc, char **argv)
{
	struct hook_run h;
	int status;

	memset(&h, 0, sizeof(h));
	h.policy_fd = h.config_fd = h.pidfd = h.assign.fd = -1;
	/* lsmns explain under the hook's name: no state, no kernel */
	if (argc > 1 && !strcmp(argv[1], "--explain"))
		return explain_main(argc - 1, argv + 1);
	if (parse_args(argc, argv, &h.opt))
		return HOOK_ERR_USAGE;
	if (h.opt.check_policy)
		return check_policy(h.opt.check_policy);

#ifndef HOOK_SANITIZER_BUILD
	/* one decision, then exit: the parsed documents go with the process
	 * (the sanitizer build frees them, for its leak check) */
	json_trees_die_with_process = true;
#endif
	log_open();
	if (h.opt.log_file) {
		/*
		 * Opened now, before confine(); a log that cannot be opened is
		 * said on stderr and syslog, and the decision still made.
		 */
		log_file_fd = open(h.opt.log_file, O_WRONLY | O_APPEND | O_CREAT |
				   O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0600);
		if (log_file_fd < 0)
			log_line(LOG_WARNING, "cannot open log file %.256s: %s",
				 h.opt.log_file, strerror(errno));
	}
	if (run(&h) == 0) {
		status = HOOK_OK;
	} else {
		char req[512];

		describe_request(&h, req, sizeof(req));
		if (h.have_state)
			log_line(LOG_ERR, "container %.128s pid %d: refused (%s): %s",
				 h.st.id, h.st.pid, req, h.err.msg);
		else
			log_line(LOG_ERR, "refused: %s", h.err.msg);
		status = h.err.status ? (int)h.err.status : HOOK_ERR_INTERNAL;
	}
	cleanup(&h);
	closelog();
	if (log_file_fd >= 0)
		close(log_file_fd);
	return status;
}
