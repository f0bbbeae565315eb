"""The games of sets: Balik Satu and its relatives on one engine."""
