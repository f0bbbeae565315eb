"""The rules core: cards, sets, deals, options, events and the typed contract every game keeps.

No I/O and no English here: front ends render what the core returns."""
