"""The documentation site builds (``mkdocs build --strict``: a broken link, a missing page or a bad marker
fails), its generated tables hold every declared option and column, the README stays short, and the
Python examples of the README and of the docs run."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardlab.sim import games
from cardlab.sim.options import declared

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_site_builds_strict_with_every_page(site):
    nav = re.findall(r"([\w/-]+)\.md", (ROOT / "mkdocs.yml").read_text())
    for page in nav:
        html = site / (page[:-len("index")] if page.endswith("index") else page + "/") / "index.html"
        assert html.is_file(), page
    for name in games.GAMES:
        assert (site / "games" / name / "index.html").is_file() and (site / "rules" / name / "index.html").is_file()


@pytest.mark.parametrize("name", list(games.GAMES))
def test_each_game_page_has_its_generated_options_and_columns(site, name):
    html = (site / "games" / name / "index.html").read_text(encoding="utf-8")
    assert "<!-- cardlab:" not in html, "every table marker was replaced"
    game = games.game(name)
    for f in declared(game.Options):
        assert f"--{f.name.replace('_', '-')}" in html and f"<code>{f.name}</code>" in html, f.name
    for unit, columns in game.columns.items():
        for col in columns:
            assert f"<code>{col.name}</code>" in html, (unit, col.name)


@pytest.mark.parametrize("name", list(games.GAMES))
def test_each_game_page_shows_its_figures_drawn_by_make_figures(site, name):
    html = (site / "games" / name / "index.html").read_text(encoding="utf-8")
    for unit in ("deals", "games"):
        assert f"figures/{name}-{unit}.png" in html and (site / "figures" / f"{name}-{unit}.png").is_file(), unit


def test_every_notebook_is_a_page(site):
    for path in NOTEBOOKS:
        assert (site / "notebooks" / path.stem / "index.html").is_file(), path.name
        assert f"notebooks/{path.name}" in (ROOT / "mkdocs.yml").read_text(), path.name


def test_the_api_pages_come_from_the_docstrings(site):
    html = (site / "api" / "game" / "index.html").read_text(encoding="utf-8")
    assert "simulate_games" in html and "Play <code>deals</code> independent deals" in html


def test_the_readme_is_short_and_points_into_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link


def python_examples():
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for k, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            yield pytest.param(block, id=f"{path.relative_to(ROOT)}#{k}")


@pytest.mark.slow  # every game's kernels, whole games and two searches: minutes on a cold cache
@pytest.mark.parametrize("code", list(python_examples()))
def test_the_python_examples_run(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples may write figures
    import matplotlib

    matplotlib.use("Agg")
    exec(compile(code, "<docs example>", "exec"), {"__name__": "__docs__"})
