# SPDX-License-Identifier: GPL-2.0
# Uno for Linux: top-level build.
#
#   make            kernel modules, BPF objects and user space
#   make check      install what is missing, build, run unit and VM tests
#   make demo       the dumbbell demo in the VM
#   make bench      instructions per ACK of the control laws (callgrind),
#                   UnoRC's encode and decode throughput on one core
#   make bench-unorc   UnoRC's goodput on a veth pair against iperf3 (root)
#   make vmtest T=name   one VM test (or a glob); make vm-shell: a shell in the VM
#   make install    modules, tc plugin, unoctl/unod, unit, man pages, example
#                   config (DESTDIR, PREFIX honoured)

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := $(CURDIR)/build
CMAKE_BUILD_TYPE ?= RelWithDebInfo
T ?=

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_CFLAGS := -O2 -g -Wall -Werror -target bpf -D__TARGET_ARCH_x86 \
	-I/usr/include/$(shell uname -m)-linux-gnu -Ikernel/core -Ikernel/uapi -Ibpf

# make install
PREFIX ?= /usr
DESTDIR ?=
MODDIR ?= /lib/modules/$(KVER)/extra
UNITDIR ?= /lib/systemd/system
SYSCONFDIR ?= /etc
MANDIR ?= $(PREFIX)/share/man

