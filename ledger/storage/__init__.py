"""Storage: the database engine and sessions, and the tables (SQLModel) of nights and clubs."""
