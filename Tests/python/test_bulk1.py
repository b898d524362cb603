"""Compatibility suite: simple-salesforce's Bulk API 1.0 client (`sf.bulk.<Object>`) against the local org.

The client is not patched: it reaches `/services/async/59.0/` with the session in `X-SFDC-Session`,
JSON jobs and batches, and polls each batch until it is Completed (sleeping 5 s between polls, its
own fixed wait).
"""

import json

import pytest
import requests
from simple_salesforce import Salesforce

from localorg_fixture import make_certificate, start_local_org

TOKEN = "00D000000000001!AQbulkone"
SCHEMA = {
    "objects": [
        {"name": "Account", "fields": [{"name": "External_Id__c", "type": "string", "externalId": True, "unique": True}]}
    ]
}


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    directory = tmp_path_factory.mktemp("local-org-bulk1")
    certificate, key = make_certificate(directory)
    schema = directory / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    local_org = start_local_org(directory / "data", certificate, key, TOKEN, "--schema", str(schema))
    yield local_org
    assert local_org.stop() == 0


@pytest.fixture(scope="module")
def sf(org):
    session = requests.Session()
    session.trust_env = False
    session.verify = str(org.certificate)
    return Salesforce(instance_url=org.url, session_id=TOKEN, session=session, version="59.0")


def test_insert_query_upsert_and_delete_through_bulk_1(sf, org):
    records = [{"Name": f"Bulk {index:04d}", "External_Id__c": f"B-{index:04d}"} for index in range(300)]
    inserted = sf.bulk.Account.insert(records, batch_size=150)
    assert len(inserted) == 300
    assert all(result["success"] and result["created"] for result in inserted)
    assert all(result["id"].startswith("001") for result in inserted)

    found = sf.bulk.Account.query("SELECT Id, Name, External_Id__c FROM Account WHERE Name LIKE 'Bulk%'", wait=0.1)
    rows = list(found)  # without lazy_operation the pages come flattened into one list of records
    assert len(rows) == 300
    assert {row["Name"] for row in rows} == {record["Name"] for record in records}
    assert all(row["attributes"]["type"] == "Account" for row in rows)

    changes = [{"External_Id__c": "B-0000", "Name": "Renamed"}, {"External_Id__c": "B-9999", "Name": "Fresh"}]
    upserted = sf.bulk.Account.upsert(changes, "External_Id__c")
    assert [result["created"] for result in upserted] == [False, True]
    assert upserted[0]["id"] == inserted[0]["id"]

    deleted = sf.bulk.Account.delete([{"Id": result["id"]} for result in inserted[:10]])
    assert all(result["success"] for result in deleted)
    remaining = sf.query("SELECT COUNT() FROM Account")["totalSize"]
    assert remaining == 291

    paths = [entry["path"] for entry in org.request_log()]
    assert any(path.startswith("/services/async/59.0/job/") for path in paths)
