// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Errors and decision logging: one line to stderr and one to syslog.
 * Untrusted strings never reach a format string; control bytes are escaped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "lsmns_hook.h"

bool log_quiet_stderr;
int log_file_fd = -1;

void log_sanitize(const char *in, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!size)
		return;
	for (; *in && o + 1 < size; in++) {
		unsigned char c = (unsigned char)*in;

		if (c < 0x20 || c == 0x7f) {
			if (o + 5 > size)
				break;
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

int hook_fail(struct hook_err *err, enum hook_status status,
	      const char *fmt, ...)
{
	char raw[HOOK_MSG_LEN];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	log_sanitize(raw, err->msg, sizeof(err->msg));
	err->status = status;
	return -1;
}

void log_open(void)
{
	/*
	 * Connect now, while the hook may still open sockets freely, and
	 * load the time zone now: after confine() syslog() only needs
	 * sendto() on the connected socket.
	 */
	tzset();
	openlog("lsmns-hook", LOG_PID | LOG_NDELAY, LOG_AUTHPRIV);
}

void log_line(int prio, const char *fmt, ...)
{
	char raw[HOOK_MSG_LEN], line[HOOK_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	log_sanitize(raw, line, sizeof(line));
	if (!log_quiet_stderr)
		fprintf(stderr, "lsmns-hook: %s\n", line);
	syslog(prio, "%s", line);
	if (log_file_fd >= 0) {
		char rec[HOOK_MSG_LEN + 64];
		struct timespec ts;
		struct tm tm;
		int n;

		/* one write() per line: lines of concurrent hooks do not mix */
		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		n = snprintf(rec, sizeof(rec), "%04d-%02d-%02dT%02d:%02d:%02dZ lsmns-hook[%d]: %s\n",
			     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
			     tm.tm_min, tm.tm_sec, (int)getpid(), line);
		if (n > 0 && write(log_file_fd, rec, (size_t)n < sizeof(rec) ? (size_t)n : sizeof(rec) - 1) < 0)
			syslog(LOG_WARNING, "cannot write the log file");
	}
}
