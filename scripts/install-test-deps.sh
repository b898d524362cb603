#!/usr/bin/env bash
# Installs what the test suites need beyond the Swift toolchain: SQLite (library + CLI, used by the
# store-compatibility tests), openssl (throwaway certificates), curl, unshare and mount, and the Python packages of the
# Python suites. Safe to run repeatedly.
set -euo pipefail

need_apt=()
command -v sqlite3 >/dev/null 2>&1 || need_apt+=(sqlite3)
[ -e /usr/include/sqlite3.h ] || need_apt+=(libsqlite3-dev)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# curl: the secrets suite sends query-string credentials to a local org; unshare and mount
# (util-linux, mount): the read-only file system test of reading commands.
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
command -v unshare >/dev/null 2>&1 || need_apt+=(util-linux)
command -v mount >/dev/null 2>&1 || need_apt+=(mount)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "==> apt-get install ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
fi

echo "==> pip install (Tests/python/requirements.txt)"
python3 -m pip install -q --disable-pip-version-check -r "$(dirname "$0")/../Tests/python/requirements.txt"
