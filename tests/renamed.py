"""Test data with the players renamed into scripts that are not Latin, so that a name never
counts as English on a pseudo-language page."""
from __future__ import annotations

from typing import Any, Mapping


def renamed(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` (night data: strings, lists, dicts) with every name in ``names`` replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {renamed(k, names): renamed(v, names) for k, v in value.items()}
    return value
