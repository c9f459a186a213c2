"""The published contract (item A) and fuzzing against it (item B).

``GET /api/v1/openapi.json`` is an OpenAPI 3.1 document generated from the API's marshmallow
schemas; it documents every route of the API blueprint, and schemathesis calls every operation
with generated data and a real session's host token, on SQLite or on PostgreSQL (the ``app``
fixture follows ``LEDGER_TEST_DATABASE_URL``): no 5xx, and every answer (status, media type,
body) is what the document says.
"""
from __future__ import annotations

import re
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from openapi_spec_validator import validate
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.checks import not_a_server_error

from conftest import session_body
from ledger.api.openapi import build_openapi

MAX_EXAMPLES = 30


def test_openapi_document_is_valid_openapi_3_1(client: Any) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    document = response.get_json()
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_openapi_documents_every_api_route(app: Any, client: Any) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    documented = {(path, method.upper()) for path, ops in document["paths"].items()
                  for method in ops if method != "parameters"}
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            routed |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert documented == routed


def test_openapi_names_bearer_auth_media_types_and_the_shared_fields(client: Any) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer",
        "description": "A session's host, player or viewer token (or a joined phone's token).",
    }
    paths = document["paths"]
    assert paths["/api/v1/sessions/{session_id}"]["get"]["security"] == [{"bearerAuth": []}]
    assert paths["/api/v1/score"]["post"]["security"] == []
    assert list(paths["/api/v1/sessions/{session_id}/summary.pdf"]["get"]["responses"]["200"]["content"]) == [
        "application/pdf"]
    assert list(paths["/api/v1/sessions/{session_id}/export.csv"]["get"]["responses"]["200"]["content"]) == [
        "text/csv"]
    schemas = document["components"]["schemas"]
    assert schemas["SessionCreate"]["properties"]["timezone"]["default"] == "UTC"
    assert schemas["Session"]["properties"]["timezone"]["type"] == "string"
    assert schemas["Payment"]["properties"]["confirm"] == {
        "type": "boolean", "default": False,
        "description": "Confirm a payment above what the payer owes (else 422 overpayment)."}
    record = paths["/api/v1/sessions/{session_id}/hands"]["post"]
    key = next(p for p in record["parameters"] if p["name"] == "Idempotency-Key")
    assert (key["in"], key["schema"]["maxLength"]) == ("header", 200)
    assert "`overpayment`" in record["responses"]["422"]["description"]
    assert schemas["Error"]["required"] == ["error", "field", "message"]


def test_join_and_amend_validate_through_their_schemas(client: Any, open_night: dict[str, Any]) -> None:
    """The hand-written checks moved to marshmallow keep their codes and fields."""
    for body in ({}, {"code": "   "}, {"code": 7}):
        refused = client.post("/api/v1/join", json=body).get_json()
        assert (refused["error"], refused["field"]) == ("invalid_entry", "code")
    url = f"/api/v1/sessions/{open_night['id']}"
    entry = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}
    assert client.post(url + "/hands", json=entry, headers=open_night["headers"]).status_code == 201
    for version in (None, 0, "1", True):
        body = entry | ({} if version is None else {"version": version})
        refused = client.post(url + "/hands/1/amend", json=body, headers=open_night["headers"])
        assert refused.status_code == 422
        assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_entry", "version")
    amended = client.post(url + "/hands/1/amend", json=entry | {"version": 1}, headers=open_night["headers"])
    assert (amended.status_code, amended.get_json()["version"]) == (201, 2)
    wrong_table = client.get(url + "/export.csv?table=secrets", headers=open_night["headers"]).get_json()
    assert (wrong_table["error"], wrong_table["field"]) == ("invalid_entry", "table")


# -- fuzzing (item B) ----------------------------------------------------------------------------------
@pytest.fixture
def api_schema(app: Any, night_data: dict[str, Any]) -> Any:
    """The app's own document, with a real night (two hands, a payment) whose id and host token
    every generated call uses."""
    client = app.test_client()
    created = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    # the WSGI test transport hands the body over as sent, without undoing a Content-Encoding
    # as a real HTTP client would: ask for it uncompressed (compression is tests/test_wire.py's)
    headers = {"Authorization": f"Bearer {created['token']}", "Accept-Encoding": "identity"}
    for hand in night_data["hands"][:2]:
        entry = {k: hand[k] for k in ("outcome", "hands")}
        assert client.post(f"/api/v1/sessions/{created['id']}/hands", json=entry, headers=headers).status_code == 201
    paid = client.post(f"/api/v1/sessions/{created['id']}/payments", headers=headers,
                       json={"from": "Dee", "to": "Tomás", "amount": 25})
    assert paid.status_code == 201
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    # answers as sent to a client that accepts no compression: schemathesis's WSGI calls accept
    # brotli and gzip but read the body undecoded (compression is tested in test_wire.py)
    schema.config.update(headers=headers | {"Accept-Encoding": "identity"})
    # valid and invalid data alike
    schema.config.generation.update(modes=list(GenerationMode), max_examples=MAX_EXAMPLES)
    return schema, created["id"], headers


