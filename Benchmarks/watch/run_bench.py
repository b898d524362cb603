#!/usr/bin/env python3
"""`syncrun watch` latency, idle CPU and memory on a local org in its own process.

Run through scripts/bench-watch.sh. Prints one JSON object with the figures.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

SYNCS = {"syncs": [{"syncName": "accounts", "syncType": "syncDown", "soupName": "accounts",
                    "target": {"type": "soql", "query": "SELECT Id, Name, Industry, LastModifiedDate FROM Account"},
                    "options": {"mergeMode": "LEAVE_IF_CHANGED"}}]}
SOUPS = {"soups": [{"soupName": "accounts", "indexes": [{"path": "Id", "type": "string"},
                                                         {"path": "__local__", "type": "string"},
                                                         {"path": "__sync_id__", "type": "integer"}]}]}


def rest(url, token, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + "/services/data/v62.0/" + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        text = response.read()
    return json.loads(text) if text else None


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def memory_kb(pid, key):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def watch_lines(path):
    with open(path) as output:
        return [json.loads(line) for line in output if line.strip()]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--idle", type=int, default=60)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    with tempfile.TemporaryDirectory(prefix="bench-watch") as directory:
        for name, content in (("usersyncs.json", SYNCS), ("userstore.json", SOUPS)):
            with open(os.path.join(directory, name), "w") as file:
                json.dump(content, file)
        server = subprocess.Popen([binary, "org", "serve", "--data", os.path.join(directory, "org"), "--port", "0",
                                   "--pubsub-port", "0", "--format", "json"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            start = json.loads(server.stdout.readline())
            url, token, pubsub = start["url"], start["accessToken"], start["pubsubPort"]
            ids = [rest(url, token, "POST", "sobjects/Account", {"Name": f"B{i}", "Industry": "Energy"})["id"]
                   for i in range(20)]
            output_path = os.path.join(directory, "watch.jsonl")
            with open(output_path, "w") as output:
                watch = subprocess.Popen([binary, "watch", "--config", directory, "--org", url, "--access-token", token,
                                          "--pubsub-url", f"http://127.0.0.1:{pubsub}", "--format", "json"],
                                         stdout=output, stderr=subprocess.DEVNULL)
            try:
                deadline = time.time() + 60
                while not any(line.get("event") == "watchResync" for line in watch_lines(output_path)):
                    if time.time() > deadline:
                        sys.exit("watch did not start within 60 s")
                    time.sleep(0.05)
                responses = []
                rss = []
                for index in range(options.count):
                    rest(url, token, "PATCH", f"sobjects/Account/{ids[index % len(ids)]}", {"Name": f"B{index}"})
                    responses.append(time.time() * 1000)
                    if index % 100 == 0:
                        rss.append(memory_kb(watch.pid, "VmRSS"))
                    time.sleep(0.01)
                deadline = time.time() + 60
                while True:
                    batches = [line for line in watch_lines(output_path) if line.get("event") == "watchBatch"]
                    if sum(batch["events"] for batch in batches) >= options.count or time.time() > deadline:
                        break
                    time.sleep(0.1)
                # Write k (1-based) is applied by the first batch whose running event count reaches k.
                latencies = []
                applied = 0
                position = 0
                for batch in batches:
                    applied += batch["events"]
                    while position < len(responses) and position < applied:
                        latencies.append(batch["committedAt"] - responses[position])
                        position += 1
                rss.append(memory_kb(watch.pid, "VmRSS"))
                before = cpu_seconds(watch.pid)
                time.sleep(options.idle)
                idle_cpu = cpu_seconds(watch.pid) - before
                result = {
                    "changes": options.count,
                    "applied": len(latencies),
                    "batches": len(batches),
                    "p50Ms": round(percentile(latencies, 0.50), 1) if latencies else None,
                    "p95Ms": round(percentile(latencies, 0.95), 1) if latencies else None,
                    "maxMs": round(max(latencies), 1) if latencies else None,
                    "idleSeconds": options.idle,
                    "idleCpuPercent": round(100 * idle_cpu / options.idle, 3),
                    "rssKbSamples": rss,
                    "peakRssKb": memory_kb(watch.pid, "VmHWM"),
                }
                print(json.dumps(result))
            finally:
                watch.terminate()
                watch.wait(timeout=30)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
