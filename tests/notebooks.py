"""Execute the example notebooks with a real kernel and check what they show.

    python tests/notebooks.py            # every examples/*.ipynb
    python tests/notebooks.py --write    # and save the outputs into the files
    python tests/notebooks.py --out docs/generated/gallery   # and keep executed copies

A notebook fails when a cell raises, or when a text output (a printed stream, the
plain-text form of a result, a traceback) contains ``array(`` or is longer than 2,000
characters: what a reader sees in a notebook must be short and readable. The outputs
saved in the files are checked too, so the notebooks on the repository's web pages are
the executed ones. With ``--out DIR`` the executed copies are written to DIR (the
notebooks themselves unchanged): CI writes them where the documentation site's
gallery takes them from, so the site shows the outputs of this run and the notebooks
are executed once. Needs the ``docs`` extra (nbclient, nbformat, ipykernel).

The checks are plain functions of the notebook's JSON (:func:`problems`), which the
test suite runs without a kernel.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MAX_CHARS = 2000
FORBIDDEN = "array("


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def text_outputs(output: dict) -> list[str]:
    """The texts a reader sees of one output: stream text, text/plain data, tracebacks."""
    kind = output.get("output_type")
    if kind == "stream":
        return [_text(output.get("text", ""))]
    if kind in ("execute_result", "display_data"):
        data = output.get("data", {})
        return [_text(data["text/plain"])] if "text/plain" in data else []
    if kind == "error":
        return ["\n".join(output.get("traceback", [])) or output.get("ename", "error")]
    return []


def problems(notebook: dict, *, executed: bool = True) -> list[str]:
    """Everything wrong with a notebook's outputs, one line each (empty: none).

    ``executed=True`` also asks that every code cell has run (an execution count), so
    a notebook saved without its outputs is refused.
    """
    found = []
    code = [c for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    for number, cell in enumerate(code, start=1):
        where = f"code cell {number}"
        if executed and cell.get("source") and cell.get("execution_count") is None:
            found.append(f"{where} has not been executed")
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                found.append(f"{where} raised {output.get('ename')}: {output.get('evalue')}")
                continue
            for text in text_outputs(output):
                if FORBIDDEN in text:
                    found.append(f"{where} shows {FORBIDDEN!r}: {text[:120]!r}")
                if len(text) > MAX_CHARS:
                    found.append(
                        f"{where} shows {len(text)} characters of text (at most {MAX_CHARS})"
                    )
    return found


def execute(path: Path, *, timeout: int = 600):
    """Run every cell of the notebook at ``path`` in a fresh kernel; return the notebook.

    The kernel starts in a temporary folder, so a notebook cannot write into the
    repository. A cell that raises stops the run with nbclient's CellExecutionError.
    """
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as folder:
        client = NotebookClient(
            notebook,
            timeout=timeout,
            record_timing=False,
            kernel_name="python3",
            resources={"metadata": {"path": folder}},
        )
        client.execute()
    return notebook


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: examples/*.ipynb")
    parser.add_argument(
        "--write", action="store_true", help="save the fresh outputs into the notebooks"
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="write the executed notebooks to DIR (e.g. docs/generated/gallery)",
    )
    args = parser.parse_args(argv)
    import nbformat
    from nbclient.exceptions import CellExecutionError

    paths = args.notebooks or sorted(EXAMPLES.glob("*.ipynb"))
    if not paths:
        print("no notebook found", file=sys.stderr)
        return 1
    failed = 0
    for path in paths:
        saved = problems(nbformat.read(path, as_version=4))
        try:
            notebook = execute(path)
        except CellExecutionError as exc:
            print(f"{path}: a cell raised\n{exc}", file=sys.stderr)
            failed += 1
            continue
        fresh = problems(notebook)
        if args.write and not fresh:
            nbformat.write(notebook, path)
            saved = []
        if args.out is not None and not fresh:
            args.out.mkdir(parents=True, exist_ok=True)
            nbformat.write(notebook, args.out / path.name)
        for line in [f"{path}: {p}" for p in fresh] + [f"{path} (as saved): {p}" for p in saved]:
            print(line, file=sys.stderr)
        failed += bool(fresh or saved)
        cells = sum(c["cell_type"] == "code" for c in notebook["cells"])
        print(f"{path.name}: {cells} code cells executed, {'FAILED' if fresh or saved else 'ok'}")
    print(f"notebooks: {len(paths)} executed, {failed} with problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