MAN_SRCS := $(wildcard Documentation/man/*.rst)
MAN_PAGES := $(patsubst Documentation/man/%.rst,$(BUILD)/man/%,$(MAN_SRCS))

.PHONY: all deps modules sparse checkpatch bpf userspace man unit bench bench-unorc eval sim vmtest vm-shell check demo install clean

all: modules bpf userspace man

deps:
	@scripts/install-deps.sh

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel modules

# sparse over every module source (C=2, with the kernel's default checks);
# any warning fails.
sparse:
	@test -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps'" >&2; exit 1; }
	@mkdir -p $(BUILD)
	@$(MAKE) -s -C $(KDIR) M=$(CURDIR)/kernel C=2 modules > $(BUILD)/sparse.log 2>&1 || \
		{ cat $(BUILD)/sparse.log; exit 1; }
	@! grep -E ': (warning|error):' $(BUILD)/sparse.log
	@echo "sparse: no warnings ($(BUILD)/sparse.log)"

# checkpatch.pl --strict over every module source, from the kernel tree
# Debian ships as linux-source-6.1; any finding fails. Two types are off,
# each for a reason checkpatch cannot see: CAMELCASE (with --no-tree it
# does not know that Qdisc is the kernel's own name) and
# TRAILING_SEMICOLON (the module-parameter passes over a parameter list
# declare, as <linux/bpf.h>'s BPF_PROG_TYPE does). The uapi headers take
# a third, PREFER_DEFINED_ATTRIBUTE_MACRO: userspace has no __packed
# (<linux/compiler_attributes.h> is the kernel's), so the kernel's own
# uapi headers spell __attribute__((packed)), as uno_lb.h's shim must. The
# BPF programs and headers take VOLATILE, since a configuration their loader
# writes after compilation is libbpf's "const volatile" (.rodata), which
# the compiler must not fold, and NEW_TYPEDEFS, since core_bpf.h gives them
# the kernel's own typedef names (u32, ...).
CHECKPATCH_SRC := /usr/src/linux-source-6.1.tar.xz
CHECKPATCH := $(BUILD)/checkpatch/scripts/checkpatch.pl
CHECKPATCH_FLAGS := --no-tree --no-signoff --strict --terse --show-types \
	--ignore CAMELCASE,TRAILING_SEMICOLON
KERNEL_SRCS = $(filter-out %.mod.c,$(wildcard kernel/*.c kernel/*.h kernel/core/*.h))
BPF_SRCS = $(wildcard bpf/*.bpf.c bpf/*.h)
UAPI_SRCS = $(wildcard kernel/uapi/*.h)

checkpatch: $(CHECKPATCH)
	@{ $(CHECKPATCH) $(CHECKPATCH_FLAGS) -f $(KERNEL_SRCS) && \
	   $(CHECKPATCH) $(CHECKPATCH_FLAGS),VOLATILE,NEW_TYPEDEFS -f $(BPF_SRCS) && \
	   $(CHECKPATCH) $(CHECKPATCH_FLAGS),PREFER_DEFINED_ATTRIBUTE_MACRO -f $(UAPI_SRCS); } \
		> $(BUILD)/checkpatch.log 2>&1 || { cat $(BUILD)/checkpatch.log; exit 1; }
	@echo "checkpatch: no findings in $(words $(KERNEL_SRCS) $(BPF_SRCS) $(UAPI_SRCS)) files"

$(CHECKPATCH): $(wildcard $(CHECKPATCH_SRC))
	@test -f $(CHECKPATCH_SRC) || { echo "no $(CHECKPATCH_SRC): run 'make deps'" >&2; exit 1; }
	@mkdir -p $(BUILD)/checkpatch
	tar -xmJf $(CHECKPATCH_SRC) -C $(BUILD)/checkpatch --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch

bpf: $(BPF_OBJS)

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h kernel/core/*.h kernel/uapi/*.h)
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c $< -o $@

userspace:
	cmake -S userspace -B $(BUILD)/userspace -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD)/userspace -j2

man: $(MAN_PAGES)

$(BUILD)/man/%: Documentation/man/%.rst
	@mkdir -p $(@D)
	rst2man --halt=warning $< > $@.tmp && mv $@.tmp $@

unit: userspace
	ctest --test-dir $(BUILD)/userspace --output-on-failure -j2

vmtest: all
	KVER=$(KVER) selftests/vm/run.sh $(T)

vm-shell: all
	KVER=$(KVER) selftests/vm/run.sh -s

check:
	@scripts/check.sh $(T)

demo:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all >/dev/null
	@scripts/demo.sh

# Instructions per ACK of the control laws, callgrind on fixed traces, then
# UnoRC's encode and decode throughput on one core, about 15 s
# (Documentation/benchmarks.rst): build/bench/cc_cost.json,
# build/bench/unorc_coder.json and a table of each.
bench:
	@BUILD_DIR=$(BUILD)/userspace scripts/bench_cost.sh
	@cmake --build $(BUILD)/userspace --target coder_bench -j2 >/dev/null
	@mkdir -p $(BUILD)/bench
	@$(BUILD)/userspace/bin/coder_bench -o $(BUILD)/bench/unorc_coder.json

# UnoRC's goodput on a veth pair between two network namespaces, against
# iperf3 UDP and TCP on the same pair; needs root. About 30 s:
# build/bench/unorc_goodput.json and a table.
bench-unorc:
	@BUILD_DIR=$(BUILD)/userspace scripts/bench_unorc.sh

# The evaluation (about 45 min in the VM, as long again in ns-3): S="N6
# S11.5" runs some scenarios only.
eval:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all >/dev/null
	@BUILD_DIR=$(BUILD)/userspace scripts/bench_cost.sh
	@BUILD_DIR=$(BUILD)/userspace KVER=$(KVER) S="$(S)" scripts/eval.sh

# The scenarios of userspace/ns3/scenarios in ns-3, at the paper's scale
# and the VM's, into build/eval/ns3/ (S="N2" some only; SSHLOGINFILE=FILE
# spreads the jobs over GNU parallel's workers).
sim:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all >/dev/null
	@BUILD_DIR=$(BUILD)/userspace scripts/sim.sh $(if $(SSHLOGINFILE),-S $(SSHLOGINFILE)) $(S)

# Modules, the tc plugin, binaries, the systemd unit, man pages and an example
# configuration (an existing /etc/uno/uno.toml is kept).
install: all
	install -d $(DESTDIR)$(MODDIR)
	install -m 0644 kernel/*.ko $(DESTDIR)$(MODDIR)/
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)/userspace --prefix $(PREFIX)
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/sbin/unod|$(PREFIX)/sbin/unod|g; s|/etc/uno/|$(SYSCONFDIR)/uno/|g' \
		userspace/unod/unod.service > $(DESTDIR)$(UNITDIR)/unod.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/unod.service
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man8/
	install -d $(DESTDIR)$(SYSCONFDIR)/uno
	if [ -e $(DESTDIR)$(SYSCONFDIR)/uno/uno.toml ]; then \
		echo "keeping $(DESTDIR)$(SYSCONFDIR)/uno/uno.toml"; \
	else \
		install -m 0644 userspace/unod/uno.toml $(DESTDIR)$(SYSCONFDIR)/uno/uno.toml; \
	fi

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel clean
	rm -rf $(BUILD)
