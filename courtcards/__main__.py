"""``python -m courtcards`` runs the ``courtcards`` command."""

from courtcards.cli.main import main

main()
