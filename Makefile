# SPDX-License-Identifier: GPL-2.0
# Uno for Linux: top-level build.
#
#   make            kernel modules, BPF objects and user space
#   make check      install what is missing, build, run unit and VM tests
#   make demo       the dumbbell demo in the VM
#   make vmtest T=name   one VM test (or a glob); make vm-shell: a shell in the VM

KVER ?= $(shell scripts/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD := $(CURDIR)/build
CMAKE_BUILD_TYPE ?= RelWithDebInfo
T ?=

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_CFLAGS := -O2 -g -Wall -Werror -target bpf -D__TARGET_ARCH_x86 \
	-I/usr/include/$(shell uname -m)-linux-gnu -Ikernel/core

.PHONY: eval all deps modules bpf userspace unit vmtest vm-shell check demo install clean

all: modules bpf userspace

deps:
	@scripts/install-deps.sh

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel modules

bpf: $(BPF_OBJS)

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c
	@mkdir -p $(@D)
	clang $(BPF_CFLAGS) -c $< -o $@

userspace:
	cmake -S userspace -B $(BUILD)/userspace -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) >/dev/null
	cmake --build $(BUILD)/userspace -j2

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

# The evaluation (about 45 min): S="N6 S11.5" runs some scenarios only.
eval:
	@scripts/install-deps.sh
	@$(MAKE) --no-print-directory all >/dev/null
	@KVER=$(KVER) S="$(S)" scripts/eval.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel clean
	rm -rf $(BUILD)
