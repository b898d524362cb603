#!/usr/bin/env bash
# The project's test command (the one README.md documents and .ci/run calls).
# Builds the package, runs the Swift test suites, then the Python suites (JSON Schema agreement and the
# simple-salesforce compatibility suite against the local org), which need the debug `syncrun` binary.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> swift build"
swift build

echo "==> swift test"
swift test

echo "==> pytest Tests/python"
python3 -m pytest Tests/python -q
