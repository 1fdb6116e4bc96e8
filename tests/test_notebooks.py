"""Every notebook runs top to bottom at a small size, so none goes stale."""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow  # each notebook starts a Jupyter kernel: 10 to 20 s even with the kernels cached

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("CARDLAB_NOTEBOOK_DEALS", "7000")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "TqdmWarning" not in text and "Warning" not in text, "a notebook shows no warning"
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.get("name") == "stdout")
    assert not re.search(r"\d\.\d{5,}", printed), "printed values are rounded"
    assert ("trick  1:" in text or "turn 1:" in text) and "scores:" in text  # every notebook shows a deal move by move
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, "every notebook draws at least one figure"
