"""Third-party client suite: a Pub/Sub API client generated from the committed pubsub_api.proto
(grpcio + grpcio-tools) decoding the local org's change events with an Avro library (fastavro).

Nothing of syncrun is used on the client side: the stubs are generated from the .proto at test time,
the events are decoded with the schema GetSchema returns, and the header's bitmap fields are expanded
against that schema as Salesforce's own examples do.
"""

import importlib
import io
import json
import subprocess
import sys
import threading

import fastavro
import grpc
import pytest
import requests

from localorg_fixture import REPOSITORY, make_certificate, start_local_org

TOKEN = "00D000000000001!AQpubsub"
PROTO_DIRECTORY = REPOSITORY / "Sources" / "PubSubAPI"


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    """pubsub_api_pb2 and pubsub_api_pb2_grpc, generated from the committed .proto."""
    out = tmp_path_factory.mktemp("pubsub-stubs")
    subprocess.run(
        [
            sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_DIRECTORY}", f"--python_out={out}",
            f"--grpc_python_out={out}", "pubsub_api.proto",
        ],
        check=True,
    )
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("pubsub_api_pb2"), importlib.import_module("pubsub_api_pb2_grpc")
    finally:
        sys.path.remove(str(out))


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    directory = tmp_path_factory.mktemp("local-org-pubsub")
    certificate, key = make_certificate(directory)
    local_org = start_local_org(directory / "data", certificate, key, TOKEN)
    yield local_org
    assert local_org.stop() == 0


@pytest.fixture(scope="module")
def rest(org):
    session = requests.Session()
    # REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE in the environment would replace `verify`.
    session.trust_env = False
    session.verify = str(org.certificate)
    session.headers["Authorization"] = f"Bearer {org.access_token}"
    return session


@pytest.fixture(scope="module")
def client(org, rest, stubs):
    pb2, pb2_grpc = stubs
    assert isinstance(org.pubsub_port, int) and org.pubsub_port > 0
    organization = rest.get(f"{org.url}/services/data/v62.0/query", params={"q": "SELECT Id FROM Organization"})
    organization.raise_for_status()
    tenant = organization.json()["records"][0]["Id"]
    credentials = grpc.ssl_channel_credentials(root_certificates=org.certificate.read_bytes())
    channel = grpc.secure_channel(f"127.0.0.1:{org.pubsub_port}", credentials)
    metadata = (("accesstoken", org.access_token), ("instanceurl", org.url), ("tenantid", tenant))
    yield pb2, pb2_grpc.PubSubStub(channel), metadata
    channel.close()


def expand(bitmaps, schema):
    """The field names a header bitmap list names: bit i of the hex number is the record's field i."""
    names = []
    for bitmap in bitmaps:
        if bitmap.startswith("0x"):
            number = int(bitmap[2:], 16)
            names += [field["name"] for index, field in enumerate(schema["fields"]) if number >> index & 1]
    return sorted(names)


def test_subscribe_and_decode_change_events(org, rest, client):
    pb2, stub, metadata = client
    topic = stub.GetTopic(pb2.TopicRequest(topic_name="/data/AccountChangeEvent"), metadata=metadata)
    assert topic.can_subscribe
    schema_json = stub.GetSchema(pb2.SchemaRequest(schema_id=topic.schema_id), metadata=metadata).schema_json
    schema = json.loads(schema_json)
    parsed = fastavro.parse_schema(schema)

    done = threading.Event()

    def requests_stream():
        yield pb2.FetchRequest(topic_name="/data/AccountChangeEvent", replay_preset=pb2.EARLIEST, num_requested=10)
        done.wait(60)

    responses = stub.Subscribe(requests_stream(), metadata=metadata)
    base = f"{org.url}/services/data/v62.0/sobjects/Account"
    first = rest.post(base, json={"Name": "Pub Sub One", "Industry": "Energy"}).json()["id"]
    second = rest.post(base, json={"Name": "Pub Sub Two"}).json()["id"]
    assert rest.patch(f"{base}/{first}", json={"Phone": "555-0100", "Industry": None}).status_code == 204
    assert rest.delete(f"{base}/{second}").status_code == 204

    events = []
    try:
        for response in responses:
            for consumer in response.events:
                assert consumer.event.schema_id == topic.schema_id
                events.append(fastavro.schemaless_reader(io.BytesIO(consumer.event.payload), parsed))
            if len(events) >= 4:
                break
    finally:
        done.set()
        responses.cancel()

    headers = [event["ChangeEventHeader"] for event in events]
    assert [header["changeType"] for header in headers] == ["CREATE", "CREATE", "UPDATE", "DELETE"]
    assert [header["recordIds"] for header in headers] == [[first], [second], [first], [second]]
    assert all(header["entityName"] == "Account" for header in headers)
    assert events[0]["Name"] == "Pub Sub One" and events[0]["Industry"] == "Energy"
    changed = expand(headers[2]["changedFields"], schema)
    assert "Phone" in changed and "Industry" in changed and "Name" not in changed
    assert expand(headers[2]["nulledFields"], schema) == ["Industry"]
    assert events[2]["Phone"] == "555-0100"


def test_unknown_topic_and_bad_token_get_grpc_errors(client):
    pb2, stub, metadata = client
    with pytest.raises(grpc.RpcError) as unknown:
        stub.GetTopic(pb2.TopicRequest(topic_name="/data/NoSuchChangeEvent"), metadata=metadata)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND

    forged = tuple((key, "not-a-token" if key == "accesstoken" else value) for key, value in metadata)
    with pytest.raises(grpc.RpcError) as refused:
        stub.GetTopic(pb2.TopicRequest(topic_name="/data/AccountChangeEvent"), metadata=forged)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    trailers = dict(refused.value.trailing_metadata() or ())
    assert trailers.get("error-code") == "sfdc.platform.eventbus.grpc.service.auth.error"
    assert "not-a-token" not in (refused.value.details() or "")
