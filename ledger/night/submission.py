"""What a phone or an API client sends for one hand (:class:`Submission`), before the ledger
checks, scores and stores it (:mod:`ledger.night.recording`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.names import normalise_entry, normalise_name

# the parts of an entry a game reads besides outcome, hands and side bets (RUMMY13.md §8.1: the wild rank,
# and a pool night's ``pool.rejoined``)
GAME_PARTS: tuple[str, ...] = ("wild_rank", "pool")  # pool: a pool night's rejoins (RUMMY13.md §4.9)


@dataclass(frozen=True, slots=True)
class Submission:
    """What a phone or API client sends for one hand: the §8.1 ``outcome``, ``hands`` and
    ``side_bets`` (raw JSON), optional ``dealer``, idempotency key, and the hand ``number``
    the phone means to record (so two phones cannot both record "hand 7").

    ``seen_players`` (the seating, in seat order) and ``seen_stake_minor`` (minor units) are
    the table the phone showed when the hand was entered; when either is given and the night's
    differs when the hand is stored, the hand is refused (409 ``table_changed``) instead of
    being paid to other players or at another stake (see :func:`record_hand`)."""

    outcome: Any
    hands: Any
    side_bets: Any = None
    dealer: str | None = None
    idempotency_key: str | None = None
    number: int | None = None
    seen_players: tuple[str, ...] | None = None
    seen_stake_minor: int | None = None
    #: the game's own parts of the entry besides ``outcome``, ``hands`` and ``side_bets`` (keys of
    #: :data:`GAME_PARTS`: 13-card rummy's ``wild_rank``, RUMMY13.md §1.4), raw JSON; stored with the entry
    game_parts: Mapping[str, Any] | None = None
    #: whether :meth:`normalised` made this one (normalising it again changes nothing)
    is_normalised: bool = field(default=False, compare=False, repr=False)

    @classmethod
    def of_entry(cls, entry: Mapping[str, Any], **others: Any) -> Submission:
        """The submission that stored ``entry`` (a stored hand's ``entry``: ``outcome``,
        ``hands``, ``side_bets`` and any of :data:`GAME_PARTS`), with ``others`` (dealer, key...)."""
        parts = {key: entry[key] for key in GAME_PARTS if entry.get(key) is not None}
        return cls(outcome=entry.get("outcome"), hands=entry.get("hands", {}), side_bets=entry.get("side_bets"),
                   game_parts=parts or None, **others)

    def normalised(self) -> Submission:
        """This submission with every name in it (dealer, and all of the entry's texts and
        keys) normalised as :func:`ledger.names.normalise_name` does, so it matches the seats
        (itself when it is one already: recording a hand normalises once)."""
        if self.is_normalised:
            return self
        return replace(
            self,
            is_normalised=True,
            outcome=normalise_entry(self.outcome, "outcome"),
            hands=normalise_entry(self.hands, "hands"),
            side_bets=normalise_entry(self.side_bets, "side_bets"),
            game_parts=None if self.game_parts is None else normalise_entry(dict(self.game_parts)),
            dealer=normalise_name(self.dealer) if isinstance(self.dealer, str) else self.dealer,
            seen_players=(None if self.seen_players is None
                          else tuple(normalise_name(p) for p in self.seen_players)),
        )

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome, "hands": self.hands}
        if self.side_bets is not None:
            out["side_bets"] = self.side_bets
        for key in GAME_PARTS:  # only those given: a Tonk or Tong-its entry is stored as before
            if self.game_parts and self.game_parts.get(key) is not None:
                out[key] = self.game_parts[key]
        return out
