#!/usr/bin/env python3
"""Python baseline for the sync-up benchmark's creates: POST sObject Collections, write the new ids back.

Reads the dirty records (``__local__`` set, here all locally created with local ids) of a soup
from a syncrun / SmartStore SQLite store with the standard sqlite3 module, creates them with
``POST /composite/sobjects`` (200 records per call, ``allOrNone`` false, the given fields and
``attributes.type``), then writes each accepted record back with its new server id in the id field
(and its index column) and the four local flags cleared, in one transaction. Prints one JSON line
like ``collections_baseline.py``, measured the same way.

    python3 create_baseline.py --url http://127.0.0.1:PORT --token T --db store.sqlite \\
        --soup accounts --fields Name,Industry,Phone
"""
import argparse
import json
import resource
import sqlite3
import time

from simple_salesforce import Salesforce

FLAGS = ("__local__", "__locally_created__", "__locally_updated__", "__locally_deleted__")
CALL_SIZE = 200


def index_column(db, soup, path):
    """The index column of ``path`` in ``soup``, or None (SmartStore layout)."""
    row = db.execute("SELECT columnName FROM soup_index_map WHERE soupName = ? AND path = ?", (soup, path)).fetchone()
    return row[0] if row else None


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
    (table_id,) = db.execute("SELECT id FROM soup_attrs WHERE soupName = ?", (args.soup,)).fetchone()
    table = f"TABLE_{table_id}"
    local_column, id_column = index_column(db, args.soup, "__local__"), index_column(db, args.soup, "Id")
    dirty = (f"{local_column} IN ('true', '1')" if local_column
             else "json_extract(soup, '$.__local__') IN (1, 'true', '1')")
    rows = db.execute(f"SELECT id, soup FROM {table} WHERE {dirty} ORDER BY id").fetchall()

    created, failed, requests = [], 0, 0
    for start in range(0, len(rows), CALL_SIZE):
        chunk = [(entry_id, json.loads(text)) for entry_id, text in rows[start:start + CALL_SIZE]]
        body = {"allOrNone": False, "records": [
            dict({"attributes": {"type": args.sobject}}, **{name: record[name] for name in fields if name in record})
            for _, record in chunk]}
        requests += 1
        results = sf.restful("composite/sobjects", method="POST", json=body)
        for (entry_id, record), result in zip(chunk, results):
            if not result.get("success"):
                failed += 1
                continue
            record["Id"] = result["id"]
            for flag in FLAGS:
                record[flag] = False
            created.append((entry_id, record))

    now = int(time.time() * 1000)
    updates = []
    for entry_id, record in created:
        record["_soupLastModifiedDate"] = now
        values = [json.dumps(record, separators=(",", ":")), now]
        if id_column:
            values.append(record["Id"])
        updates.append(tuple(values) + (entry_id,))
    sets = ", ".join(["soup = ?", "lastModified = ?"] + ([f"{id_column} = ?"] if id_column else [])
                     + ([f"{local_column} = 'false'"] if local_column else []))
    db.execute("BEGIN")
    db.executemany(f"UPDATE {table} SET {sets} WHERE id = ?", updates)
    db.execute("COMMIT")
    db.close()

    wall = time.perf_counter() - wall_start
    cpu = time.process_time() - cpu_start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"records": len(created), "failed": failed, "requests": requests, "wall": wall, "cpu": cpu,
                      "maxrss_kb": peak}))


if __name__ == "__main__":
    main()
