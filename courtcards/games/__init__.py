"""The built-in games, one package each. Each is registered by an entry point of the
``courtcards.games`` group (pyproject.toml), exactly as a third-party game is."""
