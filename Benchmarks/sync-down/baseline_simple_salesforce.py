#!/usr/bin/env python3
"""Python baseline for the sync-down benchmark: what a user would write with simple-salesforce.

Fetches every page of an Account query (query + query_more) and stores each record into SQLite
with the standard sqlite3 module: ``json.dumps`` per record, ``executemany``, one transaction per
page. Prints one JSON line: records, pages, wall seconds, CPU seconds (``time.process_time()``) and
peak RSS (KiB, ``resource.getrusage``).

Two layouts (``--layout``):

- ``bare``: one table ``t(id, lmd, doc)``, no index: the least a script can write.
- ``soup``: the layout syncrun writes, built with the same DDL SmartStore runs: ``soup_attrs``,
  ``soup_index_map``, ``TABLE_1 (id, soup, created, lastModified, TABLE_1_0 … TABLE_1_4)`` for the
  index specs ``Id``, ``__local__``, ``__sync_id__``, ``LastModifiedDate``, ``Name`` with their SQL
  indexes (and ``created`` / ``lastModified``), and ``syncrun_record_syncs``. Each record is merged
  by Id (one ``SELECT … WHERE TABLE_1_0 IN (…)`` per page), gets the same control fields in its
  JSON (``__local__`` … ``__locally_deleted__`` false, ``__sync_id__``, ``_soupEntryId``,
  ``_soupLastModifiedDate``), and is inserted (or updated) with its index columns; its id goes to
  ``syncrun_record_syncs``.

Plain HTTP: simple-salesforce only builds ``https://`` URLs. The page server speaks plain HTTP on
127.0.0.1, so this script overrides ``sf.base_url`` with the http address after construction, and
pages on with ``query_more(<locator>)`` (which joins the locator to ``base_url``) rather than
``query_all_iter`` (whose ``query_more(nextRecordsUrl, identifier_is_url=True)`` rebuilds an
``https://`` URL from the instance name). The HTTP requests and JSON work are the same.

    python3 baseline_simple_salesforce.py --url http://127.0.0.1:PORT --token T --db /tmp/py.sqlite
"""
import argparse
import json
import os
import resource
import sqlite3
import time

from simple_salesforce import Salesforce

SOQL = ("SELECT Id, Name, Industry, Phone, Website, BillingCity, BillingCountry, NumberOfEmployees, "
        "AnnualRevenue, LastModifiedDate FROM Account")


SOUP_DDL = """
CREATE TABLE soup_attrs (id INTEGER PRIMARY KEY AUTOINCREMENT, soupName TEXT);
CREATE INDEX soup_attrs_0 on soup_attrs ( soupName );
CREATE TABLE soup_index_map (soupName TEXT, path TEXT, columnName TEXT, columnType TEXT);
CREATE INDEX soup_index_map_0 on soup_index_map ( soupName );
CREATE TABLE long_operations_status (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT, details TEXT, status TEXT,
    created INTEGER, lastModified INTEGER);
INSERT INTO soup_attrs (soupName) VALUES ('accounts');
CREATE TABLE TABLE_1 (id INTEGER PRIMARY KEY AUTOINCREMENT, soup TEXT, created INTEGER, lastModified INTEGER,
    TABLE_1_0 TEXT, TABLE_1_1 TEXT, TABLE_1_2 INTEGER, TABLE_1_3 TEXT, TABLE_1_4 TEXT);
CREATE INDEX TABLE_1_created_idx on TABLE_1 ( created );
CREATE INDEX TABLE_1_lastModified_idx on TABLE_1 ( lastModified );
CREATE INDEX TABLE_1_0_idx on TABLE_1 ( TABLE_1_0 );
CREATE INDEX TABLE_1_1_idx on TABLE_1 ( TABLE_1_1 );
CREATE INDEX TABLE_1_2_idx on TABLE_1 ( TABLE_1_2 );
CREATE INDEX TABLE_1_3_idx on TABLE_1 ( TABLE_1_3 );
CREATE INDEX TABLE_1_4_idx on TABLE_1 ( TABLE_1_4 );
INSERT INTO soup_index_map VALUES ('accounts', 'Id', 'TABLE_1_0', 'string'),
    ('accounts', '__local__', 'TABLE_1_1', 'string'), ('accounts', '__sync_id__', 'TABLE_1_2', 'integer'),
    ('accounts', 'LastModifiedDate', 'TABLE_1_3', 'string'), ('accounts', 'Name', 'TABLE_1_4', 'string');
CREATE TABLE syncrun_record_syncs (soup_name TEXT NOT NULL, record_id TEXT NOT NULL, sync_id INTEGER NOT NULL,
    PRIMARY KEY (soup_name, record_id, sync_id)) WITHOUT ROWID;
CREATE INDEX syncrun_record_syncs_by_sync ON syncrun_record_syncs (sync_id, soup_name);
PRAGMA user_version = 3;
"""
SYNC_ID = 1


