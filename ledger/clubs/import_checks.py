"""What a club export must hold before :func:`ledger.clubs.export.import_club` stores any of it.

The import needs no login, so its document is untrusted: a club is stored only whole and
readable afterwards. These checks refuse, with the field named, what the rest of the app
cannot read later (a currency or time zone this server does not know, a name that is not a
name, two members or two names at one night that look alike, rules that do not build, a night
status or stake that is not one); the shape comes first
(:mod:`ledger.clubs.import_schema`), and whether the figures are what the entries give after
(:mod:`ledger.clubs.import_replay`).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ledger.clubs.roster import MAX_MEMBER_NAME, member_look_alike
from ledger.i18n import N_
from ledger.money import UNKNOWN_CURRENCY, minor_digits
from ledger.names import alike_names, clean_name, look_alike_pair
from ledger.night.lifecycle import MAX_EXACT_TOTAL, MAX_NAME
from ledger.games import DEFAULT_GAME, game as game_of
from ledger.games.tonk import PRESETS, HandError
from ledger.night.zones import is_known_zone

NIGHT_STATUSES = ("open", "closed", "voided")  # voided: kept as a closed night that counts nowhere
NOT_READABLE = N_("The document is not a club export this server can read ({detail}).")


def check_document(doc: Mapping[str, Any]) -> None:
    """Raise :class:`HandError` 422 (``invalid_entry``, ``duplicate_player`` for names that look
    alike, or the name and rule refusals of :func:`ledger.names.clean_name` and
    :class:`~ledger.games.tonk.RuleSet`) naming the first field of ``doc`` the app could not read
    back after storing it; the shape itself (keys, types, bounds) is
    :class:`~ledger.clubs.import_schema.ClubImportSchema`'s."""
    source = doc["club"]
    clean_name(source["name"] if isinstance(source["name"], str) else "", "club.name", 120)
    currency = source["currency"]
    if not isinstance(currency, str) or currency != currency.upper() or not _known_currency(currency):
        raise HandError("invalid_entry", UNKNOWN_CURRENCY, "club.currency", code=repr(currency))
    zone = source.get("timezone") or "UTC"
    if not isinstance(zone, str) or not is_known_zone(zone):
        raise HandError("invalid_entry", N_("The time zone must be an IANA name such as Europe/Paris."),
                        "club.timezone")
    members = [clean_name(row["name"] if isinstance(row["name"], str) else "", f"members[{index}].name",
                          MAX_MEMBER_NAME) for index, row in enumerate(doc["members"])]
    _refuse_look_alikes(members, "members[{index}].name", member_look_alike)
    for index, entry in enumerate(doc["nights"]):
        _check_night(entry["session"], f"nights[{index}].session")


def _check_night(session: Mapping[str, Any], where: str) -> None:
    for field in ("players", "roster"):
        names = session[field]
        if not isinstance(names, list):
            raise HandError("invalid_entry", NOT_READABLE, f"{where}.{field}", detail=f"{field} is not a list")
        cleaned = [clean_name(name if isinstance(name, str) else "", f"{where}.{field}[{index}]", MAX_NAME)
                   for index, name in enumerate(names)]
        _refuse_look_alikes(cleaned, f"{where}.{field}[{{index}}]", alike_names)
    if session["status"] not in NIGHT_STATUSES:
        raise HandError("invalid_entry", NOT_READABLE, f"{where}.status", detail="status is not open or closed")
    stake = session["stake"]
    if type(stake) is not int or not 0 < stake <= MAX_EXACT_TOTAL:
        raise HandError("invalid_entry", NOT_READABLE, f"{where}.stake", detail="stake is not a positive amount")
    if not isinstance(session["ruleset"], dict):
        raise HandError("invalid_entry", NOT_READABLE, f"{where}.ruleset", detail="ruleset is not an object")
    chosen = game_of(session["game"])  # a registered game: import_schema checked the name
    presets = PRESETS if chosen.name == DEFAULT_GAME else {p.name: p for p in chosen.presets}
    try:
        preset = session["ruleset"].get("preset", "classic")
        if not isinstance(preset, str) or preset not in presets:  # stored under its own name, never an alias:
            # the pages read its title and usual rules by it
            raise HandError("invalid_ruleset", N_("Unknown rules preset {name}; choose one of {known}."),
                            "ruleset.preset", name=repr(preset), known=", ".join(presets))
        chosen.rules_from_snapshot(session["ruleset"])  # a snapshot the game cannot read is refused here
    except HandError as err:  # the rules' own refusal, its field found inside this night
        raise HandError(err.code, err.template, f"{where}.{err.field or 'ruleset'}", **err.params) from None


def _refuse_look_alikes(names: Sequence[str], path: str, refusal: Callable[[str, str, str], HandError]) -> None:
    """Raise ``refusal`` (422 ``duplicate_player``) naming the first of ``names`` (its field:
    ``path`` with its ``{index}``) that looks like an earlier one (:func:`ledger.names.look_alike`),
    as the live calls refuse it. Two names with one :func:`~ledger.names.name_key` are left to the
    store: a club from before İ and ı were read as i may hold both (migration 0007), and the same
    name twice is a repeated member."""
    alike = look_alike_pair(names, same_key=False)
    if alike is not None:
        raise refusal(names[alike[0]], alike[1], path.format(index=alike[0]))


def _known_currency(code: str) -> bool:
    try:
        minor_digits(code)
    except ValueError:
        return False
    return True
