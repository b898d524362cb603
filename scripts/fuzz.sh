#!/usr/bin/env bash
# Runs the fuzz targets (Sources/FuzzTargets) under libFuzzer with address sanitizer, by hand:
#
#   scripts/fuzz.sh --seconds N [--target NAME] [--jobs J]
#
# Builds the harness (declared only when SYNCRUN_FUZZ=1) in its own scratch path, .build-fuzz; runs
# each target (or NAME) for N seconds with a 1 s limit per input and a memory limit; merges the new
# inputs that add coverage into Fuzz/corpus/<target>/; and minimizes every crash, timeout and
# out-of-memory into Fuzz/regressions/<target>/, which `swift test` replays (FuzzReplayTests).
# Prints, per target: corpus size, executions per second and findings. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
only=""
jobs=1
rss_mb=2048
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --target) only="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        -h|--help) sed -n 2,11p "$0"; exit 0 ;;
        *) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

scratch=.build-fuzz
echo "==> building the sanitized harness in $scratch (first build takes a while)"
SYNCRUN_FUZZ=1 swift build --scratch-path "$scratch" --product syncrun-fuzz
harness="$(SYNCRUN_FUZZ=1 swift build --scratch-path "$scratch" --show-bin-path)/syncrun-fuzz"

targets=$(ls Fuzz/corpus)
if [[ -n "$only" ]]; then
    if [[ ! -d "Fuzz/corpus/$only" ]]; then
        echo "fuzz.sh: no target '$only' (one of: $(echo $targets))" >&2
        exit 2
    fi
    targets="$only"
fi

work="$scratch/fuzz-work"
summary=()
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
for target in $targets; do
    echo "==> $target: $seconds s"
    rm -rf "$work/$target"
    mkdir -p "$work/$target/new" "$work/$target/artifacts" "Fuzz/regressions/$target"
    log="$work/$target/fuzz.log"
    before=$(find "Fuzz/corpus/$target" -type f | wc -l)
    # Fork mode keeps going after a crash, a timeout or an out-of-memory; each is written to the
    # artifacts folder and minimized below.
    SYNCRUN_FUZZ_TARGET="$target" "$harness" "$work/$target/new" "Fuzz/corpus/$target" \
        -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" -timeout=1 -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" \
        -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$work/$target/artifacts/" >"$log" 2>&1 || true
    # Keep only the new inputs that add coverage to the committed corpus.
    SYNCRUN_FUZZ_TARGET="$target" "$harness" -merge=1 -timeout=1 -rss_limit_mb="$rss_mb" \
        "Fuzz/corpus/$target" "$work/$target/new" >>"$log" 2>&1 || true
    after=$(find "Fuzz/corpus/$target" -type f | wc -l)
    findings=0
    for artifact in "$work/$target/artifacts"/*; do
        [[ -f "$artifact" ]] || continue
        findings=$((findings + 1))
        kind=$(basename "$artifact" | cut -d- -f1)
        hash=$(sha1sum "$artifact" | cut -c1-16)
        dest="Fuzz/regressions/$target/$kind-$hash"
        # Minimize what still reproduces; keep the input as found when minimizing does not apply.
        SYNCRUN_FUZZ_TARGET="$target" "$harness" -minimize_crash=1 -runs=2000 -timeout=1 \
            -artifact_prefix="$work/$target/artifacts/minimized-" \
            -rss_limit_mb="$rss_mb" -exact_artifact_path="$dest" "$artifact" >>"$log" 2>&1 || true
        [[ -s "$dest" ]] || cp "$artifact" "$dest"
        echo "    finding: $dest ($kind)"
    done
    # Fork mode reports "#RUNS: cov: … exec/s: N" lines; the last one of the fuzzing run counts.
    rate=$(grep -E '^#[0-9]+: cov' "$log" | tail -1 | grep -o 'exec/s: [0-9]*' | awk '{print $2}' || true)
    runs=$(grep -E '^#[0-9]+: cov' "$log" | tail -1 | sed -E 's/^#([0-9]+):.*/\1/' || true)
    summary+=("$(printf '%-16s corpus %5d -> %5d   exec/s %6s   runs %9s   findings %d' \
        "$target" "$before" "$after" "${rate:-?}" "${runs:-?}" "$findings")")
done

echo
echo "==> summary ($seconds s per target; log per target in $work/<target>/fuzz.log)"
printf '%s\n' "${summary[@]}"
