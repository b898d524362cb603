"""The Python baseline of the migrate benchmark: the same migration as `syncrun migrate` with
simple-salesforce's collections calls (200 records per POST /composite/sobjects) and the same id
remapping (Contact.AccountId through a source-id -> target-id map held in a dict).

    python3 baseline.py SOURCE_URL TARGET_URL TOKEN CERT_FILE
"""
import sys

import requests
from simple_salesforce import Salesforce


def connect(url: str, token: str, certificate: str) -> Salesforce:
    session = requests.Session()
    session.trust_env = False
    session.verify = certificate
    return Salesforce(instance_url=url, session_id=token, session=session, version="59.0")


def copy(source: Salesforce, target: Salesforce, soql: str, sobject: str, fields, id_map, remap=None):
    batch, ids = [], []

    def flush():
        if not batch:
            return
        results = target.restful("composite/sobjects", method="POST", json={"allOrNone": False, "records": batch})
        for source_id, result in zip(ids, results):
            if result.get("success"):
                id_map[source_id] = result["id"]
        batch.clear()
        ids.clear()

    for record in source.query_all_iter(soql):
        body = {"attributes": {"type": sobject}}
        for field in fields:
            body[field] = record.get(field)
        if remap:
            for field in remap:
                body[field] = id_map.get(record.get(field))
        batch.append(body)
        ids.append(record["Id"])
        if len(batch) == 200:
            flush()
    flush()


def main():
    source_url, target_url, token, certificate = sys.argv[1:5]
    source = connect(source_url, token, certificate)
    target = connect(target_url, token, certificate)
    id_map = {}
    copy(source, target, "SELECT Id, Name, Industry FROM Account", "Account", ["Name", "Industry"], id_map)
    copy(
        source, target, "SELECT Id, LastName, Email, AccountId FROM Contact", "Contact", ["LastName", "Email"], id_map,
        remap=["AccountId"],
    )
    print(len(id_map))


if __name__ == "__main__":
    main()
