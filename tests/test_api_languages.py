"""Issue 10 (languages): the API's refusals in the reader's language.

The same refused request gives the same ``error`` code and ``field`` in every language; its
``message`` is today's English for ``en``, and in the pseudo language (``en-XA``: every catalogue
sentence in accented look-alike letters, built from ``ledger/translations/messages.pot``) holds no
plain English word: so each refusal really went through the catalogue, parameters and all.
Player names are Greek and Lao so that they never count as English words.

Also the engine's sentences outside a request: lists of names joined the language's way, cards
and jokers, outcome descriptions, and marshmallow's messages read back into catalogue templates.
"""
from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from ledger.api.errors import SCHEMA_MESSAGES, schema_sentence
from ledger.i18n import PSEUDO, SOURCE, set_language, use_language
from ledger.games.tonk import Card, HandError
from ledger.games.tonk.describe import OUTCOME_TITLES, describe_hand, join_names
from ledger.games.tonk.explain import rule_lines
from ledger.games.tonk.ruleset import RuleSet
from ledger.games.tonk.validation import BAD_SPREAD
from ledger.sentences import Cards, Sentence
from i18n_text import ALLOWED

ZOE, SOM, ANDREAS = "Ζωή", "ສົມ", "Ανδρέας"
PLAYERS = [ZOE, SOM, ANDREAS]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english_around() -> Iterator[None]:
    """The test client runs requests in the test's own context, where the language layer sets
    the request's language and leaves it: start and end every test in English."""
    set_language(SOURCE)
    yield
    set_language(SOURCE)


@pytest.fixture
def app(pseudo_app: Any) -> Any:
    return pseudo_app


@pytest.fixture
def night(client: Any) -> dict[str, Any]:
    created = client.post("/api/v1/sessions", json={"name": "Νύχτα", "currency": "EUR", "stake": 25,
                                                    "players": PLAYERS})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    return {"id": body["id"], "headers": {"Authorization": f"Bearer {body['token']}"}}


def english_words(message: str, field: str | None) -> list[str]:
    """Plain ASCII words left in ``message`` once the field path (a code) is taken out."""
    text = message.replace(field, " ") if field else message
    return [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in ALLOWED]


def knock(hands: dict[str, Any], knocker: str = ZOE) -> dict[str, Any]:
    return {"outcome": {"kind": "knock", "knocker": knocker}, "hands": hands}


FIFTEENS = {SOM: {"cards": ["QC", "5H"]}, ANDREAS: {"cards": ["JS", "5D"]}}
GOOD_KNOCK = knock({ZOE: {"cards": ["2C", "3H"]}} | FIFTEENS)

Send = Callable[[Any, dict[str, Any], dict[str, str], str], Any]


def hand(body: dict[str, Any]) -> Send:
    def send(client: Any, night: dict[str, Any], headers: dict[str, str], query: str) -> Any:
        return client.post(f"/api/v1/sessions/{night['id']}/hands{query}", json=body,
                           headers=night["headers"] | headers)
    return send


def stale_amend(client: Any, night: dict[str, Any], headers: dict[str, str], query: str) -> Any:
    """Hand 1 corrected once (now version 2), then a correction of version 1 again."""
    first = client.post(f"/api/v1/sessions/{night['id']}/hands", json=GOOD_KNOCK, headers=night["headers"])
    assert first.status_code == 201
    amended = client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend", json=GOOD_KNOCK | {"version": 1},
                          headers=night["headers"])
    assert amended.status_code == 201
    return client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend{query}", json=GOOD_KNOCK | {"version": 1},
                       headers=night["headers"] | headers)


def amend_a_version_that_never_was(client: Any, night: dict[str, Any], headers: dict[str, str], query: str) -> Any:
    first = client.post(f"/api/v1/sessions/{night['id']}/hands", json=GOOD_KNOCK, headers=night["headers"])
    assert first.status_code == 201
    return client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend{query}", json=GOOD_KNOCK | {"version": 7},
                       headers=night["headers"] | headers)


