#!/usr/bin/env bash
# `make fuzz`: every fuzz target (the test suites named *Fuzz*) for FUZZ_SECONDS each (default
# 120) from FUZZ_SEED (default: the clock), one target at a time. Prints each target's inputs
# and inputs a minute. An input that ends the process is saved under fuzz-crashes/ and named:
# it becomes a regression test, then the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-120}
seed=${FUZZ_SEED:-$(date +%s)}
filter=${FUZZ_FILTER:-Fuzz}
progress=$(mktemp -d)
trap 'rm -rf "$progress"' EXIT
swift build --build-tests
echo "fuzzing for ${seconds} s a target, seed ${seed}"
if SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 ARTPIPE_FUZZ_SECONDS=$seconds ARTPIPE_FUZZ_SEED=$seed \
    ARTPIPE_FUZZ_PROGRESS=$progress swift test --skip-build --filter "$filter"; then
    exit 0
fi
# A target whose progress file is left was trying that input when the process ended.
found=0
for file in "$progress"/*.input; do
    [ -e "$file" ] || continue
    target=$(basename "$file" .input)
    read -r crash_seed input <"$file"
    mkdir -p fuzz-crashes
    ARTPIPE_FUZZ_SEED=$crash_seed ARTPIPE_FUZZ_SAVE=$PWD/fuzz-crashes ARTPIPE_FUZZ_TARGET=$target \
        ARTPIPE_FUZZ_INPUT=$input swift test --skip-build --filter "$filter" >"$progress/save.log" 2>&1 || true
    saved=fuzz-crashes/${target}-${crash_seed}-${input}.bin
    if [ -e "$saved" ]; then
        echo "CRASH: target ${target}, seed ${crash_seed}, input ${input}: ${saved}"
    else
        echo "CRASH: target ${target}, seed ${crash_seed}, input ${input}; saving it failed:"
        cat "$progress/save.log"
    fi
    found=1
done
[ "$found" = 1 ] || echo "the fuzz run failed without ending the process: see the output above"
exit 1
