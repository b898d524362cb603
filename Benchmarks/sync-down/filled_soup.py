"""run_bench.py's filled-soup row alone, repeatable: 100k new records into a saved soup of 900k, measured as
run_bench.py measures them (write_bytes of /proc/PID/io, wait4 peak RSS). The 900k soup is synced once and
kept in the work directory (filledN.db); each run starts from a copy of it.

    python3 Benchmarks/sync-down/filled_soup.py --bin-dir .build/debug --runs 3
"""
import argparse, os, shutil, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_bench as rb  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--bin-dir", default=".build/debug")
p.add_argument("--universe", type=int, default=1_000_000)
p.add_argument("--runs", type=int, default=1)
p.add_argument("--keep-store", action="store_true")
a = p.parse_args()
ns = argparse.Namespace(bin_dir=a.bin_dir, page_size=2000, work_dir=os.path.join(HERE, "..", "..", ".build", "bench-tmp"))
os.makedirs(ns.work_dir, exist_ok=True)
b = rb.Bench(ns)
tenth = a.universe // 10
saved = os.path.join(ns.work_dir, f"filled{a.universe}.db")
if not os.path.exists(saved):
    s = b.page_server(a.universe - tenth, universe=a.universe)
    try:
        run, _ = b.syncrun_sync(s.url, s.token, saved)
        print(f"setup: {run.wall:.0f}s written {run.written/1e6:.0f} MB peak {run.maxrss_kb/1024:.0f} MB", flush=True)
    finally:
        s.stop()
    subprocess.run(["sqlite3", saved, "PRAGMA wal_checkpoint(TRUNCATE)"], check=True, capture_output=True)
store = os.path.join(b.work, "store.db")
for i in range(a.runs):
    rb.remove_store(store)
    shutil.copyfile(saved, store)
    os.sync()  # the copy's dirty pages are written before the run, not during it
    before = rb.store_size(store)
    s = b.page_server(tenth, universe=a.universe, first=a.universe - tenth)
    try:
        run, _ = b.syncrun_sync(s.url, s.token, store)
    finally:
        s.stop()
    added = rb.store_size(store) - before
    print(f"run {i}: wall {run.wall:.0f}s written {run.written/1e6:.0f} MB = {run.written/added:.1f}x the "
          f"{added/1e6:.1f} MB added, peak {run.maxrss_kb/1024:.0f} MB", flush=True)
if a.keep_store:
    print("kept", store)
else:
    shutil.rmtree(b.work, ignore_errors=True)
