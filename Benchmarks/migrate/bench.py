"""The migrate benchmark: Accounts and Contacts (half each) moved between two `syncrun org serve`
processes (TLS, so the simple-salesforce baseline talks to them unmodified), by `syncrun migrate` and
by baseline.py; time and peak RSS (of the migrating process only, from /usr/bin/time) per size.

    python3 bench.py SYNCRUN_BINARY SIZE [SIZE…]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def seed_file(directory: Path, records: int) -> Path:
    accounts = records // 2
    path = directory / "seed.json"
    with path.open("w") as out:
        out.write('{"records": [')
        for index in range(accounts):
            out.write(("," if index else "") + json.dumps(
                {"attributes": {"type": "Account", "referenceId": f"A{index}"}, "Name": f"Account {index}",
                 "Industry": f"I{index % 7}"}))
        for index in range(records - accounts):
            out.write("," + json.dumps(
                {"attributes": {"type": "Contact", "referenceId": f"C{index}"}, "LastName": f"Person {index}",
                 "Email": f"p{index}@example.com", "AccountId": f"@A{index % accounts}"}))
        out.write("]}")
    return path


def serve(syncrun: str, data: Path, cert: Path, key: Path, token: str):
    process = subprocess.Popen(
        [syncrun, "org", "serve", "--data", str(data), "--port", "0", "--token", token, "--tls-cert", str(cert),
         "--tls-key", str(key), "--format", "json"]
        # `--latency-ms` of bench-migrate.sh: each org answers every request that late (a real org's 100-300 ms).
        + (["--latency", os.environ["SYNCRUN_BENCH_LATENCY_MS"]] if os.environ.get("SYNCRUN_BENCH_LATENCY_MS") else []),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    started = json.loads(process.stdout.readline())
    return process, started["url"]


def timed(command, env=None):
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", *command], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {result.stderr[-2000:]}")
    seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kilobytes) // 1024


def pin_api(usersyncs: Path, api):
    """Sets `"api"` on the sync downs' soql targets (`--api` of bench-migrate.sh): with the default
    `auto`, a sync down of 10,000 records or more runs as a Bulk API 2.0 query job, whose results pages
    hold 10,000 records; `rest` keeps every size on REST pages, as the Python baseline reads."""
    if not api:
        return
    config = json.loads(usersyncs.read_text())
    for sync in config["syncs"]:
        if sync["syncType"] == "syncDown" and sync["target"].get("type") == "soql":
            sync["target"]["api"] = api
    usersyncs.write_text(json.dumps(config))


# `--mask` of bench-migrate.sh: the masks of the masked run, by sync up (issue 32: within 10% of the
# unmasked time at 100k records, memory flat).
MASKS = {"accountsUp": {"Name": "hash"}, "contactsUp": {"LastName": "lastName", "Email": "email"}}


def add_masks(usersyncs: Path):
    config = json.loads(usersyncs.read_text())
    for sync in config["syncs"]:
        if sync["syncName"] in MASKS:
            sync.setdefault("options", {})["mask"] = MASKS[sync["syncName"]]
    usersyncs.write_text(json.dumps(config))


def tools():
    return ("syncrun", "syncrun-masked", "python") if os.environ.get("SYNCRUN_BENCH_MASK") else ("syncrun", "python")


def run(syncrun: str, records: int, work: Path, cert: Path, key: Path):
    token = "bench-token"
    seed = seed_file(work, records)
    subprocess.run([syncrun, "org", "seed", "--data", str(work / "source"), "--id-seed", "1", str(seed)],
                   check=True, capture_output=True)
    results = {}
    for tool in tools():
        target = work / f"target-{tool}"
        empty = work / "empty.json"
        empty.write_text('{"records": []}')
        subprocess.run([syncrun, "org", "seed", "--data", str(target), "--id-seed", "2", str(empty)],
                       check=True, capture_output=True)
        source_process, source_url = serve(syncrun, work / "source", cert, key, token)
        target_process, target_url = serve(syncrun, target, cert, key, token)
        try:
            if tool.startswith("syncrun"):
                config = work / f"config-{tool}"
                shutil.copytree(HERE, config, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.py", "*.md"))
                pin_api(config / "usersyncs.json", os.environ.get("SYNCRUN_BENCH_API"))
                if tool == "syncrun-masked":
                    add_masks(config / "usersyncs.json")
                command = [syncrun, "migrate", "--config", str(config), "--from", source_url, "--to", target_url,
                           "--from-access-token", token, "--to-access-token", token, "--format", "json"]
                if os.environ.get("SYNCRUN_BENCH_MAX_REQUESTS"):
                    command += ["--max-requests", os.environ["SYNCRUN_BENCH_MAX_REQUESTS"]]
                results[tool] = timed(command, env={**os.environ, "SSL_CERT_FILE": str(cert)})
            else:
                results[tool] = timed([sys.executable, str(HERE / "baseline.py"), source_url, target_url, token,
                                       str(cert)])
        finally:
            for process in (source_process, target_process):
                process.terminate()
                process.wait()
    return results


def main():
    syncrun, sizes = sys.argv[1], [int(size) for size in sys.argv[2:]]
    with tempfile.TemporaryDirectory(prefix="bench-migrate-") as scratch:
        scratch = Path(scratch)
        cert, key = scratch / "cert.pem", scratch / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                        "-out", str(cert)], check=True, capture_output=True)
        rows = []
        for size in sizes:
            work = scratch / str(size)
            work.mkdir()
            started = time.time()
            results = run(syncrun, size, work, cert, key)
            rows.append((size, results, time.time() - started))
        masked = "syncrun-masked" in tools()
        print(f"{'records':>8}  {'syncrun s':>9}  {'syncrun MB':>10}  {'python s':>8}  {'python MB':>9}"
              + (f"  {'masked s':>8}  {'masked MB':>9}  {'masked/unmasked':>15}" if masked else ""))
        for size, results, _ in rows:
            (s_time, s_rss), (p_time, p_rss) = results["syncrun"], results["python"]
            line = f"{size:>8}  {s_time:>9.2f}  {s_rss:>10}  {p_time:>8.2f}  {p_rss:>9}"
            if masked:
                m_time, m_rss = results["syncrun-masked"]
                line += f"  {m_time:>8.2f}  {m_rss:>9}  {m_time / s_time:>14.2f}x"
            print(line)
        if len(rows) > 1:
            small, large = rows[0][1]["syncrun"][1], rows[-1][1]["syncrun"][1]
            print(f"syncrun peak RSS, {rows[-1][0]} vs {rows[0][0]} records: {large / small:.2f}x")


if __name__ == "__main__":
    main()
