"""Alembic migration scripts for the server database (run by ``courtcards serve`` at startup)."""
