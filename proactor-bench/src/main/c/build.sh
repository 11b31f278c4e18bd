#!/bin/sh
# Builds the C load generator and the C epoll and io_uring echo servers.
# Usage: build.sh SRC_DIR OUT_DIR
# Skips (exit 0 with a message) when gcc is missing or the OS is not Linux,
# so the Java part of the module still builds everywhere.
set -eu

src="$1"
out="$2"
cflags="-O2 -Wall -Wextra -Werror -std=gnu11"

if [ "$(uname -s)" != "Linux" ]; then
    echo "[proactor-bench] SKIPPED native build: epoll needs Linux (this is $(uname -s)); loadgen and c-epoll unavailable." >&2
    exit 0
fi
if ! command -v gcc >/dev/null 2>&1; then
    echo "[proactor-bench] SKIPPED native build: gcc not found on PATH; loadgen and c-epoll unavailable (install gcc and rebuild)." >&2
    exit 0
fi

mkdir -p "$out"
for prog in loadgen:loadgen.c epoll_echo:epoll_echo.c uring_echo:uring_echo.c; do
    name="${prog%%:*}"
    file="$src/${prog#*:}"
    if [ -x "$out/$name" ] && [ "$out/$name" -nt "$file" ] && [ "$out/$name" -nt "$0" ] \
        && [ "$out/$name" -nt "$src/echo_server_common.h" ]; then
        continue
    fi
    echo "[proactor-bench] gcc $cflags -o $out/$name $file -lpthread"
    # shellcheck disable=SC2086
    gcc $cflags -o "$out/$name" "$file" -lpthread
done

# The load generator's own unit test (per-session fairness statistics): a wrong build fails here.
if ! "$out/loadgen" --self-test >/dev/null; then
    echo "[proactor-bench] loadgen --self-test failed" >&2
    exit 1
fi
