"""Every game's figures to one standard (issue 21, item 10), checked on the figure objects, not on pixels.

Each report's figure, drawn from a small real run and titled with the run (``analysis.plot_report``), has
a constrained layout; every panel has a title, distinct from the run's title and below it, and a y-label;
no axis shows an offset (``1e6``) or multiplier; no tick reads as a raw column name; axes of whole-number
quantities (positions, tricks, hands, rounds, net resti) carry whole-number ticks only.
"""
from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import ErrorbarContainer
from matplotlib.layout_engine import ConstrainedLayoutEngine

from cardlab import analysis


def _runs():
    """``{name: (rows, {panel index: axis names with whole-number ticks})}``, built once."""
    from cardlab.sim import euchre5, minchiate, rami
    from cardlab.sim.variants import options_study

    return {
        "euchre5 deals": (euchre5.simulate(deals=400, seed=1), {1: "x"}),
        "euchre5 games": (euchre5.simulate_games(games=30, seed=1), {1: "xy"}),
        "euchre5 trumps": (euchre5.trump_study(deals=60, seed=1), {0: "x"}),
        "euchre5 options": (options_study(euchre5.EUCHRE5, deals=40, seed=1), {}),
        "rami deals": (rami.simulate(deals=400, seed=1, players=4), {1: "x", 2: "x"}),
        "rami games": (rami.simulate_games(games=12, seed=1, players=4), {0: "xy", 1: "x"}),
        "rami threshold": (rami.RAMI.studies["threshold"].run(rami.RAMI, deals=150, seed=1, players=4), {}),
        "minchiate deals": (minchiate.simulate(deals=300, seed=1), {0: "x"}),
        "minchiate games": (minchiate.simulate_games(games=30, seed=1), {0: "x"}),
    }


@pytest.fixture(scope="module")
def runs():
    return _runs()


CASES = ["euchre5 deals", "euchre5 games", "euchre5 trumps", "euchre5 options", "rami deals", "rami games",
         "rami threshold", "minchiate deals", "minchiate games"]


def _visible_ticks(axis, low, high):
    low, high = sorted((low, high))
    return [t for t in axis.get_majorticklocs() if low - 1e-9 <= t <= high + 1e-9]


@pytest.mark.parametrize("case", CASES)
def test_every_panel_is_titled_labelled_and_clear_of_the_run_title(runs, case):
    df, whole = runs[case]
    _check_standard(analysis.plot_report(df), case, whole)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["barbu", "euchre5", "minchiate", "rami"])
def test_the_strength_ladder_figure_meets_the_standard(name):
    from cardlab.sim import games
    from cardlab.sim.ladder import strength_study

    keywords = {"players": 2} if name == "rami" else {"contract": "no-queens"} if name == "barbu" else {}
    df = strength_study(games.game(name), deals=4, seed=2, search_worlds=2, **keywords)
    _check_standard(analysis.plot_report(df), f"{name} strength", {})


def _check_standard(fig, case, whole):
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine), "the layout makes room for the run title"
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    suptitle = fig.get_suptitle()
    assert suptitle
    top = fig._suptitle.get_window_extent(renderer)
    for k, ax in enumerate(fig.axes):
        title = ax.get_title()
        assert title and title != suptitle and title not in suptitle, f"{case}, panel {k}: its own title"
        assert ax.get_ylabel().strip(), f"{case}, panel {k} ({title}): a y-label"
        assert ax.title.get_window_extent(renderer).y1 <= top.y0 + 0.5, f"{case}, {title!r} under the run title"
        for axis in (ax.xaxis, ax.yaxis):
            assert axis.get_offset_text().get_text() == "", f"{case}, {title!r}: no offset or multiplier"
            names = [t.get_text() for t in axis.get_ticklabels()]
            assert not [n for n in names if "_" in n and "=" not in n], f"{case}, {title!r}: readable tick labels, not {names}"
        for name in whole.get(k, ""):
            axis = getattr(ax, f"{name}axis")
            ticks = _visible_ticks(axis, *getattr(ax, f"get_{name}lim")())
            assert ticks and all(float(t).is_integer() for t in ticks), f"{case}, {title!r}: whole {name} ticks"


def test_euchre_tricks_panel_says_tricks_and_minchiate_games_say_games(runs):
    titles = [ax.get_title() for ax in analysis.plot_report(runs["euchre5 deals"][0]).axes]
    assert "Attackers' tricks by contract type" in titles and not [t for t in titles if "score distribution" in t]
    fig = analysis.plot_report(runs["minchiate games"][0])
    assert "games" in fig.axes[0].get_ylabel() and "deals" not in fig.axes[0].get_ylabel()
    assert all("per game" in ax.get_ylabel() for ax in fig.axes[1:])


def test_rami_panels_show_intervals(runs):
    for case in ("rami deals", "rami games", "rami threshold"):
        fig = analysis.plot_report(runs[case][0])
        for ax in fig.axes:
            bars = [c for c in ax.containers if getattr(c, "errorbar", None) is not None  # bars with error bars
                    or isinstance(c, ErrorbarContainer)]  # or points with them (the variants' shifts)
            if ax.patches and not bars:  # a histogram: its mean and interval are in the legend
                assert ax.get_legend() is not None and "CI" in ax.get_legend().get_title().get_text()
            else:
                assert bars, f"{case}, {ax.get_title()!r}: error bars"


def test_no_figure_uses_pyplot(runs):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    for case in CASES:
        analysis.plot_report(runs[case][0])
    assert plt.get_fignums() == before, "figures are built without pyplot (no figure left open)"
