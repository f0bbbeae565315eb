"""The sources every rule cites, by their number (``[000]`` … ``[003]``): what each is, as
the rules documents (``docs/rules/*.md``) and the sources' own headers name it. Data only:
titles and citations are names, the same in every language.

Our specification: the sources are two versions of one web article on Balik Satu ([000],
[001]; [001] adds the relatives), an article on Cholek Tiga ([002]) and a rules leaflet on
Ceki ([003]); none names its own author or year, so each is named by its title and by the
works it cites (with theirs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Source:
    """A source: its number, its title and the works it draws on (author, year, title,
    pages), as they are cited."""

    id: str
    title: str
    cites: tuple[str, ...] = ()


SOURCES: Final[dict[str, Source]] = {
    s.id: s
    for s in (
        Source(
            "000",
            "Balik Satu · Balik Lima Belas",
            (
                "Pwee, K. H. (2003), “Chiki Cards”, Journal of the International "
                "Playing-Card Society 32 (3), pp.119–128 (p.122)",
                "The Babas (Times Books International), pp.154–162",
                "Gateway to Old School Games (Asiapac Books, Singapore), p.71",
            ),
        ),
        Source(
            "001",
            "Balik Satu · Balik Lima Belas · Chaqui · Chot · Gonggong · Tantanan",
            (
                "Pwee, K. H. (2003), “Chiki Cards”, Journal of the International "
                "Playing-Card Society 32 (3), pp.119–128",
                "The Babas (Times Books International), pp.154–167",
                "Amaro (1993)",
                "Journal of the International Playing-Card Society 22 (2), pp.34–40 "
                "(A. G. Smith, tr.)",
                "Javaanse Kaartspelen, pp.94–98",
                "Gateway to Old School Games (Asiapac Books, Singapore), p.71",
            ),
        ),
        Source(
            "002",
            "Cholek Tiga",
            (
                "Pwee, K. H. (2003), “Chiki Cards”, Journal of the International "
                "Playing-Card Society 32 (3), pp.125–127",
            ),
        ),
        Source("003", "Ceki (or Kowah): a traditional game for 2 - 6 players"),
    )
}

_CITED = re.compile(r"\[(\d{3})\]")


def cited(text: str) -> list[str]:
    """The source numbers a citation names (``"[000] [001] Pwee p.122"`` → 000, 001), in
    order, each once."""
    return list(dict.fromkeys(_CITED.findall(text)))


__all__ = ["SOURCES", "Source", "cited"]
