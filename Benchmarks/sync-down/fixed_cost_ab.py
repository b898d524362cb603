#!/usr/bin/env python3
"""The fixed cost of a resync that finds nothing, for two or more syncrun binaries run in turn.

Issue 33 item 3 measures it end to end: a 20k-record soup, the local org in its own process, one
`syncrun sync` from spawn to exit. On a shared or virtual machine the host's load moves that figure
by several milliseconds from one minute to the next, more than most changes on the path; runs of
the binaries interleaved (A, B, A, B, ...) see the same load, so their medians compare.

    python3 Benchmarks/sync-down/fixed_cost_ab.py --bin-dir .build/release \\
        --runs 60 OLD/syncrun .build/release/syncrun

`--bin-dir` gives the `syncrun` that serves the org and the `syncrun-bench` that seeds it; each
binary named after the options is timed (wall, and the child's user + system CPU). Every binary
syncs the same store once before the timed runs. Prints, per binary, the median and the 25th
percentile of each.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_bench import SYNC, Server, write_config  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin-dir", required=True, help="holds the syncrun serving the org and syncrun-bench")
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=60, help="timed runs of each binary")
    parser.add_argument("binaries", nargs="+", help="the syncrun executables to compare")
    args = parser.parse_args()
    binaries = [os.path.abspath(b) for b in args.binaries]
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            sys.exit(f"fixed_cost_ab.py: '{binary}' is not an executable")

    work = tempfile.mkdtemp(prefix="syncrun-fixed-cost-")
    server = None
    try:
        config = write_config(os.path.join(work, "config"))
        data = os.path.join(work, "org-data")
        subprocess.run([os.path.join(args.bin_dir, "syncrun-bench"), "seed-accounts", "--data", data,
                        "--records", str(args.records)], check=True, stdout=subprocess.DEVNULL)
        server = Server([os.path.join(args.bin_dir, "syncrun"), "org", "serve", "--data", data, "--port", "0",
                         "--format", "json", "--request-limit", "100000000"])
        store = os.path.join(work, "store.db")

        def sync(binary):
            command = [binary, "sync", SYNC, "--org", server.url, "--access-token", server.token,
                       "--config", config, "--store", store, "--format", "json"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if run.returncode != 0:
                sys.exit(f"fixed_cost_ab.py: {binary} exited {run.returncode}: {run.stderr.strip()[-400:]}")
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            return wall * 1000, cpu * 1000, json.loads(run.stdout.strip().splitlines()[-1])

        for binary in binaries:
            sync(binary)
        results = {binary: ([], []) for binary in binaries}
        for _ in range(args.runs):
            for binary in binaries:
                wall, cpu, summary = sync(binary)
                if summary.get("status") != "DONE" or summary.get("created", 0) != 0:
                    sys.exit(f"fixed_cost_ab.py: {binary}: the resync did not find nothing: {summary}")
                results[binary][0].append(wall)
                results[binary][1].append(cpu)
        load = os.getloadavg()[0]
        print(f"resync that finds nothing, {args.records}-record soup, local org in its own process, "
              f"{args.runs} interleaved runs each (load average {load:.2f} at the end)")
        for binary in binaries:
            walls, cpus = results[binary]
            quarter = lambda values: sorted(values)[len(values) // 4]  # noqa: E731
            print(f"{binary}: wall median {statistics.median(walls):.1f} ms (p25 {quarter(walls):.1f}), "
                  f"CPU median {statistics.median(cpus):.1f} ms (p25 {quarter(cpus):.1f})")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
