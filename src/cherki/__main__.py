"""``python -m cherki`` runs the ``cherki`` command."""

from cherki.cli import main

main()
