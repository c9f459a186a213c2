"""The limiter's request filter (issue 24): a request to an endpoint without a limit is not
counted, and every endpoint decorated with a limit still is (its budget runs out)."""
from __future__ import annotations

from typing import Any

from ledger.access.limits import _unlimited


def test_only_the_endpoints_without_a_limit_skip_the_limiter(app: Any, client: Any) -> None:
    with app.test_request_context("/api/v1/sessions", method="POST"):
        assert _unlimited() is True
    limited = sorted(set(app.view_functions) - app.extensions["ledger.unlimited_endpoints"])
    assert limited == ["api.join_by_code", "api.join_club", "api.recover", "api.settle_balances",
                       "web.club_join_code", "web.join_code", "web.recover", "web.rejoin"]
    answers = [client.post("/api/v1/join", json={"code": "ZZZZZZ"}).status_code for _ in range(11)]
    assert answers[:10] == [404] * 10 and answers[10] == 429
    created = client.post("/api/v1/sessions", json={"name": "F", "currency": "USD", "stake": 25,
                                                    "players": ["Dee", "Rosa"]})
    assert created.status_code == 201 and "X-RateLimit-Limit" not in created.headers


def test_the_kept_cookie_signer_follows_a_rotated_secret(app: Any, client: Any) -> None:
    """The session cookie's serializer is kept between requests (issue 24), but a new
    ``SECRET_KEY`` signs with the new key at once and the old one still reads as a fallback."""
    interface = app.session_interface
    first = interface.get_signing_serializer(app)
    assert interface.get_signing_serializer(app) is first
    signed = first.dumps({"a": 1})
    old = app.config["SECRET_KEY"]
    app.config["SECRET_KEY"] = "rotated"
    app.config["SECRET_KEY_FALLBACKS"] = [old]
    rotated = interface.get_signing_serializer(app)
    assert rotated is not first and rotated.loads(signed) == {"a": 1}
    app.config["SECRET_KEY_FALLBACKS"] = []
    import itsdangerous
    try:
        interface.get_signing_serializer(app).loads(signed)
    except itsdangerous.BadSignature:
        pass
    else:
        raise AssertionError("a cookie signed with a withdrawn key still reads")
