"""Playing cards, shared by every game: parsing, canonical text, point values and rank order
(RULES.md §1; TONGITS.md §1 is the same notation without jokers, which Tong-its refuses).

A :class:`Card` is a small immutable value whose text form round-trips::

    >>> Card.parse("th")
    Card.parse('10H')
    >>> str(Card.parse("A♠"))
    'AS'

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER_TEXT = "JK"

_SUIT_ALIASES = {
    "S": "S", "H": "H", "D": "D", "C": "C",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_JOKER_ALIASES = ("JK", "JOKER", "JKR")
_VARIATION_SELECTORS = ("\ufe0f",)  # the emoji selector only (RULES.md §1.5)


class InvalidCard(ValueError):
    """A text that is not a card in RULES.md §1.5 notation; ``text`` is the input as given."""

    def __init__(self, text: object, reason: str = "") -> None:
        self.text = text
        detail = f" ({reason})" if reason else ""
        super().__init__(f"{text!r} is not a card{detail}")


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``rank`` is 1 (ace) to 13 (king), ``suit`` one of ``S H D C``.

    A joker has ``rank == 0`` and ``suit == ""`` (``is_joker``); in ``declared`` joker mode it
    may carry the card it stands for in hand (``JK=QH``, RULES.md §1.4), in ``declared``.
    """

    rank: int
    suit: str
    declared: Card | None = None
    # ``rank == 0``, asked of every card many times, so stored once
    is_joker: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_joker", self.rank == 0)
        if self.rank == 0:
            if self.suit != "":
                raise ValueError("a joker has no suit")
            if self.declared is not None and self.declared.is_joker:
                raise ValueError("a joker cannot be declared as a joker")
        else:
            if not 1 <= self.rank <= 13 or self.suit not in SUITS:
                raise ValueError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
            if self.declared is not None:
                raise ValueError("only a joker can be declared as another card")

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse one card in any notation accepted by RULES.md §1.5.

        Accepts ``10H``/``TH``/``th``, surrounding spaces, suit symbols ``♠♥♦♣♤♡♢♧`` (with or
        without U+FE0F), ``JK``/``JOKER``/``JKR`` and ``JK=<card>``. Whether a joker or a
        declaration is *allowed* is the rule set's business, not the parser's.

        Raises :class:`InvalidCard` for anything else (``1H``, ``11S``, ``S10``, ``XX``...).
        """
        if not isinstance(text, str):
            raise InvalidCard(text, "not text")
        if len(text) > _LONGEST_REMEMBERED:
            return cls._read(text)  # read, but not kept: a padded text must not fill the memory
        return _read_text(text)

    @classmethod
    def _read(cls, text: str) -> Card:
        cleaned = text.strip()
        for selector in _VARIATION_SELECTORS:
            cleaned = cleaned.replace(selector, "")
        cleaned = cleaned.upper()
        if not cleaned:
            raise InvalidCard(text, "empty")
        if "=" in cleaned:
            head, _, tail = cleaned.partition("=")
            if head.strip() not in _JOKER_ALIASES:
                raise InvalidCard(text, "only a joker can be declared as another card")
            declared = cls._parse_plain(tail.strip(), text)
            return cls(0, "", declared)
        if cleaned in _JOKER_ALIASES:
            return cls(0, "")
        return cls._parse_plain(cleaned, text)

    @classmethod
    def _parse_plain(cls, cleaned: str, original: object) -> Card:
        if len(cleaned) < 2:
            raise InvalidCard(original)
        suit = _SUIT_ALIASES.get(cleaned[-1])
        rank_text = cleaned[:-1]  # "10 H" is no card: spaces only around it (RULES.md §1.5)
        if suit is None:
            raise InvalidCard(original, "unknown suit")
        if rank_text == "T":
            rank_text = "10"
        if rank_text not in RANKS:
            raise InvalidCard(original, "unknown rank")
        return cls(RANKS.index(rank_text) + 1, suit)

    @classmethod
    def joker(cls, declared: Card | None = None) -> Card:
        return cls(0, "", declared)

    # -- properties ---------------------------------------------------------------------------
    @property
    def rank_text(self) -> str:
        return JOKER_TEXT if self.is_joker else RANKS[self.rank - 1]

    @property
    def points(self) -> int:
        """Point value of a real card (§1.1): ace 1, 2–10 face value, J/Q/K 10.

        A joker's points depend on the rule set (§1.4); asking a joker raises ``ValueError``.
        """
        if self.is_joker:
            raise ValueError("a joker's points depend on the rule set")
        return 10 if self.rank > 10 else self.rank

    @property
    def identity(self) -> str:
        """Text used for duplicate detection: the canonical card, or ``JK`` for any joker."""
        return JOKER_TEXT if self.is_joker else str(self)

    def pretty(self) -> str:
        """Display form with a suit symbol, e.g. ``Q♦``, ``10♠``, ``Joker``."""
        if self.is_joker:
            return "Joker" if self.declared is None else f"Joker (as {self.declared.pretty()})"
        return f"{self.rank_text}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_TEXT if self.declared is None else f"{JOKER_TEXT}={self.declared}"
        return f"{self.rank_text}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_LONGEST_REMEMBERED = 32  # "JOKER=10♠" with a variation selector and spaces around it


@lru_cache(maxsize=4096)
def _read_text(text: str) -> Card:
    """:meth:`Card.parse` of a text of at most :data:`_LONGEST_REMEMBERED` characters. Cards
    are immutable values, so each text is read once and its card shared (a bounded cache: a
    table uses a few dozen spellings)."""
    return Card._read(text)


def full_deck() -> tuple[Card, ...]:
    """The 52 real cards in suit-then-rank order (no jokers)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
