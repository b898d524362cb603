#!/usr/bin/env bash
# The soak scenario (issue 20 item 3): a plan of sync ups (creates, updates, deletes, parent/children)
# and sync downs against a local org in its own process with faults on (500/503, dropped
# connections, latency, expiring tokens), killed with SIGKILL at random moments and resumed each
# time, checked after every kill and resume. Small in CI (scripts/test.sh), full by hand:
#
#   scripts/soak.sh [--kills N] [--records N] [--seed S] [--keep]
#
# Uses the debug build (.build/debug/syncrun, built when missing). See scripts/soak.py.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x .build/debug/syncrun ]]; then
    swift build --product syncrun
fi
exec python3 scripts/soak.py --syncrun .build/debug/syncrun "$@"
