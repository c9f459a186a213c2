"""Narrow table headers in Lao (issue 23 item 7) in real Chromium: at 320 CSS px the club
standings' column headers wrap between syllables and words, never inside one: every line
break the browser makes in a header is one of ICU's line break opportunities."""
from __future__ import annotations

from typing import Any

import pytest

from ledger.statements.breaks import boundaries

pytestmark = pytest.mark.browser

LINES = """(th) => {
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  let text = ""; const tops = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      tops.push(rects.length && node.data[i].trim() ? rects[0].top : null);
      text += node.data[i];
    }
  }
  return {text, tops};
}"""


def line_starts(text: str, tops: list[float | None]) -> list[int]:
    """Where a new line starts in ``text`` (an index whose character sits lower than the last
    character drawn before it; combining marks share their letter's line)."""
    starts, last = [], None
    for i, top in enumerate(tops):
        if top is None:
            continue
        if last is not None and top > last + 2:
            starts.append(i)
        last = top if last is None or top > last + 2 else last
    return starts


def test_the_standings_headers_wrap_lao_between_syllables(app: Any, phone: Any, live_server: str) -> None:
    created = app.test_client().post("/api/v1/clubs", json={"name": "ສະໂມສອນວັນສຸກ", "currency": "USD",
                                                             "members": ["ສົມພອນ", "ບຸນມີ", "Dee"]})
    assert created.status_code == 201
    club = created.get_json()
    page = phone
    page.set_viewport_size({"width": 320, "height": 800})
    page.goto(f"{live_server}/language/lo")
    page.goto(f"{live_server}/c/join/{club['id']}/{club['token']}")
    page.goto(f"{live_server}/c/{club['id']}/standings")
    headers = page.locator("#standings thead th")
    assert headers.count() >= 8
    wrapped = 0
    for i in range(headers.count()):
        laid = headers.nth(i).evaluate(LINES)
        text = laid["text"]
        starts = line_starts(text, laid["tops"])
        stripped = len(text) - len(text.lstrip())
        marks = {b + stripped for b in boundaries(text.strip())}
        bad = [s for s in starts if s not in marks and text[:s].strip()]
        assert not bad, [(text[:s], text[s:]) for s in bad]
        wrapped += bool(starts)
    assert wrapped >= 2  # the narrow headers did wrap
