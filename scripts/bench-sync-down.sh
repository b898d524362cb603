#!/usr/bin/env bash
# The sync-down benchmark in one run: release builds, then floor / syncrun / Python baseline on a
# server of precomputed pages, syncrun against the local org (sync down, resync 1% changed, clean
# ghosts), and peak memory at two sizes. Prints one table. See Benchmarks/sync-down/README.md.
#
#   scripts/bench-sync-down.sh                 # 100,000 records; memory check 10k vs 100k
#   scripts/bench-sync-down.sh --records 50000
#   scripts/bench-sync-down.sh --quick         # 10,000 records (CI smoke)
#   scripts/bench-sync-down.sh --full          # also the memory check at 1M vs 10k records
#   scripts/bench-sync-down.sh --no-build      # use the existing .build/release binaries
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=1
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --records) args+=("--records" "$2"); shift 2 ;;
        --records=*) args+=("--records" "${1#*=}"); shift ;;
        --quick|--full|--skip-local-org|--keep|--ascending|--skip-resync|--skip-memory|--only-scale) args+=("$1"); shift ;;
        --scale|--non-empty|--work-dir) args+=("$1" "$2"); shift 2 ;;
        --page-size) args+=("--page-size" "$2"); shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "bench-sync-down.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

# Release binaries as README's Install builds them (scripts/build-release.sh: the Swift runtime
# linked in on Linux, the flags every release build of this .build shares).
if [[ $build -eq 1 ]]; then
    echo "building release products (syncrun, syncrun-bench)…" >&2
    scripts/build-release.sh >/dev/null
    scripts/build-release.sh --product syncrun-bench >/dev/null
fi
bin="$(swift build -c release --show-bin-path)"

if ! python3 -c 'import simple_salesforce' 2>/dev/null; then
    echo "installing the Python baseline's requirements (Tests/python/requirements.txt)…" >&2
    python3 -m pip install -q -r Tests/python/requirements.txt >&2
fi

exec python3 Benchmarks/sync-down/run_bench.py --bin-dir "$bin" "${args[@]}"
