"""The JSON Schema of the project file (schemas/syncrun.schema.json), checked with an independent validator.

- It is a valid draft 2020-12 schema.
- Every example's project file (syncrun.yaml / syncrun.json) validates.
- Each of the six org forms validates; an org with two forms, none, or a secret written inline
  (accessToken, clientSecret, authUrl…) is rejected, as the Swift loader rejects it.
- The Swift loader agrees: `syncrun org whoami` on a project file with an inline token exits 2 with
  an inline-secret diagnostic.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "schemas" / "syncrun.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
EXAMPLES = REPO / "examples"
SYNCRUN = REPO / ".build" / "debug" / "syncrun"

FORMS = {
    "local": {"local": {"dir": ".syncrun/org", "seed": ["data/plan.json"], "schema": "org/schema.yaml"}},
    "url": {"url": "https://acme.my.salesforce.com", "accessTokenEnv": "PROD_TOKEN"},
    "sfAlias": {"sfAlias": "my-dev-org"},
    "authUrlFile": {"authUrlFile": "secrets/auth-url"},
    "authUrlEnv": {"authUrlEnv": "SFDX_AUTH_URL"},
    "jwt": {"jwt": {"keyFile": "server.key", "clientId": "3MVG9x", "username": "ci@acme.com",
                    "loginUrl": "https://test.salesforce.com"}},
    "clientCredentials": {"clientCredentials": {"clientId": "3MVG9x", "secretFile": "secrets/cc",
                                                "loginUrl": "https://acme.my.salesforce.com"}},
}


def errors(document):
    return list(VALIDATOR.iter_errors(document))


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


EXAMPLE_FILES = sorted(
    path for path in EXAMPLES.rglob("syncrun.*") if path.suffix in {".json", ".yaml", ".yml"}
)


def test_every_runnable_example_has_a_project_file():
    assert {path.parent.name for path in EXAMPLE_FILES} == {
        "contacts",
        "contacts-yaml",
        "briefcase",
        "migrate",
        "endpoint",
        "custom-targets",
    }


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: str(path.relative_to(EXAMPLES)))
def test_example_project_file_is_valid(path):
    text = path.read_text(encoding="utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    assert errors(document) == []


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_org_form_is_valid(form):
    assert errors({"defaultOrg": "x", "store": "s.db", "orgs": {"x": FORMS[form]}}) == []


@pytest.mark.parametrize(
    "org",
    [
        {},
        {**FORMS["sfAlias"], **FORMS["authUrlEnv"]},
        {"url": "https://acme.my.salesforce.com", "accessToken": "00D000000000001!AQ4AQxxxxxxxxxxxxxxxxxxxx"},
        {"clientCredentials": {"clientId": "x", "clientSecret": "s", "loginUrl": "https://a.my.salesforce.com"}},
        {"authUrl": "force://PlatformCLI::5Aep@acme.my.salesforce.com"},
        {"url": "https://acme.my.salesforce.com"},
    ],
    ids=["no-form", "two-forms", "inline-token", "inline-client-secret", "inline-auth-url", "url-without-env"],
)
def test_invalid_orgs_are_rejected(org):
    assert errors({"orgs": {"x": org}}) != []


def test_the_swift_loader_rejects_an_inline_token_too(tmp_path):
    (tmp_path / "syncrun.json").write_text(
        json.dumps({"orgs": {"prod": {"url": "https://acme.my.salesforce.com",
                                      "accessToken": "00D000000000001!AQ4AQxxxxxxxxxxxxxxxxxxxx"}}}),
        encoding="utf-8",
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SF")}
    result = subprocess.run(
        [str(SYNCRUN), "org", "whoami", "--config", str(tmp_path), "--org", "prod"],
        capture_output=True, text=True, env=environment, check=False,
    )
    # A config error (the project file's): exit 1 under issue 31's one exit-code contract.
    assert result.returncode == 1
    assert "error: orgs.prod.accessToken: 'accessToken' would hold a secret" in result.stderr
    assert "AQ4AQ" not in result.stderr
