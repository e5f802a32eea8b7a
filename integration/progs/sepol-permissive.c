// SPDX-License-Identifier: GPL-2.0
/*
 * sepol-permissive: copy a binary SELinux policy with some types made
 * permissive (CIL's typepermissive), for tests that need a permissive
 * domain in a guest that has no policy compiler.
 *
 *   sepol-permissive IN OUT [LO[-HI]]...
 *	copy IN to OUT with the permissive map holding exactly the type
 *	values LO..HI of the arguments (none: an empty map).  Prints the
 *	number of types marked.
 *
 * The permissive map is the second bitmap of the policy's header (after
 * the policy capabilities, policy version 23 and later), so only the
 * header is parsed; the rest is copied as it is.  Type values are not
 * known here (they are in the symbol tables, far behind): a test finds
 * the value of the domain it wants by bisection, marking ranges and
 * asking the kernel whether the domain became permissive.
 *
 * Exit: 0, or 1 with one line on stderr saying what is wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SELINUX_MAGIC 0xf97cff8cu
#define VERSION_POLCAP 22
#define VERSION_PERMISSIVE 23
#define MAPBITS 64u
#define MAX_TYPE 65535u

static unsigned char *buf;
static size_t len;

static int fail(const char *what)
{
	fprintf(stderr, "sepol-permissive: %s\n", what);
	return 1;
}

static int get32(size_t off, uint32_t *v)
{
	if (off + 4 > len)
		return -1;
	*v = (uint32_t)buf[off] | (uint32_t)buf[off + 1] << 8 |
	     (uint32_t)buf[off + 2] << 16 | (uint32_t)buf[off + 3] << 24;
	return 0;
}

static void put32(FILE *f, uint32_t v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	fwrite(b, 1, 4, f);
}

static void put64(FILE *f, uint64_t v)
{
	put32(f, (uint32_t)v);
	put32(f, (uint32_t)(v >> 32));
}

/* The size of the ebitmap at @off, or 0 if it runs past the end. */
static size_t ebitmap_size(size_t off)
{
	uint32_t unit, high, count;

	if (get32(off, &unit) || get32(off + 4, &high) || get32(off + 8, &count))
		return 0;
	if (unit != MAPBITS || count > len / 12)
		return 0;
	if (off + 12 + (size_t)count * 12 > len)
		return 0;
	return 12 + (size_t)count * 12;
}

static int read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 20, n;

	if (!f)
		return -1;
	buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (!buf || ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static uint64_t map[MAX_TYPE / MAPBITS + 1];
	uint32_t magic, slen, vers, high = 0, count = 0, i;
	size_t off, polcap, perm;
	unsigned long marked = 0;
	FILE *out;
	int a;

	if (argc < 3)
		return fail("usage: sepol-permissive IN OUT [LO[-HI]]...");
	for (a = 3; a < argc; a++) {
		char *end;
		unsigned long lo = strtoul(argv[a], &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (*end || !lo || hi < lo || hi > MAX_TYPE)
			return fail("a range is LO or LO-HI, 1 <= LO <= HI <= 65535");
		for (; lo <= hi; lo++) {
			if (!(map[lo / MAPBITS] & 1ull << (lo % MAPBITS)))
				marked++;
			map[lo / MAPBITS] |= 1ull << (lo % MAPBITS);
		}
	}
	if (read_file(argv[1]))
		return fail("cannot read the input policy");
	if (get32(0, &magic) || magic != SELINUX_MAGIC || get32(4, &slen) ||
	    slen > 64)
		return fail("the input is not a binary SELinux policy");
	off = 8 + slen;
	/* version, config, symbol and object-context table counts */
	if (get32(off, &vers) || off + 16 > len)
		return fail("the input policy is truncated");
	if (vers < VERSION_PERMISSIVE)
		return fail("the input policy is older than version 23 (no permissive map)");
	off += 16;
	polcap = ebitmap_size(off);
	if (!polcap)
		return fail("the input's policy capability map is malformed");
	perm = ebitmap_size(off + polcap);
	if (!perm)
		return fail("the input's permissive map is malformed");

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i]) {
			count++;
			high = (i + 1) * MAPBITS;
		}
	out = fopen(argv[2], "wb");
	if (!out)
		return fail("cannot create the output policy");
	fwrite(buf, 1, off + polcap, out);
	put32(out, MAPBITS);
	put32(out, high);
	put32(out, count);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i]) {
			put32(out, i * MAPBITS);
			put64(out, map[i]);
		}
	fwrite(buf + off + polcap + perm, 1, len - off - polcap - perm, out);
	if (fclose(out))
		return fail("cannot write the output policy");
	printf("%lu\n", marked);
	return 0;
}