# (case, request, status, error code, field, today's English message)
REFUSALS: list[tuple[str, Send, int, str, str | None, str]] = [
    ("duplicate_card", hand(knock({ZOE: {"cards": ["KH", "KH"]}} | FIFTEENS)), 422, "duplicate_card",
     f"hands.{ZOE}.cards[1]", f"{ZOE}'s hand lists the K♥ twice; a deck has only one."),
    ("total_mismatch", hand(knock({ZOE: {"cards": ["KH", "5S"], "total": 14}} | FIFTEENS)), 422, "total_mismatch",
     f"hands.{ZOE}.total", f"{ZOE}'s cards (K♥ 5♠) count 15, not 14."),
    ("knock_too_many_cards", hand(knock({ZOE: {"cards": ["2C", "3H", "4D", "6S", "7C", "8H"]}} | FIFTEENS)), 422,
     "too_many_cards", f"hands.{ZOE}.cards", f"{ZOE}'s hand shows 6 cards; at most 5 can be held at the end of a hand."),
    ("unknown_player", hand(knock({ZOE: {"cards": ["2C", "3H"]}} | FIFTEENS, knocker="Παύλος")), 422,
     "unknown_player", "outcome.knocker", "Παύλος is not seated at this table."),
    ("dry_stock_claim", hand({"outcome": {"kind": "dry_stock", "claimed_winner": ZOE},
                              "hands": {ZOE: {"total": 10}, SOM: {"total": 5}, ANDREAS: {"total": 5}}}), 422,
     "claim_mismatch", "outcome.claimed_winner",
     f"The entry says {ZOE} won, but the lowest count (5) belongs to {SOM} and {ANDREAS}."),
    ("missing_field", hand({"hands": {}}), 422, "invalid_entry", "outcome",
     "outcome: Missing data for required field."),
    ("hand_number_gap", hand(GOOD_KNOCK | {"number": 5}), 409, "hand_number_gap", "number",
     "The next hand is number 1, not 5."),
    ("stale_version", stale_amend, 409, "stale_version", "version",
     "Hand 1 was changed on another phone (now version 2); compare both before amending again."),
    ("unknown_version", amend_a_version_that_never_was, 422, "invalid_entry", "version",
     "Hand 1 has no version 7; its latest version is 1."),
]
IDS = [case[0] for case in REFUSALS]


@pytest.mark.parametrize(("case", "send", "status", "code", "field", "english"), REFUSALS, ids=IDS)
def test_a_refusal_in_english_is_todays_sentence(
    client: Any, night: dict[str, Any], case: str, send: Send, status: int, code: str, field: str | None, english: str,
) -> None:
    response = send(client, night, {"Accept-Language": "en"}, "")
    body = response.get_json()
    assert response.status_code == status, body
    assert (body["error"], body["field"], body["message"]) == (code, field, english)
    assert "Accept-Language" in response.headers.get("Vary", "")


@pytest.mark.parametrize(("case", "send", "status", "code", "field", "english"), REFUSALS, ids=IDS)
def test_the_same_refusal_in_the_pseudo_language_went_through_the_catalogue(
    client: Any, night: dict[str, Any], case: str, send: Send, status: int, code: str, field: str | None, english: str,
) -> None:
    # the pseudo language is asked for with ?lang= (the language layer takes it from
    # Accept-Language only among the real languages)
    response = send(client, night, {"Accept-Language": "en"}, f"?lang={PSEUDO}")
    body = response.get_json()
    assert response.status_code == status, body
    assert (body["error"], body["field"]) == (code, field)
    message = body["message"]
    assert message != english and "⟦" in message
    assert english_words(message, field) == [], message
    for name in PLAYERS + ["Παύλος"]:  # the names are kept as they are, never translated
        assert (name in message) == (name in english)


@pytest.mark.parametrize(("case", "send", "status", "code", "field", "english"), REFUSALS, ids=IDS)
def test_the_same_refusal_follows_accept_language(
    client: Any, night: dict[str, Any], case: str, send: Send, status: int, code: str, field: str | None, english: str,
) -> None:
    response = send(client, night, {"Accept-Language": "tr-TR,tr;q=0.9,en;q=0.5"}, "")
    body = response.get_json()
    assert response.status_code == status, body
    assert (body["error"], body["field"]) == (code, field)
    assert body["message"]
    if case == "dry_stock_claim":  # the list of names is joined the Turkish way
        assert f"{SOM} ve {ANDREAS}" in body["message"]


def test_a_role_refusal_is_one_sentence_in_the_readers_language(client: Any, night: dict[str, Any]) -> None:
    joined = client.get(f"/api/v1/sessions/{night['id']}/share", headers=night["headers"]).get_json()
    player = {"Authorization": f"Bearer {joined['player_token']}"}
    english = client.post(f"/api/v1/sessions/{night['id']}/close", headers=player).get_json()
    assert english == {"error": "role_forbidden", "message": "A player cannot close the night; ask the host.",
                       "field": None}
    pseudo = client.post(f"/api/v1/sessions/{night['id']}/close?lang={PSEUDO}", headers=player).get_json()
    assert pseudo["error"] == "role_forbidden" and pseudo["message"] != english["message"]
    assert english_words(pseudo["message"], None) == []


# -- the engine's sentences outside a request ------------------------------------------------------
def _refusal() -> HandError:
    with pytest.raises(HandError) as caught:
        from ledger.games.tonk import score_entry

        score_entry({"players": [ZOE, SOM, ANDREAS, "Ωρίων"], "stake": 25,
                     "outcome": {"kind": "dry_stock", "claimed_winner": ZOE},
                     "hands": {ZOE: {"total": 10}, SOM: {"total": 5}, ANDREAS: {"total": 5}, "Ωρίων": {"total": 5}}})
    return caught.value


