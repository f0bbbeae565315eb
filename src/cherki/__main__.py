"""``python -m cherki`` runs the ``cherki`` command."""

from cherki.ui.cli import main

main()
