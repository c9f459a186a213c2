"""Settling up: the fewest transfers that clear a night's balances, and why each line."""