def test_lists_of_names_are_joined_the_languages_way() -> None:
    err = _refusal()
    assert err.code == "claim_mismatch" and err.field == "outcome.claimed_winner"
    english = f"The entry says {ZOE} won, but the lowest count (5) belongs to {SOM}, {ANDREAS} and Ωρίων."
    assert err.message == str(err) == english
    with use_language("tr"):
        assert f"{SOM}, {ANDREAS} ve Ωρίων" in err.message
    with use_language(PSEUDO):
        assert err.message != english and english_words(err.message, None) == []
        assert re.search(f"{SOM}, {ANDREAS} .+ Ωρίων", err.message)
    assert str(join_names([SOM, ANDREAS])) == f"{SOM} and {ANDREAS}"
    assert str(join_names([])) == "nobody"
    with use_language("tr"):
        assert str(join_names([SOM, ANDREAS])) == f"{SOM} ve {ANDREAS}"


def test_a_card_run_with_a_joker_names_the_joker_in_the_language() -> None:
    spread = Sentence(BAD_SPREAD["too_few_real_cards"], {"player": ZOE, "least": 2,
                                                          "cards": Cards((Card.parse("JK"), Card.parse("5S"), Card.parse("5H")))})
    assert str(spread) == (f"{ZOE}'s spread Joker 5♠ 5♥ is not valid: a spread with a joker needs at least 2 "
                           "real cards.")
    with use_language(PSEUDO):
        text = str(spread)
        assert "5♠ 5♥" in text and english_words(text, None) == [], text


def test_descriptions_titles_and_rules_read_in_the_current_language() -> None:
    described = describe_hand({"kind": "knock", "knocker": ZOE},
                              {"winners": [SOM, ANDREAS], "detail": {"knocker_count": 17, "result": "knocker_caught",
                                                                      "catch_tie": True}})
    english = f"{ZOE} knocked with 17 and was caught: catch tie between {SOM} and {ANDREAS}"
    assert described == english and str(described) == english
    lines = rule_lines(RuleSet.from_spec({"preset": "wikipedia", "toggles": {"spade_side_pot": True}}))
    with use_language(PSEUDO):
        assert str(described) != english and english_words(str(described), None) == []
        assert english_words(OUTCOME_TITLES["knock"], None) == []
        for line in lines:
            assert english_words(line.text, None) == [], line.text
    assert OUTCOME_TITLES["knock"] == "Knock (drop)"


# -- marshmallow's messages ------------------------------------------------------------------------
def _filled(template: str) -> tuple[str, dict[str, str]]:
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name and name.isidentifier()]
    params = {name: f"7{i}" for i, name in enumerate(names)}
    return (template.format(**params) if names else template), params


@pytest.mark.parametrize("template", SCHEMA_MESSAGES)
def test_every_schema_message_reads_back_into_its_template(template: str) -> None:
    written, params = _filled(template)
    sentence = schema_sentence(written)
    assert (sentence.template, dict(sentence.params)) == (template, params)
    assert str(sentence) == written


def test_every_message_our_schemas_write_is_a_catalogue_template() -> None:
    """A schema message missing from ``SCHEMA_MESSAGES`` would reach the reader in English."""
    found = []
    for path in sorted((ROOT / "ledger" / "api").glob("*schemas.py")):
        source = path.read_text(encoding="utf-8")
        found += re.findall(r'ValidationError\(\s*(?:f?)"((?:[^"\\]|\\.)*)"', source)
        found += re.findall(r'\berror="((?:[^"\\]|\\.)*)"', source)
        constants = dict(re.findall(r'^([A-Z_]+) = "((?:[^"\\]|\\.)*)"', source, flags=re.M))
        found += [constants[name] for name in re.findall(r"(?:error=|ValidationError\()([A-Z_]+)\b", source)]
    assert found
    for message in found:
        text = message.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
        text = text.replace("{{", "{").replace("}}", "}")
        text = re.sub(r"\{(SETTLE_MAX_\w+|len\(value\)|nonzero)\}", "7", text)
        assert schema_sentence(text).template in SCHEMA_MESSAGES, text


def test_a_blank_recovery_code_is_refused_in_words(client: Any, night: dict[str, Any]) -> None:
    """Its message held unescaped braces, which marshmallow formats: a blank code was a 500."""
    refused = client.post(f"/api/v1/sessions/{night['id']}/recover", json={"code": "  "})
    assert refused.status_code == 422
    assert refused.get_json() == {"error": "invalid_entry", "field": "code",
                                  "message": 'code: Send the recovery code as {"code": "…"}.'}
    pseudo = client.post(f"/api/v1/sessions/{night['id']}/recover?lang={PSEUDO}", json={"code": "  "}).get_json()
    assert pseudo["error"] == "invalid_entry" and english_words(pseudo["message"].replace('"code"', ""), "code") == []
