# SPDX-License-Identifier: GPL-2.0-only
# pinbench - plain GNU Makefile.

VERSION	:= 0.1.0
PREFIX	?= /usr/local
# where make install puts pinbench-campaign.service (systemd reads /usr/local/lib/systemd/system too)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
CC	?= gcc
PKGS	:= hwloc jansson libRmath libdw
# CFLAGS is the user's (optimisation, debugging, sanitizers); the project's
# own flags are in PB_CFLAGS and always apply, even on the command line.
CFLAGS	?= -O2 -g
# SANITIZE=1: ASan (LeakSanitizer with it) and UBSan.  Every finding stops
# the program, UBSan's too (by default it prints and goes on, and no test
# would fail), so a test sees it as a crash or a non-zero exit.  No leak
# suppressions: role, job and server-session processes leave by _exit(),
# which LeakSanitizer does not check, and the main processes that it does
# check are leak-free (make check SANITIZE=1 finds nothing to suppress).
ifeq ($(SANITIZE),1)
CFLAGS	+= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined
export UBSAN_OPTIONS ?= print_stacktrace=1
endif
PB_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
	   -DPB_VERSION=\"$(VERSION)\" -Iharness -Ibenches -MMD -MP \
	   $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
override CFLAGS += $(PB_CFLAGS)
LDLIBS	+= $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpfm -lpthread -lm

# Objects rebuild when the flags change (make check SANITIZE=1, then make check).
FLAGS_STAMP := .build-flags
FLAGS_NOW := $(CC) $(CFLAGS) $(LDFLAGS)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_NOW))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
%.o: %.c $(FLAGS_STAMP)
	$(CC) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<
# tests/ headers (fixtures, skip.h, tools/) are for the tests' objects only
tests/%.o: CPPFLAGS += -Itests

# harness/<layer>/ (see harness/README.md), the workloads, their helpers
# libpinbench.a is every layer below cli/.  The commands link beside it,
# and so do the workloads: benches/benches.c hands core their table from a
# constructor, which an archive would leave out.
LAYERS	:= core sys checks stats report net lib
LIB_SRC	:= $(foreach l,$(LAYERS),$(wildcard harness/$(l)/*.c))
LIB_OBJ	:= $(LIB_SRC:.c=.o)
CLI_OBJ	:= $(patsubst %.c,%.o,$(filter-out harness/cli/main.c,$(wildcard harness/cli/*.c)))
BENCH_OBJ := $(patsubst %.c,%.o,$(wildcard benches/*.c benches/common/*.c))
TESTS	:= $(patsubst %.c,%,$(wildcard tests/unit/*/test_*.c))

all: pinbench doc

# The man pages: doc/*.scd through scdoc (tests/deps.sh installs it).
MAN_SRC	:= $(wildcard doc/*.scd)
MAN	:= $(MAN_SRC:.scd=)
doc: $(MAN)
doc/%: doc/%.scd
	scdoc < $< > $@.tmp && mv $@.tmp $@

libpinbench.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

pinbench: harness/cli/main.o $(CLI_OBJ) $(BENCH_OBJ) libpinbench.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# objects first, then the library they draw on
tests/unit/%: tests/unit/%.o $(BENCH_OBJ) libpinbench.a
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(LDFLAGS) $(LDLIBS) -lcmocka
# test_compare runs compare, plot and nightly as the command line does
tests/unit/report/test_compare: $(CLI_OBJ)
tests/unit/report/test_report: $(CLI_OBJ)

tests: $(TESTS) pinbench doc

deps:
	@sh tests/deps.sh

check:
	@sh tests/deps.sh --check
	@$(MAKE) --no-print-directory tests
	@sh tests/run-tests.sh

# The QEMU tests: Debian's kernel booted with a built initramfs runs a whole
# campaign across kexec reboots (tests/boot/campaign.sh), then LAVA's own
# dispatcher, lava-run, runs lava/pinbench.yaml in it (tests/boot/lava.sh);
# minutes, so not in check
check-boot:
	@sh tests/deps.sh --check
	@$(MAKE) --no-print-directory pinbench
	@sh tests/boot/campaign.sh
	@sh tests/boot/lava.sh

demo: deps
	@$(MAKE) --no-print-directory pinbench
	./pinbench run configs/quick.ini

# The mutation check (tests/mutate.sh, tests/mutants.txt): every listed
# mutant of verdict and data-keeping code must fail a test.
mutate:
	@bash tests/mutate.sh

fuzz:
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-60} sh tests/e2e/fuzz.sh

bench-peers: deps pinbench
	sh tests/bench-peers.sh

install: pinbench doc
	install -D -m 0755 pinbench $(DESTDIR)$(PREFIX)/bin/pinbench
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/man/man7
	install -m 0644 $(filter %.1,$(MAN)) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 $(filter %.5,$(MAN)) $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 0644 $(filter %.7,$(MAN)) $(DESTDIR)$(PREFIX)/share/man/man7/
	install -d $(DESTDIR)$(PREFIX)/share/pinbench/configs $(DESTDIR)$(PREFIX)/share/pinbench/plot \
		$(DESTDIR)$(PREFIX)/share/pinbench/schemas
	install -m 0644 configs/*.ini $(DESTDIR)$(PREFIX)/share/pinbench/configs/
	install -m 0644 schemas/*.schema.json $(DESTDIR)$(PREFIX)/share/pinbench/schemas/
	-install -m 0644 plot/*.gp $(DESTDIR)$(PREFIX)/share/pinbench/plot/ 2>/dev/null
	install -D -m 0644 completions/pinbench.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pinbench
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's,@BINDIR@,$(PREFIX)/bin,' init/pinbench-campaign.service \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/pinbench-campaign.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/pinbench-campaign.service

clean:
	rm -f pinbench libpinbench.a $(TESTS) $(FLAGS_STAMP) $(MAN)
	find harness benches tests -name '*.[od]' -delete

.PHONY: all doc deps check check-boot demo bench-peers install clean tests mutate
.SECONDARY:

-include $(shell find harness benches tests -name '*.d' 2>/dev/null)
