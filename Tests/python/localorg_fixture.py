"""Start the real `syncrun org serve` for the Python compatibility tests.

The server runs with TLS (a throwaway self-signed certificate made by `openssl` for 127.0.0.1), because
simple-salesforce only builds https:// URLs; clients trust it through `requests.Session.verify`.
"""

import json
import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
SYNCRUN = REPOSITORY / ".build" / "debug" / "syncrun"


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """Creates a self-signed certificate and key for 127.0.0.1; returns (certificate, key)."""
    certificate = directory / "cert.pem"
    key = directory / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "1",
            "-keyout", str(key), "-out", str(certificate), "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


@dataclass
class LocalOrg:
    """A running `syncrun org serve` process."""

    process: subprocess.Popen
    url: str
    port: int
    access_token: str
    certificate: Path
    log: Path
    refresh_token: str = ""
    pubsub_port: int | None = None

    @property
    def instance(self) -> str:
        """host:port, what simple-salesforce calls the instance."""
        return self.url.split("://", 1)[1]

    def request_log(self) -> list[dict]:
        """The request log's entries so far."""
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line]

    def stop(self) -> int:
        """Sends SIGTERM and returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def start_local_org(data: Path, certificate: Path, key: Path, token: str, *extra: str) -> LocalOrg:
    """Starts `syncrun org serve` on a free port and waits for its JSON start-up line."""
    if not SYNCRUN.exists():
        raise RuntimeError(f"{SYNCRUN} is missing; run `swift build` first")
    log = data.parent / f"{data.name}-requests.jsonl"
    process = subprocess.Popen(
        [
            str(SYNCRUN), "org", "serve", "--data", str(data), "--port", "0", "--token", token,
            "--tls-cert", str(certificate), "--tls-key", str(key), "--log", str(log), "--format", "json", *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    line = process.stdout.readline()
    if not line:
        process.wait(timeout=30)
        raise RuntimeError(f"syncrun org serve exited with {process.returncode}: {process.stderr.read()}")
    started = json.loads(line)
    return LocalOrg(
        process=process,
        url=started["url"],
        port=started["port"],
        access_token=started["accessToken"],
        certificate=certificate,
        log=log,
        refresh_token=started.get("refreshToken", ""),
        pubsub_port=started.get("pubsubPort"),
    )
