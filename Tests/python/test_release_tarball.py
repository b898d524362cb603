"""The release tarball: `scripts/release.sh` packs the binary with the README, the schemas and the
examples; unpacked in an empty directory, with nothing of the repository beside it, the example runs
end to end on its embedded local org.

CI packs its debug build (`--debug --skip-build`), to stay within its time; the release build
(`--static-swift-stdlib`) is packed and checked the same way by hand (`scripts/release.sh`).
"""

import hashlib
import json
import os
import subprocess
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def pack(output: Path) -> Path:
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "release.sh"), "--debug", "--skip-build", "--output", str(output)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    tarball = Path(result.stdout.strip().splitlines()[-1])
    assert tarball.exists() and tarball.parent == output
    return tarball


def test_tarball_holds_binary_docs_schemas_examples_and_a_true_checksum(tmp_path):
    tarball = pack(tmp_path / "dist")
    assert tarball.name.startswith("syncrun-") and tarball.name.endswith("-debug.tar.gz")
    line = Path(f"{tarball}.sha256").read_text().split()
    assert line == [hashlib.sha256(tarball.read_bytes()).hexdigest(), tarball.name]
    with tarfile.open(tarball) as archive:
        names = archive.getnames()
        binary = next(member for member in archive.getmembers() if member.name.endswith("/bin/syncrun"))
        assert binary.mode & 0o111, "the binary is executable"
    root = tarball.name.removesuffix(".tar.gz")
    for expected in ["bin/syncrun", "README.md", "schemas/usersyncs.schema.json", "examples/contacts/usersyncs.json",
                     "examples/contacts/data/plan.json"]:
        assert f"{root}/{expected}" in names, expected
    assert not any("/.syncrun" in name for name in names), "no local state from the build machine"


def test_unpacked_alone_the_example_runs_end_to_end(tmp_path):
    tarball = pack(tmp_path / "dist")
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    with tarfile.open(tarball) as archive:
        archive.extractall(empty, filter="tar")
    root = empty / tarball.name.removesuffix(".tar.gz")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SYNCRUN")}
    run = subprocess.run(
        [str(root / "bin" / "syncrun"), "run", "--config", "examples/contacts", "--format", "json"],
        cwd=root, capture_output=True, text=True, timeout=300, env=environment,
    )
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert events, run.stdout
    summary = [event for event in events if event.get("event") == "summary"]
    assert len(summary) == 1 and summary[0]["status"] == "DONE", events[-3:]
    fetched = {event["sync"]: event["fetched"] for event in events
               if event.get("event") == "finished" and event.get("operation") == "syncDown"}
    assert fetched == {"accountsDown": 20, "contactsDown": 50}, fetched
    # The store and the seeded org were made inside the unpacked project, nowhere else.
    assert (root / "examples" / "contacts" / ".syncrun" / "store.db").exists()
