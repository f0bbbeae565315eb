"""Rule options: presets, and checking and converting option values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cherki.core.errors import RulesError

R = TypeVar("R")


@dataclass(frozen=True)
class Preset(Generic[R]):
    """A named set of rule options with the sources it follows."""

    name: str
    rules: R
    description: str
    sources: str
    aliases: tuple[str, ...] = ()


def coerce_option(name: str, value: Any, current: Any) -> Any:
    """Convert an option given as text (from the command line or JSON) to its type."""
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"option {name} takes true or false, not {value!r}")
    if isinstance(current, int) or (current is None and _looks_int(value)):
        if isinstance(value, bool):
            raise RulesError(f"option {name} takes a whole number, not {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            if current is None and str(value).strip().lower() in ("none", "auto", ""):
                return None
            raise RulesError(f"option {name} takes a whole number, not {value!r}") from None
    if current is None and str(value).strip().lower() in ("none", "auto", ""):
        return None
    return str(value).strip() if isinstance(value, str) else value


def _looks_int(value: Any) -> bool:
    try:
        int(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, bool)
