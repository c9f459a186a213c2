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


# -- issue 20: what the contract fuzzer found --------------------------------------------------------
def test_the_club_share_answers_its_documented_shape(api_schema: Any, client: Any) -> None:
    """``GET /clubs/{id}/share`` is documented as the club with its secrets (what opening the
    club answers): it answered the secrets alone."""
    schema, _night_id, _headers = api_schema
    club = client.post("/api/v1/clubs", json={"name": "Friday club", "currency": "USD", "members": ["Ann"]}).get_json()
    case = schema["/api/v1/clubs/{club_id}/share"]["GET"].Case(path_parameters={"club_id": club["id"]})
    response = case.call_and_validate(checks=CHECKS, headers={"Authorization": f"Bearer {club['token']}",
                                                              "Accept-Encoding": "identity"})
    assert response.status_code == 200
    shared = response.json()
    for key in ("token", "member_token", "viewer_token", "table_code", "links"):  # what it answered: kept
        assert shared[key] == club[key], key
    assert (shared["id"], shared["name"], [m["name"] for m in shared["members"]]) == (club["id"], "Friday club", ["Ann"])


def test_a_method_not_allowed_names_the_allowed_ones(client: Any) -> None:
    for method, path, allowed in [("DELETE", "/api/v1/sessions", {"POST", "OPTIONS"}),
                                  ("GET", "/api/v1/settle", {"POST", "OPTIONS"}),
                                  ("PUT", "/api/v1/openapi.json", {"GET", "HEAD", "OPTIONS"}),
                                  ("GET", "/api/v1/clubs/join", {"POST", "OPTIONS"}),
                                  ("GET", "/api/v1/clubs/import", {"POST", "OPTIONS"})]:
        response = client.open(path, method=method)
        assert response.status_code == 405, (method, path, response.status_code)
        assert response.get_json()["error"] == "method_not_allowed"
        assert set(response.headers.get("Allow", "").replace(" ", "").split(",")) == allowed, (method, path)


def test_options_on_club_join_and_import_offer_post_only(client: Any) -> None:
    for path in ("/api/v1/clubs/join", "/api/v1/clubs/import"):
        response = client.options(path)
        assert response.status_code == 200
        assert set(response.headers["Allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}, path
    club = client.post("/api/v1/clubs", json={"name": "Friday club", "currency": "USD"}).get_json()
    assert set(client.options(f"/api/v1/clubs/{club['id']}").headers["Allow"].replace(" ", "").split(",")) == {
        "GET", "HEAD", "OPTIONS", "PATCH"}  # PATCH: the owner's settings (carry_needs_owner)
    assert client.get(f"/api/v1/clubs/{club['id']}", headers={"Authorization": f"Bearer {club['token']}"}).status_code == 200


def test_the_import_documents_its_size_refusal(client: Any) -> None:
    responses = client.get("/api/v1/openapi.json").get_json()["paths"]["/api/v1/clubs/import"]["post"]["responses"]
    assert "413" in responses and "too large" in responses["413"]["description"]


def test_the_document_bounds_stakes_amounts_and_names_as_the_api_enforces_them(client: Any) -> None:
    from ledger.night.lifecycle import MAX_NAME, MAX_PAYMENT_MINOR
    from ledger.games.tonk.validation import MAX_STAKE_MINOR

    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    stake = {"minimum": 1, "maximum": MAX_STAKE_MINOR}
    amount = {"minimum": 1, "maximum": MAX_PAYMENT_MINOR}
    name = {"minLength": 1, "maxLength": MAX_NAME}
    bounded = {
        ("SessionCreate", "stake"): stake, ("Stake", "stake"): stake, ("ScoreEntry", "stake"): stake,
        ("Payment", "amount"): amount, ("ClubPayment", "amount"): amount,
        ("Payment", "from"): name, ("Payment", "to"): name, ("ClubPayment", "from"): name, ("ClubPayment", "to"): name,
        ("SitIn", "name"): name, ("SitIn", "after"): name, ("Leave", "name"): name, ("Swap", "a"): name,
        ("Swap", "b"): name, ("Rename", "from"): name, ("Rename", "to"): name, ("Member", "name"): name,
        ("SessionCreate", "first_dealer"): name, ("HandCreate", "dealer"): name, ("Amend", "dealer"): name,
    }
    for (schema, field), bounds in bounded.items():
        documented = schemas[schema]["properties"][field]
        assert {k: documented.get(k) for k in bounds} == bounds, (schema, field, documented)
    assert {k: schemas["SessionCreate"]["properties"]["players"]["items"].get(k) for k in name} == name
    assert {k: schemas["ClubCreate"]["properties"]["members"]["items"].get(k) for k in name} == name
    # what the API enforces, at the bounds and past them
    night = client.post("/api/v1/sessions", json={"name": "n", "currency": "USD", "stake": MAX_STAKE_MINOR + 1,
                                                  "players": ["A", "B"], "first_dealer": "A"})
    assert (night.status_code, night.get_json()["error"]) == (422, "invalid_stake")
    night = client.post("/api/v1/sessions", json={"name": "n", "currency": "USD", "stake": MAX_STAKE_MINOR,
                                                  "players": ["A" * MAX_NAME, "B"], "first_dealer": "B"})
    assert night.status_code == 201, night.get_json()
    long_name = client.post("/api/v1/sessions", json={"name": "n", "currency": "USD", "stake": 1,
                                                      "players": ["A" * (MAX_NAME + 1), "B"], "first_dealer": "B"})
    assert (long_name.status_code, long_name.get_json()["error"]) == (422, "invalid_entry")
