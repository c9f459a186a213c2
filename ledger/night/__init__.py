"""One night's ledger: open, record, correct, seat changes, payments, running figures, reads, export."""
