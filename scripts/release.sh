#!/usr/bin/env bash
# Builds syncrun and packs it with the README, the JSON Schemas and the examples into a versioned
# tarball, with a SHA-256 checksum file beside it: the quickest route to a binary on a machine
# without a Swift toolchain.
#
#   scripts/release.sh                  release build (scripts/build-release.sh: the Swift runtime linked in)
#   scripts/release.sh --debug          pack the debug build instead (what CI checks, to stay in its time)
#   scripts/release.sh --skip-build     pack what is already built
#   scripts/release.sh --output DIR     where the tarball goes (default: dist/)
#
# Prints the tarball's path on its last line. The tarball unpacks into syncrun-VERSION-OS-ARCH/ with
# bin/syncrun, README.md, LICENSE (when present), schemas/ and examples/ (without any .syncrun/ state).
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=release
build=1
output=dist
while [ $# -gt 0 ]; do
    case "$1" in
        --debug) configuration=debug ;;
        --skip-build) build=0 ;;
        --output) output="$2"; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "error: unknown option '$1' (see scripts/release.sh --help)" >&2; exit 2 ;;
    esac
    shift
done

if [ "$build" = 1 ]; then
    started=$(date +%s)
    if [ "$configuration" = release ]; then
        echo "==> scripts/build-release.sh (its flags: scripts/build-release.sh --help)" >&2
        scripts/build-release.sh >/dev/null
    else
        echo "==> swift build --product syncrun" >&2
        swift build --product syncrun >&2
    fi
    echo "==> built in $(( $(date +%s) - started )) s" >&2
fi

bin_dir=$(swift build -c "$configuration" --show-bin-path)
binary="$bin_dir/syncrun"
[ -x "$binary" ] || { echo "error: no $configuration build at $binary; run without --skip-build" >&2; exit 1; }

version=$("$binary" --version)
os=$(uname -s | tr '[:upper:]' '[:lower:]')
arch=$(uname -m)
suffix=""
[ "$configuration" = debug ] && suffix="-debug"
name="syncrun-$version-$os-$arch$suffix"

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
root="$staging/$name"
mkdir -p "$root/bin" "$output"
cp "$binary" "$root/bin/syncrun"
# A release binary ships without its symbol tables (230 MB -> 106 MB); a debug one keeps them.
if [ "$configuration" = release ] && command -v strip >/dev/null; then strip "$root/bin/syncrun"; fi
cp README.md "$root/"
[ -f LICENSE ] && cp LICENSE "$root/"
cp -R schemas "$root/schemas"
# Examples as a clone has them: tracked files only, so no local state (.syncrun/, a seeded org) goes in.
git ls-files -z examples | while IFS= read -r -d '' file; do
    mkdir -p "$root/$(dirname "$file")"
    cp "$file" "$root/$file"
done

mkdir -p "$output"
tarball="$(cd "$output" && pwd)/$name.tar.gz"
tar -C "$staging" -czf "$tarball" "$name"
(cd "$(dirname "$tarball")" && sha256sum "$(basename "$tarball")" > "$(basename "$tarball").sha256")
echo "==> $(du -h "$tarball" | cut -f1) $(basename "$tarball") (checksum in $(basename "$tarball").sha256)" >&2
echo "$tarball"