def write_bare(db, records):
    rows = [(r["Id"], r["LastModifiedDate"], json.dumps(r)) for r in records]
    db.execute("BEGIN")
    db.executemany("INSERT INTO t(id, lmd, doc) VALUES (?, ?, ?)", rows)
    db.execute("COMMIT")


class SoupWriter:
    """Merges pages into soup ``accounts`` as a sync down does, in one transaction per page."""

    def __init__(self, db):
        self.db = db
        db.executescript(SOUP_DDL)
        self.next_id = 1

    def write(self, records):
        db = self.db
        now = int(time.time() * 1000)
        db.execute("BEGIN")
        ids = [r["Id"] for r in records]
        existing = dict(db.execute(
            f"SELECT TABLE_1_0, id FROM TABLE_1 WHERE TABLE_1_0 IN ({','.join('?' * len(ids))})", ids))
        inserts, updates = [], []
        for r in records:
            entry = existing.get(r["Id"])
            if entry is None:
                entry = self.next_id
                self.next_id += 1
                existing[r["Id"]] = entry
                target = inserts
            else:
                target = updates
            r["__local__"] = False
            r["__locally_created__"] = False
            r["__locally_updated__"] = False
            r["__locally_deleted__"] = False
            r["__sync_id__"] = SYNC_ID
            r["_soupEntryId"] = entry
            r["_soupLastModifiedDate"] = now
            target.append((json.dumps(r), now, r["Id"], "false", SYNC_ID, r["LastModifiedDate"], r["Name"], entry))
        db.executemany(
            "INSERT INTO TABLE_1 (soup, created, lastModified, TABLE_1_0, TABLE_1_1, TABLE_1_2, TABLE_1_3, TABLE_1_4, "
            "id) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", inserts)
        db.executemany(
            "UPDATE TABLE_1 SET soup = ?1, lastModified = ?2, TABLE_1_0 = ?3, TABLE_1_1 = ?4, TABLE_1_2 = ?5, "
            "TABLE_1_3 = ?6, TABLE_1_4 = ?7 WHERE id = ?8", updates)
        db.executemany("INSERT OR IGNORE INTO syncrun_record_syncs VALUES ('accounts', ?, ?)",
                       [(i, SYNC_ID) for i in ids])
        db.execute("COMMIT")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token", default="page-server-token")
    parser.add_argument("--db", required=True, help="SQLite file to create (replaced)")
    parser.add_argument("--api-version", default="62.0")
    parser.add_argument("--layout", choices=["bare", "soup"], default="bare")
    args = parser.parse_args()

    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(args.db + suffix):
            os.remove(args.db + suffix)
    db = sqlite3.connect(args.db, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    if args.layout == "soup":
        write_page = SoupWriter(db).write
    else:
        db.execute("CREATE TABLE t(id TEXT, lmd TEXT, doc TEXT)")
        def write_page(records):
            write_bare(db, records)

    wall_start = time.perf_counter()
    cpu_start = time.process_time()
    host = args.url.split("://", 1)[1]
    sf = Salesforce(instance_url=args.url, session_id=args.token, version=args.api_version)
    # simple-salesforce builds https:// URLs; the benchmark server is plain http on loopback.
    sf.base_url = f"http://{host}/services/data/v{args.api_version}/"

    records = 0
    pages = 0
    result = sf.query(SOQL)
    while True:
        write_page(result["records"])
        records += len(result["records"])
        pages += 1
        if result["done"]:
            break
        locator = result["nextRecordsUrl"].rsplit("/", 1)[1]
        result = sf.query_more(locator)
    db.close()

    wall = time.perf_counter() - wall_start
    cpu = time.process_time() - cpu_start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"records": records, "pages": pages, "wall": wall, "cpu": cpu, "maxrss_kb": peak}))


if __name__ == "__main__":
    main()
