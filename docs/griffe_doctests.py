"""Griffe extension for the API pages: the docstrings are written for ``doctest`` and Sphinx-style
reading, and the pages render them as Markdown. Two things would read wrong there:

* doctest examples (``>>>`` lines and the output after them) become fenced ``pycon`` blocks, so their
  output (``[3.0, -3.0]``) is shown as code, never read as a Markdown link;
* Sphinx roles (``:func:`~cardlab.sim.options.option```) become plain code (``option``), the name a
  reader looks for, instead of showing the role's markup.
"""
from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):`(~?)([\w.]+)`")


def plain_roles(text: str) -> str:
    return ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)


def fence_doctests(text: str) -> str:
    out, block = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") or (block and stripped):
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
        if obj.docstring is not None:
            text = plain_roles(obj.docstring.value)
            obj.docstring.value = fence_doctests(text) if ">>>" in text else text
