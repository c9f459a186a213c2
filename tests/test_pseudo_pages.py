"""Every night page in the pseudo language (``en-XA``, ``I18N_PSEUDO``): no English left unwrapped.

A night with players named in Greek and Lao (so that names never count as English) is played
through the API and the phone pages: a deal tonk, a tonk out, an out by discard, dry stocks, a
caught knock, a voided hand, a corrected hand, a payment, a player sitting in, a stake change,
a cash-out, an undo. Then every page of it is opened with ``?lang=en-XA`` (record steps for each
outcome, history, log, settle, seats, share, phones, rules, the confirm and cash-out pages, the
home, join and recover pages, the expired-form page, 403 and 404) and its visible text read with
:func:`tests.i18n_text.english_left`.

Sentences made in Python (flash messages, refusals, outcome descriptions, form titles built in
``ledger/web/*.py`` or the engine) are wrapped by other branches. Until they are merged, English
found in a page is split: words written in our templates fail the test; words that come from
Python sources or the club templates are printed (``-s`` shows them). Setting ``STRICT = True``
makes every leftover fail (the form to keep once every branch is merged).

Not catalogue text, and never counted in either mode: a ``<time>``'s text and the names Babel
writes (days, months, currencies and their codes), which the pseudo language formats as
``en_US``; the browser and system names of a phone's label ("Chrome", "Android").
"""
from __future__ import annotations

import ast
import html
import json
import re
from functools import lru_cache
from typing import Any, Iterator

import pytest
from babel import Locale

from conftest import REPO, load_json
from i18n_text import ALLOWED, english_left
from ledger import create_app
from ledger.web.formatting import phone_label
from ledger.web.start_form import currency_choices
from renamed import renamed as renamed_as
from test_web_pages import csrf_of
from test_web_table_ready import MOBILE

STRICT = True  # every branch's sentences are wrapped: any English left fails
PSEUDO = "en-XA"
NAMES = {"Dee": "Ζωή", "Marcus": "ສົມ", "Rosa": "Αλέξης", "Tomás": "Δήμος"}
NEWCOMER = "Ελένη"
NIGHT_NAME = "Βράδυ στης Ζωής"
# templates another branch wraps (the clubs' pages and the share panel)
OTHERS_TEMPLATES = ("club*.html", "_club_*.html", "_share_panel.html")
_WORD = re.compile(r"[A-Za-z]{2,}")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_TAG = re.compile(r"<[^>]*>")
_SHOWN = re.compile(r'\b(?:title|aria-label|alt|placeholder|value|data-confirm)="([^"]*)"')
_RUN = re.compile(r"[A-Za-z][A-Za-z'’ -]*")


# -- where a leftover comes from ---------------------------------------------------------------------
def _words_line(text: str) -> str:
    """``text``'s words on one line, placeholders (``{winner}``) dropped."""
    return " ".join(_WORD.findall(_PLACEHOLDER.sub(" ", text)))


