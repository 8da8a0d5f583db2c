#!/usr/bin/env bash
# Builds the libFuzzer harnesses of Fuzz/ and runs each for FUZZ_SECONDS.
#
#   Fuzz/run.sh                          every target, 600 s each, one at a time
#   FUZZ_SECONDS=20 Fuzz/run.sh          a smoke run (what `make test` uses)
#   FUZZ_TARGETS="FuzzInvite" Fuzz/run.sh
#   FUZZ_JOBS=2 Fuzz/run.sh              two targets at a time (one core each)
#
# Environment:
#   FUZZ_SECONDS   run time per target (default 600)
#   FUZZ_TARGETS   space-separated targets (default: all five)
#   FUZZ_JOBS      targets run at once (default 1)
#   FUZZ_SCRATCH   SwiftPM scratch path for the sanitized build (default .build/fuzz-build)
#   FUZZ_WORK      corpora, logs and crash files (default .build/fuzz)
#   FUZZ_CONFIG    release (default) or debug: release takes ~40 s more to build from scratch
#                  but runs the calendar harnesses ~3x faster
#   FUZZ_SEED      libFuzzer's -seed (the smoke in `make test` fixes it, so CI is repeatable)
#   FUZZ_LEAKS     1 (default): a leak is a failure; 0: LeakSanitizer off (e.g. while a
#                  known leak is being fixed, to look for other bugs meanwhile)
#
# Prints `fuzz TARGET: N execs, X exec/s, no crash` per target; exits 1 if any target
# crashed, leaked, timed out or ran out of memory, naming the reproducing file.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

seconds=${FUZZ_SECONDS:-600}
targets=${FUZZ_TARGETS:-"FuzzInvite FuzzCalendar FuzzPreFilter FuzzArguments FuzzMessage"}
jobs=${FUZZ_JOBS:-1}
scratch=${FUZZ_SCRATCH:-.build/fuzz-build}
work=${FUZZ_WORK:-.build/fuzz}
config=${FUZZ_CONFIG:-release}
leaks=${FUZZ_LEAKS:-1}

case $seconds in ''|*[!0-9]*) echo "run.sh: FUZZ_SECONDS must be a whole number of seconds" >&2; exit 64;; esac
case $jobs in ''|*[!0-9]*|0) echo "run.sh: FUZZ_JOBS must be a positive number" >&2; exit 64;; esac

mkdir -p "$work"
work=$(cd "$work" && pwd)

# `--sanitize=fuzzer --sanitize=address` alone links libFuzzer and ASan, but the Swift
# driver hands only the *last* -sanitize= to the compiler: the code would get ASan and
# no coverage instrumentation ("no interesting inputs were found"). One combined
# -sanitize=fuzzer,address, passed after SwiftPM's own flags, instruments for both.
echo "fuzz: building ($config, scratch $scratch)"
start=$(date +%s)
if ! swift build --package-path Fuzz -c "$config" --scratch-path "$scratch" \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
        >"$work/build.log" 2>&1; then
    grep -v 'ld.gold: warning: Cannot export local symbol' "$work/build.log" | tail -40 >&2
    echo "fuzz: build failed (full log: $work/build.log)" >&2
    exit 1
fi
bin=$(swift build --package-path Fuzz -c "$config" --scratch-path "$scratch" \
      --sanitize=fuzzer --sanitize=address --show-bin-path)
echo "fuzz: built in $(( $(date +%s) - start )) s"

# The Swift runtime's own crash backtracer fights ASan and libFuzzer for the signal;
# let them report the crash and write the reproducer.
export SWIFT_BACKTRACE=enable=no
if [[ $leaks == 0 ]]; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
if [[ -z ${ASAN_SYMBOLIZER_PATH:-} ]] && command -v llvm-symbolizer >/dev/null; then
    export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer)
fi

# One target: prints its summary line; exit status 0 when nothing was found.
run_target() {
    local target=$1
    local exe="$bin/$target" corpus="$work/$target" artifacts="$work/artifacts/$target/" log="$work/$target.log"
    if [[ ! -x $exe ]]; then
        echo "fuzz $target: no such harness ($exe)" >&2
        return 1
    fi
    mkdir -p "$corpus" "$artifacts"
    # A writable copy of the committed seeds; what earlier runs found stays.
    cp -n Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    local status=0
    "$exe" "$corpus" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
        -artifact_prefix="$artifacts" -print_final_stats=1 -detect_leaks="$leaks" \
        >"$log" 2>&1 || status=$?
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [[ $status -eq 0 ]]; then
        echo "fuzz $target: ${execs:-?} execs, ${rate:-?} exec/s, no crash"
        return 0
    fi
    local found report="$log"
    found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    if [[ -n $found && -f $found ]]; then
        # Again, alone and with full stacks: libical has no frame pointers, so the
        # fast unwinder stops allocation stacks (of leaks) inside it.
        report="$work/$target.repro.log"
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0" \
            timeout 120 "$exe" -rss_limit_mb=2048 -timeout=10 -detect_leaks="$leaks" "$found" >"$report" 2>&1 || true
    fi
    {
        echo "fuzz $target: FAILED (exit $status) after ${execs:-?} execs: ${found:-no reproducer written}"
        grep -E '^(==[0-9]+==|SUMMARY:|ERROR:|FuzzPreFilter:|full parse:|pre-filtered:|  |#[0-9]+ |Fatal error|.*[Ff]atal error:)' "$report" \
            | grep -vE 'in (malloc|calloc|realloc|strdup) |compiler-rt/lib/fuzzer|libc_start|in _start ' \
            | head -30 | { command -v swift-demangle >/dev/null && swift-demangle --simplified || cat; }
        echo "fuzz $target: full log $log; reproduce with: $exe ${found:-CRASH_FILE}"
    } >&2
    return 1
}

failed=0
running=0
for target in $targets; do
    run_target "$target" &
    running=$((running + 1))
    if (( running >= jobs )); then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while (( running > 0 )); do
    wait -n || failed=1
    running=$((running - 1))
done
exit $failed
