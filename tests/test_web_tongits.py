"""A Tong-its night on the phone pages without JavaScript (Flask's test client, real database;
issue 21 item 4, TONGITS.md §4, §8.1): the start form offers the game first, then its presets;
the record flow asks only what each outcome needs; the payouts page shows who pays whom and the
pot; the table screen shows the pot; the offline queue's JSON save records a kept hand. Every
expected figure comes from the engine, scored from the pot state the previous hand left."""
from __future__ import annotations

import html
import re
from typing import Any

import pytest

from ledger.games import game
from test_web_pages import csrf_of, error_for, errors_in, flashes

PLAYERS = ["Ligaya", "Dodong", "Marisol"]
STAKE_MINOR = 500  # ₱5.00
TONGITS = game("tongits")


def hidden_of(page: str) -> dict[str, str]:
    form = page[page.index('id="record-form"'):]
    return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)}


def save_fields(page: str) -> dict[str, str]:
    form = page[page.index('id="save-form"'):page.index("</form>", page.index('id="save-form"'))]
    return {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', form)}


def start_tongits(client: Any, preset: str = "classic", players: list[str] = PLAYERS, **more: str) -> Any:
    token = csrf_of(client.get("/").get_data(as_text=True))
    data = {"csrf_token": token, "name": "Biyernes", "game": "tongits", "tongits_preset": preset, "stake": "5.00",
            "currency": "PHP", "first_dealer": "1", "preset": "classic"}
    data |= {f"player-{i}": name for i, name in enumerate(players)} | more
    return client.post("/", data=data)


@pytest.fixture
def night_id(client: Any) -> str:
    response = start_tongits(client)
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    return re.match(r"/s/([^/?]+)\?share=1$", response.headers["Location"]).group(1)


class Phone:
    """One phone entering hands; ``expected`` scores the same hand with the engine from the pot
    and dealer the night is at, the way the ledger must."""

    def __init__(self, client: Any, night_id: str) -> None:
        self.client, self.id = client, night_id
        self.url = f"/s/{night_id}/record"
        self.rules = TONGITS.rules({"preset": "classic"})
        self.state = TONGITS.initial_state(self.rules)
        self.dealer = "Dodong"

    def entry_page(self, kind: str) -> str:
        response = self.client.get(self.url, query_string={"kind": kind})
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def check(self, kind: str, answers: dict[str, Any]) -> Any:
        """The entry page's fields as sent back, plus ``answers``, then "Check payouts"."""
        fields = hidden_of(self.entry_page(kind)) | answers | {"go": "next"}
        return self.client.get(self.url, query_string=fields)

    def save(self, preview: Any) -> Any:
        return self.client.post(self.url, data=save_fields(preview.get_data(as_text=True)) | {"go": "save"})

    def expected(self, entry: dict[str, Any]) -> Any:
        return TONGITS.score(self.rules, players=PLAYERS, stake_minor=STAKE_MINOR, dealer=self.dealer,
                             state=self.state, entry=entry)

    def played(self, result: Any) -> None:
        self.dealer = TONGITS.next_dealer(self.rules, PLAYERS, self.dealer, result)
        self.state = result.state


def peso(minor: int) -> str:
    return f"₱{minor // 100:,}.{minor % 100:02d}"


def recorded(number: int, result: Any) -> str:
    """The message a saved hand shows, from the engine's result: the winner's gain after their
    own ante, and the pot after the hand."""
    pot = peso(result.pot.balance_after)
    if result.winner is None:
        return f"Hand {number} recorded: nobody won; the pot is at {pot}"
    gain = result.net[result.winner]
    if gain > 0:
        return f"Hand {number} recorded: {result.winner} won {peso(gain)}; the pot is at {pot}"
    return f"Hand {number} recorded: {result.winner} won, and came out even after the ante; the pot is at {pot}"


def payments_shown(page: str) -> list[tuple[str, str]]:
    block = page[page.index('id="preview-payments"'):page.index("</ul>", page.index('id="preview-payments"'))]
    return [(html.unescape(w), html.unescape(a)) for w, a in
            re.findall(r'<li><span>([^<]*)</span> <span class="pay-amount">([^<]*)</span></li>', block)]


def payments_expected(result: Any) -> list[tuple[str, str]]:
    out = []
    for t in result.transfers:
        words = (f"{t.payer} puts into the pot" if t.payee == "pot" else f"{t.payee} takes from the pot"
                 if t.payer == "pot" else f"{t.payer} pays {t.payee}")
        out.append((words, peso(t.amount_minor)))
    return out


def api(client: Any, night_id: str) -> dict[str, Any]:
    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    link = html.unescape(re.search(r'id="table-link"[^>]*value="([^"]+)"', page).group(1))
    token = link.rsplit("/", 1)[1]
    return client.get(f"/api/v1/sessions/{night_id}", headers={"Authorization": f"Bearer {token}"}).get_json()


# -- starting a night ------------------------------------------------------------------------------
def test_the_start_form_offers_the_game_first_then_its_presets(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    game_at, tongits_at, tonk_at = (page.index('id="field-game"'), page.index('id="field-tongits-preset"'),
                                    page.index('id="field-preset"'))
    assert game_at < tongits_at < tonk_at
    assert 'name="game" value="tonk" checked' in page and 'name="game" value="tongits"' in page
    for preset in TONGITS.presets:
        assert f'name="tongits_preset" value="{preset.name}"' in page
    assert 'name="tongits_preset" value="classic" checked' in page


def test_a_tongits_night_starts_with_its_preset_and_an_empty_pot(client: Any, night_id: str) -> None:
    body = api(client, night_id)
    assert body["game"] == "tongits" and body["ruleset"]["preset"] == "classic"
    assert body["players"] == PLAYERS and body["next_dealer"] == "Dodong"
    assert body["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}
    table = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert re.search(r'id="pot" data-pot-balance="0"', table)
    assert "Nobody holds a streak." in table
    outcomes = re.findall(r'name="kind" value="(\w+)">([^<]*)<', table)
    assert outcomes == [("tongits", "Tong-its"), ("draw", "Draw (laban)"), ("stock_out", "Stock out"),
                        ("redeal", "Redeal")]


def test_a_four_player_table_and_the_seat_range(client: Any) -> None:
    four = start_tongits(client, "growing_pot", PLAYERS + ["Bong"])
    assert four.status_code == 302
    night = re.match(r"/s/([^/?]+)", four.headers["Location"]).group(1)
    body = api(client, night)
    assert body["players"] == PLAYERS + ["Bong"] and body["ruleset"]["four_players"] is True
    assert body["ruleset"]["preset"] == "growing_pot"
    two = start_tongits(client, "classic", PLAYERS[:2])
    assert two.status_code == 422
    assert errors_in(two.get_data(as_text=True)) == [
        "Tong-its is played by 3 to 4 players; type 3 or 4 names, in seat order."]


# -- the hands -------------------------------------------------------------------------------------
def test_a_tongits_win_asks_the_winner_and_shows_payouts_and_pot(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    page = phone.entry_page("tongits")
    assert "Who went out (tong-its)?" in page
    assert 'name="total-0"' not in page and 'name="answer-1"' not in page  # no points, no answers
    assert 'name="burned-1"' in page  # classic charges the burned extra
    preview = phone.check("tongits", {"who": "2"})
    shown = preview.get_data(as_text=True)
    assert preview.status_code == 200, errors_in(shown)
    expected = phone.expected({"outcome": {"kind": "tongits", "winner": "Marisol"}, "hands": {}})
    assert payments_shown(shown) == payments_expected(expected)
    pot = expected.pot
    assert f'data-pot-after="{pot.balance_after}"' in shown
    assert "Marisol holds the streak: 1 win in a row." in shown
    saved = phone.save(preview)
    assert saved.status_code == 302
    table = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert flashes(table) == [recorded(1, expected)]
    phone.played(expected)
    assert re.search(rf'id="pot" data-pot-balance="{pot.balance_after}"', table)
    body = api(client, night_id)
    assert body["net"] == {p: expected.net[p] for p in PLAYERS}
    assert body["pot"] == {"balance_minor": pot.balance_after, "holder": "Marisol", "streak": 1}
    assert body["next_dealer"] == phone.dealer == "Marisol"


def test_a_draw_with_a_fight_and_a_fold_then_a_stock_out(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    page = phone.entry_page("draw")
    assert "Who called the draw (laban)?" in page and 'name="answer-0"' in page and 'name="total-0"' in page
    answers = {"who": "1", "answer-0": "fight", "answer-2": "fold", "total-1": "9", "total-0": "4"}
    preview = phone.check("draw", answers)
    shown = preview.get_data(as_text=True)
    assert preview.status_code == 200, errors_in(shown)
    entry = {"outcome": {"kind": "draw", "caller": "Dodong", "responses": {"Ligaya": "fight", "Marisol": "fold"}},
             "hands": {"Ligaya": {"total": 4}, "Dodong": {"total": 9}}}
    expected = phone.expected(entry)
    assert expected.winner == "Ligaya"
    assert payments_shown(shown) == payments_expected(expected)
    assert "Dodong called a draw (laban); Ligaya won" in html.unescape(shown)
    assert phone.save(preview).status_code == 302
    phone.played(expected)

    # a stock out: every player's points and who showed no meld; the burned lowest cannot win
    answers = {"who": "0", "total-0": "12", "total-1": "7", "total-2": "3", "burned-2": "yes"}
    preview = phone.check("stock_out", answers)
    shown = preview.get_data(as_text=True)
    assert preview.status_code == 200, errors_in(shown)
    entry = {"outcome": {"kind": "stock_out", "last_drawer": "Ligaya"},
             "hands": {"Ligaya": {"total": 12, "opened": True}, "Dodong": {"total": 7, "opened": True},
                       "Marisol": {"total": 3, "opened": False}}}
    expected = phone.expected(entry)
    assert expected.winner == "Dodong"
    assert payments_shown(shown) == payments_expected(expected)
    assert f'data-pot-after="{expected.pot.balance_after}"' in shown
    assert phone.save(preview).status_code == 302
    phone.played(expected)
    body = api(client, night_id)
    assert body["pot"]["balance_minor"] == phone.state["balance"]
    assert sum(body["net"].values()) + body["pot"]["balance_minor"] == 0


def test_the_engines_refusal_is_a_whole_sentence_beside_the_input(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    # the caller's points are needed once someone fights (§4.3: missing_hand)
    refused = phone.check("draw", {"who": "1", "answer-0": "fight", "answer-2": "fold", "total-0": "4"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert error_for(page, "total-1") == "The draw was fought: enter Dodong's cards or total."
    assert 'value="4"' in page  # what was typed is kept
    refused = phone.check("stock_out", {"who": "0", "total-0": "x1"})
    assert error_for(refused.get_data(as_text=True), "total-0") == "“x1” is not a whole number; type digits only, like 12."


def test_a_redeal_pays_nothing_and_keeps_the_dealer(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    preview = phone.check("redeal", {})
    assert preview.status_code == 200
    assert "Nobody pays: the hand is redealt." in preview.get_data(as_text=True)
    assert phone.save(preview).status_code == 302
    body = api(client, night_id)
    assert body["next_dealer"] == "Dodong" and body["pot"]["balance_minor"] == 0


def test_the_offline_queues_json_save_records_a_kept_hand_once(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    kept = hidden_of(phone.entry_page("tongits")) | {"who": "0"}  # what offline-queue.js keeps
    kept["csrf_token"] = csrf_of(phone.entry_page("tongits"))
    sent = kept | {"step": "preview", "go": "save"}
    answer = client.post(phone.url, data=sent, headers={"Accept": "application/json"})
    expected = phone.expected({"outcome": {"kind": "tongits", "winner": "Ligaya"}, "hands": {}})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json() == {"number": 1, "created": True,
                                 "message": recorded(1, expected)}
    again = client.post(phone.url, data=sent, headers={"Accept": "application/json"})
    assert again.status_code == 200 and again.get_json()["created"] is False
    # a fought draw with no points typed: the engine's code, its sentence and the field
    refused = client.post(phone.url, data=kept | {"key": "another-key", "number": "2", "kind": "draw", "go": "save",
                                                  "answer-1": "fight", "step": "preview"},
                          headers={"Accept": "application/json"})
    assert refused.status_code == 422
    assert refused.get_json() == {"error": "missing_hand", "field": "hands.Ligaya",
                                  "message": "The draw was fought: enter Ligaya's cards or total."}
    assert api(client, night_id)["hand_count"] == 1


def test_the_host_corrects_a_hand_and_the_later_pot_follows(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    for winner in ("2", "2"):  # Marisol twice: the second win takes the pot (classic: two in a row)
        assert phone.save(phone.check("tongits", {"who": winner})).status_code == 302
    url = f"/s/{night_id}/hands/1/v1/correct"
    page = client.get(url).get_data(as_text=True)
    assert "Correcting hand 1 (version 1)" in page and "Who went out (tong-its)?" in page
    assert re.search(r'name="who" value="2" checked', page)  # filled from the stored entry
    fields = hidden_of(page) | {"who": "0", "go": "next"}
    preview = client.get(url, query_string=fields)
    shown = preview.get_data(as_text=True)
    assert preview.status_code == 200, errors_in(shown)
    first = phone.expected({"outcome": {"kind": "tongits", "winner": "Ligaya"}, "hands": {}})  # from the empty pot
    assert payments_shown(shown) == payments_expected(first)
    assert "Save correction to hand 1" in shown
    saved = client.post(url, data=save_fields(shown) | {"go": "save"})
    assert saved.status_code == 302
    phone.played(first)
    second = phone.expected({"outcome": {"kind": "tongits", "winner": "Marisol"}, "hands": {}})
    phone.played(second)
    body = api(client, night_id)
    assert body["net"] == {p: first.net[p] + second.net[p] for p in PLAYERS}
    assert body["pot"] == {"balance_minor": phone.state["balance"], "holder": "Marisol", "streak": 1}


def test_the_rules_page_prices_tongits_examples_with_the_engine(client: Any, night_id: str) -> None:
    page = client.get(f"/s/{night_id}/rules").get_data(as_text=True)
    assert "Classic chips preset, frozen when the night started" in html.unescape(page)
    rules = TONGITS.rules({"preset": "classic"})
    first = TONGITS.score(rules, players=PLAYERS, stake_minor=STAKE_MINOR, dealer=PLAYERS[0],
                          state=TONGITS.initial_state(rules), entry={"outcome": {"kind": "tongits", "winner": "Ligaya"}})
    article = page[page.index('<article class="example">'):page.index("</article>")]
    shown = [(html.unescape(w), html.unescape(a)) for w, a in
             re.findall(r'<li><span>([^<]*)</span> <span class="pay-amount">([^<]*)</span></li>', article)]
    assert shown == payments_expected(first)
    assert "Ligaya went out: tong-its" in article
    assert page.count('<article class="example">') == 6  # the sixth: a second win in a row takes the pot
    assert "Ligaya took the pot" in page


def test_a_hand_entered_before_the_stake_changed_comes_back_at_the_table_now(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    preview = phone.check("tongits", {"who": "1"})  # entered at ₱5.00
    token = csrf_of(client.get(f"/s/{night_id}/seats").get_data(as_text=True))
    changed = client.post(f"/s/{night_id}/seats/stake", data={"csrf_token": token, "stake": "10.00"})
    assert changed.status_code == 302  # the host, meanwhile, on the Seats and stake page
    refused = phone.save(preview)
    shown = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "Check the hand against the table as it is now" in html.unescape(shown)
    at_now = TONGITS.score(phone.rules, players=PLAYERS, stake_minor=1000, dealer="Dodong", state=phone.state,
                           entry={"outcome": {"kind": "tongits", "winner": "Dodong"}, "hands": {}})
    assert payments_shown(shown) == payments_expected(at_now)  # the payouts at ₱10.00, to check
    saved = client.post(phone.url, data=save_fields(shown) | {"go": "save"})
    assert saved.status_code == 302
    assert api(client, night_id)["net"] == {p: at_now.net[p] for p in PLAYERS}


def test_a_hand_number_another_phone_took_is_offered_as_the_next(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    mine = phone.check("tongits", {"who": "0"})
    other = phone.check("tongits", {"who": "2"})  # another phone, also entering hand 1
    assert phone.save(other).status_code == 302
    first = phone.expected({"outcome": {"kind": "tongits", "winner": "Marisol"}, "hands": {}})
    phone.played(first)
    again = phone.save(mine)
    shown = again.get_data(as_text=True)
    assert again.status_code == 409
    assert html.unescape(re.search(r'class="error" id="err-form" role="alert">([^<]*)<', shown).group(1)).startswith(
        "Hand 1 was already recorded")
    second = phone.expected({"outcome": {"kind": "tongits", "winner": "Ligaya"}, "hands": {}})
    assert payments_shown(shown) == payments_expected(second)  # scored from the pot hand 1 left
    assert save_fields(shown)["number"] == "2"
    assert client.post(phone.url, data=save_fields(shown) | {"go": "save"}).status_code == 302
    assert api(client, night_id)["hand_count"] == 2


def test_cards_typed_instead_of_points_are_counted_with_the_best_melds(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    answers = {"who": "0", "cards-0": "2c 3c 4c 9d", "total-1": "7", "total-2": "12"}
    preview = phone.check("stock_out", answers)
    shown = preview.get_data(as_text=True)
    assert preview.status_code == 200, errors_in(shown)
    expected = phone.expected({"outcome": {"kind": "stock_out", "last_drawer": "Ligaya"},
                               "hands": {"Ligaya": {"cards": ["2c", "3c", "4c", "9d"], "opened": True},
                                         "Dodong": {"total": 7, "opened": True},
                                         "Marisol": {"total": 12, "opened": True}}})
    assert expected.points["Ligaya"] == 9  # the run 2-3-4♣ held in hand counts 0
    assert payments_shown(shown) == payments_expected(expected)
    assert re.search(r'<span class="shown-name">Ligaya</span> <span class="shown-count">9 pts</span>', shown)
    # a card that is not a card is refused beside the cards, as typed
    refused = phone.check("stock_out", answers | {"cards-0": "2c 3c 4c 1x"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and error_for(page, "cards-0")
    assert 'value="2c 3c 4c 1x"' in page


def test_the_hand_page_speaks_the_tables_filipino(client: Any, night_id: str) -> None:
    page = html.unescape(client.get(f"/s/{night_id}/record", query_string={"kind": "draw", "lang": "fil"})
                         .get_data(as_text=True))
    assert "Sino ang nag-draw (laban)?" in page and "Lumalaban" in page and "Walang bahay: sunog" in page
    table = html.unescape(client.get(f"/s/{night_id}", query_string={"lang": "fil"}).get_data(as_text=True))
    assert "Pot: " in table and "Walang may hawak ng sunod-sunod na panalo." in table


def test_a_correction_another_phone_beat_saves_nothing(client: Any, night_id: str) -> None:
    phone = Phone(client, night_id)
    assert phone.save(phone.check("tongits", {"who": "2"})).status_code == 302
    url = f"/s/{night_id}/hands/1/v1/correct"
    mine = client.get(url, query_string=hidden_of(client.get(url).get_data(as_text=True)) | {"who": "0", "go": "next"})
    theirs = client.get(url, query_string=hidden_of(client.get(url).get_data(as_text=True)) | {"who": "1", "go": "next"})
    assert client.post(url, data=save_fields(theirs.get_data(as_text=True)) | {"go": "save"}).status_code == 302
    late = client.post(url, data=save_fields(mine.get_data(as_text=True)) | {"go": "save"})
    assert late.status_code == 302
    rules = TONGITS.rules({"preset": "classic"})
    theirs_scored = TONGITS.score(rules, players=PLAYERS, stake_minor=STAKE_MINOR, dealer="Dodong",
                                  state=TONGITS.initial_state(rules),
                                  entry={"outcome": {"kind": "tongits", "winner": "Dodong"}, "hands": {}})
    assert flashes(client.get(late.headers["Location"]).get_data(as_text=True)) == [
        recorded(1, theirs_scored).replace("recorded:", "corrected (version 2):"),  # the other phone's, not yet read
        "Hand 1 was changed on another phone (now version 2); compare both before amending again."]
    hands = api(client, night_id)
    assert hands["net"]["Dodong"] > 0  # the first correction stands
    # the old version's link leads to the version now recorded
    stale = client.get(url)
    assert stale.status_code == 302 and stale.headers["Location"].endswith("/hands/1/v2/correct")


def test_a_redo_the_pot_refuses_says_why_on_the_table(app: Any, client: Any) -> None:
    """Hand 1 undone, its winner left, then the table's "Redo": counting it again would leave the
    pot's streak with a player who is gone; the table says so (it was a 500 for any refusal of a
    correction by the game) and nothing changes."""
    from ledger.night import lifecycle as ledger_night, seating
    from ledger.storage.db import LedgerSession
    from ledger.storage.models import GameSession

    started = start_tongits(client, "classic", PLAYERS + ["Bong"])
    night_id = re.match(r"/s/([^/?]+)", started.headers["Location"]).group(1)
    with app.test_request_context(), LedgerSession(app.extensions["ledger.engine"], expire_on_commit=False) as db:
        night = db.get(GameSession, night_id)
        ledger_night.record_hand(db, night, ledger_night.Submission(
            outcome={"kind": "tongits", "winner": "Ligaya"}, hands={p: {"opened": False} for p in PLAYERS[1:] + ["Bong"]}))
        ledger_night.undo_last_hand(db, night)
        seating.leave(db, night, "Ligaya", "now")
    before = api(client, night_id)
    table = client.get(f"/s/{night_id}").get_data(as_text=True)
    redone = client.post(f"/s/{night_id}/redo", data={"csrf_token": csrf_of(table)}, follow_redirects=True)
    assert redone.status_code == 200
    assert flashes(redone.get_data(as_text=True)) == [
        "This change would leave the pot's streak with Ligaya, who has left the table, so it was not made."]
    assert api(client, night_id) == before
    history = client.get(f"/s/{night_id}/hands").get_data(as_text=True)
    restored = client.post(f"/s/{night_id}/hands/1/restore", data={"csrf_token": csrf_of(history)},
                           follow_redirects=True)
    assert restored.status_code == 200
    assert flashes(restored.get_data(as_text=True)) == [
        "This change would leave the pot's streak with Ligaya, who has left the table, so it was not made."]
    assert api(client, night_id) == before
