"""The README's set-up commands are the ones CI runs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"^(python3 -m venv .*)$", text, flags=re.M)


def test_ci_runs_exactly_the_readme_test_command():
    commands = _readme_commands()
    tests = [c for c in commands if "pytest" in c]
    assert len(tests) == 1, commands
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert tests[0] in ci


def test_readme_main_job_runs_the_demo():
    assert any(c.endswith("fairconv demo") for c in _readme_commands())


# --------------------------------------------------------------------------- packaging
def _pyproject():
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_version_is_defined_once():
    import importlib.metadata

    import fairconv

    project = _pyproject()["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    dynamic = _pyproject()["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "fairconv.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fairconv.__version__)
    assert importlib.metadata.version("fairconv") == fairconv.__version__


def test_license_file_matches_the_metadata():
    project = _pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 fairconv developers" in text
    assert not any(c.startswith("License ::") for c in project["classifiers"])


def test_classifiers_cover_the_supported_pythons_and_typing():
    project = _pyproject()["project"]
    classifiers = set(project["classifiers"])
    assert project["requires-python"] == ">=3.11"
    for v in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {v}" in classifiers
    assert "Typing :: Typed" in classifiers
    assert (ROOT / "src" / "fairconv" / "py.typed").exists()
    assert "py.typed" in _pyproject()["tool"]["setuptools"]["package-data"]["fairconv"]


def test_all_extra_is_the_union_of_the_optional_features():
    extras = _pyproject()["project"]["optional-dependencies"]
    assert extras["ir-measures"] == ["ir_measures>=0.3"]
    # extras by their normalised names (PEP 685): the pip of Python 3.11 (23.2) finds
    # 'fairconv[ir-measures]' but not 'fairconv[ir_measures]'
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) for name in extras)
    # test and docs are the developers' tools, not features of the library
    optional = set(extras) - {"all", "test", "docs"}
    (everything,) = extras["all"]
    assert everything.startswith("fairconv[") and everything.endswith("]")
    assert set(everything[len("fairconv[") : -1].split(",")) == optional


def test_the_test_extra_brings_what_the_suite_uses():
    """pip install -e '.[test]' alone runs the whole suite: pandas and matplotlib at the
    floors of their extras."""
    extras = _pyproject()["project"]["optional-dependencies"]
    assert set(extras["pandas"]) <= set(extras["test"])
    assert set(extras["plot"]) <= set(extras["test"])
    # numpydoc, at the docs' floor: its validation of the docstrings
    # (tests/test_docstrings.py) runs in the main run, not only where the site is built
    numpydoc = [d for d in extras["docs"] if d.startswith("numpydoc")]
    assert numpydoc and set(numpydoc) <= set(extras["test"])
    (test_command,) = [c for c in _readme_commands() if "pytest" in c]
    assert "pip install -e '.[test]' &&" in test_command


def test_the_extra_is_spelled_as_pip_finds_it():
    """'[ir_measures]' is refused by the pip of Python 3.11: no text tells users to type it."""
    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "src").rglob("*.py")]
    for path in texts:
        assert "[ir_measures]" not in path.read_text(encoding="utf-8"), path


def test_changelog_has_an_unreleased_section_and_the_current_version():
    import fairconv

    text = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert headings[0] == "Unreleased"
    assert fairconv.__version__ in headings


def test_python_dash_m_fairconv_runs_the_command_line():
    import subprocess
    import sys

    import fairconv

    ok = subprocess.run(
        [sys.executable, "-m", "fairconv", "--version"], capture_output=True, text=True
    )
    assert ok.returncode == 0 and ok.stdout.strip() == f"fairconv {fairconv.__version__}"
    bad = subprocess.run(
        [sys.executable, "-m", "fairconv", "nuggets", "/nonexistent/labels.jsonl"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "labels.jsonl" in bad.stderr


def test_tests_use_only_the_public_command_line():
    """The CLI's private helpers may change freely: tests call main() only."""
    offenders = []
    for file in sorted((ROOT / "tests").glob("*.py")):
        text = file.read_text()
        for m in re.finditer(r"from fairconv\.cli import ([^\n]+)|fairconv\.cli\.(_\w+)", text):
            names = m.group(1) or m.group(2)
            if any(n.strip().startswith("_") for n in names.replace("(", "").split(",")):
                offenders.append(f"{file.name}: {m.group(0)}")
    assert offenders == []
