// SPDX-License-Identifier: GPL-2.0
/*
 * lsmns-exec: write LSM attributes of the calling task, optionally drop
 * the MAC capabilities, then exec a program.  A runcon / aa-exec / Smack
 * relabel in one static binary for the guest tests.
 *
 *   lsmns-exec [--attr FILE VALUE]... [--drop-mac-caps] [--] PROG [ARG]...
 *
 * --attr FILE VALUE  write VALUE to FILE, in order, e.g.
 *                      --attr /proc/self/attr/exec system_u:system_r:container_t:s0:c1,c2
 *                      --attr /proc/self/attr/apparmor/exec "exec lsmns-demo-apparmor"
 *                      --attr /proc/self/attr/smack/current ContainerC
 *                    attr/exec takes effect at the exec below, Smack's
 *                    attr/current at once.
 * --drop-mac-caps    drop CAP_MAC_ADMIN and CAP_MAC_OVERRIDE from the
 *                    bounding, inheritable and ambient sets before exec, so
 *                    neither the program nor anything it runs gets them
 *                    back (root otherwise overrides Smack, and may set
 *                    contexts the policy does not know).  Done after the
 *                    writes, which may need CAP_MAC_ADMIN.
 *
 * Exit: the program's, or 126 (a write or the capability drop failed) or
 * 127 (exec failed), with one line on stderr naming what failed and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int write_attr(const char *file, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd;

	fd = open(file, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "lsmns-exec: open %s: %s\n", file, strerror(errno));
		return -1;
	}
	n = write(fd, value, len);
	if (n < 0 || (size_t)n != len) {
		fprintf(stderr, "lsmns-exec: write '%s' to %s: %s\n", value, file,
			n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int drop_mac_caps(void)
{
	static const int caps[] = { CAP_MAC_ADMIN, CAP_MAC_OVERRIDE };
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		if (prctl(PR_CAPBSET_DROP, caps[i], 0, 0, 0) != 0) {
			fprintf(stderr, "lsmns-exec: drop capability %d from the bounding set: %s\n",
				caps[i], strerror(errno));
			return -1;
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
		fprintf(stderr, "lsmns-exec: clear ambient capabilities: %s\n", strerror(errno));
		return -1;
	}
	if (syscall(SYS_capget, &hdr, data) != 0) {
		fprintf(stderr, "lsmns-exec: capget: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		unsigned int w = CAP_TO_INDEX(caps[i]), m = CAP_TO_MASK(caps[i]);

		data[w].effective &= ~m;
		data[w].permitted &= ~m;
		data[w].inheritable &= ~m;
	}
	if (syscall(SYS_capset, &hdr, data) != 0) {
		fprintf(stderr, "lsmns-exec: capset: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, drop = 0;

	for (; i < argc; i++) {
		if (strcmp(argv[i], "--attr") == 0) {
			if (i + 2 >= argc) {
				fputs("lsmns-exec: --attr needs FILE and VALUE\n", stderr);
				return 2;
			}
			if (write_attr(argv[i + 1], argv[i + 2]) != 0)
				return 126;
			i += 2;
		} else if (strcmp(argv[i], "--drop-mac-caps") == 0) {
			drop = 1;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "lsmns-exec: unknown option %s\n", argv[i]);
			return 2;
		} else {
			break;
		}
	}
	if (i >= argc) {
		fputs("usage: lsmns-exec [--attr FILE VALUE]... [--drop-mac-caps] [--] PROG [ARG]...\n",
		      stderr);
		return 2;
	}
	if (drop && drop_mac_caps() != 0)
		return 126;
	execvp(argv[i], argv + i);
	fprintf(stderr, "lsmns-exec: exec %s: %s\n", argv[i], strerror(errno));
	return 127;
}
