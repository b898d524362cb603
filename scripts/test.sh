#!/usr/bin/env bash
# The project's test command (the one README.md documents and .ci/run calls).
# Guardrails first (the arrows check: imports declared and allowed, docs/architecture.md current;
# lint), then one build of everything in which a warning of the package's own code fails the run,
# the Swift test suites, and the
# Python suites (JSON Schema agreement, the simple-salesforce compatibility suite against the local
# org, the arrows check's own tests), which need the debug `syncrun` binary.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> arrows check (imports declared and allowed by scripts/architecture.json, docs/architecture.md current)"
python3 scripts/check-imports.py

echo "==> swift format lint --strict"
swift format lint --strict --recursive --parallel Package.swift Sources Tests Benchmarks examples/custom-targets/Sources

# The same build `swift run` makes (same scratch path, same flags), so `swift run` after the tests
# rebuilds nothing; `-warnings-as-errors` would change the flags and rebuild every module on each
# switch. Instead a warning the compiler gives on the package's own files fails the run here (a
# fresh clone compiles every file, so CI sees them all; a dependency's warnings are not ours).
echo "==> swift build --build-tests (a warning in the package's own code fails)"
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
swift build --build-tests 2>&1 | tee "$build_log"
if grep -E "^$PWD/(Sources|Tests|Benchmarks|examples)/[^:]+:[0-9]+:[0-9]+: warning:" "$build_log" | sort -u; then
    echo "error: the package's own code has compiler warnings (listed above); fix them" >&2
    exit 1
fi

# The end-to-end suites run the `syncrun` executable as child processes and wait for them; several
# of them serve an org from the test process itself. Run in parallel, those waits can hold every
# thread of the cooperative pool (one per core) while a served org needs one to answer, so the
# end-to-end suites run one test at a time after the others.
# At most 32 tests at once: with every suite's local org servers, HTTP connections and stores open
# together, an unbounded run held over 2,000 file descriptors, and Foundation's `Process.run` (used
# to launch `sf`) reads one `dirent` past the end of its /proc/self/fd buffer once that directory
# lists more than about 1,350 entries: under AddressSanitizer a heap-buffer-overflow, in CI a SIGSEGV.
# At this width the run peaks near 400 descriptors.
echo "==> swift test (library suites, in parallel, at most 32 at once)"
swift test --skip-build --skip syncrunTests --skip LiveSyncTests --skip PubSubServiceTests \
    --experimental-maximum-parallelization-width 32

# The Pub/Sub suites wait on events within deadlines; beside the engine suites, whose synchronous
# SQLite work holds the cooperative thread pool (two threads on a two-core machine), their streams
# starve past those deadlines (seen: LiveSyncTests next to SyncEngineTests). They run on their own.
echo "==> swift test (Pub/Sub suites, one at a time)"
swift test --skip-build --filter "LiveSyncTests|PubSubServiceTests" --no-parallel

echo "==> swift test (end-to-end suites through the executable, one at a time)"
swift test --skip-build --filter syncrunTests --no-parallel

echo "==> pytest Tests/python"
python3 -m pytest Tests/python -q

# Faults (500/503, dropped connections, latency, expiring tokens) and SIGKILLs at random moments,
# small: the full soak (50 kills) runs by hand with scripts/soak.sh.
echo "==> soak (small)"
scripts/soak.sh --kills 5 --records 30 --seed 1
