"""The "start a night" form: what the organiser typed, checked, and turned into a night.

Players are typed in seat order; blank seats are skipped. The form shows as many seats as the
chosen rules allow (``max_players``) and more on request: "Add a seat" (``go=add_seat``)
re-renders it with one more field and everything typed kept (``static/seats.js`` adds the field in
place instead). Every posted ``player-<i>`` field is read, shown or not; more names than the
rules seat are refused beside the seats, never dropped. The first dealer is chosen by seat
(a radio on the player's row), so the form works without JavaScript. The stake is typed as
money ("0.25") and parsed exactly with :func:`ledger.money.parse_amount`. Every refusal is
kept as ``errors[field]`` beside the input, with everything typed kept.

The game comes first (``game``: ``tonk``, the default, or ``tongits``), then that game's
presets: Tonk's ``preset`` radios with the "House rules" controls below, or Tong-its'
``tongits_preset`` radios (TONGITS.md §7; its seat range, 3 or 4 players, is the engine's, and
four names typed seat four: ``four_players``). For Tonk the rules are a preset plus the "House rules" controls (:mod:`ledger.web.house_rules`): only
the toggles that differ from the preset are sent to :meth:`RuleSet.from_spec` as overrides. The
"Show what these rules pay" button (``go=rules``) re-renders the page with everything kept and
the rules in words, without starting the night. Refusals are sentences in the request's
language (:mod:`ledger.i18n`).
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from dataclasses import dataclass, field
from typing import Collection, Mapping

from babel.dates import format_date
from babel.numbers import get_currency_name

from ledger.night import lifecycle as ledger_night
from ledger.i18n import N_, _, format_locale, ngettext
from ledger.storage.models import GameSession
from ledger.money import POINTS, parse_amount
from ledger.games import game as game_of
from ledger.games.tonk import PRESETS, HandError
from ledger.games.tongits import PRESETS as TONGITS_PRESETS
from ledger.games.rummy13.describe import preset_title as rummy_preset_title
from ledger.games.tonk.ruleset import TOGGLES
from ledger.storage.db import get_session
from ledger.web.access import my_nights
from ledger.web.amount_errors import amount_message, stake_range_message  # also imported from here by the settle, seats and club pages
from ledger.web.formatting import engine_words
from ledger.web.house_rules import RulesChoice, key_for
from ledger.night.zones import DEFAULT_ZONE, is_known_zone

CURRENCIES: tuple[str, ...] = (
    "USD", "EUR", "GBP", "CAD", "AUD", "NZD", "PHP", "TRY", "INR", "LAK", "JPY", "MXN",
    "BRL", "ZAR", "NGN", "KES", "THB", "VND", "KRW", "CHF", "SEK", "BHD",
)
DEFAULT_CURRENCY = "USD"
DEFAULT_PRESET = "classic"
GAMES_OFFERED: tuple[str, ...] = ("tonk", "tongits", "rummy13")  # the order a table is offered them, Tonk first
GAME_TITLES = {"tonk": N_("Tonk"), "tongits": N_("Tong-its"), "rummy13": N_("13-card rummy")}
GAME_HINTS = {
    "tonk": N_("Knock, tonk out or drop: 2 to 4 players, 5 cards each."),
    "tongits": N_("Tong-its, draw (laban) or stock out, with the pot: 3 players, 12 and 13 cards."),
    "rummy13": N_("A show, drops and counts; losers pay their points times the rate: 2 to 6 players, 13 cards."),
}
#: the presets of 13-card rummy offered at the start (RUMMY13.md §7): points, then pool (the stake is its entry fee)
RUMMY_PRESETS: tuple[str, ...] = ("points_rummy", "home_table", "pool_101", "pool_201")
RUMMY_PRESET_HINTS = {
    "points_rummy": N_("Drops 20 and 40, a wrong show 80 to the winner, counts capped at 80."),
    "home_table": N_("A wrong show ends the hand and pays everyone still in; a loser's pure sequence always counts."),
    "pool_101": N_("Scores add up; 101 is out; a rejoin while nobody is above 79. The stake is the entry fee; the "
                   "last one in takes the pot."),
    "pool_201": N_("Scores add up; 201 is out; drops 25 and 50; a rejoin while nobody is above 174. The stake is the "
                   "entry fee; the last one in takes the pot."),
}
MAX_SESSION_NAME = 120
SEATS = PRESETS[DEFAULT_PRESET].ruleset().max_players
SEAT_LIMIT = TOGGLES["max_players"].maximum or SEATS  # no rules seat more; "Add a seat" stops here
POSTED_SEATS = 64  # ``player-<i>`` fields read from a post (a phone shows at most SEAT_LIMIT)


def currency_choices(locale: str = "en_US") -> list[tuple[str, str]]:
    """The currencies a night can be played in, then points (a score sheet, issue 25: where
    playing for money is not allowed, the same night with no money and no settle-up)."""
    return [(code, f"{code} · {get_currency_name(code, locale=locale)}") for code in CURRENCIES] + [
        (POINTS, _("Points: no money"))]


def default_name(timezone: str, now: datetime | None = None, *, host: str = "", club: str = "",
                 taken: Collection[str] = ()) -> str:
    """The name a night gets when none is typed, in the language of the phone that starts it:
    its weekday and date in the night's zone and who hosts it, the first name typed ("Friday
    night at Dee's, 5 December") or its club ("Kerala Club, Friday 5 December"); a name in
    ``taken`` (the other nights this phone or club has) gets the next free number: "… (2)"."""
    today = (now or datetime.now(ZoneInfo("UTC"))).astimezone(ZoneInfo(timezone))
    locale = format_locale("en_US")
    weekday, date = format_date(today, "EEEE", locale=locale), format_date(today, "d MMMM", locale=locale)
    host = " ".join(host.split())
    if club:
        name = _("{club}, {weekday} {date}", club=club, weekday=weekday, date=date)
    elif host:
        name = _("{weekday} night at {host}'s, {date}", weekday=weekday, host=host, date=date)
    else:
        name = _("{weekday} night, {date}", weekday=weekday, date=date)
    name = name[:MAX_SESSION_NAME - 5]  # room for " (99)"
    taken = set(taken)
    count = 1
    numbered = name
    while numbered in taken:
        count += 1
        numbered = _("{name} ({number})", name=name, number=count)
    return numbered


def preset_choices() -> list[tuple[str, str, str]]:
    """``(name, title, description)`` of every rules preset, classic first, in the request's language."""
    return [(p.name, engine_words(p.title), engine_words(p.description)) for p in PRESETS.values()]


