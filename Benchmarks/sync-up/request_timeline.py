#!/usr/bin/env python3
"""Puts a local org's request log on a timeline: how long the client kept 0, 1, 2... requests in flight.

    python3 Benchmarks/sync-up/request_timeline.py REQUESTS.jsonl [--list]

REQUESTS.jsonl is what `syncrun org serve --log FILE` writes (the sync-up benchmark keeps one per row
with `--keep`, e.g. `create-collection-rest/requests.jsonl`): one JSON object per request with its
arrival (`startedAt`, ms since the Unix epoch) and `durationMs`. Prints the span from the first
arrival to the last answer, the time spent at each number of requests in flight, and the read-backs
(`POST .../composite/sobjects/TYPE`, the retrieves of `LastModifiedDate`); `--list` prints every
request.
"""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log")
    parser.add_argument("--list", action="store_true", help="print every request, in order of arrival")
    args = parser.parse_args()
    with open(args.log) as log:
        entries = [json.loads(line) for line in log if line.strip()]
    timed = [e for e in entries if e.get("startedAt") is not None]
    if not timed:
        sys.exit("request_timeline.py: no line has startedAt (a log written before the local org recorded it)")
    origin = min(e["startedAt"] for e in timed)
    requests = sorted(
        (e["startedAt"] - origin, e["startedAt"] - origin + e["durationMs"], e["method"], e["path"]) for e in timed
    )
    span = max(end for _, end, _, _ in requests)
    print(f"{len(requests)} requests over {span:.1f} ms ({len(entries) - len(timed)} without startedAt left out)")

    # Sweep the arrivals and answers in time order; an answer at the same instant as an arrival comes first.
    points = sorted([(start, 1) for start, _, _, _ in requests] + [(end, -1) for _, end, _, _ in requests])
    in_flight, last, spent = 0, 0.0, {}
    for instant, change in points:
        spent[in_flight] = spent.get(in_flight, 0.0) + instant - last
        in_flight += change
        last = instant
    print("ms at each number in flight: " + ", ".join(f"{n}: {ms:.1f}" for n, ms in sorted(spent.items())))

    def is_read_back(method, path):
        return method == "POST" and "/composite/sobjects/" in path

    for start, end, method, path in requests:
        if args.list or is_read_back(method, path):
            kind = "read-back" if is_read_back(method, path) else method
            print(f"  {kind:9} {start:9.1f} → {end:9.1f} ms ({end - start:6.1f} ms)"
                  + (f"  {path}" if args.list else ""))


if __name__ == "__main__":
    main()
