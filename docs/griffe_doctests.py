"""Griffe extension for the API pages: the docstrings' doctest examples (``>>>`` lines and the output
after them) become fenced ``pycon`` code blocks, so Markdown renders them as code and never reads
their output (``[3.0, -3.0]``) as a link."""
from __future__ import annotations

import griffe


def fence_doctests(text: str) -> str:
    out, block = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") or (block and stripped and not stripped.startswith(">>>")):
            block.append(stripped)
            continue
        if block:
            out += ["```pycon", *block, "```"]
            block = []
        out.append(line)
    if block:
        out += ["```pycon", *block, "```"]
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_object(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
