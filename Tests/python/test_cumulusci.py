"""Compatibility suite: CumulusCI (pinned in requirements.txt) against two local orgs over HTTPS.

`cci` runs unchanged, as a team runs it without a browser login:
the orgs come from `CUMULUSCI_ORG_<name>` JSON through the environment keychain, the self-signed
certificate is trusted through `REQUESTS_CA_BUNDLE`, `HOME` is a scratch folder, the project a fresh
git repository. CumulusCI refreshes the token (refresh grant), reads userinfo and the Organization
record, asks `limits/recordCount` before each step and goes to Bulk API 1.0 at 2,000 records.

- `extract_dataset` then `load_dataset` in the default ("smart") mode, 2,500 Accounts (Bulk API 1.0
  query and insert) and 40 Contacts (REST), parent links checked in the target;
- the same with `api: bulk` on every step, extracted to a dataset file and loaded with `etl_upsert`
  twice into the target that already holds the records: no duplicates, links right.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import certifi
import pytest
import requests

from localorg_fixture import make_certificate, start_local_org

SCHEMA = {
    "objects": [
        {"name": "Account", "fields": [{"name": "External_Id__c", "type": "string", "externalId": True, "unique": True}]}
    ]
}
ACCOUNTS = 2500
CONTACTS = 40
CCI = shutil.which("cci")

pytestmark = pytest.mark.skipif(CCI is None, reason="CumulusCI is not installed: run scripts/install-test-deps.sh")


def mapping(api=None, action=None):
    """A mapping file: Accounts (keyed by External_Id__c), then Contacts (keyed by Email) under them."""
    accounts = {"sf_object": "Account", "fields": ["Name", "External_Id__c"]}
    contacts = {"sf_object": "Contact", "fields": ["LastName", "Email"], "lookups": {"AccountId": {"table": "Account"}}}
    if api:
        accounts["api"] = contacts["api"] = api
    if action:
        accounts.update(action=action, update_key="External_Id__c")
        contacts.update(action=action, update_key="Email")
    return json.dumps({"Insert Account": accounts, "Insert Contact": contacts})


class Orgs:
    """Two local orgs and a CumulusCI project that knows them as `source` and `target`."""

    def __init__(self, directory: Path):
        self.directory = directory
        certificate, key = make_certificate(directory)
        schema = directory / "schema.json"
        schema.write_text(json.dumps(SCHEMA))
        self.orgs = {
            name: start_local_org(directory / name, certificate, key, f"00D000000000001!AQcci{name}", "--schema", str(schema))
            for name in ("source", "target")
        }
        bundle = directory / "ca-bundle.pem"
        bundle.write_text(Path(certifi.where()).read_text() + certificate.read_text())
        self.project = directory / "project"
        self.project.mkdir()
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)
        (self.project / "cumulusci.yml").write_text("project:\n  name: LocalOrgCompat\n  package:\n    api_version: '59.0'\n")
        home = directory / "home"
        (home / ".cumulusci").mkdir(parents=True)
        # A fresh version-check stamp: CumulusCI does not reach the package index.
        (home / ".cumulusci" / "cumulus_timestamp").write_text(str(time.time()))
        self.environment = {
            "PATH": os.environ["PATH"],
            "HOME": str(home),
            "REQUESTS_CA_BUNDLE": str(bundle),
            "CUMULUSCI_KEYCHAIN_CLASS": "cumulusci.core.keychain.EnvironmentProjectKeychain",
            "NO_PROXY": "127.0.0.1",
        }
        for name, org in self.orgs.items():
            self.environment[f"CUMULUSCI_ORG_{name}"] = json.dumps(self.org_config(org))

    def org_config(self, org):
        info = self.session(org).get(f"{org.url}/services/oauth2/userinfo").json()
        return {
            "instance_url": org.url,
            "access_token": org.access_token,
            "refresh_token": org.refresh_token,
            "id": f"{org.url}/id/{info['organization_id']}/{info['user_id']}",
            "org_id": info["organization_id"],
            "username": info["preferred_username"],
            "client_id": "cumulusci-compat",
            "client_secret": "unused",
        }

    @staticmethod
    def session(org):
        session = requests.Session()
        session.trust_env = False
        session.verify = str(org.certificate)
        session.headers["Authorization"] = f"Bearer {org.access_token}"
        return session

    def cci(self, *arguments):
        started = time.monotonic()
        result = subprocess.run(
            [CCI, "task", "run", *arguments],
            cwd=self.project,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, f"cci {' '.join(arguments)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout, time.monotonic() - started

    def query(self, name, soql):
        org = self.orgs[name]
        response = self.session(org).get(f"{org.url}/services/data/v59.0/query", params={"q": soql})
        assert response.status_code == 200, response.text
        body = response.json()
        records = body["records"]
        while not body["done"]:
            body = self.session(org).get(f"{org.url}{body['nextRecordsUrl']}").json()
            records += body["records"]
        return records

    def links(self, name):
        """Contact email → its Account's External_Id__c."""
        rows = self.query(name, "SELECT Email, Account.External_Id__c FROM Contact")
        return {row["Email"]: (row["Account"] or {}).get("External_Id__c") for row in rows}

    def paths(self, name):
        return [entry["path"] for entry in self.orgs[name].request_log()]


