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
