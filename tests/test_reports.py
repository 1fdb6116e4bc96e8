"""Every game's reports through the shared layer, tested over the registry: registering a game tests them.

A small run of every game carries its metadata in ``DataFrame.attrs``; ``analysis.format_report`` picks
the game's report from it; the header (``analysis.common.run_header``) is the same for every game: the
game, the seed, the size in the game's own unit, the options that change the results and apply to this
run (a whole-game option is not listed for single deals), PARTIAL for an incomplete run; the strength
ladder's report is one report for every game (slow tier: it plays search seats).
"""
from __future__ import annotations

import re

import pytest

from cardlab import analysis
from cardlab.sim import games
from cardlab.sim.options import declared

GAMES = sorted(games.INTERFACES)


def deal_option(game):
    """``(name, value)``: the first declared option that a plain run of single deals accepts set away from its
    default (so the header must list it)."""
    for f in declared(game.Options):
        if f.name == "players":  # the table size is listed too, but a rule is the stronger check
            continue
        if f.metadata["choices"] is not None:
            values = [v for v in f.metadata["choices"] if v != f.default]
        elif isinstance(f.default, bool):
            values = [not f.default]
        else:
            continue
        for value in values:
            try:
                game.build("deals", **{f.name: value})
            except ValueError:
                continue
            return f.name, value
    raise AssertionError(f"{game.name}: no option can be set for single deals")


def games_only_option(game):
    """``(name, value)``: a declared option that applies to whole games and not to single deals (by its
    ``applies`` metadata), set away from its default, or None."""
    study = game.build("deals")
    deals, whole = (game.run_context(study, unit=unit) for unit in ("deals", "games"))
    scope = game.scope()
    for f in declared(game.Options):
        where = scope.get(f.name)
        if where is None or where.applies(deals) or not where.applies(whole):
            continue
        if isinstance(f.default, bool):
            return f.name, not f.default
        if f.metadata["choices"] is not None:
            return f.name, next(v for v in f.metadata["choices"] if v != f.default)
        if f.metadata["between"] is not None:
            low, high = f.metadata["between"]
            return f.name, low if f.default != low else high
        if isinstance(f.default, int):
            return f.name, f.default + 1
    return None


def header_of(text: str) -> list[str]:
    return text.split("\n\n", 1)[0].splitlines()


@pytest.mark.parametrize("name", GAMES)
def test_a_small_run_reports_its_game_seed_size_and_the_options_that_apply(name):
    game = games.game(name)
    option, value = deal_option(game)
    df = game.simulate(deals=12, seed=11, **{option: value})
    meta = df.attrs["cardlab"]  # the rows carry their run, whatever the game
    assert meta["game"] == name and meta["seed"] == 11 and meta["deals"] == 12
    header = header_of(analysis.format_report(df))
    assert header[0].startswith(f"{game.title} ({name}): ") and "seed 11" in header[0]
    assert header[0].endswith(f"| 12 {game.unit}s")
    options = next(line for line in header if line.startswith("options: "))
    shown = value if not isinstance(value, bool) else str(value)
    assert f"{option}={shown}" in options
    assert not any("PARTIAL" in line for line in header)
    assert any(line.startswith("versions: ") for line in header)
    assert analysis.format_report(df, meta) == analysis.format_report(df)  # meta given or read from the rows


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_option_is_listed_for_whole_games_only(name):
    game = games.game(name)
    pick = games_only_option(game)
    if pick is None:
        pytest.skip(f"{name} has no option of whole games only")
    option, value = pick
    meta = {"game": name, "seed": 3, "options": {option: value}}
    assert option not in analysis.options_that_apply(meta)
    assert option in analysis.options_that_apply(dict(meta, unit="game"))


@pytest.mark.parametrize("name", GAMES)
def test_an_incomplete_run_file_says_partial(name, tmp_path):
    game = games.game(name)
    out = tmp_path / "run.parquet"
    game.simulate(deals=10, seed=5, out=out)
    df, meta = analysis.load_run(out)
    assert df.attrs["cardlab"] == meta and meta["complete"] is True
    assert "PARTIAL" not in analysis.format_report(df)
    cut = df.iloc[:6].copy()
    cut.attrs["cardlab"] = dict(meta, deals=6, complete=False)  # as a run stopped after six of ten
    header = header_of(analysis.format_report(cut))
    assert header[1] == f"PARTIAL RUN (interrupted): 6 of 10 {game.unit}s requested; figures cover those kept"


@pytest.mark.parametrize("name", GAMES)
def test_whole_games_report_through_the_same_header(name):
    game = games.game(name)
    df = game.simulate_games(games=2, seed=8)
    assert df.attrs["cardlab"]["unit"] == "game"
    header = header_of(analysis.format_report(df))
    assert header[0].startswith(f"{game.title} ({name}): whole-game report") and header[0].endswith("| 2 games")


# A share shown as a fraction (a table column named ``share`` or ``*_rate``), an interval written ``a … b``,
# ``a..b`` or ``[a, b]``: the styles every report gave up for one (shares in %, intervals ``low to high``).
FRACTION_COLUMN = re.compile(r"(?<![\w%])(\w*share|\w+_rate)(?=\s|$)")
OTHER_INTERVAL = re.compile(r"\d\.\d+\s*(?:…|\.\.)\s*[-+−]?\d|\[[-+]?\d+\.\d+, [-+]?\d")


def table_headers(text: str) -> list[str]:
    """The lines of ``text`` that head a table: column names apart by two spaces or more, no title's colon."""
    return [line for line in text.splitlines() if ":" not in line and len(re.findall(r"\S {2,}(?=\S)", line)) >= 2]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("unit", ["deals", "games"])
def test_every_report_shows_shares_in_percent_and_intervals_low_to_high(name, unit):
    game = games.game(name)
    df = game.simulate(deals=300, seed=4) if unit == "deals" else game.simulate_games(games=20, seed=4)
    text = analysis.format_report(df)
    assert table_headers(text) and not [line for line in table_headers(text) if FRACTION_COLUMN.search(line)], text
    assert not [line for line in text.splitlines() if OTHER_INTERVAL.search(line)], text


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_one_strength_report_for_every_game(name, tmp_path, capsys):
    from cardlab.sim.cli import main
    from cardlab.sim.ladder import strength_study

    game = games.game(name)
    keywords = {"players": 2} if name == "rami" else {"contract": "no-queens"} if name == "barbu" else {}
    df = strength_study(game, deals=4, seed=2, search_worlds=2, **keywords)
    text = analysis.format_report(df)
    assert header_of(text)[0].startswith(f"{game.title} ({name}): strength ladder")
    assert "How far the heuristic is from search" in text and "Whole tables" in text
    gains = analysis.strength_gains(df)
    assert len(gains) == 6 and (gains["deals"] == 4).all()  # Barbu's one contract: six pairs too
    assert analysis.plot_report(df).get_suptitle().startswith(game.title)
    out = tmp_path / "s.parquet"
    flags = ["--players", "2"] if name == "rami" else ["--contract", "no-queens"] if name == "barbu" else []
    assert main(["study", name, "strength", "--deals", "4", "--search-worlds", "2", *flags, "--out", str(out),
                 "--plot", str(tmp_path / "s.png")]) == 0
    assert (tmp_path / "s.png").exists()
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "How far the heuristic is from search" in capsys.readouterr().out
