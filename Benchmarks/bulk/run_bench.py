#!/usr/bin/env python3
"""Bulk API 2.0 against REST: sync down and sync up of N records with the `syncrun` CLI.

For each size, a local org (`syncrun org serve`, its own process, so the client's figures are the
client's alone) is seeded with N Accounts. Then:

  * sync down of all N through REST pages (`"api": "rest"`) and through a query job (`"api": "bulk"`);
  * sync up of all N records, each updated locally, through sObject Collections and through ingest jobs.

Each run is a separate `syncrun run` process measured with wait4: wall time, client CPU per record
(user + system), peak resident memory. Prints one table. Used by scripts/bench-bulk.sh.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOKEN = "00D000000000001!AQbulkbench"


def seed_file(directory: Path, count: int) -> Path:
    """A data-tree file of `count` Accounts (the local org's seeder reads it)."""
    path = directory / "accounts.json"
    with path.open("w") as out:
        out.write('{"records": [')
        for index in range(count):
            if index:
                out.write(",")
            out.write(
                json.dumps(
                    {
                        "attributes": {"type": "Account", "referenceId": f"Acc{index}"},
                        "Name": f"Account {index:07d}",
                        "Industry": "Energy" if index % 2 else "Banking",
                        "NumberOfEmployees": index % 5000,
                        "Description": f"Bench record {index}, with a comma and \"quotes\"",
                    }
                )
            )
        out.write("]}")
    return path


def write_config(directory: Path, threshold: int) -> None:
    soups = [
        {"soupName": name, "indexes": [{"path": "Id", "type": "string"}, {"path": "__local__", "type": "string"}]}
        for name in ("viaRest", "viaBulk")
    ]
    (directory / "userstore.json").write_text(json.dumps({"soups": soups}))
    query = "SELECT Id, Name, Industry, NumberOfEmployees, Description, LastModifiedDate FROM Account"
    syncs = []
    for soup, api in (("viaRest", "rest"), ("viaBulk", "bulk")):
        syncs.append(
            {
                "syncName": f"down_{api}",
                "syncType": "syncDown",
                "soupName": soup,
                "target": {"type": "soql", "query": query, "api": api},
                "options": {"mergeMode": "OVERWRITE"},
            }
        )
        syncs.append(
            {
                "syncName": f"up_{api}",
                "syncType": "syncUp",
                "soupName": soup,
                "target": {"type": "collection", "api": api, "bulkThreshold": threshold,
                           "updateFieldlist": ["Name", "Description"]},
                "options": {"mergeMode": "OVERWRITE", "fieldlist": ["Name", "Description"]},
            }
        )
    (directory / "usersyncs.json").write_text(json.dumps({"syncs": syncs}))


def measured(command: list[str], env: dict) -> dict:
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    stderr = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {stderr[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def run_size(syncrun: Path, count: int, keep: bool, sync_up_max: int | None = None) -> list[dict]:
    directory = Path(tempfile.mkdtemp(prefix=f"bench-bulk-{count}-"))
    try:
        data = directory / "org"
        subprocess.run(
            [str(syncrun), "org", "seed", "--data", str(data), str(seed_file(directory, count))],
            check=True, stdout=subprocess.DEVNULL,
        )
        write_config(directory, threshold=1)
        server = subprocess.Popen(
            [str(syncrun), "org", "serve", "--data", str(data), "--port", "0", "--token", TOKEN, "--format", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        url = json.loads(server.stdout.readline())["url"]
        env = {**os.environ, "SF_ACCESS_TOKEN": TOKEN}
        base = [str(syncrun), "run", "--org", url, "--config", str(directory), "--store", str(directory / "store.db")]
        rows = []
        try:
            for api in ("rest", "bulk"):
                figures = measured(base + ["--only", f"down_{api}"], env)
                rows.append({"size": count, "operation": "sync down", "api": api, **figures})
            for api, soup in (("rest", "viaRest"), ("bulk", "viaBulk")):
                if sync_up_max is not None and count > sync_up_max:
                    break  # sync down only at this size (--sync-up-max)
                subprocess.run(
                    [str(syncrun), "store", "mark", soup, "--updated", "--set", "Description=changed by the bench",
                     "--config", str(directory), "--store", str(directory / "store.db")],
                    check=True, stdout=subprocess.DEVNULL,
                )
                figures = measured(base + ["--only", f"up_{api}"], env)
                rows.append({"size": count, "operation": "sync up (updates)", "api": api, **figures})
        finally:
            server.terminate()
            server.wait(timeout=60)
        return rows
    finally:
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="+", type=int, help="record counts, e.g. 10000 100000 1000000")
    parser.add_argument("--bin-dir", required=True, help="directory holding the syncrun executable")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directories")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON lines")
    parser.add_argument(
        "--sync-up-max", type=int, default=None,
        help="measure sync up only at sizes up to N (the 1M size is a sync-down measurement)",
    )
    arguments = parser.parse_args()
    syncrun = Path(arguments.bin_dir) / "syncrun"
    rows = []
    for size in arguments.sizes:
        rows += run_size(syncrun, size, arguments.keep, arguments.sync_up_max)
    if arguments.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print(f"{'size':>9}  {'operation':<18} {'api':<5} {'wall s':>8} {'records/s':>10} {'CPU µs/rec':>11} {'peak MB':>8}")
    for row in rows:
        print(
            f"{row['size']:>9}  {row['operation']:<18} {row['api']:<5} {row['wall']:>8.2f} "
            f"{row['size'] / row['wall']:>10.0f} {row['cpu'] / row['size'] * 1e6:>11.1f} {row['rss_mb']:>8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
