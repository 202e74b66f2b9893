# tdbg - terminal debugger frontend for ML debug dumps.
#
#   make            build ./tdbg
#   make test       batch and end-to-end tests (tmux), fuzz corpus replay,
#                   then every cmocka unit test; ends on cmocka's summary
#   make asan       the same suite under ASan + UBSan (build-asan/, ./tdbg-asan)
#   make tsan       unit tests and the batch and thread e2e tests under
#                   ThreadSanitizer (build-tsan/, ./tdbg-tsan)
#   make valgrind   the batch-mode tests under valgrind memcheck
#   make deps       install the build and test dependencies (Debian/Ubuntu)
#   make demo       deps if missing, build, open the bundled sample dump
#   make bench      performance table (see README, Performance)
#   make fuzz       libFuzzer targets (clang); make fuzz-replay replays the corpus
#                   (hooks: tests/fuzz/build.sh for make fuzz; tests/fuzz/replay.sh,
#                   run with TDBG and BUILD set, by make test/asan/fuzz-replay;
#                   tests/fuzz/ci.sh, the short fuzz run, by .ci/run)
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make check-layers   fail if a lower layer includes a higher one, or a file
#                       of model/analysis/ uses the model's internals or lock
#   V=1             show the commands
#
# Libraries come from pkg-config; protobuf-c sources are generated from
# proto/*.proto into $(BUILD)/proto and never committed.  Sources are picked
# up by wildcard, one list per layer, so adding a file needs no edit here.

VERSION    = 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/tdbg
MANDIR    ?= $(PREFIX)/share/man/man1

PKG_CONFIG ?= pkg-config
PROTOC_C   ?= protoc-c
PKGS        = ncursesw libprotobuf-c libedit libpcre2-8 yaml-0.1
TEST_PKGS   = cmocka

BUILD      ?= build
OPT        ?= -O2 -g
CFLAGS_STD  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-missing-field-initializers
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
ALL_CFLAGS  = $(CFLAGS_STD) $(OPT) $(SAN_FLAGS) -I$(BUILD)/proto -I. $(PKG_CFLAGS) \
	      -DTDBG_VERSION='"$(VERSION)"' -DTDBG_DATADIR='"$(DATADIR)"' $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)

ifeq ($(V),1)
Q =
quiet = @true
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q = @
quiet = @true
else
Q = @
quiet = @printf '  %-6s %s\n'
endif

