"""House rules on the phone pages: a night started under a preset with toggles changed, the
rules in words (server-rendered and as JSON), refusals beside their control, and hands recorded
through the form under the rules the night enables (side pot, jokers, 7-card deals,
double-double). Expected amounts come from RULES.md §10, never from the app's own output."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from werkzeug.datastructures import MultiDict

from ledger.money import format_minor
from ledger.games.tonk import RuleSet
from ledger.games.tonk.explain import rule_lines
from ledger.games.tonk.ruleset import TOGGLES
from test_web_pages import api_session, balances_shown, error_for, errors_in, field_value, table_token

ABC = {"name": "House rules night", "players": ["A", "B", "C"], "first_dealer": "A", "currency": "USD"}


# -- a browser's form submission, from the page -------------------------------------------------------
class _Fields(HTMLParser):
    """What a browser would send for the page's form: text/number/hidden inputs, checked
    checkboxes and radios, selected options (submit buttons left out)."""

    def __init__(self, form: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first_option: str | None = None
        self._selected = False
        self._wanted = form  # only this form's fields (by id), as a browser sends one form
        self._form: str | None = None

    def _mine(self, a: dict[str, str]) -> bool:
        return self._wanted is None or (a.get("form") or self._form) == self._wanted

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = a.get("id")
        if tag in ("input", "select") and not self._mine(a):
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button"):
                self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._first_option, self._selected = a.get("name"), None, False
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in a:
                self.fields.append((self._select, a.get("value", "")))
                self._selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        if tag == "select" and self._select:
            if not self._selected and self._first_option is not None:
                self.fields.append((self._select, self._first_option))
            self._select = None


def browser_fields(page: str, form: str | None = None) -> list[tuple[str, str]]:
    parser = _Fields(form)
    parser.feed(page)
    return parser.fields


def with_changes(fields: list[tuple[str, str]], **changes: Any) -> MultiDict[str, str]:
    """``fields`` with some names set to a new value (a list for several, None to drop), as the
    ordered multi-valued form a browser posts."""
    out = [(k, v) for k, v in fields if k not in changes]
    for name, value in changes.items():
        if value is None:
            continue
        for item in value if isinstance(value, list) else [value]:
            out.append((name, str(item)))
    return MultiDict(out)


def start_form_fields(client: Any, night: dict[str, Any], stake: str, **changes: Any) -> MultiDict[str, str]:
    page = client.get("/").get_data(as_text=True)
    fields = browser_fields(page)
    base = {"name": night["name"], "stake": stake, "currency": night["currency"],
            "first_dealer": str(night["players"].index(night["first_dealer"]))}
    for i in range(4):
        base[f"player-{i}"] = night["players"][i] if i < len(night["players"]) else ""
    return with_changes(fields, **(base | changes))


def start(client: Any, night: dict[str, Any], stake: str, **changes: Any) -> str:
    response = client.post("/", data=start_form_fields(client, night, stake, **changes))
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    match = re.match(r"/s/([^/?]+)\?share=1$", response.headers["Location"])
    assert match
    return match.group(1)


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


class Phone:
    """Walks the record flow like a browser: each page's own fields are sent back, with what
    the player taps or types changed."""

    def __init__(self, client: Any, session_id: str) -> None:
        self.client = client
        self.url = f"/s/{session_id}/record"
        self.page = ""
        self.status = 0

    def open(self, url: str | None = None) -> Phone:
        response = self.client.get(url or self.url)
        self.status, self.page = response.status_code, response.get_data(as_text=True)
        assert self.status == 200, self.status
        return self

    def action(self, form: str = "record-form") -> tuple[str, str]:
        """The method and address of the page's form ``form`` (the steps GET, "Save" posts)."""
        tag = next((t for t in re.findall(r"<form\b[^>]*>", self.page) if f'id="{form}"' in t), None)
        assert tag, form
        method = re.search(r'method="(get|post)"', tag)
        action = re.search(r'action="([^"]+)"', tag)
        assert method and action, tag
        return method.group(1), html.unescape(action.group(1))

    def press(self, button: tuple[str, str] | None = None, **changes: Any) -> Phone:
        form = "save-form" if button == ("go", "save") else "record-form"
        data = with_changes(browser_fields(self.page, form), **changes)
        if button:
            data.add(*button)
        method, action = self.action(form)
        if method == "get":
            response = self.client.get(action, query_string=data)
        else:
            response = self.client.post(action, data=data)
        self.status = response.status_code
        self.page = response.get_data(as_text=True) if response.status_code != 302 else ""
        self.location = response.headers.get("Location", "")
        return self

    def next(self, **changes: Any) -> Phone:
        return self.press(("go", "next"), **changes)

    def outcome(self, kind: str) -> Phone:
        return self.press(("kind", kind))

    def heading(self) -> str:
        match = re.search(r"<h1>([^<]*)</h1>", self.page)
        return html.unescape(match.group(1)) if match else ""


