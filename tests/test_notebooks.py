"""Every notebook runs top to bottom at a small size, so none goes stale, and the documentation site shows them
executed, with their figures.

The notebooks are executed once, here, and the site is built from those executed copies (the docs hook's
``CARDLAB_DOCS_NOTEBOOKS``): ``make docs`` executes them itself through mkdocs-jupyter, with the same size
(``CARDLAB_NOTEBOOK_DEALS``), and running them twice in one test run would only cost time."""
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

pytestmark = pytest.mark.slow  # each notebook starts a Jupyter kernel: 10 to 20 s even with the kernels cached

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def executed(tmp_path_factory) -> Path:
    """A folder of every notebook executed at the docs' size (a notebook that fails keeps its error output, which
    its test reports)."""
    folder = tmp_path_factory.mktemp("executed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CARDLAB_NOTEBOOK_DEALS", "7000")
        for path in NOTEBOOKS:
            nb = nbformat.read(path, as_version=4)
            try:
                NotebookClient(nb, timeout=600, kernel_name="python3",
                               resources={"metadata": {"path": str(path.parent)}}).execute()
            except CellExecutionError:
                pass
            nbformat.write(nb, folder / path.name)
    return folder


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, executed):
    nb = nbformat.read(executed / path.name, as_version=4)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "TqdmWarning" not in text and "Warning" not in text, "a notebook shows no warning"
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.get("name") == "stdout")
    assert not re.search(r"\d\.\d{5,}", printed), "printed values are rounded"
    assert ("trick  1:" in text or "turn 1:" in text) and "scores:" in text  # every notebook shows a deal move by move
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, "every notebook draws at least one figure"


def test_the_site_shows_the_notebooks_executed_with_their_figures(executed, tmp_path):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", CARDLAB_DOCS_NOTEBOOKS=str(executed))
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    for path in NOTEBOOKS:
        html = (tmp_path / "notebooks" / path.stem / "index.html").read_text(encoding="utf-8")
        assert "data:image/png;base64" in html, f"{path.name} shows its figures"
