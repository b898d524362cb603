"""Behind a corporate proxy (issue 31 item 6): every connection syncrun makes to an org goes through
`--proxy URL`, else `HTTPS_PROXY` / `HTTP_PROXY`, except hosts in `NO_PROXY`; the Salesforce CLI it runs
gets the same proxy; proxy credentials are never printed.

The proxy is a small CONNECT proxy started here (Basic credentials required); the org is a real
`syncrun org serve` over TLS on 127.0.0.1. Nothing leaves the machine.
"""

import base64
import json
import os
import select
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from localorg_fixture import REPOSITORY, SYNCRUN, make_certificate, start_local_org

TOKEN = "00D000000000001!AQproxytests"
USER = "alice"
PASSWORD = "pr0xy-s3cret-Pa55"


class ConnectProxy:
    """A CONNECT-only HTTP proxy on 127.0.0.1 that wants `Proxy-Authorization: Basic alice:…`."""

    def __init__(self):
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.tunnels = []  # (target, "ok" | "refused")
        self.other = []  # request lines that were not CONNECT
        self.lock = threading.Lock()
        self.expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, password=PASSWORD):
        return f"http://{USER}:{password}@127.0.0.1:{self.port}"

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(4096)
                if not chunk:
                    return
                head += chunk
            lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
            method, target, _ = (lines[0].split(" ") + ["", ""])[:3]
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            if method != "CONNECT":
                with self.lock:
                    self.other.append(lines[0])
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            if headers.get("proxy-authorization") != self.expected:
                with self.lock:
                    self.tunnels.append((target, "refused"))
                client.sendall(
                    b'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n'
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                )
                return
            host, _, port = target.rpartition(":")
            with self.lock:
                self.tunnels.append((target, "ok"))
            with socket.create_connection((host, int(port))) as upstream:
                client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                self._pump(client, upstream)

    @staticmethod
    def _pump(a, b):
        sockets = [a, b]
        while True:
            readable, _, _ = select.select(sockets, [], [], 30)
            if not readable:
                return
            for source in readable:
                data = source.recv(65536)
                if not data:
                    return
                (b if source is a else a).sendall(data)

    def snapshot(self):
        with self.lock:
            return list(self.tunnels)

    def close(self):
        self.server.close()


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    directory = tmp_path_factory.mktemp("proxy")
    certificate, key = make_certificate(directory)
    org = start_local_org(directory / "data", certificate, key, TOKEN)
    proxy = ConnectProxy()
    yield directory, org, proxy
    proxy.close()
    assert org.stop() == 0


def environment(certificate, **extra):
    env = {name: value for name, value in os.environ.items() if "proxy" not in name.lower()}
    for name in ["SF_TARGET_ORG", "SFDX_AUTH_URL", "SF_ACCESS_TOKEN", "SYNCRUN_SF"]:
        env.pop(name, None)
    env["SSL_CERT_FILE"] = str(certificate)
    env.update(extra)
    return env


def query(org, env, *flags):
    return subprocess.run(
        [str(SYNCRUN), "org", "whoami", "--org", org.url, "--access-token", TOKEN, *flags, "--format", "json"],
        env=env, capture_output=True, text=True, timeout=120,
    )


def assert_no_password(result):
    assert PASSWORD not in result.stdout and PASSWORD not in result.stderr
    assert base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode() not in result.stderr


def test_https_proxy_from_the_environment_carries_every_request(setup):
    directory, org, proxy = setup
    before = len(proxy.snapshot())
    result = query(org, environment(org.certificate, HTTPS_PROXY=proxy.url()))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["instanceUrl"] == org.url
    tunnels = proxy.snapshot()[before:]
    assert tunnels and all(t == (f"127.0.0.1:{org.port}", "ok") for t in tunnels)
    assert_no_password(result)


def test_the_proxy_flag_needs_no_environment(setup):
    directory, org, proxy = setup
    before = len(proxy.snapshot())
    result = query(org, environment(org.certificate), "--proxy", proxy.url())
    assert result.returncode == 0, result.stderr
    assert proxy.snapshot()[before:] and all(state == "ok" for _, state in proxy.snapshot()[before:])
    assert_no_password(result)


