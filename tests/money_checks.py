"""Assertions about money in API responses shared by several test modules."""
from __future__ import annotations

from typing import Any

MONEY_KEYS = {"amount", "stake", "net", "session_net", "balances", "side_stake"}


def assert_no_floats(value: Any, path: str = "$") -> int:
    """Fail if any number anywhere in ``value`` is a float; return how many ints were seen
    under money keys (so a caller can check the walk really met amounts)."""
    seen = 0
    if isinstance(value, float):
        raise AssertionError(f"float at {path}: {value!r}")
    if isinstance(value, dict):
        for key, item in value.items():
            if key in MONEY_KEYS:
                seen += _count_money(item, f"{path}.{key}")
            seen += assert_no_floats(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            seen += assert_no_floats(item, f"{path}[{index}]")
    return seen


def _count_money(value: Any, path: str) -> int:
    if isinstance(value, bool):
        raise AssertionError(f"bool where money belongs at {path}")
    if isinstance(value, int):
        return 1
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(item, int) and not isinstance(item, bool), f"non-int money at {path}.{key}: {item!r}"
        return len(value)
    return 0
