# lsmns top-level Makefile.
#
#   make demo        build what is needed, boot the guest, run the demo
#   make check       every test; ends with "N passed, N failed"
#   make check-long  long fuzzing and soak runs (about two hours)
#   make bench [QUICK=1]  what stacking and namespaces cost, as ratios
#   make guest-run SCRIPT=path [CMDLINE='lsm=...'] [FLAVOUR=normal|debug]
#   make kernel | kernel-debug | kernel-export | kernel-checkpatch | kernel-bisect
#   make install [PREFIX=/usr/local DESTDIR=]
#   make deb | kernel-deb | kernel-deb-config   Debian packages (packaging/README.md)
#
# Everything built lands in $(BUILD) (git-ignored); the kernel tree stays
# there too, the repository only holds kernel/patches and kernel/config.

SHELL := /bin/bash
REPO := $(CURDIR)
BUILD ?= $(REPO)/build
export LSMNS_BUILD := $(BUILD)
FLAVOUR ?= normal
PREFIX ?= /usr/local
DESTDIR ?=

KTREE := kernel/scripts/kernel-tree
HEADERS := $(BUILD)/kernel/headers/include
GUEST_INITRD := $(BUILD)/guest/base.cpio
# base.cpio without podman, stress-ng and the benchmarks: the debug
# flavour's boots need none of them, and a smaller initramfs unpacks
# faster on a KASAN kernel (integration/scripts/run-suite).
GUEST_LEAN_INITRD := $(BUILD)/guest/lean.cpio
# `make install` staged for the guest (PREFIX=/usr): the hooks.d file podman
# reads, pointing at /usr/libexec/lsmns/lsmns-hook.
GUEST_INSTALL := $(BUILD)/guest/install
PROGS_DIR := $(BUILD)/guest/progs

# Debian packages each part needs; scripts/ensure-packages installs the
# missing ones (apt-get update first, non-interactive).
PKGS_KERNEL := linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev \
	ccache xz-utils cpio kmod rsync git python3
PKGS_GUEST := qemu-system-x86 busybox-static crun runc stress-ng \
	podman conmon catatonit golang-github-containers-common \
	libauparse0 libwrap0 libgssapi-krb5-2 libcap-ng0
# Packages the guest runs but this machine must not install (auditd's
# installation starts the audit daemon here): unpacked into GUEST_DEBROOT
# by scripts/unpack-packages; their libraries are in PKGS_GUEST.
PKGS_GUEST_UNPACKED := auditd
GUEST_DEBROOT := $(BUILD)/guest/debroot
PKGS_HOOK := libjson-c-dev libseccomp-dev libcmocka-dev clang libclang-rt-14-dev
PKGS_POLICIES := secilc apparmor policycoreutils
# The Debian 13 stack (platform/trixie): its packages come from trixie
# through an apt state under $(BUILD)/trixie; this machine needs the
# trixie keyring and zstd.
PKGS_TRIXIE := debian-archive-keyring zstd
PKGS_ALL := $(PKGS_KERNEL) $(PKGS_GUEST) $(PKGS_HOOK) $(PKGS_POLICIES) $(PKGS_TRIXIE) jq

.PHONY: all deps kernel kernel-debug kernel-pristine kernel-prepare kernel-export \
	kernel-checkpatch kernel-bisect headers progs policies examples guest guest-trixie guest-run check check-long demo \
	hook hook-check install clean help bench deb kernel-deb kernel-deb-config

all: kernel guest hook

help:
	@sed -n '3,13p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/ensure-packages $(PKGS_ALL)

kernel-prepare:
	@$(KTREE) prepare
kernel:
	@$(KTREE) build normal
kernel-debug:
	@$(KTREE) build debug
kernel-pristine:
	@$(KTREE) build pristine
kernel-export:
	@$(KTREE) export
kernel-checkpatch:
	@$(KTREE) checkpatch
# FROM=0105 builds only the prefixes ending at 0105 and later.
kernel-bisect:
	@$(KTREE) bisect normal $(or $(FROM),1) $(or $(TO),9999)

headers:
	@$(KTREE) headers

