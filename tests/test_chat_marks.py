"""One chat line stays one line and cannot reorder its neighbours: the line and paragraph
separators, the bidirectional marks, embeddings, overrides and isolates, the zero-width
space, the byte order mark and the other invisible format characters are refused in words;
letters of every script, emoji and their joiners pass."""

from __future__ import annotations

import pytest

from cherki.core.errors import CherkiError
from cherki.server.chat import clean_text
from cherki.server.limits import Limits

REFUSED = {
    "line separator": "x\u2028Seat 1: spoof",
    "paragraph separator": "x\u2029Seat 1: spoof",
    "Arabic letter mark": "123 \u061c456",
    "left-to-right mark": "a\u200eb",
    "right-to-left mark": "a\u200fb",
    "LRE": "a\u202ab",
    "RLO": "a\u202eb",
    "PDI": "a\u2069b",
    "FSI": "a\u2068b",
    "zero-width space": "a\u200bb",
    "byte order mark": "\ufeffhello",
    "word joiner": "a\u2060b",
    "soft hyphen": "a\u00adb",
    "new line": "a\nb",
    "next line": "a\x85b",
    "lone surrogate": "a\ud800b",
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_separators_and_invisible_marks_are_refused_in_words(text: str) -> None:
    with pytest.raises(CherkiError) as refused:
        clean_text(text, Limits())
    assert "U+" in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        "Selamat pagi!",
        "مرحبا بالعالم",
        "שלום",
        "你好 👍🎉",
        "👨\u200d👩\u200d👧",  # a family emoji (zero-width joiners)
        "می\u200cخواهم",  # Persian with a zero-width non-joiner
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # a flag
    ],
)
def test_letters_of_every_script_and_emoji_pass(text: str) -> None:
    assert clean_text(text, Limits()) == text
