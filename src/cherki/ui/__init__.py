"""What people see: all the English (``text``), the Rich terminal and the Typer commands."""
