#!/bin/sh
# tests/fuzz/replay.sh - replays the fuzz regression corpus without libFuzzer
# (make test, make asan and make fuzz-replay call it).
#
# Each target tests/fuzz/fuzz_*.c is linked with replay_main.c and the reader
# objects of $BUILD (built by make: build/ normally, build-asan/ under make
# asan, where the sanitizer flags are added here too), then run once over
# every file of tests/fuzz/corpus/<target>/ (inputs that once crashed) and,
# with REPLAY_SEEDS=1, the seeds in build-fuzz/seeds/<target>/.  Prints
# "ok fuzz-replay/<target>: N inputs" or "FAIL ..." per target; exits 1 if
# any input crashed.
#
#   BUILD=build tests/fuzz/replay.sh [TARGET...]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
SAN=
case $BUILD in *asan*)
	SAN="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" ;;
esac
# the objects of today's sources (an object whose source moved or went is
# left behind in an old build directory, and would be linked twice)
objs=$(for o in $(ls "$BUILD"/reader/*.o "$BUILD"/reader/*/*.o "$BUILD"/model/*.o "$BUILD"/model/*/*.o \
	"$BUILD"/proto/*.pb-c.o 2>/dev/null); do
	case $o in
	*.pb-c.o) echo "$o" ;;
	*) src=${o#"$BUILD"/}; [ -f "${src%.o}.c" ] && echo "$o" ;;
	esac
done | tr '\n' ' ')
if [ -z "$objs" ]; then
	echo "FAIL fuzz-replay: no reader objects in $BUILD (run make first)"
	exit 1
fi
CFLAGS="-std=c11 -D_GNU_SOURCE -O1 -g $SAN -I. -I$BUILD/proto $($PKG_CONFIG --cflags libprotobuf-c libpcre2-8 yaml-0.1 2>/dev/null)"
LIBS="$($PKG_CONFIG --libs libprotobuf-c libpcre2-8 yaml-0.1 2>/dev/null) -lpthread -lm"
out=$BUILD/fuzz-replay
mkdir -p "$out"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ $# -gt 0 ]; then targets=$*; else
	targets=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)
fi
rc=0
for t in $targets; do
	# shellcheck disable=SC2086
	if ! $CC $CFLAGS -o "$out/$t" "tests/fuzz/$t.c" tests/fuzz/replay_main.c $objs $LIBS \
		>"$out/$t.build.log" 2>&1; then
		echo "FAIL fuzz-replay/$t: does not build"
		sed 's/^/    | /' "$out/$t.build.log" | head -20
		rc=1
		continue
	fi
	set --
	[ -d "tests/fuzz/corpus/$t" ] && set -- "$@" "tests/fuzz/corpus/$t"
	[ "${REPLAY_SEEDS:-0}" = 1 ] && [ -d "build-fuzz/seeds/$t" ] && set -- "$@" "build-fuzz/seeds/$t"
	if "$out/$t" "$@" >"$out/$t.log" 2>&1; then
		echo "ok fuzz-replay/$t: $(sed -n 's/.*: \([0-9]*\) input(s) ok/\1/p' "$out/$t.log") inputs"
	else
		echo "FAIL fuzz-replay/$t: an input crashed (log: $out/$t.log)"
		grep -E 'runtime error|ERROR: AddressSanitizer|SUMMARY' "$out/$t.log" | head -5 | sed 's/^/    | /'
		rc=1
	fi
done
exit $rc