def night_paths(case: Any, night_id: str) -> None:
    """Point a generated call at the real night: its id, hands 1-2 (3 is unknown), payment 1
    (2 is unknown)."""
    params = case.path_parameters
    if "session_id" in params:
        params["session_id"] = night_id
    if "number" in params:
        params["number"] = 1 + params["number"] % 3
    if "payment_id" in params:
        params["payment_id"] = 1 + params["payment_id"] % 2


# Operations are listed from the document itself; each runs on its own fresh database (the
# app fixture), with hypothesis driving schemathesis's strategy for that operation.
OPERATIONS = [(method.upper(), path) for path, ops in build_openapi()["paths"].items()
              for method in ops if method != "parameters"]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_operation_answers_as_documented(api_schema: Any, method: str, path: str) -> None:
    schema, night_id, _headers = api_schema
    operation = schema[path][method]

    @given(case=operation.as_strategy())
    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    def call(case: Any) -> None:
        night_paths(case, night_id)
        case.call_and_validate(checks=CHECKS)

    call()


# Generated bodies are mostly refused (422), so the answers on success are also checked with
# real requests: each (method, path, body, path parameters, expected status), in this order.
def _successes(night_data: dict[str, Any]) -> list[tuple[str, str, Any, dict[str, Any], int]]:
    hand = {k: night_data["hands"][0][k] for k in ("outcome", "hands")}
    scored = {k: night_data[k] for k in ("ruleset", "players", "stake")} | hand
    return [
        ("POST", "/api/v1/score", scored, {}, 200),
        ("POST", "/api/v1/settle", {"balances": {"A": 30, "B": -20, "C": -10}}, {}, 200),
        ("POST", "/api/v1/sessions", session_body(night_data) | {"timezone": "UTC"}, {}, 201),
        ("POST", "/api/v1/sessions/{session_id}/hands", hand, {}, 201),
        ("POST", "/api/v1/sessions/{session_id}/hands", hand | {"number": 3}, {}, 409),
        ("POST", "/api/v1/sessions/{session_id}/preview", hand, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/hands/{number}/amend", hand | {"version": 1}, {"number": 1}, 201),
        ("POST", "/api/v1/sessions/{session_id}/hands/{number}/amend", hand | {"version": 1}, {"number": 1}, 409),
        ("POST", "/api/v1/sessions/{session_id}/payments", {"from": "Dee", "to": "Rosa", "amount": 5}, {}, 422),
        ("POST", "/api/v1/sessions/{session_id}/payments", {"from": "Dee", "to": "Rosa", "amount": 5, "confirm": True},
         {}, 201),
        ("POST", "/api/v1/sessions/{session_id}/undo", None, {}, 200),
        ("GET", "/api/v1/sessions/{session_id}/export.json", None, {}, 200),
        ("GET", "/api/v1/sessions/{session_id}/history", None, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/stake", {"stake": 50}, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/seats/swap", {"a": "Dee", "b": "Rosa", "from_hand": 1}, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/players/rename", {"from": "Dee", "to": "Deedee"}, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/players/leave", {"name": "Rosa", "settle": "now"}, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/players", {"name": "Ed", "after": "Deedee"}, {}, 201),
        ("POST", "/api/v1/sessions/{session_id}/players", {"name": "Ed"}, {}, 422),
        ("GET", "/api/v1/sessions/{session_id}", None, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/close", None, {}, 200),
        ("POST", "/api/v1/sessions/{session_id}/hands", hand, {}, 409),
    ]


def test_successful_answers_match_the_document(api_schema: Any, night_data: dict[str, Any]) -> None:
    schema, night_id, headers = api_schema
    for method, path, body, params, status in _successes(night_data):
        operation = schema[path][method]
        kwargs: dict[str, Any] = {"path_parameters": {"session_id": night_id} | params} if "{" in path else {}
        if body is not None:
            kwargs["body"] = body
        case = operation.Case(media_type="application/json", **kwargs)
        response = case.call_and_validate(checks=CHECKS, headers=headers | {"Accept-Encoding": "identity"})
        assert response.status_code == status, (method, path, response.text)
