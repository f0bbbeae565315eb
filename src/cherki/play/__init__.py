"""Playing: the session loop, matches, records and the arena, for every front end."""
