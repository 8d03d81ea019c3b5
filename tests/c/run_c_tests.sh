#!/usr/bin/env bash
# Builds and runs the C harness unit tests twice (optimised, then under ASan/UBSan), proves every
# C snippet in c-snippets/ compiles warning-free under both flag sets, and runs a small write and
# read through the sanitizer build of raw_io. Prints each unit-test run's "N passed, N failed"
# line; exits non-zero if anything fails. Runs from any working directory.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$root/c-snippets"
harness=("$src"/harness/*.c)  # the harness's rooms, built with every snippet

tmp="$(mktemp -d "${TMPDIR:-/tmp}/c-tests.XXXXXX")" || exit 1
trap 'rm -rf "$tmp"' EXIT

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# raw_io checks for its file size plus a free-space margin (256m by default); the runs here are tiny.
export COURSE_SCRATCH_MARGIN=1m

CC="${CC:-gcc}"
# Warnings fail the build on the compiler the course is kept warning-free on; a newer one warns of more (each release
# adds checks), so there they are printed for a reader to weigh, and fail nothing.
warning_free_on=12
werror=(-Werror)
if [ "$("$CC" -dumpversion 2>/dev/null | cut -d. -f1)" != "$warning_free_on" ]; then
    werror=()
    echo "note: $CC $("$CC" -dumpversion 2>/dev/null) is not gcc $warning_free_on, on which the C sources are kept warning-free: its warnings are shown, not fatal"
fi
plain_flags=(-O2 -Wall -Wextra "${werror[@]}" -pthread)
asan_flags=(-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Wall -Wextra "${werror[@]}" -pthread)
tsan_flags=(-O1 -g -fsanitize=thread -Wall -Wextra "${werror[@]}" -pthread)

status=0
fail() {
    echo "FAIL: $*"
    status=1
}

# build NAME FLAGS... -- SOURCES...: compiles into $tmp/NAME, reporting any warning or error.
build() {
    local name="$1"
    shift
    local flags=()
    while [ "$1" != "--" ]; do flags+=("$1"); shift; done
    shift
    local cc="$CC"
    grep -qs -e '#include <mpi.h>' -- "$@" && cc=mpicc  # MPI sources: the MPI compiler wrapper (around gcc)
    if ! "$cc" "${flags[@]}" -I "$src" -o "$tmp/$name" "$@" 2>"$tmp/$name.log"; then
        cat "$tmp/$name.log"
        fail "build of $name (${flags[*]})"
        return 1
    fi
}

# ---- unit tests ----------------------------------------------------------------------------------
for variant in plain asan; do
    if [ "$variant" = plain ]; then flags=("${plain_flags[@]}"); else flags=("${asan_flags[@]}"); fi
    echo "== unit tests, $variant build: $CC ${flags[*]}"
    if build "test_harness_$variant" "${flags[@]}" -- "$here/test_harness.c" "${harness[@]}"; then
        (cd "$tmp" && "$tmp/test_harness_$variant") >"$tmp/unit_$variant.out" 2>&1
        rc=$?
        cat "$tmp/unit_$variant.out"
        if [ $rc -ne 0 ]; then
            fail "unit tests, $variant build (exit status $rc)"
        elif ! grep -Eq '^[0-9]+ passed, 0 failed$' "$tmp/unit_$variant.out"; then
            fail "unit tests, $variant build: no 'N passed, 0 failed' line"
        fi
    fi
done

# ---- every snippet builds warning-free under both flag sets ---------------------------------------
echo "== snippets"
shopt -s nullglob
for file in "$src"/*.c; do
    name="$(basename "$file" .c)"
    if grep -q '#include <mpi.h>' "$file" && ! command -v mpicc >/dev/null && [ "${CI:-}" != true ]; then
        echo "skipped $name: mpicc is not installed (sudo apt-get install openmpi-bin libopenmpi-dev)"
        continue
    fi
    for variant in plain asan; do
        if [ "$variant" = plain ]; then flags=("${plain_flags[@]}"); else flags=("${asan_flags[@]}"); fi
        build "${name}_$variant" "${flags[@]}" -- "$file" "${harness[@]}" && echo "built $name ($variant)"
    done
done

# ---- the JNI libraries build warning-free too (the kit builds them, and the tests use its builds) --------
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
for file in "$src"/jni/*.c; do
    name="$(basename "$file" .c)"
    if grep -q '#include <mpi.h>' "$file" && ! command -v mpicc >/dev/null && [ "${CI:-}" != true ]; then
        echo "skipped jni/$name: mpicc is not installed (sudo apt-get install openmpi-bin libopenmpi-dev)"
        continue
    fi
    # -Wall, not -Wextra: every JNI function takes an env and a class it may not use
    build "lib$name.so" -O2 -Wall "${werror[@]}" -shared -fPIC -I "$java_home/include" -I "$java_home/include/linux" -- "$file" \
        && echo "built jni/$name"
done

# ---- the sanitizer build of raw_io moves real bytes -------------------------------------------------
# run_raw_io LABEL EXPECTED_BYTES EXPECTED_OPS ARGS...: one measured run, exit 0, one JSON line with the
# expected bytes and ops, and the scratch file removed afterwards (no --keep).
run_raw_io() {
    local label="$1" bytes="$2" ops="$3"
    shift 3
    local out="$tmp/raw_io_$label.out" file=""
    local args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
        [ "${args[$i]}" = --file ] && file="${args[$((i + 1))]}"
    done
    (cd "$tmp" && "$tmp/raw_io_asan" "$@") >"$out" 2>"$out.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        cat "$out" "$out.err"
        fail "raw_io $label exited with status $rc"
        return
    fi
    if [ "$(wc -l <"$out")" -ne 1 ] || ! grep -q "\"bytes\":$bytes," "$out" || ! grep -q "\"ops\":$ops," "$out"; then
        cat "$out"
        fail "raw_io $label: expected one JSON line with bytes $bytes and ops $ops"
        return
    fi
    if [ -s "$out.err" ]; then
        cat "$out.err"
        fail "raw_io $label wrote to stderr"
        return
    fi
    if [ -n "$file" ] && [ -e "$file" ]; then
        fail "raw_io $label left $file behind"
        return
    fi
    echo "raw_io $label: ok"
}

if [ -x "$tmp/raw_io_asan" ]; then
    echo "== raw_io under ASan/UBSan"
    run_raw_io "seq write" 10001 1429 --op write --file-size 10001 --op-size 7 --file "$tmp/x.dat" --repeat 1 --warmup 0
    run_raw_io "rand read" 4095 585 --op read --pattern rand --file-size 4096 --op-size 7 --file "$tmp/y.dat" --repeat 1 --warmup 0
else
    fail "raw_io was not built, so it could not be run"
fi

# ---- shared_file's threads under ThreadSanitizer: no data race, with and without region locks --------
echo "== shared_file under TSan"
if build shared_file_tsan "${tsan_flags[@]}" -- "$src/shared_file.c" "${harness[@]}"; then
    for strategy in pwrite mmap; do
        for op in write read; do
            for lock in none region; do
                label="$strategy $op --lock $lock"
                if ! (cd "$tmp" && "$tmp/shared_file_tsan" --strategy "$strategy" --op "$op" --lock "$lock" --threads 4 \
                        --file-size 256k --op-size 4k --repeat 2 --warmup 0) >"$tmp/tsan.out" 2>&1 \
                        || grep -q "ThreadSanitizer" "$tmp/tsan.out" || [ "$(grep -c '"thread_ns":\[[0-9]*,[0-9]*,[0-9]*,[0-9]*\]' "$tmp/tsan.out")" -ne 2 ]; then
                    cat "$tmp/tsan.out"
                    fail "shared_file $label under TSan"
                else
                    echo "shared_file $label: ok"
                fi
            done
        done
    done
fi

# ---- small_reads' workers share a counter and the check run's sum: no data race ---------------------
echo "== small_reads under TSan"
if build small_reads_tsan "${tsan_flags[@]}" -- "$src/small_reads.c" "${harness[@]}"; then
    for pattern in seq rand; do
        if ! (cd "$tmp" && "$tmp/small_reads_tsan" --pattern "$pattern" --threads 4 --file-size 256k --op-size 4k --repeat 2 --warmup 0) \
                >"$tmp/tsan.out" 2>&1 || grep -q "ThreadSanitizer" "$tmp/tsan.out" || [ "$(grep -c '"platform_threads":' "$tmp/tsan.out")" -ne 2 ]; then
            cat "$tmp/tsan.out"
            fail "small_reads --pattern $pattern under TSan"
        else
            echo "small_reads --pattern $pattern: ok"
        fi
    done
fi

# ---- small_reads' io-uring (liburing) under ASan/UBSan and TSan, where liburing is installed ----------
if [ -e /usr/include/liburing.h ]; then
    echo "== small_reads io-uring under ASan/UBSan and TSan"
    for variant in asan tsan; do
        flags_of="${variant}_flags[@]"
        build "small_reads_uring_$variant" "${!flags_of}" -DCOURSE_LIBURING -- "$src/small_reads.c" "${harness[@]}" -luring || continue
        out="$tmp/uring_$variant.out"
        (cd "$tmp" && "$tmp/small_reads_uring_$variant" --strategy io-uring --threads 2 --depth 8 --pattern rand \
            --file-size 256k --op-size 4k --repeat 2 --warmup 0) >"$out" 2>&1
        rc=$?
        if [ $rc -eq 3 ]; then
            echo "small_reads io-uring ($variant): skipped, $(cat "$out")"  # this kernel refuses io_uring, and says so
        elif [ $rc -ne 0 ] || grep -q "Sanitizer" "$out" || [ "$(grep -c '"depth":8,' "$out")" -ne 2 ]; then
            cat "$out"
            fail "small_reads io-uring under $variant"
        else
            echo "small_reads io-uring ($variant): ok"
        fi
    done
else
    echo "== small_reads io-uring not built: liburing is not installed (sudo apt-get install $(awk -F'\t' '$1 == "liburing" { print $3 }' "$root/setup/packages.tsv"))"
fi

if [ $status -eq 0 ]; then echo "== all C tests passed"; else echo "== C tests FAILED"; fi
exit $status
