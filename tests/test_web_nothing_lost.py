"""Phone pages of the "nothing lost" issue, through Flask's test client on a real database:
a saved form changed into a refused entry keeps everything typed (finding 2), the start form
seats as many players as the rules allow (finding 8) and the two join doors share one budget
of guesses (finding 10). The layout findings are measured in Chromium (``tests/browser``)."""
from __future__ import annotations

import re
from typing import Any

from test_web_pages import Table, api_session, error_for, field_value, hand_form, start_night
import pytest


@pytest.fixture
def night_id(client: Any, night_data: dict[str, Any]) -> str:
    return start_night(client, night_data)


def test_finding_2_changed_saved_form_refused_by_rules_shows_message(
    client: Any, night_id: str, night_data: dict[str, Any]
) -> None:
    """Save a hand, go Back, change the form into an entry the rules refuse, Save again: the
    rule's message is shown on the form with every card and total typed kept (never a 500)."""
    players = night_data["players"]
    table = Table(client, night_id)
    base = table.start()
    first = hand_form(night_data["hands"][0], players) | base | {"step": "preview", "go": "save"}
    assert table.post(first).status_code == 302
    # Back to the saved form (same key), now a dry stock where Marcus holds Dee's ace of hearts
    changed = hand_form(night_data["hands"][1], players) | base | {"step": "preview", "go": "save"}
    changed["cards-1"] = ["AH", "4S"]
    again = table.post(changed)
    page = again.get_data(as_text=True)
    assert again.status_code == 422
    assert error_for(page, "cards-1") == "The A♥ appears in Dee's hand and in Marcus's hand; a deck has only one."
    for i in range(3):
        for card in changed[f"cards-{i}"]:
            assert re.search(rf'name="cards-{i}" value="{card}"[^>]*checked', page, flags=re.S), card
    assert field_value(page, "total-3") == "4"
    dealer = changed["dealer"]
    assert f'<option value="{dealer}" selected>{players[int(dealer)]}</option>' in page  # the dealer kept
    assert api_session(client, night_id)["hand_count"] == 1
    # the form now stands for a new hand: fixed and saved, it is hand 2 and hand 1 is untouched
    assert "it will be a new hand 2" in error_for(page, "form")
    fixed = changed | {"cards-1": ["AD", "4S"], "key": field_value(page, "key"), "number": field_value(page, "number")}
    assert fixed["key"] != base["key"]
    assert table.post(fixed).status_code == 302
    state = api_session(client, night_id)
    expected = {p: night_data["hands"][0]["expected"]["net"][p] + night_data["hands"][1]["expected"]["net"][p]
                for p in players}
    assert state["hand_count"] == 2 and state["net"] == expected