# Test programs run in the guest: static, built against the patched tree's
# uapi headers so they can use syscalls the host's headers do not know.
# Those named *_test use the kernel's kselftest harness (kselftest_harness.h).
progs: headers
	@mkdir -p $(PROGS_DIR)/selftests/lsm
	@for p in integration/progs/*.c; do \
		n=$$(basename $$p .c); \
		case $$n in *_test) ks=-I$(BUILD)/kernel/src/tools/testing/selftests ;; *) ks= ;; esac; \
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -I$(HEADERS) $$ks \
			-o $(PROGS_DIR)/$$n $$p || exit 1; \
	done
	@st=$(BUILD)/kernel/src/tools/testing/selftests/lsm; \
	for t in lsm_get_self_attr_test lsm_list_modules_test lsm_set_self_attr_test; do \
		gcc -O2 -Wall -static -I$(HEADERS) -I$$st/.. -o $(PROGS_DIR)/selftests/lsm/$$t \
			$$st/$$t.c $$st/common.c || exit 1; \
	done

hook:
	@$(MAKE) -s -C runtime-hook

hook-check:
	@$(MAKE) -s -C runtime-hook check

policies:
	@$(MAKE) -s -C policies BUILD=$(BUILD)/policies

examples: progs
	@$(MAKE) -s -C examples BUILD=$(BUILD)/examples LSM_QUERY=$(PROGS_DIR)/lsm-query

guest: progs hook policies examples
	@scripts/unpack-packages $(GUEST_DEBROOT) $(PKGS_GUEST_UNPACKED)
	@rm -rf $(GUEST_INSTALL) && $(MAKE) -s -C runtime-hook install PREFIX=/usr DESTDIR=$(GUEST_INSTALL)
	@integration/scripts/build-initramfs $(GUEST_INITRD) \
		--bin /usr/bin/crun --bin /usr/sbin/runc \
		$$(for p in $(PROGS_DIR)/*; do [ -f $$p ] && echo --bin $$p:/lsmns/bin/$$(basename $$p); done) \
		--dir $(PROGS_DIR)/selftests:/lsmns/selftests \
		--dir integration/guest/lib:/lsmns/lib \
		--dir $(BUILD)/policies:/lsmns/policies \
		--dir $(BUILD)/examples:/lsmns/examples \
		--file integration/bundles/busybox-config.json:/lsmns/bundles/busybox-config.json \
		--bin /usr/bin/jq \
		$$(for b in auditd auditctl ausearch aureport; do echo --bin $(GUEST_DEBROOT)/sbin/$$b:/usr/sbin/$$b; done) \
		--dir integration/guest/audit:/etc/audit \
		--file /lib/x86_64-linux-gnu/libgcc_s.so.1:/lib/x86_64-linux-gnu/libgcc_s.so.1 \
		$$([ -x runtime-hook/build/lsmns-hook ] && echo --bin runtime-hook/build/lsmns-hook:/usr/libexec/lsmns/lsmns-hook) \
		--dir $(GUEST_INSTALL):/ \
		--snapshot $(GUEST_LEAN_INITRD) \
		--bin /usr/bin/stress-ng --dir bench:/lsmns/bench --podman

# The Debian 13 stack's initramfs: lean.cpio of `make guest` with the
# Debian 13 root (containerd 1.7, runc 1.1.15, crun 1.21, podman 5.4), the
# CRI client and the NRI plugin appended (platform/trixie), and
# containerd16.cpio with Debian 12's containerd 1.6 instead.  Run after
# `make guest`; their tests: integration/tests/trixie, .../containerd16.
GUEST_TRIXIE_INITRD := $(BUILD)/guest/trixie.cpio
guest-trixie:
	@platform/trixie/build-userland $(BUILD)/trixie $(BUILD)/examples/smack/rootfs
	@platform/trixie/pack-guest $(GUEST_TRIXIE_INITRD) $(GUEST_LEAN_INITRD) $(BUILD)/trixie \
		runtime-hook/build/lsmns-hook $(GUEST_INSTALL)
	@platform/trixie/pack-guest --containerd16 $(BUILD)/guest/containerd16.cpio $(GUEST_LEAN_INITRD) \
		$(BUILD)/trixie runtime-hook/build/lsmns-hook $(GUEST_INSTALL)

guest-run:
	@[ -n "$(SCRIPT)" ] || { echo "make guest-run: set SCRIPT=path/to/script" >&2; exit 2; }
	@integration/scripts/guest-run --kernel $$($(KTREE) path $(FLAVOUR)) \
		--cmdline "$(CMDLINE)" $(SCRIPT) $(ARGS)

check:
	@scripts/check

# make check-long: the 10^6-request fuzz, the 1,000-cycle soak and the
# hook parsers' 10^6-execution fuzz runs (docs/testing.md); about two hours.
check-long:
	@scripts/check-long

# make bench [QUICK=1]: in-guest microbenchmarks as ratios (bench/README.md).
# QUICK=1 runs on the kernels make check builds: no pristine kernel.
bench: kernel $(if $(QUICK),,kernel-pristine) guest
	@bench/run-bench $(if $(QUICK),--quick)

demo:
	@scripts/demo

install:
	@$(MAKE) -s -C runtime-hook install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

deb kernel-deb kernel-deb-config:
	@$(MAKE) -s -C packaging $@ BUILD=$(BUILD)

clean:
	rm -rf $(BUILD)/guest $(BUILD)/test-logs
	-@$(MAKE) -s -C runtime-hook clean
