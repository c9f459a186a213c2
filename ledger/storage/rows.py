"""A table model's object for a row the caller has just written with a Core statement, built the
way SQLAlchemy builds one it reads (``__new__`` and the committed values, no validation), so that
a hot path that inserts with one statement can answer with the model without paying for its
constructor's checks a second time (issue 24: a recorded hand's ``Hand``)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from sqlalchemy.orm.attributes import set_committed_value

Model = TypeVar("Model")


def as_written(model: type[Model], values: Mapping[str, Any]) -> Model:
    """An object of ``model`` (a SQLModel table class) holding ``values`` (its columns, as
    written) as committed values: transient, not tracked by any session (read the row again
    with ``db.get`` to change it). The values are not validated again: pass what the row holds."""
    instance: Model = model._sa_class_manager.new_instance()  # type: ignore[attr-defined]
    for key, value in values.items():
        set_committed_value(instance, key, value)
    return instance
