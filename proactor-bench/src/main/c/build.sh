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
# name: sources (relative to SRC_DIR); a program is rebuilt when any file it may include is newer.
build() {
    name="$1"
    shift
    newest_ok=1
    for f in "$@" "$src"/echo_server_common.h "$src"/loadgen/*.h "$0"; do
        case "$f" in /*) path="$f" ;; *) path="$src/$f" ;; esac
        [ -x "$out/$name" ] && [ "$out/$name" -nt "$path" ] || newest_ok=0
    done
    [ "$newest_ok" = 1 ] && return 0
    files=""
    for f in "$@"; do files="$files $src/$f"; done
    echo "[proactor-bench] gcc $cflags -o $out/$name$files -lpthread -lm"
    # shellcheck disable=SC2086
    gcc $cflags -o "$out/$name" $files -lpthread -lm
}
build loadgen loadgen/main.c loadgen/args.c loadgen/run_state.c loadgen/sessions.c loadgen/histogram.c \
    loadgen/fairness.c loadgen/cpu_sample.c loadgen/pacing.c
build epoll_echo epoll_echo.c
build uring_echo uring_echo.c

# The load generator's own unit test (per-session fairness statistics): a wrong build fails here.
if ! "$out/loadgen" --self-test >/dev/null; then
    echo "[proactor-bench] loadgen --self-test failed" >&2
    exit 1
fi