def _python_strings(source: str) -> list[str]:
    """The string literals of a Python module (f-strings' fixed parts too), docstrings left out."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


@lru_cache(maxsize=1)
def _elsewhere_text() -> str:
    """The words of every string in the Python sources and of the templates other branches own,
    one string after another (`` § `` between them, so that no run crosses two)."""
    texts = [text for p in sorted((REPO / "ledger").rglob("*.py")) for text in _python_strings(p.read_text(encoding="utf-8"))]
    for pattern in OTHERS_TEMPLATES:
        texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "templates").glob(pattern))]
    return " § " + " § ".join(_words_line(text) for text in texts) + " § "


def _shown_attributes(tag: re.Match[str]) -> str:
    """A tag as the words a person reads in it (``title``, ``aria-label``, ``placeholder``...)."""
    return " § " + " § ".join(_SHOWN.findall(tag.group(0))) + " § "


@lru_cache(maxsize=1)
def _our_literal_text() -> str:
    """The words written as they are (outside any ``{{ }}``, ``{% %}``, ``{# #}``) in our templates."""
    others = {p for pattern in OTHERS_TEMPLATES for p in (REPO / "templates").glob(pattern)}
    texts = [_TAG.sub(_shown_attributes, _JINJA.sub(" § ", p.read_text(encoding="utf-8")))
             for p in sorted((REPO / "templates").glob("*.html")) if p not in others]
    return " § " + " § ".join(_words_line(text) for text in texts) + " § "


@lru_cache(maxsize=1)
def _elsewhere_words() -> frozenset[str]:
    return frozenset(_elsewhere_text().split())


@lru_cache(maxsize=1)
def not_catalogue_words() -> frozenset[str]:
    """Words on a pseudo-language page that no catalogue holds: what Babel writes in the pseudo
    language's format locale (``en_US``: day and month names, the start form's currencies, UTC) and
    the brand names in a phone's label (ledger/web/formatting.py)."""
    english = Locale.parse("en_US")
    names = [name for width in ("wide", "abbreviated") for context in ("format", "stand-alone")
             for table in (english.days, english.months) for name in table[context][width].values()]
    names += [label for _code, label in currency_choices("en_US")] + ["UTC"]  # "USD · US Dollar"
    brands = [w for w in _WORD.findall(phone_label(MOBILE)) if w[0].isupper()]
    return frozenset(w for name in names for w in _WORD.findall(name)) | frozenset(brands)


def made_elsewhere(piece: str) -> bool:
    """Whether the English in ``piece`` comes from a Python string or another branch's template.

    ``piece`` is split into runs of English words (between names, numbers and punctuation). A run
    of several words written as it is in one of our templates (outside ``{{ }}``) is ours. Any
    other run is from elsewhere when each of its words is in a Python string or another branch's
    template: Python glues some sentences from pieces ("knocked" + " with 4"), so a run is not
    looked for whole there."""
    for run in _RUN.findall(piece):
        words = [w for w in _WORD.findall(run) if w not in ALLOWED and w not in not_catalogue_words()]
        if not words:
            continue
        if len(words) > 1 and f" {' '.join(words)} " in _our_literal_text():
            return False
        if not set(words) <= _elsewhere_words():
            return False
    return True


def split_leftovers(page: str, codes: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """``(ours, theirs)``: English left in ``page`` from our templates, and from elsewhere (all
    of it is ours with ``STRICT``). A ``<time>``'s text is a date Babel wrote: not read."""
    without_times = re.sub(r"(<time\b[^>]*>).*?(</time>)", r"\1\2", page, flags=re.S)
    left = english_left(without_times, not_catalogue_words())
    if STRICT:
        return left, []

    # the table code is shown by the share panel (another branch's template), in groups: "K7Q M2X"
    def known(piece: str) -> str:
        for code in codes:
            piece = piece.replace(code, " ")
        return piece

    theirs = [piece for piece in left
              if made_elsewhere(known(piece)) or piece.replace(" ", "") in codes]
    return [piece for piece in left if piece not in theirs], theirs


# -- the night --------------------------------------------------------------------------------------
def renamed(value: Any) -> Any:
    return renamed_as(value, NAMES)


def lang(path: str) -> str:
    return path + ("&" if "?" in path else "?") + f"lang={PSEUDO}"


def catalogue_template_is_current() -> None:
    """The pseudo language is made from ledger/translations/messages.pot: a template extracted
    before these pages' sentences were wrapped would leave them all in English."""
    pot = (REPO / "ledger" / "translations" / "messages.pot").read_text(encoding="utf-8")
    for sentence in ("Log of every change", "Hand {number}: how did it end?", "Kept on this phone; sending them in order."):
        if f'msgid "{sentence}"' not in pot:
            pytest.fail(f"ledger/translations/messages.pot lacks {sentence!r}: extract the sentences again "
                        "(make translations) before reading pages in the pseudo language")


@pytest.fixture
def pseudo_app(database_url: str) -> Iterator[Any]:
    catalogue_template_is_current()
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "I18N_PSEUDO": True})
    yield app
    app.extensions["ledger.engine"].dispose()


class Night:
    """night-01 in Greek and Lao, played so that every kind of line shows somewhere."""

    def __init__(self, app: Any) -> None:
        data = renamed(load_json("nights/night-01.json"))
        self.app = app
        self.data = data
        self.players = list(data["players"])
        api = app.test_client()
        api.environ_base["HTTP_USER_AGENT"] = MOBILE
        body = api.post("/api/v1/sessions", json={
            "name": NIGHT_NAME, "currency": "USD", "stake": 25, "ruleset": {"preset": "classic", "toggles": {}},
            "players": self.players, "first_dealer": data["first_dealer"],
        }).get_json()
        self.id = body["id"]
        self.body = body
        self.api = api
        self.auth = {"Authorization": f"Bearer {body['token']}"}
        self.host = self.phone(f"/join/{self.id}/{body['token']}")
        self.viewer = self.phone(body["links"]["viewer"])

    def phone(self, link: str) -> Any:
        client = self.app.test_client()
        client.environ_base["HTTP_USER_AGENT"] = MOBILE
        # the phone reads the pseudo language from the start: the name it is given when it joins
        # ("Android · Chrome": brand names, the same in every language) is read in it
        assert client.get(f"/language/{PSEUDO}").status_code == 303
        assert client.get(re.sub(r"^https?://[^/]+", "", link)).status_code == 302
        return client

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.api.open(f"/api/v1/sessions/{self.id}{path}", method=method, json=body, headers=self.auth)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def hand(self, index: int) -> dict[str, Any]:
        hand = self.data["hands"][index]
        return {"dealer": hand["dealer"], "outcome": hand["outcome"], "hands": hand["hands"]}

    def play(self) -> None:
        for index in range(12):  # tonk outs, dry stocks, an out by discard, a deal tonk, a caught knock
            self.call("POST", "/hands", self.hand(index), status=201)
        kinds = [h["outcome"]["kind"] for h in self.data["hands"][:12]]
        assert {"tonk_out", "discard_out", "dry_stock", "deal_tonk", "knock"} <= set(kinds)
        self.call("POST", "/hands/4/void")
        stored = self.call("GET", "/hands/2")
        self.call("POST", "/hands/2/amend", self.hand(5) | {"version": stored["version"]}, status=201)
        plan = self.call("GET", "/settlement")["transfers"]
        first = plan[0]
        self.call("POST", "/payments", {"from": first["from"], "to": first["to"], "amount": first["amount"] // 2},
                  status=201)
        self.call("POST", "/players/leave", {"name": self.players[1], "settle": "now"})
        self.call("POST", "/players", {"name": NEWCOMER}, status=201)
        self.call("POST", "/stake", {"stake": 50})
        self.call("POST", "/hands", {"outcome": {"kind": "tonk_out", "winner": NEWCOMER}}, status=201)
        self.call("POST", "/hands", {"outcome": {"kind": "discard_out", "winner": self.players[0]}}, status=201)
        seated = self.call("GET", "")["players"]
        for number in range(15, 56):  # a second page of history
            self.call("POST", "/hands", {"outcome": {"kind": "tonk_out", "winner": seated[number % 4]}}, status=201)
        self.call("POST", "/undo", {})


@pytest.fixture
def night(pseudo_app: Any) -> Night:
    played = Night(pseudo_app)
    played.play()
    return played


# -- the pages ---------------------------------------------------------------------------------------
class Pages:
    """Collects each page read, and what English is left in it."""

    def __init__(self, codes: tuple[str, ...] = ()) -> None:
        self.codes = frozenset(codes)
        self.ours: dict[str, list[str]] = {}
        self.theirs: dict[str, list[str]] = {}
        self.seen = 0

    def check(self, name: str, response: Any, status: int = 200) -> str:
        page = response.get_data(as_text=True)
        assert response.status_code == status, (name, response.status_code, page[:500])
        assert re.search(r'<html lang="en"', page), name
        ours, theirs = split_leftovers(page, self.codes)
        self.seen += 1
        if ours:
            self.ours[name] = ours
        if theirs:
            self.theirs[name] = theirs
        return page

    def check_region(self, name: str, response: Any) -> None:
        assert response.status_code == 200, name
        regions = response.get_json()["regions"]
        ours, theirs = split_leftovers(regions["main"], self.codes)
        if ours:
            self.ours[name] = ours
        if theirs:
            self.theirs[name] = theirs

    def report(self) -> None:
        if self.theirs:
            print("\nEnglish made in Python or another branch's templates (wrapped elsewhere):")
            for name, pieces in self.theirs.items():
                for piece in pieces:
                    print(f"  {name}: {piece}")
        assert self.ours == {}, json.dumps(self.ours, ensure_ascii=False, indent=1)


def record_steps(pages: Pages, night: Night) -> None:
    """Every step of entering each outcome, and its payouts."""
    host, sid = night.host, night.id
    url = f"/s/{sid}/record"
    first = pages.check("record: outcome", host.get(lang(url)))
    base = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', first))
    base.pop("step", None)
    base = {k: html.unescape(v) for k, v in base.items()}
    for kind in ("deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock"):
        pages.check(f"record: {kind}, first step", host.get(lang(f"{url}?kind={kind}")))
        pages.check(f"record: {kind}, on one page", host.get(lang(f"{url}?kind={kind}&whole=1")))
    # each kind through to its payouts, with the night's current seating
    session = night.call("GET", "")
    players = session["players"]
    entries = {
        "deal_tonk": {"kind": "deal_tonk", "claimant": ["0"], "cards-0": ["JC", "KC", "10H", "KD", "KH"]},
        "tonk_out": {"kind": "tonk_out", "who": "1"},
        "knock": {"kind": "knock", "who": "0", "total-0": "9", "total-1": "3", "total-2": "14", "total-3": "20"},
        "dry_stock": {"kind": "dry_stock", "total-0": "9", "total-1": "3", "total-2": "14", "total-3": "20"},
    }
    assert len(players) == 4
    for kind, fields in entries.items():
        who_step = "who" if kind == "tonk_out" else "hands"
        if kind == "deal_tonk":
            hands = pages.check("record: deal tonk, hands", host.post(lang(url), data=base | {
                "kind": kind, "claimant": ["0"], "step": "who", "go": "next"}))
            assert 'name="cards-0"' in hands
        preview = pages.check(f"record: {kind}, payouts",
                              host.post(lang(url), data=base | fields | {"step": who_step, "go": "next"}))
        assert 'class="panel preview"' in preview, kind
    # a refused entry: the error summary beside the field
    refused = pages.check("record: a refused knock", host.post(lang(url), data=base | {
        "kind": "knock", "step": "hands", "go": "next", "total-0": "x"}), status=422)
    assert 'id="error-summary"' in refused
    # the payouts of a hand whose number another phone took meanwhile
    taken = pages.check("record: number taken", host.post(lang(url), data=base | entries["tonk_out"] | {
        "number": "1", "step": "preview", "go": "save"}), status=409)
    assert 'class="panel conflict"' in taken


def test_every_night_page_is_in_the_pseudo_language(night: Night) -> None:
    pages = Pages(codes=(night.body["table_code"],))
    host, sid = night.host, night.id
    for path in ("", "?share=1", "/hands", "/log", "/settle", "/seats", "/phones", "/rules", "/share"):
        pages.check(f"/s/id{path}", host.get(lang(f"/s/{sid}{path}")))
    for view in ("table", "hands", "log", "settle", "seats"):
        pages.check_region(f"live {view}", host.get(lang(f"/s/{sid}/state?view={view}&since=0")))
    assert 'rel="next"' in pages.check("history, page 1", host.get(lang(f"/s/{sid}/hands?page=1")))
    assert 'rel="prev"' in pages.check("history, page 2", host.get(lang(f"/s/{sid}/hands?page=2")))
    token = csrf_of(host.get(lang(f"/s/{sid}/hands")).get_data(as_text=True))

    # the correction of a hand, its steps like a new one's
    pages.check("correct hand 3", host.get(lang(f"/s/{sid}/hands/3/v1/correct")))
    record_steps(pages, night)

    # the questions asked before anything is changed
    pages.check("void: confirm", host.post(lang(f"/s/{sid}/hands/3/void"), data={"csrf_token": token}))
    table = host.get(lang(f"/s/{sid}")).get_data(as_text=True)
    last = re.search(r'<input type="hidden" name="number" value="(\d+)">', table)
    assert last, "the table offers no undo"
    assert 'id="redo-undo"' in table  # the last hand was undone: the redo button shows too
    undo = pages.check("undo: confirm", host.post(lang(f"/s/{sid}/undo"), data={"csrf_token": token,
                                                                                "number": last.group(1)}))
    assert 'name="confirmed" value="yes"' in undo
    payments = night.call("GET", "/payments")["payments"]
    voided = host.post(lang(f"/s/{sid}/payments/{payments[0]['id']}/void"), data={"csrf_token": token})
    assert voided.status_code == 302  # voided at once; the settle page shows it struck through
    pages.check("settle: a voided payment", host.get(lang(f"/s/{sid}/settle")))
    pages.check("close: confirm", host.post(lang(f"/s/{sid}/close"), data={"csrf_token": token}))
    leave = pages.check("leave: the cash-out", host.post(lang(f"/s/{sid}/seats/leave"),
                                                         data={"csrf_token": token, "name": night.players[2]}))
    assert night.players[2] in leave
    pages.check("seats: a refused stake", host.post(lang(f"/s/{sid}/seats/stake"),
                                                    data={"csrf_token": token, "stake": "αβγ"}),
                status=422)
    pages.check("settle: an overpayment", host.post(lang(f"/s/{sid}/payments"), data={
        "csrf_token": token, "kind": "other", "from": night.players[0], "to": night.players[2], "amount": "900"}),
                status=422)
    pages.check("403: a viewer records", night.viewer.get(lang(f"/s/{sid}/record")), status=403)
    # the viewer's phone made a co-host: the phones page says so
    viewer_phone = [p for p in night.call("GET", "/phones") if p["role"] == "viewer"]
    assert viewer_phone
    made = host.post(lang(f"/s/{sid}/phones/{viewer_phone[0]['id']}/host"), data={"csrf_token": token})
    assert made.status_code == 302
    pages.check("phones: a co-host made", host.get(lang(f"/s/{sid}/phones")))

    # the home page lists the night; joining and recovering
    pages.check("home", host.get(lang("/")))
    pages.check("join", host.get(lang("/join")))
    pages.check("join: a wrong code", host.post(lang("/join"), data={"csrf_token": token, "code": "ZZZZZZ"}),
                status=422)
    pages.check("recover", host.get(lang("/recover")))
    pages.check("recover: a wrong code", host.post(lang("/recover"), data={"csrf_token": token, "code": "ABCD"}),
                status=422)

    # refusals: another phone, a viewer, an unknown table, an expired form
    stranger = night.app.test_client()
    pages.check("403: no table link", stranger.get(lang(f"/s/{sid}")), status=403)
    pages.check("404", host.get(lang("/s/no-such-night")), status=404)
    pages.check("400: form expired elsewhere", stranger.post(
        lang(f"/s/{sid}/undo"), data={"number": "3"}, headers={"Origin": "https://elsewhere.example"}), status=400)
    pages.check("400: form expired, kept", stranger.post(lang(f"/s/{sid}/record"), data={
        "kind": "tonk_out", "who": "1", "step": "preview", "go": "save"}), status=400)

    # the night closed
    assert host.post(lang(f"/s/{sid}/close"), data={"csrf_token": token, "confirmed": "yes"}).status_code == 302
    for path in ("", "/hands", "/settle", "/seats"):
        pages.check(f"closed /s/id{path}", host.get(lang(f"/s/{sid}{path}")))
    assert pages.seen >= 40
    pages.report()


def test_a_night_started_on_the_phone_shows_its_recovery_code_in_the_pseudo_language(pseudo_app: Any) -> None:
    phone = pseudo_app.test_client()
    assert phone.get(f"/language/{PSEUDO}").status_code == 303
    home = phone.get(lang("/")).get_data(as_text=True)
    form = {"csrf_token": csrf_of(home), "name": NIGHT_NAME, "stake": "0.25", "currency": "USD", "preset": "classic",
            "first_dealer": "0", "player-0": "Ζωή", "player-1": "ສົມ", "player-2": "Αλέξης", "player-3": ""}
    # the refused form first (one seat missing a name is fine; a stake that is not a number is not)
    pages = Pages()
    pages.check("home: a refused start", phone.post(lang("/"), data=form | {"stake": "αβγ", "go": "start"}),
                status=422)
    pages.check("home: what the rules pay", phone.post(lang("/"), data=form | {"go": "rules"}))
    started = phone.post(lang("/"), data=form | {"go": "start"})
    assert started.status_code == 302
    response = phone.get(lang(started.headers["Location"]))
    code = re.search(r'data-code="([^"]+)"', response.get_data(as_text=True))
    assert code, "the new table shows no table code"
    pages.codes = frozenset({code.group(1)})
    table = pages.check("new table", response)
    assert 'id="recovery-code"' in table
    pages.report()
