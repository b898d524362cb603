#!/usr/bin/env python3
"""Python baseline for the sync-down benchmark: what a user would write with simple-salesforce.

Fetches every page of an Account query (query + query_more) and stores each record into SQLite
with the standard sqlite3 module: ``json.dumps`` per record, ``executemany``, one transaction per
page. Prints one JSON line: records, pages, wall seconds, CPU seconds (``time.process_time()``) and
peak RSS (KiB, ``resource.getrusage``).

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token", default="page-server-token")
    parser.add_argument("--db", required=True, help="SQLite file to create (replaced)")
    parser.add_argument("--api-version", default="62.0")
    args = parser.parse_args()

    if os.path.exists(args.db):
        os.remove(args.db)
    db = sqlite3.connect(args.db, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t(id TEXT, lmd TEXT, doc TEXT)")

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
        rows = [(r["Id"], r["LastModifiedDate"], json.dumps(r)) for r in result["records"]]
        db.execute("BEGIN")
        db.executemany("INSERT INTO t(id, lmd, doc) VALUES (?, ?, ?)", rows)
        db.execute("COMMIT")
        records += len(rows)
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
