"""The same refused hand in every language: the API's ``error`` code and ``field`` never change
(machines read them), the ``message`` is the sentence of the language ``Accept-Language`` asks
for, written in its script, and English is today's sentence exactly."""
from __future__ import annotations

import re
from typing import Any

import pytest

from ledger.i18n import LANGUAGES, SOURCE
from test_api_sessions import BAD_ENTRIES, post_hand

SCRIPTS = {"lo": re.compile("[\u0e80-\u0eff]"), "ml": re.compile("[\u0d00-\u0d7f]")}
OTHERS = sorted(code for code in LANGUAGES if code != SOURCE)


@pytest.mark.parametrize(("label", "body", "status", "code", "field"), BAD_ENTRIES, ids=[b[0] for b in BAD_ENTRIES])
def test_a_refused_hand_reads_in_each_language(
    client: Any, open_night: dict[str, Any], label: str, body: dict[str, Any], status: int, code: str, field: str
) -> None:
    english = post_hand(client, open_night, body, **{"Accept-Language": "en"})
    assert english.status_code == status
    said = english.get_json()
    assert (said["error"], said["field"]) == (code, field)
    assert english.headers["Content-Language"] == "en"
    for lang in OTHERS:
        response = post_hand(client, open_night, body, **{"Accept-Language": f"{lang};q=0.9, en;q=0.5"})
        answer = response.get_json()
        assert response.status_code == status, lang
        assert (answer["error"], answer["field"]) == (code, field), lang
        assert response.headers["Content-Language"] == lang
        assert answer["message"] and answer["message"] != said["message"], (lang, answer["message"])
        if lang in SCRIPTS:
            assert SCRIPTS[lang].search(answer["message"]), (lang, answer["message"])
