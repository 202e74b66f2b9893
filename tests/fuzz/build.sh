#!/bin/sh
# tests/fuzz/build.sh - `make fuzz`: builds the libFuzzer targets with clang
# (-fsanitize=fuzzer,address,undefined) into build-fuzz/, and their seed
# corpora from tests/fixtures into build-fuzz/seeds/<target>/.
#
#   tests/fuzz/build.sh [TARGET...]      default: every tests/fuzz/fuzz_*.c
#   tests/fuzz/run.sh TARGET SECONDS     then fuzz one (see README)
#
# The reader sources are compiled again here (with clang and the fuzzer's
# coverage instrumentation); nothing of build/ is used or touched.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=${FUZZ_BUILD:-build-fuzz}
CLANG=${CLANG:-clang}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

need_help()
{
	cat >&2 <<EOH
fuzz: $1
  make fuzz needs clang with its libFuzzer runtime (libclang_rt.fuzzer).
  Debian 12 / Ubuntu:  apt-get install clang libclang-rt-14-dev   (or the -dev
                       package matching your clang version: clang --version)
  Fedora:              dnf install clang compiler-rt
  Without it, the corpus is still replayed by make test (tests/fuzz/replay.sh,
  any C compiler).
EOH
	exit 1
}

command -v "$CLANG" >/dev/null 2>&1 || need_help "no $CLANG in PATH"
mkdir -p "$out/obj/reader" "$out/obj/proto" "$out/proto" "$out/seeds"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	>"$out/probe.c"
"$CLANG" -fsanitize=fuzzer -o "$out/probe" "$out/probe.c" >/dev/null 2>&1 ||
	need_help "$CLANG cannot link -fsanitize=fuzzer (libFuzzer runtime missing)"

SAN="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer"
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 $SAN -I. -I$out/proto $($PKG_CONFIG --cflags libprotobuf-c libpcre2-8 yaml-0.1)"
CFLAGS="$CFLAGS -DTDBG_VERSION=\"$(sed -n 's/^VERSION *= *//p' Makefile)\" -DTDBG_DATADIR=\"\""
LIBS="$($PKG_CONFIG --libs libprotobuf-c libpcre2-8 yaml-0.1) -lpthread -lm"

# Generated protobuf-c code, as the Makefile makes it, but in $out.
for p in proto/*.proto; do
	b=$(basename "$p" .proto)
	if [ ! -f "$out/proto/$b.pb-c.c" ] || [ "$p" -nt "$out/proto/$b.pb-c.c" ]; then
		${PROTOC_C:-protoc-c} --c_out="$out/proto" -Iproto "$p"
	fi
done
objs=
# model/ too: fuzz_cache reads cache files into a model
for c in reader/*.c reader/*/*.c model/*.c model/*/*.c "$out"/proto/*.pb-c.c; do
	o=$out/obj/$(echo "$c" | sed "s|^$out/||; s|\.c\$|.o|")
	mkdir -p "$(dirname "$o")"
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ -n "$(find reader model proto -newer "$o" -name '*.h' 2>/dev/null | head -1)" ]; then
		echo "  CC     $o"
		"$CLANG" $CFLAGS -fsanitize=fuzzer-no-link -Wno-unused-parameter -c -o "$o" "$c"
	fi
	objs="$objs $o"
done

if [ $# -gt 0 ]; then targets=$*; else
	targets=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)
fi
for t in $targets; do
	echo "  FUZZ   $out/$t"
	"$CLANG" $CFLAGS -fsanitize=fuzzer -o "$out/$t" "tests/fuzz/$t.c" $objs $LIBS
done
python3 tests/fuzz/seeds.py "$out/seeds"
echo "fuzz: built $(echo $targets | wc -w) target(s) in $out; run one with tests/fuzz/run.sh TARGET SECONDS"
