# tdbg - terminal debugger frontend for ML debug dumps.
#
#   make            build ./tdbg
#   make test       unit tests (cmocka), batch and end-to-end tests
#   make asan       the same suite under ASan + UBSan
#   make deps       install the build and test dependencies (Debian/Ubuntu)
#   make demo       deps if missing, build, open the bundled sample dump
#   make bench      performance table (see README, Performance)
#   make fuzz       libFuzzer targets (clang)
#   make install PREFIX=/usr/local
#   V=1             show the commands

VERSION    = 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/tdbg
MANDIR    ?= $(PREFIX)/share/man/man1

PKG_CONFIG ?= pkg-config
PROTOC_C   ?= protoc-c
PKGS        = ncursesw libprotobuf-c libedit libpcre2-8
TEST_PKGS   = cmocka

BUILD      ?= build
CC         ?= cc
OPT        ?= -O2 -g
CFLAGS_STD  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-missing-field-initializers
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)
ALL_CFLAGS  = $(CFLAGS_STD) $(OPT) $(SAN_FLAGS) -I$(BUILD)/proto -I. $(PKG_CFLAGS) \
	      -DTDBG_VERSION='"$(VERSION)"' -DTDBG_DATADIR='"$(DATADIR)"' $(CFLAGS) -MMD -MP
ALL_LDFLAGS = $(SAN_FLAGS) $(LDFLAGS)
LIBS        = $(PKG_LIBS) -lpthread -lm

ifeq ($(V),1)
Q =
quiet = @true
else
Q = @
quiet = @printf '  %-6s %s\n'
endif

