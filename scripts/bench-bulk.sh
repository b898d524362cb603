#!/usr/bin/env bash
# Bulk API 2.0 against REST with the syncrun CLI on a local org served by its own process: sync
# down of N records (query pages vs a query job) and sync up of N updated records (sObject
# Collections vs ingest jobs); wall time, client CPU per record and peak memory per run.
# See Benchmarks/bulk/run_bench.py.
#
#   scripts/bench-bulk.sh 10000                   # one size
#   scripts/bench-bulk.sh 100000 1000000          # the issue's sizes (1M takes a while and ~GBs of disk)
#   scripts/bench-bulk.sh --no-build 10000        # use the existing release build
#   scripts/bench-bulk.sh --sync-up-max 100000 100000 1000000   # sync up rows only up to 100k
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=1
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --debug) bin_config=debug; shift ;;
        --keep|--json) args+=("$1"); shift ;;
        --sync-up-max) args+=("$1" "$2"); shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        [0-9]*) args+=("$1"); shift ;;
        *) echo "bench-bulk.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
config="${bin_config:-release}"

# Release binaries as README's Install builds them (scripts/build-release.sh: the Swift runtime
# linked in on Linux, the flags every release build of this .build shares).
if [[ $build -eq 1 ]]; then
    echo "building syncrun ($config)…" >&2
    if [[ $config == release ]]; then
        scripts/build-release.sh >/dev/null
    else
        swift build -c "$config" --product syncrun >&2
    fi
fi
bin="$(swift build -c "$config" --show-bin-path)"
exec python3 Benchmarks/bulk/run_bench.py --bin-dir "$bin" "${args[@]}"
