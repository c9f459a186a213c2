"""Clubs and seasons (issue 9): one ledger across many nights.

A club is a named group with one currency and a roster of members; nights started inside it
seat members from the roster, and closing one either settles in cash or carries what is still
owed into the club's running balances. Modules: :mod:`.models` (tables), :mod:`.roster`
(clubs, members, keys), :mod:`.carry` (club nights, carry-over, balances, payments),
:mod:`.standings`, :mod:`.transfer` (export and import), :mod:`.season` (PDF read model).

Nothing is imported here, so that :mod:`ledger.storage.models` can register the tables without a cycle.
"""
