"""examples/python/tour.ipynb runs top to bottom in a headless kernel
(nbclient, ipykernel: installed by run.sh) without an error, and is
committed without outputs."""

import pathlib

import nbformat
from nbclient import NotebookClient

TOUR = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "tour.ipynb"


def test_the_tour_is_committed_without_outputs():
    nb = nbformat.read(TOUR, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code
    assert all(not c.outputs and c.execution_count is None for c in code)


def test_the_tour_runs_clean():
    nb = nbformat.read(TOUR, as_version=4)
    # "python3" is ipykernel's own kernel: this interpreter, the suite's .venv.
    client = NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(TOUR.parent)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # The pictures, the analysis table and the widget were shown.
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert {"image/svg+xml", "text/html", "application/vnd.jupyter.widget-view+json"} <= kinds, kinds
