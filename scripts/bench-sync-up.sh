#!/usr/bin/env bash
# The sync-up benchmark in one run: release builds, then sync up of N locally updated Accounts with
# the collection target, the single target and the Python baselines (simple-salesforce, one
# Account.update per record; a collections script, PATCH 200 per call), then sync up of N locally
# created Accounts with the collection target and the Python create baseline (POST 200 per call,
# ids written back), each against its own `syncrun org serve`. Prints two tables.
# See Benchmarks/sync-up/README.md.
#
#   scripts/bench-sync-up.sh                     # 10,000 records
#   scripts/bench-sync-up.sh --records 50000
#   scripts/bench-sync-up.sh --quick             # 1,000 records (CI smoke)
#   scripts/bench-sync-up.sh --no-build          # use the existing .build/release binaries
#   scripts/bench-sync-up.sh --collections-only  # skip the one-record-per-call rows
#   scripts/bench-sync-up.sh --latency-ms 100    # the org answers each request 100 ms late
#   scripts/bench-sync-up.sh --max-requests 1    # syncrun sends one request at a time (default 4)
#   scripts/bench-sync-up.sh --no-build --bin-dir .build-release/release   # binaries built elsewhere
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=1
bin_dir=""
records=10000
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --bin-dir) bin_dir="$2"; shift 2 ;;
        --bin-dir=*) bin_dir="${1#*=}"; shift ;;
        --records) records="$2"; shift 2 ;;
        --records=*) records="${1#*=}"; shift ;;
        --quick) records=1000; shift ;;
        --keep) extra+=("--keep"); shift ;;
        --collections-only) extra+=("--collections-only"); shift ;;
        --skip-creates) extra+=("--skip-creates"); shift ;;
        --skip-auto) extra+=("--skip-auto"); shift ;;
        --latency-ms) extra+=("--latency-ms" "$2"); shift 2 ;;
        --latency-ms=*) extra+=("--latency-ms" "${1#*=}"); shift ;;
        --max-requests) extra+=("--max-requests" "$2"); shift 2 ;;
        --max-requests=*) extra+=("--max-requests" "${1#*=}"); shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "bench-sync-up.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

# Release binaries as README's Install builds them (scripts/build-release.sh: the Swift runtime
# linked in on Linux, the flags every release build of this .build shares).
if [[ $build -eq 1 ]]; then
    echo "building release products (syncrun, syncrun-bench)…" >&2
    scripts/build-release.sh >/dev/null
    scripts/build-release.sh --product syncrun-bench >/dev/null
fi
bin="${bin_dir:-$(swift build -c release --show-bin-path)}"

if ! python3 -c 'import simple_salesforce' 2>/dev/null; then
    echo "installing the Python baseline's requirements (Tests/python/requirements.txt)…" >&2
    python3 -m pip install -q -r Tests/python/requirements.txt >&2
fi

exec "$bin/syncrun-bench" sync-up --records "$records" --syncrun "$bin/syncrun" \
    --baseline Benchmarks/sync-up/baseline.py \
    --collections-baseline Benchmarks/sync-up/collections_baseline.py \
    --create-baseline Benchmarks/sync-up/create_baseline.py --python python3 "${extra[@]}"
