#!/usr/bin/env bash
# The kill-and-restart test of `syncrun migrate` at its by-hand size (issue 27, item 2): for each of
# the four recoveries a user could take after a kill (--resume; a plain rerun; the staging store
# deleted; the whole .syncrun deleted), 10 kills over a migration of 6,000 records (2,000 accounts,
# 4,000 contacts). Every step must leave 0 duplicates, the end 0 missing (or a refusal that wrote
# nothing, then the fix it names). One summary line per recovery.
#
#   scripts/migrate-kill.sh                         # 10 kills x 4 recoveries, 6,000 records
#   scripts/migrate-kill.sh --kills 3 --records 300 # the CI size
#   scripts/migrate-kill.sh --seed 42               # a given seed (printed with every failure)
#   scripts/migrate-kill.sh --no-build              # use the tests already built
set -euo pipefail
cd "$(dirname "$0")/.."
kills=10
records=6000
seed=""
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --kills) kills="$2"; shift 2 ;;
        --records) records="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "migrate-kill.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
if [ "$build" = 1 ]; then swift build --build-tests; fi
export SYNCRUN_MIGRATE_KILLS="$kills" SYNCRUN_MIGRATE_RECORDS="$records"
if [ -n "$seed" ]; then export SYNCRUN_KILL_SEED="$seed"; fi
log="$(mktemp)"
status=0
swift test --skip-build --filter MigrateKillRecoveryTests > "$log" 2>&1 || status=$?
grep -E "migrate kill test|error|failed|passed" "$log" || true
rm -f "$log"
exit "$status"