# ---- sources, one list per layer -------------------------------------
# reader/ (with its folders base/, parse/ and one per format), model/, the
# command layer tui/cmd/, and the screen tui/.  Each layer links only the
# libraries it uses, so a unit test's link line proves what it depends on.
PROTOS      := $(wildcard proto/*.proto)
PROTO_SRCS  := $(patsubst proto/%.proto,$(BUILD)/proto/%.pb-c.c,$(PROTOS))
PROTO_HDRS  := $(PROTO_SRCS:.c=.h)
PROTO_OBJS  := $(PROTO_SRCS:.c=.o)
READER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard reader/*.c reader/*/*.c))
MODEL_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard model/*.c model/analysis/*.c))
CMD_OBJS    := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tui/cmd/*.c))
TUI_MAIN    := $(BUILD)/tui/main.o
TUI_OBJS    := $(filter-out $(TUI_MAIN),$(patsubst %.c,$(BUILD)/%.o,$(wildcard tui/*.c)))

LOW_OBJS    = $(PROTO_OBJS) $(READER_OBJS)
ALL_OBJS    = $(LOW_OBJS) $(MODEL_OBJS) $(CMD_OBJS) $(TUI_OBJS) $(TUI_MAIN)

READER_LIBS := $(shell $(PKG_CONFIG) --libs libprotobuf-c yaml-0.1 2>/dev/null) -lpthread -lm
MODEL_LIBS  := $(READER_LIBS) $(shell $(PKG_CONFIG) --libs libpcre2-8 2>/dev/null)
CMD_LIBS    := $(MODEL_LIBS)
TUI_LIBS    := $(MODEL_LIBS) $(shell $(PKG_CONFIG) --libs ncursesw libedit 2>/dev/null)

# Unit tests: tests/unit/<layer>/test_*.c link only their layer and below,
# so a wrong include shows up as a link error (the cmd tests link without
# ncurses and libedit).
UNIT_READER := $(patsubst tests/unit/reader/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/reader/test_*.c))
UNIT_MODEL  := $(patsubst tests/unit/model/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/model/test_*.c))
UNIT_CMD    := $(patsubst tests/unit/cmd/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/cmd/test_*.c))
UNIT_TUI    := $(patsubst tests/unit/tui/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/tui/test_*.c))
UNIT_TESTS  := $(UNIT_READER) $(UNIT_MODEL) $(UNIT_CMD) $(UNIT_TUI)
# test_jscan again over the JSON scanner built without SIMD (its portable
# path, which an x86-64 build never takes otherwise: reader/parse/jscan_internal.h).
JSCAN_OBJS     := $(BUILD)/reader/parse/jscan.o $(BUILD)/reader/parse/jscan_flat.o
JSCAN_PORTABLE := $(patsubst $(BUILD)/reader/parse/%.o,$(BUILD)/tests/portable/%.o,$(JSCAN_OBJS))
UNIT_TESTS  += $(BUILD)/tests/test_jscan_portable
TEST_HELPER := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/helpers/*.c))

# The binary the test targets drive (tdbg, or tdbg-asan under make asan).
TDBG_BIN   ?= tdbg

# ---- dependencies -----------------------------------------------------
# Debian 12 / Ubuntu package names; the fuzz tools only when tests/fuzz exists.
DEB_PKGS = build-essential pkg-config libncurses-dev libprotobuf-c-dev protobuf-c-compiler \
	   libedit-dev libpcre2-dev libyaml-dev libcmocka-dev tmux python3 python3-numpy valgrind strace procps \
	   pdsh clustershell slurmctld slurmd slurm-client munge locales
DEB_FUZZ = clang libclang-rt-dev
HAVE_FUZZ = $(wildcard tests/fuzz)
DEPS_CHECK = $(PKG_CONFIG) --exists $(PKGS) $(TEST_PKGS) 2>/dev/null && command -v $(PROTOC_C) && \
	command -v tmux && command -v python3 && /usr/bin/python3 -c 'import numpy' && command -v valgrind && command -v strace && \
	command -v pdsh && command -v clush && command -v srun && command -v slurmd && command -v munged && \
	command -v pgrep && test -f /usr/share/i18n/locales/de_DE \
	$(if $(HAVE_FUZZ),&& command -v clang && ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a)

# Checked once per make: `make test`, `make demo` and `make asan` install
# what is missing first (then start over, so pkg-config's flags are read
# again); `make` only warns.
DEPS_OK := $(shell { $(DEPS_CHECK); } >/dev/null 2>&1 && echo yes)
AUTO_DEPS_GOALS = test demo asan tsan
ifeq ($(DEPS_OK),)
ifneq ($(TDBG_DEPS_TRIED),)
$(error dependencies still missing after `make deps`; see its output)
else ifneq ($(filter $(AUTO_DEPS_GOALS),$(MAKECMDGOALS)),)
AUTO_DEPS = yes
else ifneq ($(filter all tdbg,$(or $(MAKECMDGOALS),all)),)
$(warning some build or test dependencies are missing: run `make deps`)
endif
endif

.PHONY: all test unit e2e asan asan-test tsan tsan-test valgrind valgrind-all deps demo bench fuzz fuzz-replay \
	install uninstall clean check-layers format FORCE
.SECONDARY:
.DELETE_ON_ERROR:

all: tdbg

# ---- compile flags tracking ------------------------------------------
# Objects depend on $(BUILD)/.flags, rewritten only when the compiler or the
# flags change (OPT, CFLAGS, PREFIX baked into TDBG_DATADIR ...), so a change
# of flags rebuilds instead of silently mixing objects.
FLAGS_FILE := $(BUILD)/.flags
FLAGS_NOW   = $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TUI_LIBS)
DRY_RUN    := $(findstring n,$(firstword -$(MAKEFLAGS)))
ifeq ($(DRY_RUN),)
ifneq ($(filter-out clean deps uninstall format check-layers,$(or $(MAKECMDGOALS),all)),)
ifneq ($(file <$(FLAGS_FILE)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif
endif
endif
# Only after `make clean all` in one go; an empty file is rewritten next time.
$(FLAGS_FILE):
	$(Q)mkdir -p $(BUILD) && touch $@

# ---- build ------------------------------------------------------------
tdbg tdbg-asan tdbg-tsan: $(ALL_OBJS) $(FLAGS_FILE)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(ALL_OBJS) $(TUI_LIBS)

# Generated protobuf-c sources live in the build directory, never in git.
$(BUILD)/proto/%.pb-c.c $(BUILD)/proto/%.pb-c.h: proto/%.proto
	$(quiet) PROTOC $<
	$(Q)mkdir -p $(BUILD)/proto
	$(Q)$(PROTOC_C) --c_out=$(BUILD)/proto -Iproto $<

$(BUILD)/proto/%.pb-c.o: $(BUILD)/proto/%.pb-c.c $(FLAGS_FILE) | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-unused-parameter -c -o $@ $<

$(BUILD)/%.o: %.c $(FLAGS_FILE) | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/unit/%.c $(FLAGS_FILE) | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/unit/helpers/%.o: tests/unit/helpers/%.c $(FLAGS_FILE) | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(UNIT_READER): $(BUILD)/tests/%: $(BUILD)/tests/reader/%.o $(LOW_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(READER_LIBS) $(TEST_LIBS)

$(BUILD)/tests/portable/%.o: reader/parse/%.c $(FLAGS_FILE) | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DJSCAN_NO_SIMD -c -o $@ $<

$(BUILD)/tests/test_jscan_portable: $(BUILD)/tests/reader/test_jscan.o \
		$(filter-out $(JSCAN_OBJS),$(LOW_OBJS)) $(JSCAN_PORTABLE) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(READER_LIBS) $(TEST_LIBS)

# counts the readers' opendir() calls (format detection lists a directory once)
$(BUILD)/tests/test_reader_listing: ALL_LDFLAGS += -Wl,--wrap=opendir
# counts the reads of a decode after advance() (one: the record handed over)
$(BUILD)/tests/test_tfdbg2_handoff: ALL_LDFLAGS += -Wl,--wrap=source_read
# makes model_close's hand-over race happen on every run (the test's comment)
$(BUILD)/tests/test_model_close_race: ALL_LDFLAGS += -Wl,--wrap=pthread_mutex_unlock -Wl,--wrap=free
# stops a save inside a fingerprint while a query takes the model's lock
$(BUILD)/tests/test_model_cache_save_unlocked: ALL_LDFLAGS += -Wl,--wrap=fingerprint_take

$(UNIT_MODEL): $(BUILD)/tests/%: $(BUILD)/tests/model/%.o $(LOW_OBJS) $(MODEL_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(MODEL_LIBS) $(TEST_LIBS)

$(UNIT_CMD): $(BUILD)/tests/%: $(BUILD)/tests/cmd/%.o $(LOW_OBJS) $(MODEL_OBJS) $(CMD_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMD_LIBS) $(TEST_LIBS)

$(UNIT_TUI): $(BUILD)/tests/%: $(BUILD)/tests/tui/%.o $(LOW_OBJS) $(MODEL_OBJS) $(CMD_OBJS) $(TUI_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(TUI_LIBS) $(TEST_LIBS)

# ---- tests ------------------------------------------------------------
# make test: layering check, batch and end-to-end tests (tmux), the fuzz
# corpus replay, then every cmocka unit test.  Everything runs even when
# something fails; an earlier failure is listed in the final cmocka-style
# summary, so the summary lines come last and tell the truth.
RUN_TESTS = rc=0; note=; \
	TDBG=$(CURDIR)/$(TDBG_BIN) tests/run-e2e.sh || { rc=1; note="$$note --fail-note e2e"; }; \
	if [ -x tests/fuzz/replay.sh ]; then \
		TDBG=$(CURDIR)/$(TDBG_BIN) BUILD=$(BUILD) tests/fuzz/replay.sh \
			|| { rc=1; note="$$note --fail-note fuzz-replay"; }; \
	fi; \
	tests/run-unit.sh $$note $(UNIT_TESTS) || rc=1; \
	exit $$rc

ifeq ($(AUTO_DEPS),)
test: $(TDBG_BIN) $(UNIT_TESTS) check-layers
	$(Q)$(RUN_TESTS)

asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan OPT='-O1 -g' \
		SAN_FLAGS='-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all' \
		TDBG_BIN=tdbg-asan asan-test

tsan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-tsan OPT='-O1 -g' \
		SAN_FLAGS='-fsanitize=thread -fno-omit-frame-pointer' \
		TDBG_BIN=tdbg-tsan tsan-test

demo: tdbg
	./tdbg tests/fixtures/tfdbg2/mnist_nan
else
# Dependencies missing: install them, then run the goal in a fresh make.
$(AUTO_DEPS_GOALS):
	$(Q)$(MAKE) --no-print-directory deps
	$(Q)$(MAKE) --no-print-directory TDBG_DEPS_TRIED=1 $@
endif

unit: $(UNIT_TESTS)
	$(Q)tests/run-unit.sh $(UNIT_TESTS)

e2e: $(TDBG_BIN)
	$(Q)TDBG=$(CURDIR)/$(TDBG_BIN) tests/run-e2e.sh

fuzz-replay: $(TDBG_BIN)
	$(Q)if [ -x tests/fuzz/replay.sh ]; then \
		TDBG=$(CURDIR)/$(TDBG_BIN) BUILD=$(BUILD) tests/fuzz/replay.sh; \
	else echo "fuzz-replay: no tests/fuzz/replay.sh"; fi

SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

asan-test: $(TDBG_BIN) $(UNIT_TESTS) check-layers
	$(Q)export $(SAN_ENV) E2E_TIMEOUT=30 E2E_SCRIPT_TIMEOUT=600; $(RUN_TESTS)

# make tsan: every unit test, then the e2e scripts where threads run: the
# batch ones (the index thread, the staged scan's helpers, the cache) and
# the follow and TUI-cache ones (a live index thread under the event loop).
# Not the whole tmux suite: under TSan each run is 5-15 times slower, and
# the TUI-only scripts add screens, not threads.  A report aborts the
# process (halt_on_error), which fails its check.
# batch_cache_big.sh is left out: its 20,000-entry dump takes most of the
# script's 300 s under TSan, and what it checks (the index file's load, done
# before the index thread starts) runs under make asan and make valgrind.
TSAN_TESTS ?= $(filter-out tests/e2e/batch_cache_big.sh, \
	      $(wildcard tests/e2e/batch_*.sh tests/e2e/robust_follow*.sh tests/e2e/robust_cache*.sh \
	      tests/e2e/tui_cache.sh))
TSAN_ENV = TSAN_OPTIONS=halt_on_error=1:abort_on_error=1:second_deadlock_stack=1

tsan-test: $(TDBG_BIN) $(UNIT_TESTS)
	$(Q)export $(TSAN_ENV) E2E_TIMEOUT=60 E2E_SCRIPT_TIMEOUT=600; rc=0; \
	TDBG=$(CURDIR)/$(TDBG_BIN) tests/run-e2e.sh $(TSAN_TESTS) || rc=1; \
	tests/run-unit.sh $$([ $$rc = 0 ] || echo --fail-note e2e) $(UNIT_TESTS) || rc=1; \
	exit $$rc

# make valgrind: memcheck (uninitialised reads, leaks: what ASan does not
# see) over the batch-mode tests, less the ones in VALGRIND_SKIP: under
# memcheck each of those takes 80-300 s (big generated dumps run many
# times) and the paths they walk are walked here by a smaller test
# (batch_cache_same and the per-format cache tests for the index file,
# batch_diff_columns for the diff, batch_where and batch_columns for the
# columns) and under make asan by all of them.  About 1,700 s of scripts
# in all, two at a time; `make valgrind-all` runs every batch test
# (about 4,500 s).  VALGRIND_TESTS="tests/e2e/x.sh ..." picks others.
VALGRIND_SKIP = batch_cache batch_cache_tfdbg1 batch_cache_paths batch_cache_history \
		batch_cache_big batch_sort_columns batch_diff batch_stats batch_aliases \
		batch_watches batch_msprobe_compare batch_tensor_values batch_msprobe_maps \
		batch_causes
VALGRIND_TESTS ?= $(filter-out $(patsubst %,tests/e2e/%.sh,$(VALGRIND_SKIP)), \
		  $(wildcard tests/e2e/batch_*.sh))
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full \
	   --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
valgrind: tdbg
	$(Q)[ -n "$(VALGRIND_TESTS)" ] || { echo "valgrind: no tests/e2e/batch_*.sh"; exit 1; }
	$(Q)E2E_TIMEOUT=60 E2E_SCRIPT_TIMEOUT=900 TDBG_WRAP="$(VALGRIND)" TDBG=$(CURDIR)/tdbg tests/run-e2e.sh $(VALGRIND_TESTS)

valgrind-all: tdbg
	$(Q)$(MAKE) --no-print-directory valgrind VALGRIND_TESTS="$(wildcard tests/e2e/batch_*.sh)"

# The layering rules (HACKING.md): reader/ and model/ never include tui/
# or curses; reader/ never includes model/; nothing above reader/ includes
# a format folder or reader/parse/, or names a dump format (code, strings
# or comments: format names reach the screen from the readers' table and
# facts); the command layer (tui/cmd/) includes neither curses nor a screen
# header of tui/.
FMT_DIRS = reader/(tfdbg2|tfdbg1|mindspore|msprobe|parse)/
# A command builds its result once through the emitter: json_init only in
# the emitter and the JSON writer.
EMIT_ONLY_EXEMPT = --exclude=emit.c --exclude=json.c --exclude=json.h

check-layers:
	$(Q)bad=$$(grep -rnE '#include.*(curses|"tui/)' reader model --include='*.[ch]'; \
		grep -rnE '#include.*"model/' reader --include='*.[ch]'; \
		grep -rnE '#include.*"$(FMT_DIRS)' model tui --include='*.[ch]'; \
		grep -rniE 'tfdbg|mindspore|msprobe|npy' model tui --include='*.[ch]'; \
		grep -rnE '#include.*(curses|editline|histedit|"tui/[a-z_]+\.h")' tui/cmd --include='*.[ch]'; \
		grep -rnE '_internal\.h|->(th\.)?lock\b' model/analysis --include='*.[ch]'; \
		grep -rnw json_init tui/cmd --include='*.[ch]' $(EMIT_ONLY_EXEMPT)); \
	if [ -n "$$bad" ]; then echo "layering violation:"; echo "$$bad"; exit 1; fi

# ---- setup ------------------------------------------------------------
deps:
	$(Q)if { $(DEPS_CHECK); } >/dev/null 2>&1; then \
		echo "deps: everything is installed"; \
	elif command -v apt-get >/dev/null; then \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		pkgs="$(DEB_PKGS) $(if $(HAVE_FUZZ),$(DEB_FUZZ))"; \
		echo "deps: installing $$pkgs"; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$pkgs \
			</dev/null; \
	else \
		echo "deps: no apt-get here; install with your package manager: a C11 compiler, make," \
		     "pkg-config, ncursesw, protobuf-c (library and protoc-c), libedit, pcre2, libyaml, cmocka," \
		     "tmux, python3, valgrind, strace, pgrep, the locale sources (localedef's de_DE)$(if $(HAVE_FUZZ), and clang with libFuzzer)"; exit 1; \
	fi

bench: tdbg
	$(Q)tests/bench/run.sh

fuzz:
	$(Q)tests/fuzz/build.sh

install: tdbg
	$(Q)[ -f tui/tdbg.1 ] || { echo "install: tui/tdbg.1 (the man page) is missing" >&2; exit 1; }
	$(Q)set -- themes/*.theme; [ -f "$$1" ] || { echo "install: no themes/*.theme" >&2; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(MANDIR)
	install -m 755 tdbg $(DESTDIR)$(BINDIR)/tdbg
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -m 644 tui/tdbg.1 $(DESTDIR)$(MANDIR)/tdbg.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tdbg $(DESTDIR)$(MANDIR)/tdbg.1
	rm -rf $(DESTDIR)$(DATADIR)

format:
	clang-format -i $$(find reader model tui -name '*.[ch]')

clean:
	rm -rf build build-asan build-tsan build-fuzz tdbg tdbg-asan tdbg-tsan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
