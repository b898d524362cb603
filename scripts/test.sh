#!/usr/bin/env bash
# The project's test command (the one README.md documents and .ci/run calls).
# Guardrails first (declared imports, lint), then one build of everything with warnings as errors,
# the Swift test suites, and the Python suites (JSON Schema agreement and the simple-salesforce
# compatibility suite against the local org), which need the debug `syncrun` binary.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> import check (every target declares what it imports)"
python3 scripts/check-imports.py

echo "==> swift build --build-tests (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "==> swift test"
swift test --skip-build

echo "==> pytest Tests/python"
python3 -m pytest Tests/python -q