@pytest.fixture(scope="module")
def orgs(tmp_path_factory):
    orgs = Orgs(tmp_path_factory.mktemp("cumulusci"))
    source = orgs.orgs["source"]
    session = orgs.session(source)
    accounts = [
        {"attributes": {"type": "Account"}, "Name": f"Account {index:04d}", "External_Id__c": f"A-{index:04d}"}
        for index in range(ACCOUNTS)
    ]
    ids = []
    for start in range(0, ACCOUNTS, 200):
        response = session.post(
            f"{source.url}/services/data/v59.0/composite/sobjects",
            json={"allOrNone": True, "records": accounts[start:start + 200]},
        )
        ids += [result["id"] for result in response.json()]
    contacts = [
        {"attributes": {"type": "Contact"}, "LastName": f"Person {index}", "Email": f"p{index}@example.com",
         "AccountId": ids[index * 61]}
        for index in range(CONTACTS)
    ]
    response = session.post(
        f"{source.url}/services/data/v59.0/composite/sobjects", json={"allOrNone": True, "records": contacts}
    )
    assert all(result["success"] for result in response.json())
    yield orgs
    for org in orgs.orgs.values():
        assert org.stop() == 0


def test_extract_and_load_in_the_default_mode_go_through_bulk_1(orgs):
    (orgs.project / "mapping.yml").write_text(mapping())
    _, extract_seconds = orgs.cci("extract_dataset", "--org", "source", "-o", "mapping", "mapping.yml",
                                  "-o", "database_url", "sqlite:///extract.db")
    with sqlite3.connect(orgs.project / "extract.db") as db:
        assert db.execute("SELECT count(*) FROM Account").fetchone()[0] == ACCOUNTS
        assert db.execute("SELECT count(*) FROM Contact").fetchone()[0] == CONTACTS
    _, load_seconds = orgs.cci("load_dataset", "--org", "target", "-o", "mapping", "mapping.yml",
                               "-o", "database_url", "sqlite:///extract.db", "-o", "set_recently_viewed", "False")
    print(f"default mode: extract {extract_seconds:.1f} s, load {load_seconds:.1f} s")
    assert len(orgs.query("target", "SELECT Id FROM Account")) == ACCOUNTS
    assert orgs.links("target") == orgs.links("source")
    failures = [entry for name in orgs.orgs for entry in orgs.orgs[name].request_log() if entry["status"] >= 400]
    assert failures == []
    assert any(path.startswith("/services/data/v59.0/limits/recordCount") for path in orgs.paths("source"))
    assert any("/services/async/" in path for path in orgs.paths("source"))
    assert any("/services/async/" in path for path in orgs.paths("target"))


def test_bulk_api_steps_and_etl_upsert_twice_make_no_duplicates(orgs):
    (orgs.project / "bulk.yml").write_text(mapping(api="bulk"))
    # A dataset file (sql_path), as a team keeps one in its repository: each load reads it afresh.
    orgs.cci("extract_dataset", "--org", "source", "-o", "mapping", "bulk.yml", "-o", "sql_path", "dataset.sql")
    (orgs.project / "upsert.yml").write_text(mapping(api="bulk", action="etl_upsert"))
    for _ in range(2):
        _, seconds = orgs.cci("load_dataset", "--org", "target", "-o", "mapping", "upsert.yml",
                              "-o", "sql_path", "dataset.sql", "-o", "set_recently_viewed", "False")
        print(f"etl_upsert with api: bulk: {seconds:.1f} s")
        keys = [row["External_Id__c"] for row in orgs.query("target", "SELECT External_Id__c FROM Account")]
        assert len(keys) == len(set(keys)) == ACCOUNTS
        emails = [row["Email"] for row in orgs.query("target", "SELECT Email FROM Contact")]
        assert len(emails) == len(set(emails)) == CONTACTS
    assert orgs.links("target") == orgs.links("source")
