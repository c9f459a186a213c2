"""Alembic migrations of the storage tables (``alembic`` revisions, applied at start-up by :mod:`ledger.storage.db`)."""
