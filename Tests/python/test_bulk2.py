"""Compatibility suite: simple-salesforce's Bulk API 2.0 client (`sf.bulk2`) against the local org.

The client is used unchanged through its public API: a query job read in pages (`max_records`,
`Sforce-Locator`), and an upsert job with rows the org refuses (they come back in failedResults).
"""

import csv
import io
import json

import pytest
import requests
from simple_salesforce import Salesforce

from localorg_fixture import make_certificate, start_local_org

TOKEN = "00D000000000001!AQbulk2"
SCHEMA = {
    "objects": [
        {
            "name": "Account",
            "fields": [{"name": "External_Id__c", "type": "string", "externalId": True, "unique": True}],
        }
    ]
}


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    directory = tmp_path_factory.mktemp("local-org-bulk2")
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
    salesforce = Salesforce(instance_url=org.url, session_id=TOKEN, session=session, version="59.0")
    records = [
        {"attributes": {"type": "Account"}, "Name": f"Bulk {index:03d}", "External_Id__c": f"B-{index:03d}"}
        for index in range(250)
    ]
    records[7]["Name"] = 'Quoted "name", with comma\nand a line break'
    for start in range(0, len(records), 200):
        results = salesforce.restful(
            "composite/sobjects", method="POST", json={"allOrNone": True, "records": records[start:start + 200]}
        )
        assert all(result["success"] for result in results)
    return salesforce


def test_query_job_pages_through_locators(sf, org):
    before = len(org.request_log())
    pages = list(
        sf.bulk2.Account.query(
            "SELECT Id, Name, External_Id__c FROM Account WHERE Name LIKE 'Bulk%' OR External_Id__c = 'B-007'",
            max_records=100,
            wait=0.1,
        )
    )
    assert len(pages) == 3
    rows = [row for page in pages for row in csv.DictReader(io.StringIO(page))]
    assert len(rows) == 250
    assert sorted(row["External_Id__c"] for row in rows) == [f"B-{index:03d}" for index in range(250)]
    quoted = next(row for row in rows if row["External_Id__c"] == "B-007")
    assert quoted["Name"] == 'Quoted "name", with comma\nand a line break'
    assert all(len(row["Id"]) == 18 and row["Id"].startswith("001") for row in rows)
    results = [entry for entry in org.request_log()[before:] if entry["path"].split("?")[0].endswith("/results")]
    assert len(results) == 3
    assert all(entry["status"] == 200 for entry in results)


def test_upsert_job_reports_failing_rows(sf):
    records = [
        {"External_Id__c": "B-001", "Name": "Renamed by bulk2"},
        {"External_Id__c": "NEW-1", "Name": "Created by bulk2"},
        {"External_Id__c": "NEW-2", "Name": "Too many", "NumberOfEmployees": "lots"},
    ]
    results = sf.bulk2.Account.upsert(records=records, external_id_field="External_Id__c", wait=0.1)
    assert len(results) == 1
    assert results[0]["numberRecordsProcessed"] == 3
    assert results[0]["numberRecordsFailed"] == 1
    job_id = results[0]["job_id"]
    failed = list(csv.DictReader(io.StringIO(sf.bulk2.Account.get_failed_records(job_id))))
    assert [row["External_Id__c"] for row in failed] == ["NEW-2"]
    assert failed[0]["sf__Error"].startswith("JSON_PARSER_ERROR")
    succeeded = list(csv.DictReader(io.StringIO(sf.bulk2.Account.get_successful_records(job_id))))
    assert sorted(row["External_Id__c"] for row in succeeded) == ["B-001", "NEW-1"]
    created = {row["External_Id__c"]: row["sf__Created"] for row in succeeded}
    assert created == {"B-001": "false", "NEW-1": "true"}
    renamed = sf.query("SELECT Name FROM Account WHERE External_Id__c = 'B-001'")
    assert renamed["records"][0]["Name"] == "Renamed by bulk2"
