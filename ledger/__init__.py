"""Tonk Ledger: records Tonk hands, pays them exactly, settles the night."""
