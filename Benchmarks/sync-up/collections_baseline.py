#!/usr/bin/env python3
"""Python baseline for the sync-up benchmark: the short script a user would write with sObject Collections.

Reads the dirty records (``__local__`` set) of a soup from a syncrun / SmartStore SQLite store with
the standard sqlite3 module, sends them with ``PATCH /composite/sobjects`` (200 records per call,
``allOrNone`` false, the same field list as the other rows), then clears the four local flags of
the records the org accepted, in one transaction. Prints one JSON line: records, failed, requests,
wall seconds, CPU seconds (``time.process_time()``) and peak RSS (KiB, ``resource.getrusage``),
measured from the first read of the store to the commit, after the imports.

The calls go through simple-salesforce's ``restful`` (one keep-alive ``requests.Session``); its
``base_url`` is set to the org's plain-http address, as in ``baseline.py``.

    python3 collections_baseline.py --url http://127.0.0.1:PORT --token T --db store.sqlite \\
        --soup accounts --fields Name,Phone
"""
import argparse
import json
import resource
import sqlite3
import time

from simple_salesforce import Salesforce

FLAGS = ("__local__", "__locally_created__", "__locally_updated__", "__locally_deleted__")
CALL_SIZE = 200


def soup_layout(db, soup):
    """The soup's table and the index column of ``__local__`` (SmartStore layout)."""
    (table_id,) = db.execute("SELECT id FROM soup_attrs WHERE soupName = ?", (soup,)).fetchone()
    row = db.execute("SELECT columnName FROM soup_index_map WHERE soupName = ? AND path = '__local__'",
                     (soup,)).fetchone()
    return f"TABLE_{table_id}", row[0] if row else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token", required=True)
    parser.add_argument("--db", required=True, help="the store (SQLite) holding the dirty records")
    parser.add_argument("--soup", default="accounts")
    parser.add_argument("--sobject", default="Account")
    parser.add_argument("--fields", default="Name,Phone", help="comma-separated fields to send")
    parser.add_argument("--api-version", default="62.0")
    args = parser.parse_args()
    fields = args.fields.split(",")

    db = sqlite3.connect(args.db, isolation_level=None)
    host = args.url.split("://", 1)[1]
    sf = Salesforce(instance_url=args.url, session_id=args.token, version=args.api_version)
    # simple-salesforce builds https:// URLs; the benchmark's org is plain http on loopback.
    sf.base_url = f"http://{host}/services/data/v{args.api_version}/"

    wall_start = time.perf_counter()
    cpu_start = time.process_time()
    table, local_column = soup_layout(db, args.soup)
    dirty = (f"{local_column} IN ('true', '1')" if local_column
             else "json_extract(soup, '$.__local__') IN (1, 'true', '1')")
    rows = db.execute(f"SELECT id, soup FROM {table} WHERE {dirty} ORDER BY id").fetchall()

    cleaned, failed, requests = [], 0, 0
    for start in range(0, len(rows), CALL_SIZE):
        chunk = [(entry_id, json.loads(text)) for entry_id, text in rows[start:start + CALL_SIZE]]
        body = {"allOrNone": False, "records": [
            dict({"attributes": {"type": args.sobject}, "id": record["Id"]},
                 **{name: record.get(name) for name in fields})
            for _, record in chunk]}
        requests += 1
        results = sf.restful("composite/sobjects", method="PATCH", json=body)
        for (entry_id, record), result in zip(chunk, results):
            if not result.get("success"):
                failed += 1
                continue
            for flag in FLAGS:
                record[flag] = False
            cleaned.append((entry_id, record))

    now = int(time.time() * 1000)
    updates = []
    for entry_id, record in cleaned:
        record["_soupLastModifiedDate"] = now
        updates.append((json.dumps(record, separators=(",", ":")), now, entry_id))
    local_set = f", {local_column} = 'false'" if local_column else ""
    db.execute("BEGIN")
    db.executemany(f"UPDATE {table} SET soup = ?, lastModified = ?{local_set} WHERE id = ?", updates)
    db.execute("COMMIT")
    db.close()

    wall = time.perf_counter() - wall_start
    cpu = time.process_time() - cpu_start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"records": len(cleaned), "failed": failed, "requests": requests, "wall": wall, "cpu": cpu,
                      "maxrss_kb": peak}))


if __name__ == "__main__":
    main()
