#!/usr/bin/env bash
# `syncrun watch` latency and idle cost on a local org served by its own process (issue 34): N
# account updates made one at a time through REST; for each, the time from the REST response to
# the store commit of the batch that applied it (the `committedAt` of the watch's JSON lines);
# p50 / p95; then the watch process's CPU over a quiet minute (/proc/PID/stat) and its peak RSS
# (VmHWM), with RSS sampled along the way (memory flat). See Benchmarks/watch/README.md.
#
#   scripts/bench-watch.sh                 # 1,000 changes, release build
#   scripts/bench-watch.sh 200             # fewer changes
#   scripts/bench-watch.sh --debug 200     # the debug build (slower; for a quick look)
#   scripts/bench-watch.sh --idle 10 200   # a shorter quiet period (seconds)
#   scripts/bench-watch.sh --no-build      # use the existing .build/release/syncrun
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

config=release
build=1
count=1000
idle=60
while [[ $# -gt 0 ]]; do
    case "$1" in
        --debug) config=debug; build=0; shift ;;
        --no-build) build=0; shift ;;
        --idle) idle="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        [0-9]*) count="$1"; shift ;;
        *) echo "bench-watch.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
# The release binary as README's Install builds it (scripts/build-release.sh), the same build the
# other benchmark scripts use (one set of flags per .build).
if [[ $build -eq 1 ]]; then
    scripts/build-release.sh >/dev/null
fi
exec python3 Benchmarks/watch/run_bench.py --binary ".build/$config/syncrun" --count "$count" --idle "$idle"
