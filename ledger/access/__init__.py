"""Who may do what at a table: secrets, roles and the short table code, and rate limits against guessing them."""