# ---- sources, one list per layer -------------------------------------
PROTOS      := $(wildcard proto/*.proto)
PROTO_SRCS  := $(patsubst proto/%.proto,$(BUILD)/proto/%.pb-c.c,$(PROTOS))
PROTO_HDRS  := $(PROTO_SRCS:.c=.h)
PROTO_OBJS  := $(PROTO_SRCS:.c=.o)
READER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard reader/*.c))
MODEL_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard model/*.c))
TUI_MAIN    := $(BUILD)/tui/main.o
TUI_OBJS    := $(filter-out $(TUI_MAIN),$(patsubst %.c,$(BUILD)/%.o,$(wildcard tui/*.c)))

LOW_OBJS    = $(PROTO_OBJS) $(READER_OBJS)
ALL_OBJS    = $(LOW_OBJS) $(MODEL_OBJS) $(TUI_OBJS) $(TUI_MAIN)

# Unit tests: tests/unit/<layer>/test_*.c link only their layer and below,
# so a wrong include shows up as a link error.
UNIT_READER := $(patsubst tests/unit/reader/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/reader/test_*.c))
UNIT_MODEL  := $(patsubst tests/unit/model/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/model/test_*.c))
UNIT_TUI    := $(patsubst tests/unit/tui/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/tui/test_*.c))
UNIT_TESTS  := $(UNIT_READER) $(UNIT_MODEL) $(UNIT_TUI)
TEST_HELPER := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/helpers/*.c))

.PHONY: all test unit e2e asan deps demo bench fuzz install uninstall clean check-layers format
.SECONDARY:

all: tdbg

tdbg: $(ALL_OBJS)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(ALL_OBJS) $(LIBS)

# Generated protobuf-c sources live in the build directory, never in git.
$(BUILD)/proto/%.pb-c.c $(BUILD)/proto/%.pb-c.h: proto/%.proto
	$(quiet) PROTOC $<
	$(Q)mkdir -p $(BUILD)/proto
	$(Q)$(PROTOC_C) --c_out=$(BUILD)/proto -Iproto $<

$(BUILD)/proto/%.pb-c.o: $(BUILD)/proto/%.pb-c.c
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-unused-parameter -c -o $@ $<

$(BUILD)/%.o: %.c | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/unit/%.c | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/unit/helpers/%.o: tests/unit/helpers/%.c | $(PROTO_HDRS)
	$(quiet) CC $@
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(UNIT_READER): $(BUILD)/tests/%: $(BUILD)/tests/reader/%.o $(LOW_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(UNIT_MODEL): $(BUILD)/tests/%: $(BUILD)/tests/model/%.o $(LOW_OBJS) $(MODEL_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(UNIT_TUI): $(BUILD)/tests/%: $(BUILD)/tests/tui/%.o $(LOW_OBJS) $(MODEL_OBJS) $(TUI_OBJS) $(TEST_HELPER)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

# ---- tests ------------------------------------------------------------
# make test: layering check, batch and end-to-end tests (tmux), then every
# cmocka unit test; the cmocka summary lines come last.
test: tdbg $(UNIT_TESTS) check-layers
	$(Q)TDBG=$(CURDIR)/tdbg tests/run-e2e.sh
	$(Q)tests/run-unit.sh $(UNIT_TESTS)

unit: $(UNIT_TESTS)
	$(Q)tests/run-unit.sh $(UNIT_TESTS)

e2e: tdbg
	$(Q)TDBG=$(CURDIR)/tdbg tests/run-e2e.sh

asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan OPT='-O1 -g' \
		SAN_FLAGS='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
		TDBG_BIN=tdbg-asan tdbg-asan-test

TDBG_BIN ?= tdbg
tdbg-asan: $(ALL_OBJS)
	$(quiet) LINK $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(ALL_OBJS) $(LIBS)

tdbg-asan-test: tdbg-asan $(UNIT_TESTS) check-layers
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		TDBG=$(CURDIR)/tdbg-asan tests/run-e2e.sh
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run-unit.sh $(UNIT_TESTS)

# reader/ and model/ never include tui/ or curses; reader/ never includes model/.
check-layers:
	$(Q)bad=$$(grep -nE '#include.*(curses|tui/|\.\./tui)' reader/*.[ch] model/*.[ch] 2>/dev/null; \
		grep -nE '#include.*(model/|\.\./model)' reader/*.[ch] 2>/dev/null; \
		grep -lE '#include.*curses' tui/cmd*.c 2>/dev/null); \
	if [ -n "$$bad" ]; then echo "layering violation:"; echo "$$bad"; exit 1; fi

# ---- setup ------------------------------------------------------------
DEB_PKGS = build-essential pkg-config libncurses-dev libprotobuf-c-dev protobuf-c-compiler \
	   libedit-dev libpcre2-dev libcmocka-dev tmux python3

deps:
	$(Q)if $(PKG_CONFIG) --exists $(PKGS) $(TEST_PKGS) 2>/dev/null && command -v $(PROTOC_C) >/dev/null \
		&& command -v tmux >/dev/null && command -v python3 >/dev/null; then \
		echo "deps: everything is installed"; \
	elif command -v apt-get >/dev/null; then \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		echo "deps: installing $(DEB_PKGS)"; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(DEB_PKGS); \
	else \
		echo "deps: install these with your package manager: ncursesw, protobuf-c (library and protoc-c)," \
		     "libedit, pcre2, cmocka, pkg-config, tmux, python3"; exit 1; \
	fi

demo:
	$(Q)$(PKG_CONFIG) --exists $(PKGS) 2>/dev/null && command -v $(PROTOC_C) >/dev/null || $(MAKE) --no-print-directory deps
	$(Q)$(MAKE) --no-print-directory tdbg
	./tdbg tests/fixtures/tfdbg2/mnist_nan

bench:
	$(Q)tests/bench/run.sh

fuzz:
	$(Q)tests/fuzz/build.sh

install: tdbg
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/themes $(DESTDIR)$(MANDIR)
	install -m 755 tdbg $(DESTDIR)$(BINDIR)/tdbg
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -m 644 tui/tdbg.1 $(DESTDIR)$(MANDIR)/tdbg.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tdbg $(DESTDIR)$(MANDIR)/tdbg.1
	rm -rf $(DESTDIR)$(DATADIR)

format:
	clang-format -i reader/*.[ch] model/*.[ch] tui/*.[ch]

clean:
	rm -rf build build-asan tdbg tdbg-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
