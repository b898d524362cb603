#!/usr/bin/env python3
"""Drives the sync-down benchmark and prints one table (see README.md in this folder).

Every client runs as a child process; its wall time is measured here, its CPU time (user + system)
and peak RSS come from os.wait4's rusage of that child alone. Servers run as separate processes,
so their cost is never counted as the client's.

    python3 run_bench.py --bin-dir .build/release --records 100000 [--full] [--quick]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SOQL = ("SELECT Id, Name, Industry, Phone, Website, BillingCity, BillingCountry, NumberOfEmployees, "
        "AnnualRevenue, LastModifiedDate FROM Account")
SYNC = "accountsDown"


class Run:
    """One measured child process."""

    def __init__(self, wall, cpu, maxrss_kb, status, stdout, stderr):
        self.wall, self.cpu, self.maxrss_kb = wall, cpu, maxrss_kb
        self.status, self.stdout, self.stderr = status, stdout, stderr

    def last_json(self):
        for line in reversed(self.stdout.splitlines()):
            line = line.strip()
            if line.startswith("{"):
                try:
                    return json.loads(line)
                except ValueError:
                    continue
        return {}


def measure(cmd, workdir, env=None):
    out_path = os.path.join(workdir, "child.out")
    err_path = os.path.join(workdir, "child.err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, encoding="utf-8", errors="replace") as f:
        stdout = f.read()
    with open(err_path, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode, stdout, stderr)


class Server:
    """A server process that prints one JSON line when it listens."""

    def __init__(self, cmd, timeout=600):
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + timeout
        line = ""
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.strip().startswith("{"):
                break
        if not line.strip().startswith("{"):
            self.stop()
            raise RuntimeError(f"server did not start: {' '.join(cmd)}: {self.proc.stderr.read()[-2000:]}")
        self.info = json.loads(line)
        self.url = self.info["url"]
        self.token = self.info.get("token") or self.info.get("accessToken")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def write_config(directory):
    os.makedirs(directory, exist_ok=True)
    store = {"soups": [{"soupName": "accounts", "indexes": [
        {"path": "Id", "type": "string"},
        {"path": "__local__", "type": "string"},
        {"path": "__sync_id__", "type": "integer"},
        {"path": "LastModifiedDate", "type": "string"},
        {"path": "Name", "type": "string"},
    ]}]}
    syncs = {"syncs": [{
        "syncName": SYNC, "syncType": "syncDown", "soupName": "accounts",
        "target": {"type": "soql", "query": SOQL + " ORDER BY LastModifiedDate"},
        "options": {"mergeMode": "OVERWRITE"},
    }]}
    with open(os.path.join(directory, "userstore.json"), "w") as f:
        json.dump(store, f, indent=2)
    with open(os.path.join(directory, "usersyncs.json"), "w") as f:
        json.dump(syncs, f, indent=2)
    return directory


class Row:
    def __init__(self, name, records=None, run=None, note=None, target=None, verdict=None, ratio=None):
        self.name, self.records, self.run, self.note = name, records, run, note
        self.target, self.verdict, self.ratio = target, verdict, ratio


class Bench:
    def __init__(self, args):
        self.args = args
        self.bin = os.path.abspath(args.bin_dir)
        self.syncrun = os.path.join(self.bin, "syncrun")
        self.bench = os.path.join(self.bin, "syncrun-bench")
        self.work = tempfile.mkdtemp(prefix="syncrun-bench-sync-down-")
        self.config = write_config(os.path.join(self.work, "config"))
        self.rows = []
        self.details = []

    def log(self, message):
        print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    # --- page server -------------------------------------------------------------------------
    def page_server(self, records):
        return Server([self.bench, "page-server", "--records", str(records), "--page-size",
                       str(self.args.page_size), "--port", "0"])

    def floor(self, server, soup_shape=False):
        store = os.path.join(self.work, "floor-soup.sqlite" if soup_shape else "floor.sqlite")
        command = [self.bench, "floor", "--url", server.url, "--token", server.token, "--store", store]
        run = measure(command + (["--soup-shape"] if soup_shape else []), self.work)
        self.check(run, "floor")
        return run, run.last_json().get("records")

    def python(self, server):
        store = os.path.join(self.work, "python.sqlite")
        run = measure([sys.executable, os.path.join(HERE, "baseline_simple_salesforce.py"), "--url", server.url,
                       "--token", server.token, "--db", store], self.work)
        self.check(run, "python baseline")
        return run, run.last_json().get("records")

    def syncrun_sync(self, url, token, store, command="sync"):
        cmd = [self.syncrun, command, SYNC, "--org", url, "--access-token", token, "--config", self.config,
               "--store", store, "--format", "json"]
        run = measure(cmd, self.work)
        self.check(run, f"syncrun {command}")
        return run, run.last_json()

    def check(self, run, what):
        if run.status != 0:
            tail = (run.stderr.strip() or run.stdout.strip())[-600:]
            raise RuntimeError(f"{what} exited {run.status}: {tail}")

    # --- local org ---------------------------------------------------------------------------
    def rest(self, server, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(server.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {server.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            text = response.read()
            return json.loads(text) if text else None

    def all_ids(self, server):
        ids = []
        result = self.rest(server, "GET", "/services/data/v62.0/query?q=" + urllib.parse.quote(
            "SELECT Id FROM Account"))
        while True:
            ids.extend(r["Id"] for r in result["records"])
            if result["done"]:
                return ids
            result = self.rest(server, "GET", result["nextRecordsUrl"])

    def modify(self, server, ids):
        for start in range(0, len(ids), 200):
            batch = [{"attributes": {"type": "Account"}, "id": i, "Industry": "Changed"}
                     for i in ids[start:start + 200]]
            self.rest(server, "PATCH", "/services/data/v62.0/composite/sobjects",
                      {"allOrNone": True, "records": batch})

    def delete(self, server, ids):
        for start in range(0, len(ids), 200):
            self.rest(server, "DELETE", "/services/data/v62.0/composite/sobjects?allOrNone=true&ids="
                      + ",".join(ids[start:start + 200]))

    # --- rows ----------------------------------------------------------------------------------
    def add(self, *args, **kwargs):
        self.rows.append(Row(*args, **kwargs))

    def unavailable(self, name, reason, records=None):
        self.log(f"{name}: not available: {reason}")
        self.add(name, records=records, note=f"not available: {reason}")

    def page_server_rows(self, records):
        self.log(f"page server: precomputing {records} records")
        server = self.page_server(records)
        try:
            self.log(f"page server at {server.url}: {server.info.get('bytes', 0) / 1e6:.1f} MB in "
                     f"{server.info.get('pages')} pages")
            floor = soup_floor = python = mine = None
            try:
                floor, n = self.floor(server)
                self.add("floor: SQLite json_each, 1 stmt/page (page server)", n, floor)
            except Exception as error:  # noqa: BLE001 - reported as a row
                self.unavailable("floor: SQLite json_each, 1 stmt/page (page server)", error, records)
            soup_floor_name = "structural floor: same, into the soup's layout (page server)"
            try:
                soup_floor, n = self.floor(server, soup_shape=True)
                self.add(soup_floor_name, n, soup_floor)
            except Exception as error:  # noqa: BLE001
                self.unavailable(soup_floor_name, error, records)
            try:
                mine, summary = self.syncrun_sync(server.url, server.token, os.path.join(self.work, "ps.db"))
                self.details.append(("syncrun on page server", summary))
                self.add("syncrun sync down (page server)", summary.get("fetched", records), mine)
            except Exception as error:  # noqa: BLE001
                self.unavailable("syncrun sync down (page server)", error, records)
            try:
                python, n = self.python(server)
                self.add("python simple-salesforce + sqlite3 (page server)", n, python)
            except Exception as error:  # noqa: BLE001
                self.unavailable("python simple-salesforce + sqlite3 (page server)", error, records)
            mine_row = next((r for r in self.rows if mine is not None and r.run is mine), None)
            if mine_row is not None:
                mine_row.target = "<= 1.5x floor; >= 2x faster than python"
                parts, ok = [], True
                if floor:
                    parts.append(f"{mine.wall / floor.wall:.2f}x floor (CPU {mine.cpu / floor.cpu:.1f}x)")
                    ok = ok and mine.wall / floor.wall <= 1.5
                if python:
                    parts.append(f"speed-up vs python {python.wall / mine.wall:.2f}x")
                    ok = ok and python.wall / mine.wall >= 2
                if soup_floor:
                    parts.append(f"{mine.wall / soup_floor.wall:.2f}x structural floor")
                mine_row.ratio = ", ".join(parts)
                mine_row.verdict = ("PASS" if ok else "MISS") if floor and python else "incomplete"
            soup_row = next((r for r in self.rows if soup_floor is not None and r.run is soup_floor), None)
            if soup_row is not None and floor:
                soup_row.ratio = f"{soup_floor.wall / floor.wall:.2f}x floor (CPU {soup_floor.cpu / floor.cpu:.1f}x)"
            python_row = next((r for r in self.rows if python is not None and r.run is python), None)
            if python_row is not None and floor:
                python_row.ratio = f"{python.wall / floor.wall:.2f}x floor (CPU {python.cpu / floor.cpu:.1f}x)"
        finally:
            server.stop()

    def local_org_rows(self, records):
        name = "syncrun vs local org"
        data = os.path.join(self.work, "org-data")
        self.log(f"local org: seeding {records} Accounts")
        seed = measure([self.bench, "seed-accounts", "--data", data, "--records", str(records)], self.work)
        if seed.status != 0:
            for label in ("sync down", "resync 1% changed", "clean ghosts"):
                self.unavailable(f"{name}: {label}", f"seeding failed: {seed.stderr.strip()[-300:]}", records)
            return
        server = Server([self.syncrun, "org", "serve", "--data", data, "--port", "0", "--format", "json",
                         "--request-limit", "100000000"])
        store = os.path.join(self.work, "org.db")
        try:
            try:
                full, summary = self.syncrun_sync(server.url, server.token, store)
                self.details.append(("local org sync down", summary))
                self.add(f"{name}: sync down", summary.get("fetched", records), full)
            except Exception as error:  # noqa: BLE001
                for label in ("sync down", "resync 1% changed", "clean ghosts"):
                    self.unavailable(f"{name}: {label}", error, records)
                return
            ids = self.all_ids(server)
            changed = ids[:: max(1, len(ids) // max(1, len(ids) // 100))][: max(1, len(ids) // 100)]
            self.log(f"local org: modifying {len(changed)} records, then resync")
            time.sleep(1.1)  # a later LastModifiedDate second than the full sync's watermark
            self.modify(server, changed)
            try:
                resync, summary = self.syncrun_sync(server.url, server.token, store)
                self.details.append(("local org resync", summary))
                share = resync.wall / full.wall
                self.add(f"{name}: resync 1% changed", summary.get("fetched", len(changed)), resync,
                         target="<= 3% of full sync", verdict="PASS" if share <= 0.03 else "MISS",
                         ratio=f"{share * 100:.1f}% of full sync")
            except Exception as error:  # noqa: BLE001
                self.unavailable(f"{name}: resync 1% changed", error, len(changed))
            gone = ids[1::100][: max(1, len(ids) // 100)]
            self.log(f"local org: deleting {len(gone)} records, then clean ghosts over {len(ids)} ids")
            self.delete(server, gone)
            try:
                clean, summary = self.syncrun_sync(server.url, server.token, store, command="clean-ghosts")
                self.details.append(("local org clean ghosts", summary))
                self.add(f"{name}: clean ghosts ({summary.get('deletedGhosts', '?')} deleted)", len(ids), clean,
                         ratio=f"{clean.wall / full.wall * 100:.1f}% of full sync")
            except Exception as error:  # noqa: BLE001
                self.unavailable(f"{name}: clean ghosts", error, len(ids))
        finally:
            server.stop()

    def memory_rows(self, small, large):
        runs = {}
        for n in (small, large):
            server = self.page_server(n)
            try:
                run, summary = self.syncrun_sync(server.url, server.token, os.path.join(self.work, f"mem{n}.db"))
                runs[n] = run
                self.add(f"memory: syncrun sync down {n} (page server)", summary.get("fetched", n), run)
            except Exception as error:  # noqa: BLE001
                self.unavailable(f"memory: syncrun sync down {n} (page server)", error, n)
            finally:
                server.stop()
                for suffix in ("", "-wal", "-shm"):
                    path = os.path.join(self.work, f"mem{n}.db{suffix}")
                    if os.path.exists(path):
                        os.remove(path)
        if small in runs and large in runs:
            growth = runs[large].maxrss_kb / runs[small].maxrss_kb
            row = self.rows[-1]
            row.target = "peak RSS within 1.2x of the small run"
            row.verdict = "PASS" if growth <= 1.2 else "MISS"
            row.ratio = f"{growth:.2f}x peak RSS of {small}"

    # --- output --------------------------------------------------------------------------------
    def table(self):
        headers = ["row", "records", "wall s", "records/s", "client CPU s", "CPU us/rec", "peak RSS MB",
                   "ratio", "target", "result"]
        lines = []
        for row in self.rows:
            if row.run is None:
                lines.append([row.name, str(row.records or ""), row.note or "", "", "", "", "", "", "", ""])
                continue
            r, n = row.run, row.records or 0
            lines.append([
                row.name, str(n), f"{r.wall:.2f}", f"{n / r.wall:,.0f}" if r.wall > 0 else "-",
                f"{r.cpu:.2f}", f"{r.cpu / n * 1e6:.1f}" if n else "-", f"{r.maxrss_kb / 1024:.0f}",
                row.ratio or "", row.target or "", row.verdict or ""])
        widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h)
                  for i, h in enumerate(headers)]
        out = [" | ".join(h.ljust(w) for h, w in zip(headers, widths)),
               "-+-".join("-" * w for w in widths)]
        for line in lines:
            out.append(" | ".join(c.ljust(w) for c, w in zip(line, widths)))
        return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description="syncrun sync-down benchmark")
    parser.add_argument("--bin-dir", default=".build/release")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--page-size", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="10k records, small memory check (CI smoke)")
    parser.add_argument("--full", action="store_true", help="memory check at 1M records (vs 10k)")
    parser.add_argument("--skip-local-org", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the temp directory")
    args = parser.parse_args()
    if args.quick:
        args.records = 10_000
    bench = Bench(args)
    try:
        bench.page_server_rows(args.records)
        if not args.skip_local_org:
            bench.local_org_rows(args.records)
        small, large = (10_000, 1_000_000) if args.full else (max(1000, args.records // 10), args.records)
        if args.quick:
            small, large = 1_000, 10_000
        bench.memory_rows(small, large)
    finally:
        if not args.keep:
            shutil.rmtree(bench.work, ignore_errors=True)
        else:
            bench.log(f"kept {bench.work}")
    print(f"\nsync-down benchmark: {args.records} Account records x 10 fields, pages of {args.page_size}, "
          "loopback HTTP; client CPU and peak RSS are the client process's own (wait4 rusage)")
    print(bench.table())
    if not args.full:
        print("memory target is stated for 1M vs 10k records: run with --full for the full-size check")


if __name__ == "__main__":
    main()
