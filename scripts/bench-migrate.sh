#!/usr/bin/env bash
# The migrate benchmark: Accounts and Contacts (half each) moved between two `syncrun org serve`
# processes by `syncrun migrate` and by a Python simple-salesforce script doing the same id
# remapping with collections calls (Benchmarks/migrate/baseline.py); time and peak RSS per size.
#
#   scripts/bench-migrate.sh                     # 10,000 and 100,000 records, release build
#   scripts/bench-migrate.sh --sizes "1000 5000" # other sizes
#   scripts/bench-migrate.sh --no-build          # use the existing .build/release/syncrun
#   scripts/bench-migrate.sh --debug             # use .build/debug/syncrun (smoke test only)
#   scripts/bench-migrate.sh --api rest          # pin the sync downs' "api" (default: the config's, auto)
#   scripts/bench-migrate.sh --latency-ms 100    # both orgs answer every request 100 ms late
#   scripts/bench-migrate.sh --max-requests 1    # syncrun sends one request at a time (default 4)
#   scripts/bench-migrate.sh --mask              # also a masked syncrun run (Account.Name, Contact.LastName, Email)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=1
configuration=release
sizes="10000 100000"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --debug) configuration=debug; build=0; shift ;;
        --sizes) sizes="$2"; shift 2 ;;
        --api) export SYNCRUN_BENCH_API="$2"; shift 2 ;;
        --latency-ms) export SYNCRUN_BENCH_LATENCY_MS="$2"; shift 2 ;;
        --max-requests) export SYNCRUN_BENCH_MAX_REQUESTS="$2"; shift 2 ;;
        --mask) export SYNCRUN_BENCH_MASK=1; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "bench-migrate.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

# Release binaries as README's Install builds them (scripts/build-release.sh: the Swift runtime
# linked in on Linux, the flags every release build of this .build shares).
if [[ $build -eq 1 ]]; then
    echo "building the release syncrun…" >&2
    scripts/build-release.sh >/dev/null
fi
bin="$(swift build -c "$configuration" --show-bin-path)"

if ! python3 -c 'import simple_salesforce' 2>/dev/null; then
    python3 -m pip install -q -r Tests/python/requirements.txt >&2
fi

# shellcheck disable=SC2086
exec python3 Benchmarks/migrate/bench.py "$bin/syncrun" $sizes
