#!/usr/bin/env bash
# The release build of syncrun: what README's Install, scripts/release.sh and every benchmark
# script run, so that .build/release holds one build (SwiftPM rebuilds everything when the flags
# change).
#
#   scripts/build-release.sh                       builds the syncrun executable
#   scripts/build-release.sh --product syncrun-bench    another product (any `swift build` option)
#
# Prints where the binaries are on its last line (`swift build --show-bin-path`). The flags:
#
# - `-c release`.
# - `--static-swift-stdlib` on Linux: the Swift runtime linked in, so the binary runs on machines
#   without a toolchain and each command starts about 10 ms sooner (no runtime libraries to load).
# - `-disable-concrete-type-metadata-mangled-name-accessors` for every module, the package's and
#   its dependencies': code that needs a concrete generic type (`Dictionary<String, Int>`, a NIO
#   handler over its decoder) calls that type's metadata function with the conformances it already
#   knows, instead of asking the runtime to decode the type's mangled name, which checks each
#   conformance by scanning the binary's 14,000 conformance records. A command starts about 7 ms
#   sooner (a fifth of a resync that finds nothing); the binary grows by 1 MB.
#   Benchmarks/sync-down/README.md ("Session 19") has the measurements.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(-c release -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
has_product=0
for argument in "$@"; do
    case "$argument" in
        --product | --product=*) has_product=1 ;;
        -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    esac
done
[ "$has_product" = 1 ] || set -- --product syncrun "$@"
swift build "${flags[@]}" "$@" >&2
swift build -c release --show-bin-path
