"""Compatibility suite: the unmodified simple-salesforce client against the local org.

Starts the real `syncrun org serve` (HTTPS with a throwaway certificate, page size 200 so three pages
hold 450 records) and drives it only through simple-salesforce's public API. The client is not
patched: it reaches the local org through its documented direct mode (`instance_url` + `session_id`)
and a `requests.Session` that trusts the test certificate.
"""

import json

import pytest
import requests
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import (
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceMoreThanOneRecord,
    SalesforceResourceNotFound,
)

from localorg_fixture import make_certificate, start_local_org

TOKEN = "00D000000000001!AQcompatibility"
SCHEMA = {
    "objects": [
        {
            "name": "Account",
            "fields": [
                {"name": "External_Id__c", "type": "string", "externalId": True, "unique": True},
                {"name": "Legacy_Key__c", "type": "string", "externalId": True},
            ],
        }
    ]
}


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    directory = tmp_path_factory.mktemp("local-org")
    certificate, key = make_certificate(directory)
    schema = directory / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    local_org = start_local_org(directory / "data", certificate, key, TOKEN, "--schema", str(schema), "--page-size", "200")
    yield local_org
    assert local_org.stop() == 0


def client(org, token=TOKEN):
    session = requests.Session()
    # REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE in the environment would replace `verify`; loopback needs no proxy either.
    session.trust_env = False
    session.verify = str(org.certificate)
    return Salesforce(instance_url=org.url, session_id=token, session=session, version="59.0")


@pytest.fixture(scope="module")
def sf(org):
    salesforce = client(org)
    records = [{"attributes": {"type": "Account"}, "Name": f"Paged {index:03d}"} for index in range(450)]
    for start in range(0, len(records), 200):
        results = salesforce.restful(
            "composite/sobjects", method="POST", json={"allOrNone": True, "records": records[start:start + 200]}
        )
        assert all(result["success"] for result in results)
    return salesforce


def test_query_pages_with_next_records_url(sf):
    first = sf.query("SELECT Id, Name FROM Account WHERE Name LIKE 'Paged%' ORDER BY Name")
    assert first["totalSize"] == 450
    assert first["done"] is False
    assert len(first["records"]) == 200
    assert first["nextRecordsUrl"].startswith("/services/data/v59.0/query/")
    second = sf.query_more(first["nextRecordsUrl"], identifier_is_url=True)
    assert len(second["records"]) == 200
    third = sf.query_more(second["nextRecordsUrl"], identifier_is_url=True)
    assert third["done"] is True
    assert len(third["records"]) == 50
    names = [record["Name"] for page in (first, second, third) for record in page["records"]]
    assert names == [f"Paged {index:03d}" for index in range(450)]
    assert first["records"][0]["attributes"]["type"] == "Account"


def test_query_all_follows_every_page(sf, org):
    before = len(org.request_log())
    result = sf.query_all("SELECT Id, Name FROM Account WHERE Name LIKE 'Paged%'")
    assert result["totalSize"] == 450
    assert len(result["records"]) == 450
    pages = [entry for entry in org.request_log()[before:] if "/query" in entry["path"]]
    assert len(pages) == 3
    assert all(entry["status"] == 200 for entry in pages)


def test_query_all_with_deleted_rows(sf):
    created = sf.Account.create({"Name": "Soon deleted"})
    sf.Account.delete(created["id"])
    live = sf.query("SELECT Id FROM Account WHERE Name = 'Soon deleted'")
    assert live["totalSize"] == 0
    everything = sf.query_all("SELECT Id, IsDeleted FROM Account WHERE Name = 'Soon deleted'", include_deleted=True)
    assert everything["totalSize"] == 1
    assert everything["records"][0]["IsDeleted"] is True


def test_create_get_update_delete(sf):
    created = sf.Account.create({"Name": "Acme", "Industry": "Banking"})
    assert created["success"] is True
    record_id = created["id"]
    assert len(record_id) == 18 and record_id.startswith("001")
    record = sf.Account.get(record_id)
    assert record["Name"] == "Acme"
    assert record["Industry"] == "Banking"
    assert sf.Account.update(record_id, {"Name": "Acme Corp"}) == 204
    assert sf.Account.get(record_id)["Name"] == "Acme Corp"
    assert sf.Account.delete(record_id) == 204
    with pytest.raises(SalesforceResourceNotFound) as raised:
        sf.Account.get(record_id)
    assert raised.value.content[0]["errorCode"] == "ENTITY_IS_DELETED"