def test_no_proxy_sends_the_org_direct(setup):
    directory, org, proxy = setup
    before = len(proxy.snapshot())
    for no_proxy in ["127.0.0.1", f"localhost,127.0.0.1:{org.port}", "*"]:
        result = query(org, environment(org.certificate, HTTPS_PROXY=proxy.url(), NO_PROXY=no_proxy))
        assert result.returncode == 0, (no_proxy, result.stderr)
    assert proxy.snapshot()[before:] == []
    # A NO_PROXY entry for another port does not match: the proxy is used.
    result = query(org, environment(org.certificate, HTTPS_PROXY=proxy.url(), NO_PROXY="127.0.0.1:1"))
    assert result.returncode == 0, result.stderr
    assert len(proxy.snapshot()) > before


def test_wrong_proxy_credentials_say_so_without_printing_them(setup):
    directory, org, proxy = setup
    wrong = "wr0ng-pa55word"
    result = query(org, environment(org.certificate), "--proxy", proxy.url(password=wrong))
    assert result.returncode == 1, result.stderr
    assert "407" in result.stderr and "credentials" in result.stderr
    assert wrong not in result.stderr and wrong not in result.stdout
    # The proxy is named (its user name masked too, by the credential mask over all output).
    assert f"***@127.0.0.1:{proxy.port}" in result.stderr


def test_a_bad_proxy_url_is_a_usage_error_named_without_credentials(setup):
    directory, org, proxy = setup
    for bad in [f"https://{USER}:{PASSWORD}@127.0.0.1:3128", f"ftp://{USER}:{PASSWORD}@host", f"http://{USER}:{PASSWORD}@host:99999"]:
        result = query(org, environment(org.certificate), "--proxy", bad)
        assert result.returncode == 2, (bad, result.stderr)
        assert "proxy" in result.stderr
        assert_no_password(result)
    result = query(org, environment(org.certificate, HTTPS_PROXY=f"https://{USER}:{PASSWORD}@127.0.0.1:1"))
    assert result.returncode == 2 and "HTTPS_PROXY" in result.stderr, result.stderr
    assert_no_password(result)


def test_the_salesforce_cli_gets_the_proxy_and_uses_it(setup):
    directory, org, proxy = setup
    state = directory / "fake-sf-state"
    state.mkdir(exist_ok=True)
    env = environment(
        org.certificate,
        SYNCRUN_SF=str(REPOSITORY / "Tests" / "Fixtures" / "fake-sf"),
        FAKE_SF_MODE="current", FAKE_SF_ALIAS="dev", FAKE_SF_USERNAME="admin@localorg.invalid",
        FAKE_SF_INSTANCE_URL=org.url, FAKE_SF_REFRESH_TOKEN=org.refresh_token,
        FAKE_SF_ORG_ID="00D000000000001AAA", FAKE_SF_STATE=str(state),
    )
    before = len(proxy.snapshot())
    result = subprocess.run(
        [str(SYNCRUN), "org", "whoami", "--org", "dev", "--proxy", proxy.url(), "--format", "json"],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # sf was handed the proxy (its urllib used it for its own token refresh), and syncrun used it too.
    assert (state / "proxy.env").read_text() == proxy.url()
    tunnels = proxy.snapshot()[before:]
    assert len(tunnels) >= 2 and all(t == (f"127.0.0.1:{org.port}", "ok") for t in tunnels)
    assert_no_password(result)


def test_an_embedded_local_org_never_goes_through_the_proxy(setup, tmp_path):
    directory, org, proxy = setup
    project = tmp_path / "contacts"
    subprocess.run(["cp", "-r", str(REPOSITORY / "examples" / "contacts"), str(project)], check=True)
    subprocess.run(["rm", "-rf", str(project / ".syncrun")], check=True)
    before = len(proxy.snapshot())
    result = subprocess.run(
        [str(SYNCRUN), "run", "--config", str(project), "--format", "json"],
        env=environment(org.certificate, HTTPS_PROXY=proxy.url(), HTTP_PROXY=proxy.url()),
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert proxy.snapshot()[before:] == []
