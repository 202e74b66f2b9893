#!/bin/sh
# tests/gen/build.sh - builds the dump generator if it is missing or stale and
# prints its path.  Self-contained: cc and libm, nothing from tdbg's tree.
#
#   gen=$(tests/gen/build.sh) && "$gen" -n 1M /tmp/dump
#
# Output goes to $BUILD/gen/gen_tfdbg2 (BUILD defaults to build/ at the top).
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${BUILD:-$top/build}/gen
bin=$out/gen_tfdbg2
srcs="$here/gen_tfdbg2.c $here/gen_prog.c $here/gen_wire.c $here/gen_cause.c"
stale=0
[ -x "$bin" ] || stale=1
for f in $srcs "$here/gen_prog.h" "$here/gen_wire.h" "$here/gen_cause.h"; do
	[ "$f" -nt "$bin" ] && stale=1
done
if [ "$stale" = 1 ]; then
	mkdir -p "$out"
	${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$bin.tmp.$$" $srcs -lm >&2
	mv "$bin.tmp.$$" "$bin"
fi
echo "$bin"
