"""JSON Schemas for the store and syncs configs, checked with an independent validator.

- Both schemas are valid draft 2020-12 schemas.
- Every config in examples/ (JSON and YAML) and every SDK config in Tests/Fixtures/sdk-configs
  validates.
- Every sync down target kind and sync up kind has its own subschema: minimal valid targets pass,
  targets missing a required key fail.
- The schema agrees with the Swift loader on the invalid corpus in
  Tests/SyncConfigTests/Invalid/<case>/ (each case has config files and expected.json with
  {"diagnostics": [...], "schema": "reject" | "accept" | "syntax"}).

Run after `swift build` so that .build/debug/syncrun exists.
"""

import copy
import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
EXAMPLES = REPO / "examples"
SDK_FIXTURES = REPO / "Tests" / "Fixtures" / "sdk-configs"
INVALID_CORPUS = REPO / "Tests" / "SyncConfigTests" / "Invalid"
SYNCRUN = REPO / ".build" / "debug" / "syncrun"
CONFIG_SUFFIXES = {".json", ".yaml", ".yml"}


def load_schema(name):
    with open(SCHEMAS / name, encoding="utf-8") as handle:
        return json.load(handle)


STORE_SCHEMA = load_schema("userstore.schema.json")
SYNCS_SCHEMA = load_schema("usersyncs.schema.json")
STORE_VALIDATOR = Draft202012Validator(STORE_SCHEMA)
SYNCS_VALIDATOR = Draft202012Validator(SYNCS_SCHEMA)


class CoreSchemaLoader(yaml.SafeLoader):
    """PyYAML with the YAML 1.2 core schema, as syncrun reads YAML (sync-semantics 1.1).

    PyYAML implements YAML 1.1, where `yes`, `on` and `no` are booleans, `2024-01-01` is a date
    and `017` is octal. The core schema knows only true/false, null, decimal/0o/0x integers and
    floats; everything else stays a string.
    """


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+.0123456789",
    ),
]:
    CoreSchemaLoader.add_implicit_resolver(tag, re.compile(pattern), list(first))


def construct_core_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", construct_core_int)