def test_upsert_by_external_id(sf):
    assert sf.Account.upsert("External_Id__c/E-1", {"Name": "First"}) == 201
    assert sf.Account.upsert("External_Id__c/E-1", {"Name": "Second"}) == 200
    record = sf.Account.get_by_custom_id("External_Id__c", "E-1")
    assert record["Name"] == "Second"
    sf.Account.create({"Name": "Twin 1", "Legacy_Key__c": "K"})
    sf.Account.create({"Name": "Twin 2", "Legacy_Key__c": "K"})
    with pytest.raises(SalesforceMoreThanOneRecord):
        sf.Account.upsert("Legacy_Key__c/K", {"Name": "Ambiguous"})


def test_composite_with_references(sf):
    result = sf.restful(
        "composite",
        method="POST",
        json={
            "allOrNone": True,
            "compositeRequest": [
                {"method": "POST", "url": "/services/data/v59.0/sobjects/Account", "referenceId": "refAcct",
                 "body": {"Name": "Composite parent"}},
                {"method": "POST", "url": "/services/data/v59.0/sobjects/Contact", "referenceId": "refCon",
                 "body": {"LastName": "Child", "AccountId": "@{refAcct.id}"}},
                {"method": "GET", "referenceId": "refQ",
                 "url": "/services/data/v59.0/query?q=SELECT+Id+FROM+Contact+WHERE+AccountId='@{refAcct.id}'"},
            ],
        },
    )
    statuses = [item["httpStatusCode"] for item in result["compositeResponse"]]
    assert statuses == [201, 201, 200]
    assert result["compositeResponse"][2]["body"]["totalSize"] == 1


def test_composite_batch(sf):
    result = sf.restful(
        "composite/batch",
        method="POST",
        json={"batchRequests": [
            {"method": "GET", "url": "v59.0/limits"},
            {"method": "GET", "url": "v59.0/query?q=SELECT+Id+FROM+Account+LIMIT+1"},
        ]},
    )
    assert result["hasErrors"] is False
    assert [item["statusCode"] for item in result["results"]] == [200, 200]


def test_collections(sf):
    created = sf.restful(
        "composite/sobjects",
        method="POST",
        json={"allOrNone": False, "records": [
            {"attributes": {"type": "Account"}, "Name": "Collection A"},
            {"attributes": {"type": "Account"}, "Industry": "No name"},
        ]},
    )
    assert [item["success"] for item in created] == [True, False]
    assert created[1]["errors"][0]["statusCode"] == "REQUIRED_FIELD_MISSING"
    record_id = created[0]["id"]
    updated = sf.restful(
        "composite/sobjects", method="PATCH",
        json={"records": [{"attributes": {"type": "Account"}, "id": record_id, "Name": "Collection B"}]},
    )
    assert updated[0]["success"] is True
    fetched = sf.restful("composite/sobjects/Account", params={"ids": record_id, "fields": "Name"})
    assert fetched[0]["Name"] == "Collection B"
    deleted = sf.restful("composite/sobjects", method="DELETE", params={"ids": record_id, "allOrNone": "false"})
    assert deleted[0]["success"] is True


def test_describe(sf):
    described = sf.Account.describe()
    assert described["name"] == "Account"
    names = {field["name"] for field in described["fields"]}
    assert {"Id", "Name", "External_Id__c"} <= names
    assert any(item["name"] == "Contact" for item in sf.describe()["sobjects"])


def test_bad_query_raises_malformed_request(sf):
    with pytest.raises(SalesforceMalformedRequest) as raised:
        sf.query("SELECT Id FRM Account")
    assert raised.value.content[0]["errorCode"] == "MALFORMED_QUERY"


def test_bad_token_raises_expired_session(org, sf):
    with pytest.raises(SalesforceExpiredSession) as raised:
        client(org, token="not-the-token").query("SELECT Id FROM Account")
    assert raised.value.content[0]["errorCode"] == "INVALID_SESSION_ID"


def test_api_usage_is_reported(sf):
    sf.query("SELECT Id FROM Account LIMIT 1")
    assert sf.api_usage["api-usage"].total == 100000
    assert sf.api_usage["api-usage"].used > 0


def test_data_persists_across_restarts(tmp_path):
    certificate, key = make_certificate(tmp_path)
    data = tmp_path / "data"
    first = start_local_org(data, certificate, key, TOKEN)
    try:
        client(first).Account.create({"Name": "Survivor"})
    finally:
        assert first.stop() == 0
    second = start_local_org(data, certificate, key, TOKEN)
    try:
        result = client(second).query("SELECT Name FROM Account WHERE Name = 'Survivor'")
        assert result["totalSize"] == 1
    finally:
        assert second.stop() == 0