def payments_shown(page: str) -> list[tuple[str, str, str]]:
    return [tuple(html.unescape(x) for x in m) for m in re.findall(  # type: ignore[misc]
        r"<li><span><strong>([^<]*)</strong> pays <strong>([^<]*)</strong></span>\s*"
        r'<span class="pay-amount">([^<]*)</span></li>', page)]


def stored_hand(client: Any, session_id: str, number: int) -> dict[str, Any]:
    token = table_token(client, session_id)
    response = client.get(f"/api/v1/sessions/{session_id}/hands/{number}", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    return response.get_json()


# -- the start page -----------------------------------------------------------------------------------
def test_every_toggle_has_a_control_fitted_to_its_kind(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    for name, toggle in TOGGLES.items():
        assert f'name="rule-{name}"' in page, name
        if toggle.kind == "bool":
            assert re.search(rf'<input type="checkbox" role="switch" id="rule-{name}" name="rule-{name}" value="true"', page)
        elif toggle.kind == "choice":
            for choice in toggle.choices:
                assert f'id="rule-{name}-{choice}" name="rule-{name}" value="{choice}"' in page
        elif toggle.kind == "int" and toggle.choices:
            assert all(f'name="rule-{name}" value="{c}"' in page for c in toggle.choices)
        elif toggle.kind == "int":
            tag = re.search(rf'<input id="rule-{name}" name="rule-{name}" type="number"[^>]*>', page, flags=re.S)
            assert tag and f'min="{toggle.minimum}"' in tag.group(0) and f'max="{toggle.maximum}"' in tag.group(0)
    for row in range(3):
        assert f'name="rule-low_deal_rules-{row}-max_total"' in page and f'name="rule-low_deal_rules-{row}-mult"' in page
    # pre-filled from the classic preset, with human labels
    assert re.search(r'value="pagat" checked>\s*<span>Pagat: 2× to all at or below, others pay the low</span>', page)
    assert 'name="rule-hand_size" value="5" checked' in page
    assert '<details class="house-rules" id="house-rules">' in page  # closed until something changes
    # the classic rules in words, from the engine
    for line in rule_lines(RuleSet()):
        assert line.text in html.unescape(page)


def test_texas_with_one_toggle_changed_is_frozen_with_the_night(client: Any) -> None:
    # The page was filled from classic; the organiser picks Texas and changes the dry-stock tie.
    session_id = start(client, ABC, "0.25", preset="texas", **{"rule-dry_stock_tie": "all_lows_paid"})
    ruleset = api_session(client, session_id)["ruleset"]
    texas = RuleSet.from_spec({"preset": "texas", "toggles": {"dry_stock_tie": "all_lows_paid"}}).snapshot()
    assert ruleset == texas
    assert ruleset["caught_model"] == "lowest_only" and ruleset["deal_tonk_mult_49"] == 1  # Texas, not the page's classic
    assert ruleset["dry_stock_tie"] == "all_lows_paid" and ruleset["preset"] == "texas"

    rules = client.get(f"/s/{session_id}/rules").get_data(as_text=True)
    text = text_of(rules)
    assert "Texas Tonk preset" in text
    changes = text[text.index("House changes"):]
    assert "A tie for lowest when the stock runs out: Each tied player is paid 1× by the others" in changes
    assert "players tied for lowest are each paid 1× by everyone else." in text
    assert f'href="/s/{session_id}"' in rules and "Back to the table" in rules


def test_toggles_equal_to_the_preset_are_not_overrides(client: Any) -> None:
    """Every control is sent, but only what differs from the preset counts as a change."""
    shown = client.post("/", data=start_form_fields(client, ABC, "1", preset="wikipedia", go="rules"))
    page = shown.get_data(as_text=True)
    assert shown.status_code == 200 and field_value(page, "rules_base") == "wikipedia"
    fields = with_changes(browser_fields(page), **{"rule-spade_side_pot": ["false", "true"]})
    assert fields["rule-jokers"] == "2" and fields["rule-caught_model"] == "wikipedia"
    response = client.post("/", data=fields)
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    session_id = response.headers["Location"].split("/")[2].split("?")[0]
    ruleset = RuleSet.from_snapshot(api_session(client, session_id)["ruleset"])
    assert ruleset == RuleSet.from_spec({"preset": "wikipedia", "toggles": {"spade_side_pot": True}})


@pytest.mark.parametrize(
    ("changes", "key", "message"),
    [
        ({"rule-joker_hand_value": "11"}, "rule-joker_hand_value", "House rule joker_hand_value must be at most 10; got 11."),
        ({"rule-deal_tonk_mult_49": "x"}, "rule-deal_tonk_mult_49", "“x” is not a whole number; type digits only."),
        ({"rule-low_deal_rules-0-max_total": "13", "rule-low_deal_rules-0-mult": "5"}, "rule-low_deal_rules",
         "A low-deal multiplier must be 1, 2, 3 or 4."),
        ({"rule-min_players": "4", "rule-max_players": "3"}, "rule-min_players",
         "min_players (4) cannot be above max_players (3)."),
    ],
)
def test_a_bad_toggle_is_refused_beside_its_control_with_everything_kept(
    client: Any, changes: dict[str, str], key: str, message: str
) -> None:
    data = start_form_fields(client, ABC, "0.25", preset="texas", **changes)
    response = client.post("/", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, key) == message
    assert re.search(rf'id="field-{key}"[^>]*>.*?id="err-{key}"', page, flags=re.S)  # beside the control
    assert '<details class="house-rules" id="house-rules" open>' in page
    for name, value in changes.items():
        assert field_value(page, name) == value
    assert field_value(page, "name") == ABC["name"] and field_value(page, "player-1") == "B"
    assert field_value(page, "stake") == "0.25"
    assert 'name="preset" value="texas" checked' in page
    assert client.get("/").get_data(as_text=True).count("night-link") == 0  # nothing started


def test_show_what_these_rules_pay_without_javascript(client: Any) -> None:
    data = start_form_fields(client, ABC, "0.25", preset="wikipedia", go="rules",
                             **{"rule-spade_side_pot": ["false", "true"]})
    response = client.post("/", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and errors_in(page) == []
    assert "Location" not in response.headers
    text = text_of(page)
    summary = text[text.index("What these rules pay"):]
    assert "Wikipedia, with 1 house change" in summary
    assert "Spade side pot: on" in summary
    assert ("Spade side pot: the highest spade dealt (ace high) takes each player's side stake; "
            "settled even on a redeal.") in summary
    assert "A caught knocker pays 2× to the lowest player and 1× to anyone strictly below the knocker" in summary
    # everything kept, and the controls now show Wikipedia's values
    assert field_value(page, "name") == ABC["name"] and field_value(page, "stake") == "0.25"
    assert field_value(page, "rules_base") == "wikipedia"
    assert 'name="rule-jokers" value="2" checked' in page
    assert re.search(r'id="rule-spade_side_pot" name="rule-spade_side_pot" value="true" checked', page)
    assert '<details class="house-rules" id="house-rules" open>' in page


def test_summary_endpoint_answers_with_the_engine_rule_lines(client: Any) -> None:
    response = client.get("/rules/summary?preset=texas")
    body = response.get_json()
    assert response.status_code == 200 and body["ok"] is True
    assert [line["text"] for line in body["lines"]] == [line.text for line in rule_lines(RuleSet.from_spec({"preset": "texas"}))]
    assert "A caught knocker pays 2× to the lowest player only; nobody else pays." in [line["text"] for line in body["lines"]]
    assert body["changes"] == [] and body["overrides"] == {}

    body = client.get("/rules/summary?preset=wikipedia&rule-spade_side_pot=true").get_json()
    assert body["changes"] == [{"toggle": "spade_side_pot", "label": "Spade side pot", "value": "on"}]
    assert body["overrides"] == {"spade_side_pot": True}
    changed = [line["text"] for line in body["lines"] if line["changed"]]
    assert changed == ["Spade side pot: the highest spade dealt (ace high) takes each player's side stake; "
                       "settled even on a redeal."]
    assert body["values"]["rule-spade_side_pot"] == "true" and body["values"]["rule-jokers"] == "2"

    # the page's controls still show classic while Texas is picked: only real changes carry over
    body = client.get("/rules/summary?preset=texas&rules_base=classic&rule-caught_model=pagat&rule-dry_stock_tie=all_lows_paid").get_json()
    assert body["overrides"] == {"dry_stock_tie": "all_lows_paid"}
    assert body["values"]["rule-caught_model"] == "lowest_only" and body["rules_base"] == "texas"

    bad = client.get("/rules/summary?preset=texas&rule-hand_size=6")
    assert bad.status_code == 422
    assert bad.get_json()["errors"] == {"rule-hand_size": "House rule hand_size must be one of 5, 7, 9; got 6."}
    assert client.get("/rules/summary?preset=nope").get_json()["errors"] == {"preset": "Choose one of the rules presets."}


# -- recording under the night's rules ------------------------------------------------------------------
def test_texas_caught_knock_pays_the_spec(client: Any) -> None:
    """RULES.md §10 example 2, Texas row: S = 25; A knocks with 9♠ 8♥ = 17, B 2♣ 3♥ = 5,
    C K♦ 5♠ = 15 → A→B 50 only."""
    session_id = start(client, ABC, "0.25", preset="texas")
    phone = Phone(client, session_id).open()
    phone.outcome("knock")
    assert phone.heading() == "Knock (drop)"  # who knocked and the hands, on one page
    phone.next(who="0", **{"cards-0": ["9S", "8H"], "cards-1": ["2C", "3H"], "cards-2": ["KD", "5S"]})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert payments_shown(phone.page) == [("A", "B", "$0.50")]
    assert balances_shown(phone.page) == {"A": "-$0.50", "B": "+$0.50", "C": "$0.00"}
    phone.press(("go", "save"))
    assert phone.status == 302
    stored = stored_hand(client, session_id, 1)
    assert stored["transfers"] == [{"from": "A", "to": "B", "amount": 50}]
    assert stored["net"] == {"A": -50, "B": 50, "C": 0}


def test_wikipedia_spade_side_pot_through_the_form(client: Any) -> None:
    """RULES.md §10 example 7: S = 100, P = 50; A wins the knock; B's Q♠ beats A's 9♠, C has no
    spade → B→A 50, C→A 100, C→B 50; net A +150, B 0, C −150."""
    session_id = start(client, ABC, "1.00", preset="wikipedia", **{"rule-spade_side_pot": ["false", "true"]})
    phone = Phone(client, session_id).open()
    phone.outcome("knock").next(who="0")
    assert 'name="lock_turns"' not in phone.page  # asked on the who step, already passed
    phone.next(**{"total-0": "3", "total-1": "9", "total-2": "20"})
    assert phone.heading() == "Spade side pot"
    assert all(f'name="side_in" value="{i}" id="side_in-{i}" checked' in phone.page for i in range(3))  # all play by default
    assert 'id="sp-0-AS" name="spade-0" value="AS"' in phone.page and 'id="sp-2-none" name="spade-2" value=""' in phone.page
    phone.next(side_stake="0.50", **{"spade-0": "9S", "spade-1": "QS", "spade-2": ""})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert payments_shown(phone.page) == [("B", "A", "$0.50"), ("C", "A", "$1.00"), ("C", "B", "$0.50")]
    assert balances_shown(phone.page) == {"A": "+$1.50", "B": "$0.00", "C": "-$1.50"}
    assert "B</strong> takes the side pot" in phone.page and "side stake $0.50" in phone.page
    phone.press(("go", "save"))
    assert phone.status == 302
    stored = stored_hand(client, session_id, 1)
    assert stored["transfers"] == [{"from": "B", "to": "A", "amount": 50}, {"from": "C", "to": "A", "amount": 100},
                                   {"from": "C", "to": "B", "amount": 50}]
    assert stored["net"] == {"A": 150, "B": 0, "C": -150}
    assert stored["side_bets"] == {"spade": {"side_stake": 50, "highest_spade": {"A": "9S", "B": "QS", "C": None}}}

    # the next hand remembers the side stake and who played
    phone = Phone(client, session_id).open().outcome("tonk_out").next(who="1")
    assert phone.heading() == "Spade side pot" and field_value(phone.page, "side_stake") == "0.50"


def test_wikipedia_spade_side_pot_through_the_api(client: Any) -> None:
    created = client.post("/api/v1/sessions", json={
        "name": "API night", "currency": "USD", "stake": 100, "players": ["A", "B", "C"], "first_dealer": "A",
        "ruleset": {"preset": "wikipedia", "toggles": {"spade_side_pot": True}},
    }).get_json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    response = client.post(f"/api/v1/sessions/{created['id']}/hands", headers=headers, json={
        "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": {"total": 3}, "B": {"total": 9}, "C": {"total": 20}},
        "side_bets": {"spade": {"side_stake": 50, "highest_spade": {"A": "9S", "B": "QS", "C": None}}},
    })
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["net"] == {"A": 150, "B": 0, "C": -150}


def test_a_side_pot_refusal_is_shown_beside_the_player(client: Any) -> None:
    session_id = start(client, ABC, "1.00", preset="wikipedia", **{"rule-spade_side_pot": ["false", "true"]})
    phone = Phone(client, session_id).open().outcome("tonk_out").next(who="0")
    phone.next(side_stake="0.50", **{"spade-0": "QS", "spade-1": "QS"})
    assert phone.status == 422 and phone.heading() == "Spade side pot"
    assert error_for(phone.page, "spade-1") == "B and A both show the Q♠."
    assert 'href="#side-1">Please check B’s spade' in phone.page
    phone.next(side_stake="abc")
    assert phone.status == 422 and error_for(phone.page, "side_stake").startswith("Not an amount")
    phone.next(side_stake="0.50", side_in=["0"])  # only A plays: nobody else pays into the pot
    assert phone.heading() == "Check payouts"
    assert balances_shown(phone.page) == {"A": "+$4.00", "B": "-$2.00", "C": "-$2.00"}  # tonk out, 2× each


def test_jokers_are_offered_only_when_the_night_plays_them(client: Any) -> None:
    classic = start(client, ABC, "1.00")
    page = Phone(client, classic).open().outcome("knock").next(who="0").page
    assert 'value="JK"' not in page

    wiki = start(client, ABC | {"name": "Wiki"}, "1.00", preset="wikipedia")
    page = Phone(client, wiki).open().outcome("knock").next(who="0").page
    for seat in range(3):
        assert page.count(f'name="cards-{seat}" value="JK"') == 2  # two joker chips per grid
        assert f'id="c-{seat}-JK1"' in page and f'id="c-{seat}-JK2"' in page


def test_declared_jokers_count_the_card_they_stand_for(client: Any) -> None:
    """§1.4 declared mode: A holds JK=5H and 2♣, so counts 7 and wins against 9 and 20:
    each other player pays 1S = $1.00 to A."""
    session_id = start(client, ABC, "1.00", preset="wikipedia", **{"rule-joker_value_mode": "declared"})
    phone = Phone(client, session_id).open().outcome("knock").next(who="0")
    assert '<option value="JK=QH" data-points="10">as Q♥</option>' in phone.page
    assert phone.page.count('<select id="joker-0-') == 2
    phone.next(**{"cards-0": ["2C", "JK=5H", ""], "total-1": "9", "total-2": "20"})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert "A knocked with 7 and won" in phone.page
    assert balances_shown(phone.page) == {"A": "+$2.00", "B": "-$1.00", "C": "-$1.00"}
    phone.press(("go", "edit"))
    assert re.search(r'<select id="joker-0-1" name="cards-0" class="joker-as">.*?<option value="JK=5H" data-points="5" selected>',
                     phone.page, flags=re.S)


def test_seven_card_deals(client: Any) -> None:
    session_id = start(client, ABC, "1.00", **{"rule-hand_size": "7"})
    assert api_session(client, session_id)["ruleset"]["hand_size"] == 7
    phone = Phone(client, session_id).open().outcome("deal_tonk").next(claimant=["1"])
    assert "Tap the 7 cards each claimant was dealt." in phone.page
    # a 7-card hand at the end of a knock is fine here (it would be too many with 5-card deals)
    phone = Phone(client, session_id).open().outcome("knock").next(who="0")
    assert "7-card deal" in phone.page
    phone.next(**{"total-0": "3", "cards-1": ["2C", "3C", "4C", "5D", "6D", "7H", "8H"], "total-2": "20"})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert balances_shown(phone.page) == {"A": "+$2.00", "B": "-$1.00", "C": "-$1.00"}
    too_many = phone.press(("go", "edit")).next(**{"cards-1": ["2C", "3C", "4C", "5D", "6D", "7H", "8H", "9H"]})
    assert too_many.status == 422
    assert error_for(too_many.page, "cards-1") == "B's hand shows 8 cards; at most 7 can be held at the end of a hand."


def test_double_double_when_the_night_plays_it(client: Any) -> None:
    """§4.9: A tonks out with 5♥ 6♥ 7♥; B holds 8♥ 9♥ and could go out on it → B pays A 4S."""
    two = {"name": "Two", "players": ["A", "B"], "first_dealer": "A", "currency": "USD"}
    plain = start(client, two, "1.00", preset="wikipedia")
    assert 'value="double_double"' not in Phone(client, plain).open().page
    three = start(client, ABC, "1.00", preset="wikipedia", **{"rule-double_double": ["false", "true"]})
    assert 'value="double_double"' not in Phone(client, three).open().page  # two players only (§4.9)
    session_id = start(client, two | {"name": "DD"}, "1.00", preset="wikipedia", **{"rule-double_double": ["false", "true"]})
    phone = Phone(client, session_id).open()
    assert 'value="double_double"' in phone.page
    phone.outcome("double_double")
    assert "Who tonked out first?" in phone.page and "Who could have gone out on the same run?" in phone.page
    phone.next(who="0", responder="1")
    assert phone.heading() == "Double-double: the hands"
    assert 'name="final" value="5H"' in phone.page and 'name="total-1"' not in phone.page
    phone.next(final=["5H", "6H", "7H"], **{"cards-1": ["8H", "9H"]})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert payments_shown(phone.page) == [("B", "A", "$4.00")]
    phone.press(("go", "edit")).next(final=["5H", "6H", "7H"], **{"cards-1": ["8H", "10H"]})
    assert phone.status == 422 and "cannot all go out on the run" in error_for(phone.page, "cards-1")
    phone.next(final=["5H", "6H", "7H"], **{"cards-1": ["8H", "9H"]})
    phone.press(("go", "save"))
    assert phone.status == 302
    assert stored_hand(client, session_id, 1)["outcome"] == {
        "kind": "double_double", "first_tonker": "A", "responder": "B", "tonker_final_spread": ["5H", "6H", "7H"]}


def test_only_the_questions_the_rules_need(client: Any) -> None:
    classic = start(client, ABC, "1.00")
    page = Phone(client, classic).open().outcome("knock").page
    assert 'name="lock_turns"' not in page and "Check payouts" in page
    page = Phone(client, classic).open().outcome("deal_tonk").page
    assert 'name="before_drop"' not in page

    house = start(client, ABC | {"name": "House"}, "1.00", preset="wikipedia", **{
        "rule-deal_tonk_49_timing": "in_turn", "rule-tonk_out_double_requires": "new_spread"})
    page = Phone(client, house).open().outcome("knock").page
    assert 'name="lock_turns"' in page  # Wikipedia's hit lock
    page = Phone(client, house).open().outcome("deal_tonk").page
    assert 'name="before_drop" value="yes"' in page
    phone = Phone(client, house).open().outcome("tonk_out")
    assert 'name="spread_cards"' in phone.page and 'name="hit_cards"' in phone.page
    phone.next(who="0", spread_cards="0", hit_cards="2")  # emptied by hits alone: 1× each (§4.3)
    assert balances_shown(phone.page) == {"A": "+$2.00", "B": "-$1.00", "C": "-$1.00"}


def test_rules_page_lists_changes_and_nets(client: Any) -> None:
    session_id = start(client, ABC, "0.25", preset="texas", **{"rule-spade_side_pot": ["false", "true"]})
    page = client.get(f"/s/{session_id}/rules").get_data(as_text=True)
    text = text_of(page)
    assert "House changes Spade side pot: on" in text
    assert re.search(r'<li class="is-changed">Spade side pot: the highest spade dealt', page)
    # §10 example 2 at this table (Texas, S = 25): A −$0.50, B +$0.50, C $0.00
    caught = text[text.index("Knock, caught"):text.index("Catch tie")]
    assert "A pays B $0.50" in caught and "C pays" not in caught
    assert "A -$0.50 B +$0.50 C $0.00" in caught
    assert format_minor(25, "USD") in text


def test_table_screen_shows_the_house_changes(client: Any) -> None:
    created = client.post("/api/v1/sessions", json={
        "name": "Wiki night", "currency": "USD", "stake": 100, "players": ["A", "B", "C"],
        "ruleset": {"preset": "wikipedia", "toggles": {"spade_side_pot": True}}}).get_json()
    client.get(f"/join/{created['id']}/{created['token']}")
    page = client.get(f"/s/{created['id']}").get_data(as_text=True)
    assert "Wikipedia rules" in page
    assert "House rules: Spade side pot: on" in page