def load_config(path):
    """Parses a config file as the loader does: JSON, or YAML with the 1.2 core schema."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.loads(text)
    return yaml.load(text, Loader=CoreSchemaLoader)  # noqa: S506 - a SafeLoader subclass


def validator_for(path):
    """The store schema for *store* files, the syncs schema for *syncs* files, else None."""
    name = path.name.lower()
    if "store" in name:
        return STORE_VALIDATOR
    if "syncs" in name:
        return SYNCS_VALIDATOR
    return None


def schema_errors(validator, document):
    return sorted(
        f"{'/'.join(str(part) for part in error.absolute_path) or '<root>'}: {error.message}"
        for error in validator.iter_errors(document)
    )


def config_files(folder):
    return sorted(
        path
        for path in folder.rglob("*")
        if path.suffix in CONFIG_SUFFIXES and validator_for(path) is not None and path.name != "expected.json"
    )


# ---------------------------------------------------------------------------------------------
# The schemas themselves


@pytest.mark.parametrize("schema", [STORE_SCHEMA, SYNCS_SCHEMA], ids=["userstore", "usersyncs"])
def test_schema_is_valid_draft_2020_12(schema):
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("https://")
    assert schema["title"] and schema["description"]
    assert "$schema" in schema["properties"], "configs may reference the schema with \"$schema\""


def test_every_sync_down_type_has_its_own_subschema():
    types = SYNCS_SCHEMA["$defs"]["syncDownTarget"]["properties"]["type"]["enum"]
    assert types == [
        "soql",
        "sosl",
        "mru",
        "refresh",
        "layout",
        "metadata",
        "parent_children",
        "briefcase",
        "custom",
        "endpoint",
    ]
    branches = SYNCS_SCHEMA["$defs"]["syncDownTarget"]["allOf"]
    selected = [branch["if"]["$ref"].rsplit("/", 1)[-1] for branch in branches]
    assert selected == types
    for branch in branches:
        target = SYNCS_SCHEMA["$defs"][branch["then"]["$ref"].rsplit("/", 1)[-1]]
        assert target.get("title") and target.get("description")


def test_sync_up_kinds_and_impl_names_are_offered_for_autocompletion():
    up = SYNCS_SCHEMA["$defs"]["syncUpTarget"]["properties"]
    assert up["type"]["enum"] == ["rest", "custom", "single", "batch", "collection", "parent_children", "endpoint"]
    ios = SYNCS_SCHEMA["$defs"]["iOSImpl"]["anyOf"][0]["enum"]
    android = SYNCS_SCHEMA["$defs"]["androidImpl"]["anyOf"][0]["enum"]
    assert ios == ["SFSyncUpTarget", "SFBatchSyncUpTarget", "SFCollectionSyncUpTarget", "SFParentChildrenSyncUpTarget"]
    assert [name.rsplit(".", 1)[-1] for name in android] == [
        "SyncUpTarget",
        "BatchSyncUpTarget",
        "CollectionSyncUpTarget",
        "ParentChildrenSyncUpTarget",
    ]


def test_extensions_are_documented_in_the_schema():
    sync = SYNCS_SCHEMA["$defs"]["sync"]["properties"]
    options = SYNCS_SCHEMA["$defs"]["options"]["properties"]
    assert "extension" in sync["dependsOn"]["title"]
    assert options["cleanGhosts"]["type"] == "boolean" and options["cleanGhosts"]["default"] is False
    assert options["mergeMode"]["enum"] == ["OVERWRITE", "LEAVE_IF_CHANGED"]
    assert options["mergeMode"]["default"] == "OVERWRITE"


# ---------------------------------------------------------------------------------------------
# Valid files: examples and the SDK's own configs


EXAMPLE_FILES = config_files(EXAMPLES)
SDK_FILES = sorted(path for path in SDK_FIXTURES.glob("*.json") if validator_for(path) is not None)


def test_there_are_examples_and_fixtures_to_check():
    assert {path.name for path in EXAMPLE_FILES} >= {
        "userstore.json",
        "usersyncs.json",
        "userstore.yaml",
        "usersyncs.yaml",
    }
    assert len(SDK_FILES) >= 6


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: str(path.relative_to(EXAMPLES)))
def test_example_config_is_valid(path):
    assert schema_errors(validator_for(path), load_config(path)) == []


@pytest.mark.parametrize("path", SDK_FILES, ids=lambda path: path.name)
def test_sdk_fixture_is_valid(path):
    assert schema_errors(validator_for(path), load_config(path)) == []


def test_yaml_example_is_the_json_example():
    for name in ["userstore", "usersyncs"]:
        as_json = load_config(EXAMPLES / "contacts" / f"{name}.json")
        as_yaml = load_config(EXAMPLES / "contacts-yaml" / f"{name}.yaml")
        assert as_yaml == as_json


# ---------------------------------------------------------------------------------------------
# Every target kind: a minimal valid target passes, each required key is required


def sync(sync_type, target, **extra):
    return {"syncs": [{"syncName": "s", "syncType": sync_type, "soupName": "accounts", "target": target, **extra}]}


PARENT = {"sobjectType": "Account", "soupName": "accounts"}
CHILDREN = {
    "sobjectType": "Contact",
    "soupName": "contacts",
    "sobjectTypePlural": "Contacts",
    "parentIdFieldName": "AccountId",
}
ANDROID = "com.salesforce.androidsdk.mobilesync.target."

MINIMAL_DOWN_TARGETS = {
    "soql": {"type": "soql", "query": "SELECT Id, LastModifiedDate FROM Account"},
    "sosl": {"type": "sosl", "query": "FIND {Acme} RETURNING Account(Id)"},
    "mru": {"type": "mru", "sobjectType": "Account", "fieldlist": ["Id", "Name"]},
    "refresh": {"type": "refresh", "sobjectType": "Account", "fieldlist": ["Name"], "soupName": "accounts"},
    "layout": {"type": "layout", "sobjectType": "Account"},
    "metadata": {"type": "metadata", "sobjectType": "Account"},
    "parent_children": {
        "type": "parent_children",
        "parent": PARENT,
        "parentFieldlist": ["Name"],
        "children": CHILDREN,
        "childrenFieldlist": ["LastName"],
        "relationshipType": "MASTER_DETAIL",
    },
    "briefcase": {
        "type": "briefcase",
        "infos": [{"sobjectType": "Account", "soupName": "accounts", "fieldlist": ["Name"]}],
    },
    "custom": {"type": "custom", "androidImpl": "com.example.MyTarget"},
    "endpoint": {"type": "endpoint", "request": {"path": "/services/apexrest/widgets"}, "recordsPath": "items"},
}

MINIMAL_UP_TARGETS = {
    "default": {},
    "rest": {"type": "rest"},
    "single": {"type": "single"},
    "batch": {"type": "batch", "maxBatchSize": 25},
    "collection": {"type": "collection", "createFieldlist": ["Name"], "updateFieldlist": ["Name"]},
    "ios-batch": {"iOSImpl": "SFBatchSyncUpTarget"},
    "android-single": {"androidImpl": ANDROID + "SyncUpTarget"},
    "custom": {"type": "custom", "iOSImpl": "MySyncUpTarget"},
    "parent_children": {"type": "parent_children", "parent": PARENT, "children": CHILDREN, "relationshipType": "LOOKUP"},
    "endpoint": {
        "type": "endpoint",
        "create": {"path": "/services/apexrest/widgets"},
        "update": {"path": "/services/apexrest/widgets/{Id}"},
        "delete": {"path": "/services/apexrest/widgets/{Id}"},
    },
}


def test_soup_name_is_optional_for_briefcase_only():
    # As the loader: a briefcase target's infos name the soups; every other sync needs soupName.
    briefcase = sync("syncDown", MINIMAL_DOWN_TARGETS["briefcase"])
    del briefcase["syncs"][0]["soupName"]
    assert schema_errors(SYNCS_VALIDATOR, briefcase) == []
    for kind in ["soql", "parent_children"]:
        document = sync("syncDown", MINIMAL_DOWN_TARGETS[kind])
        del document["syncs"][0]["soupName"]
        assert any("'soupName' is a required property" in error for error in schema_errors(SYNCS_VALIDATOR, document))
    up = sync("syncUp", MINIMAL_UP_TARGETS[sorted(MINIMAL_UP_TARGETS)[0]])
    del up["syncs"][0]["soupName"]
    assert schema_errors(SYNCS_VALIDATOR, up) != []


@pytest.mark.parametrize("kind", sorted(MINIMAL_DOWN_TARGETS))
def test_minimal_sync_down_target_is_valid(kind):
    assert schema_errors(SYNCS_VALIDATOR, sync("syncDown", MINIMAL_DOWN_TARGETS[kind])) == []


@pytest.mark.parametrize("kind", sorted(MINIMAL_UP_TARGETS))
def test_minimal_sync_up_target_is_valid(kind):
    assert schema_errors(SYNCS_VALIDATOR, sync("syncUp", MINIMAL_UP_TARGETS[kind])) == []


@pytest.mark.parametrize(
    ("kind", "key"),
    [(kind, key) for kind, target in sorted(MINIMAL_DOWN_TARGETS.items()) for key in target if key != "type"],
)
def test_sync_down_target_requires_its_keys(kind, key):
    target = copy.deepcopy(MINIMAL_DOWN_TARGETS[kind])
    del target[key]
    assert schema_errors(SYNCS_VALIDATOR, sync("syncDown", target)) != []


@pytest.mark.parametrize(
    "target",
    [
        {"type": "parent_children", "parent": PARENT, "children": CHILDREN},
        {"iOSImpl": "SFParentChildrenSyncUpTarget", "parent": PARENT, "relationshipType": "LOOKUP"},
        {"androidImpl": ANDROID + "ParentChildrenSyncUpTarget", "children": CHILDREN, "relationshipType": "LOOKUP"},
        {"type": "custom"},
        {"type": "singleRecord"},
    ],
    ids=["pc-type", "pc-ios", "pc-android", "custom-without-impl", "unknown-type"],
)
def test_incomplete_sync_up_target_is_rejected(target):
    assert schema_errors(SYNCS_VALIDATOR, sync("syncUp", target)) != []


@pytest.mark.parametrize(
    "document",
    [
        sync("syncDown", {"type": "SOQL", "query": "SELECT Id FROM Account"}),
        sync("syncdown", MINIMAL_DOWN_TARGETS["soql"]),
        sync("syncDown", MINIMAL_DOWN_TARGETS["soql"], options={"mergeMode": "overwrite"}),
        sync("syncDown", MINIMAL_DOWN_TARGETS["soql"], options={"cleanGhosts": "yes"}),
        sync("syncDown", MINIMAL_DOWN_TARGETS["soql"], dependsOn="accountsDown"),
        sync("syncDown", {"query": "SELECT Id FROM Account"}),
        {"syncs": [{"syncType": "syncDown", "soupName": "a", "target": MINIMAL_DOWN_TARGETS["soql"]}]},
        {"sync": []},
        sync("syncDown", {"type": "mru", "sobjectType": "Account; DROP", "fieldlist": ["Id"]}),
        sync("syncUp", {"idFieldName": "Id'--"}),
        sync("syncUp", {"externalIdFieldName": "Ext Id"}),
        sync("syncDown", {"type": "soql", "query": "SELECT Id FROM Account", "modificationDateFieldName": "1Date"}),
    ],
    ids=[
        "type-case",
        "syncType-case",
        "mergeMode-case",
        "cleanGhosts-not-bool",
        "dependsOn-not-array",
        "down-without-type",
        "missing-syncName",
        "no-syncs",
        "sobjectType-not-a-name",
        "idFieldName-not-a-name",
        "externalIdFieldName-not-a-name",
        "modificationDateFieldName-not-a-name",
    ],
)
def test_invalid_syncs_are_rejected(document):
    assert schema_errors(SYNCS_VALIDATOR, document) != []


@pytest.mark.parametrize(
    "document",
    [
        {"soups": [{"soupName": "a", "indexes": []}]},
        {"soups": [{"soupName": "a", "indexes": [{"path": "Id", "type": "String"}]}]},
        {"soups": [{"soupName": "", "indexes": [{"path": "Id", "type": "string"}]}]},
        {"soups": [{"indexes": [{"path": "Id", "type": "string"}]}]},
        {},
    ],
    ids=["no-indexes", "index-type-case", "empty-name", "no-name", "no-soups"],
)
def test_invalid_stores_are_rejected(document):
    assert schema_errors(STORE_VALIDATOR, document) != []


def test_unknown_keys_are_accepted_like_the_loader_does():
    # The loader keeps unknown keys and warns; the schema must not turn those warnings into errors.
    target = dict(MINIMAL_DOWN_TARGETS["soql"], futureKey=1)
    document = sync("syncDown", target, options={"mergeMode": "OVERWRITE", "extra": True}, note="kept")
    document["comment"] = "top level"
    assert schema_errors(SYNCS_VALIDATOR, document) == []
    store = {"soups": [{"soupName": "a", "indexes": [{"path": "Id", "type": "string", "columnName": "c"}], "x": 1}]}
    assert schema_errors(STORE_VALIDATOR, store) == []


# ---------------------------------------------------------------------------------------------
# Agreement with the Swift loader on the invalid corpus


INVALID_CASES = sorted(path for path in INVALID_CORPUS.iterdir() if path.is_dir()) if INVALID_CORPUS.is_dir() else []


def test_invalid_corpus_exists():
    assert INVALID_CASES, f"no cases in {INVALID_CORPUS}"


@pytest.mark.parametrize("case", INVALID_CASES, ids=lambda path: path.name)
def test_schema_and_loader_agree_on_invalid_case(case):
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    verdict = expected["schema"]
    assert verdict in {"reject", "accept", "syntax"}
    files = config_files(case)
    assert files, f"{case.name}: no config files"

    if verdict != "syntax":
        errors = {path.name: schema_errors(validator_for(path), load_config(path)) for path in files}
        if verdict == "reject":
            assert any(errors.values()), f"{case.name}: the schema accepts every file, the loader rejects the case"
        else:
            assert not any(errors.values()), f"{case.name}: the schema rejects a file it should accept: {errors}"

    assert SYNCRUN.exists(), f"{SYNCRUN} is missing: run `swift build` first"
    result = subprocess.run(
        [str(SYNCRUN), "validate", "--config", str(case), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1, f"{case.name}: exit {result.returncode}, stderr: {result.stderr}"
    output = json.loads(result.stdout)
    diagnostics = output["diagnostics"] if isinstance(output, dict) else output
    assert any(diagnostic["severity"] == "error" for diagnostic in diagnostics), result.stdout


ENDPOINT_DOWN_FULL = {
    "type": "endpoint",
    "request": {"method": "GET", "path": "/services/apexrest/widgets", "query": {"pageSize": "50"}},
    "recordsPath": "data.items",
    "nextPage": {"cursorPath": "data.cursor", "cursorParam": "cursor"},
    "since": {"param": "modifiedSince", "format": "epochMillis"},
    "idsRequest": {"path": "/services/apexrest/widgets/ids", "recordsPath": "ids", "nextPage": {"urlPath": "next"}},
    "idFieldName": "Id",
    "modificationDateFieldName": "LastModifiedDate",
}


def test_endpoint_targets_with_every_key_are_valid():
    assert schema_errors(SYNCS_VALIDATOR, sync("syncDown", ENDPOINT_DOWN_FULL)) == []
    up = {
        "type": "endpoint",
        "create": {"method": "POST", "path": "/services/apexrest/widgets", "body": {"name": "{Name}"}, "idPath": "id"},
        "update": {"method": "PUT", "path": "/services/apexrest/widgets/{Id}", "query": {"v": "{Version__c}"}},
        "delete": {"path": "/services/apexrest/widgets/{Id}"},
        "modificationDate": {"request": {"path": "/services/apexrest/widgets/{Id}"}, "path": "LastModifiedDate"},
        "batch": {"path": "/services/apexrest/widgets/batch", "maxBatchSize": 50},
    }
    assert schema_errors(SYNCS_VALIDATOR, sync("syncUp", up)) == []


@pytest.mark.parametrize(
    "change",
    [
        {"request": {"path": "https://evil.example.com/x"}},
        {"request": {"path": "/a?b=c"}},
        {"request": {"path": "/a", "method": "FETCH"}},
        {"nextPage": {"urlPath": "next", "cursorParam": "c"}},
        {"nextPage": {}},
        {"since": {"param": "since", "format": "unix"}},
        {"idsRequest": {"path": "/ids"}},
    ],
    ids=["host", "query-string", "method", "both-paging-forms", "no-paging-form", "date-format", "ids-no-records-path"],
)
def test_endpoint_sync_down_rejects_bad_keys(change):
    target = copy.deepcopy(ENDPOINT_DOWN_FULL)
    target.update(change)
    assert schema_errors(SYNCS_VALIDATOR, sync("syncDown", target)) != []
