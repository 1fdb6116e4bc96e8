"""MkDocs hook: the tables a page asks for, generated from the games' own declarations.

A page asks with a marker alone on its line:

    <!-- cardlab:options GAME -->          the game's rule options (its Options' field metadata)
    <!-- cardlab:columns GAME UNIT -->     the columns a run of UNIT ("deals" or "games") writes
    <!-- cardlab:figures GAME -->          the game's report figures, drawn by docs/figures.py (make figures)

and the build replaces it with the Markdown table made from :func:`cardlab.sim.options.options_table`
(and each option's ``applies`` scope) or :func:`cardlab.sim.columns.columns_table`. Nothing in these
tables is written by hand, so they cannot drift from the code; an unknown game, unit or marker stops
the build.

With ``CARDLAB_DOCS_NOTEBOOKS`` set to a folder, each notebook page is read from the copy of that name there
(already executed: the notebook tests' run, which then builds the site from it) instead of ``notebooks/``.
"""
from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from cardlab.sim import games
from cardlab.sim.columns import columns_table
from cardlab.sim.command import spell
from cardlab.sim.options import declared, options_table

ROOT = Path(__file__).resolve().parents[1]


def api_sources(where: Path = ROOT / ".docs-src") -> Path:
    """A ``cardlab`` folder holding ``sim`` and ``analysis`` (links to the repository's folders), for
    mkdocstrings: the installed package maps ``cardlab.sim`` onto ``sim/``, which a static reader of the
    sources cannot follow. ``mkdocs.yml`` points the Python handler's ``paths`` here."""
    package = where / "cardlab"
    package.mkdir(parents=True, exist_ok=True)
    for name in ("sim", "analysis"):
        link = package / name
        if not (link.is_symlink() and link.resolve() == ROOT / name):
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(ROOT / name, target_is_directory=True)
    return where


api_sources()  # at import: MkDocs loads its hooks before any page asks mkdocstrings for a module

MARKER = re.compile(r"^<!-- cardlab:(\w+)((?: [\w-]+)*) -->$", re.M)
NAME = re.compile(r"{(\w+)}")


def _shown(value) -> str:
    """A default as the command line spells it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "`" + ",".join(map(str, value)) + "`"
    return f"`{value}`"


def _allowed(row, f) -> str:
    """What an option allows, in words; options without choices or bounds are named by their type."""
    text = row["allowed"]
    if text == "int":
        return "an integer"
    if text == "tuple":
        return "integers, comma-separated"
    if text == "NoneType":
        return "on or off (not given: the game decides)" if "bool" in str(f.type) else \
            "integers, comma-separated, or `none`"
    return text


def _flag(row, default) -> str:
    if isinstance(default, bool):
        flag = f"`{row['flag']}`<br>`--no-{row['flag'][2:]}`"
    else:
        flag = f"`{row['flag']}`"
    return f"{flag}<br>`{row['option']}`"


def options_markdown(name: str) -> str:
    """The game's options table: one row per declared option, grouped as ``--help`` groups them."""
    game = games.game(name)
    fields = {f.name: f for f in declared(game.Options)}
    out, group = [], None
    for row in options_table(game.Options):
        f = fields[row["option"]]
        if f.metadata["group"] != group:
            group = f.metadata["group"]
            out += ["", f"**{group.capitalize()}**", "",
                    "| flag, Python keyword | default | allowed | what it sets | applies |", "|---|---|---|---|---|"]
        scope = f.metadata.get("applies")
        where = NAME.sub(lambda m: f"`{spell(m.group(1))}`", scope.where) if scope else "everywhere"
        help_text = row["help"].replace("|", "\\|")
        out.append(f"| {_flag(row, row['default'])} | {_shown(row['default'])} | "
                   f"{_allowed(row, f)} | {help_text} | {where} |")
    return "\n".join(out).strip()


def columns_markdown(name: str, unit: str) -> str:
    game = games.game(name)
    if unit not in game.columns:
        raise ValueError(f"{name} declares no columns for {unit!r}; it has {', '.join(game.columns)}")
    return columns_table(game.columns[unit])


def _figures_module():
    spec = importlib.util.spec_from_file_location("cardlab_docs_figures", ROOT / "docs" / "figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figures_markdown(name: str, where: str) -> str:
    """The game's report figures (single deals, whole games) as images with a caption saying how they were
    drawn; a missing file stops the build with the command that draws it."""
    figures = _figures_module()
    game, unit_word = games.game(name), {"deals": f"{figures.DEALS:,} {games.game(name).unit}s",
                                         "games": f"{figures.GAMES:,} whole games"}
    out = []
    for unit, path in figures.figure_paths(name).items():
        if not path.is_file():
            raise ValueError(f"{where}: {path.relative_to(ROOT)} is missing; make figures draws it")
        link = os.path.relpath(path, (ROOT / "docs" / where).parent)
        out += [f"[![{game.title}: the report figure of {unit_word[unit]}]({link})]({link})", "",
                f"*`cardlab report --plot` of {unit_word[unit]} (seed {figures.SEED}, the heuristic at every seat),"
                f" drawn by `make figures`; click for full size.*", ""]
    return "\n".join(out).strip()


def expand(markdown: str, where: str = "") -> str:
    """``markdown`` with every cardlab marker replaced by its table."""
    def table(match):
        kind, args = match.group(1), match.group(2).split()
        if kind == "options" and len(args) == 1:
            return options_markdown(*args)
        if kind == "columns" and len(args) == 2:
            return columns_markdown(*args)
        if kind == "figures" and len(args) == 1:
            return figures_markdown(args[0], where)
        raise ValueError(f"{where}: unknown marker {match.group(0)!r}")
    return MARKER.sub(table, markdown)


def on_page_markdown(markdown, page, config, files):  # MkDocs event
    return expand(markdown, page.file.src_path)


def on_files(files, config):  # MkDocs event
    folder = os.environ.get("CARDLAB_DOCS_NOTEBOOKS")
    if folder:
        for file in files:
            if file.src_uri.endswith(".ipynb"):
                file.abs_src_path = str(Path(folder) / Path(file.src_uri).name)
    return files