def game_choices() -> list[tuple[str, str, str]]:
    """``(name, title, hint)`` of every game a night can play, Tonk first, in the request's language."""
    return [(g, _(GAME_TITLES[g]), _(GAME_HINTS[g])) for g in GAMES_OFFERED]


def rummy_preset_choices() -> list[tuple[str, str, str]]:
    """``(name, title, description)`` of the 13-card rummy presets a night can start with."""
    return [(name, str(rummy_preset_title(name)), _(RUMMY_PRESET_HINTS[name])) for name in RUMMY_PRESETS]


def tongits_preset_choices() -> list[tuple[str, str, str]]:
    """``(name, title, description)`` of every Tong-its preset (TONGITS.md §7), classic first."""
    return [(p.name, engine_words(p.title), engine_words(p.description)) for p in TONGITS_PRESETS.values()]


@dataclass
class StartForm:
    """The typed values (as text) and the errors keyed by input name."""

    name: str = ""
    players: list[str] = field(default_factory=lambda: [""] * SEATS)
    first_dealer: str = "0"
    stake: str = ""
    currency: str = DEFAULT_CURRENCY
    preset: str = DEFAULT_PRESET
    game: str = "tonk"
    tongits_preset: str = DEFAULT_PRESET
    rummy_preset: str = RUMMY_PRESETS[0]
    errors: dict[str, str] = field(default_factory=dict)
    rules: RulesChoice = field(default_factory=RulesChoice.default)
    go: str = "start"
    seats_shown: int = SEATS
    timezone: str = DEFAULT_ZONE  # the phone's IANA zone, filled in by app.js; UTC without JavaScript

    @classmethod
    def from_form(cls, form: Mapping[str, str]) -> StartForm:
        players = [str(form.get(f"player-{i}", ""))[:200] for i in range(POSTED_SEATS)]
        while players and not players[-1]:
            players.pop()
        shown = str(form.get("seats", ""))
        go = str(form.get("go", ""))
        made = cls(
            name=str(form.get("name", "")),
            players=players,
            first_dealer=str(form.get("first_dealer", "0")),
            stake=str(form.get("stake", "")),
            currency=str(form.get("currency", DEFAULT_CURRENCY)),
            preset=str(form.get("preset", DEFAULT_PRESET)),
            game=str(form.get("game", "tonk")),
            tongits_preset=str(form.get("tongits_preset", DEFAULT_PRESET)),
            rummy_preset=str(form.get("rummy_preset", RUMMY_PRESETS[0])),
            rules=RulesChoice.from_form(form),
            go=go if go in ("rules", "add_seat") else "start",
            seats_shown=min(int(shown), SEAT_LIMIT) if shown.isdecimal() else SEATS,
            # a zone this server does not know (a newer tz database on the phone) falls back to UTC
            timezone=tz if is_known_zone(tz := form.get("timezone")) else DEFAULT_ZONE,
        )
        if made.go == "add_seat":
            made.seats_shown = min(made.seat_total + 1, SEAT_LIMIT)
        return made

    @property
    def seat_total(self) -> int:
        """How many seat fields the form shows: what the chosen rules allow, the seats added
        by hand, and every seat a name was posted in (so nothing typed disappears)."""
        allowed = self.rules.ruleset.max_players if self.rules.ruleset is not None else SEATS
        return max(allowed, self.seats_shown, len(self.players))

    def seat_names(self) -> list[str]:
        """The typed name of every shown seat (``""`` for a blank one)."""
        return self.players + [""] * (self.seat_total - len(self.players))

    @property
    def can_add_seat(self) -> bool:
        return self.seat_total < SEAT_LIMIT

    @property
    def rules_open(self) -> bool:
        """Whether the House rules section is shown open."""
        return self.go == "rules" or self.rules.should_open

    def create(self) -> tuple[GameSession, str] | None:
        """Open the night and return it with its token, or ``None`` with ``errors`` filled.

        With ``go=rules`` or ``go=add_seat`` nothing is created: only the rules' own refusals
        are reported."""
        self.errors = dict(self.rules.errors)
        if self.go in ("rules", "add_seat"):
            return None
        if self.game != "tonk":
            return self._create_other_game()
        seats = [i for i, p in enumerate(self.players) if p.strip()]
        name = self.name.strip() or self._default_name(seats)
        if len(name) > MAX_SESSION_NAME:
            self.errors["name"] = ngettext("Keep the name under {count} character.",
                                           "Keep the name under {count} characters.", MAX_SESSION_NAME)
        dealer_seat = int(self.first_dealer) if self.first_dealer.isdecimal() else -1
        most = self.rules.ruleset.max_players if self.rules.ruleset is not None else None
        if len(seats) < 2:
            self.errors["players"] = _("Type at least two player names, in seat order.")
        elif most is not None and len(seats) > most:
            self.errors["players"] = ngettext(
                "These rules seat at most {most} player and {typed} names are typed; "
                "raise “Most players” under House rules or clear a seat.",
                "These rules seat at most {most} players and {typed} names are typed; "
                "raise “Most players” under House rules or clear a seat.",
                most, most=most, typed=len(seats))
        elif dealer_seat not in seats:
            self.errors["first_dealer"] = _("The first dealer must be one of the players typed above.")
        if self.currency not in CURRENCIES and self.currency != POINTS:
            self.errors["currency"] = _("Choose a currency from the list.")
        if self.preset not in PRESETS:
            self.errors["preset"] = _("Choose one of the rules presets.")
        elif self.rules.ruleset is None and not self.errors:
            self.errors["preset"] = _("Check the house rules.")
        stake_minor = self._typed_stake()
        if self.errors:
            return None
        assert stake_minor is not None and self.rules.ruleset is not None
        try:
            return ledger_night.create_night(
                get_session(),
                name=name,
                currency=self.currency,
                stake_minor=stake_minor,
                rules=self.rules.ruleset,
                players=[self.players[i] for i in seats],
                first_dealer=self.players[dealer_seat].strip(),
                timezone=self.timezone,
            )
        except HandError as err:
            message = err.message
            if err.code == "invalid_stake":
                message = stake_range_message(self.currency)
            self.errors[self._input_for(err.field, seats)] = message
            return None

    def _default_name(self, seats: list[int]) -> str:
        """:func:`default_name` for this form: hosted by the first name typed, numbered past the
        names of the nights this phone already has."""
        return default_name(self.timezone, host=self.players[seats[0]] if seats else "",
                            taken=[night.name for night in my_nights()])

    def _typed_stake(self) -> int | None:
        """The stake typed, in minor units of the chosen currency; ``None`` when the currency was
        refused already, or with the reason beside ``stake`` when the amount does not read."""
        if "currency" in self.errors:
            return None
        try:
            return parse_amount(self.stake, self.currency)
        except ValueError as exc:
            self.errors["stake"] = amount_message(exc)
            return None

    def _create_other_game(self) -> tuple[GameSession, str] | None:
        """Open a night of another game than Tonk (Tong-its): its preset, its seat range (four
        names typed seat four, TONGITS.md §2.1), the name, stake and currency as for Tonk; the
        Tonk house rules are not read."""
        self.errors = {}
        if self.game not in GAMES_OFFERED:
            self.errors["game"] = _("Choose the game the table plays.")
            return None
        chosen = game_of(self.game)
        seats = [i for i, p in enumerate(self.players) if p.strip()]
        name = self.name.strip() or self._default_name(seats)
        if len(name) > MAX_SESSION_NAME:
            self.errors["name"] = ngettext("Keep the name under {count} character.",
                                           "Keep the name under {count} characters.", MAX_SESSION_NAME)
        dealer_seat = int(self.first_dealer) if self.first_dealer.isdecimal() else -1
        if self.game == "rummy13":
            if self.rummy_preset not in RUMMY_PRESETS:
                self.errors["rummy_preset"] = _("Choose one of the rules presets.")
                return None
            rules = chosen.rules({"preset": self.rummy_preset})
            allowed = chosen.seat_range(rules)
            if not allowed.start <= len(seats) < allowed.stop:
                self.errors["players"] = _("13-card rummy is played by {least} to {most} players; type their names, "
                                           "in seat order.", least=allowed.start, most=allowed.stop - 1)
        elif self.tongits_preset not in TONGITS_PRESETS:
            self.errors["tongits_preset"] = _("Choose one of the rules presets.")
            return None
        else:
            toggles = {"four_players": True} if len(seats) == 4 else {}
            rules = chosen.rules({"preset": self.tongits_preset, "toggles": toggles})
            allowed = chosen.seat_range(chosen.rules({"preset": self.tongits_preset, "toggles": {"four_players": True}}))
            if not allowed.start <= len(seats) < allowed.stop:
                self.errors["players"] = _("Tong-its is played by {least} to {most} players; type {least} or {most} "
                                           "names, in seat order.", least=allowed.start, most=allowed.stop - 1)
        if "players" not in self.errors and dealer_seat not in seats:
            self.errors["first_dealer"] = _("The first dealer must be one of the players typed above.")
        if self.currency not in CURRENCIES and self.currency != POINTS:
            self.errors["currency"] = _("Choose a currency from the list.")
        stake_minor = self._typed_stake()
        if self.errors:
            return None
        assert stake_minor is not None
        try:
            return ledger_night.create_night(
                get_session(), name=name, currency=self.currency, stake_minor=stake_minor, rules=rules,
                players=[self.players[i] for i in seats], first_dealer=self.players[dealer_seat].strip(),
                timezone=self.timezone, game=chosen.name,
            )
        except HandError as err:
            message = stake_range_message(self.currency) if err.code == "invalid_stake" else err.message
            self.errors[self._input_for(err.field, seats)] = message
            return None

    @staticmethod
    def _input_for(path: str | None, seats: list[int]) -> str:
        """The input an engine error belongs to (``players[1]`` → the second typed seat)."""
        if path and path.startswith("players[") and path.endswith("]"):
            index = path[len("players["):-1]
            if index.isdecimal() and int(index) < len(seats):
                return f"player-{seats[int(index)]}"
            return "players"
        if path in ("stake", "first_dealer", "name"):
            return path
        rule_key = key_for(path)
        if rule_key is not None:
            return rule_key
        return "players" if path == "players" else "form"

