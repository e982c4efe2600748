"""numpydoc's own validation of every public callable's docstring.

Walks ``fairconv.__all__`` and the ``__all__`` of every public module (the command line
aside: its functions are not an API), and the public methods of the classes they list,
including those a class inherits from a fairconv base (the records' ``to_dict``). Each
object is checked once, under the name of the module that defines it, by
``numpydoc.validate.validate``: the checks numpydoc's own ``numpydoc lint`` and Sphinx
option ``numpydoc_validation_checks`` run.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil

import numpydoc.validate
import pytest

import fairconv

CHECKED = {
    "PR01": "a parameter of the signature is not in Parameters",
    "PR02": "Parameters names a parameter the signature does not have",
    "PR03": "Parameters are not in the signature's order",
    "PR07": "a parameter has no description",
    "PR10": "a colon without a space before it (``x: int`` for ``x : int``)",
    "RT01": "a callable that returns something has no Returns",
    "RT02": "Returns gives the name of a single value, not its type",
    "RT03": "a Returns entry has no description",
    "GL07": "the sections are not in numpydoc's order",
}
"""The codes a docstring fails on, with what each means."""

EXCEPTIONS: dict[tuple[str, str], str] = {}
"""(object, code) pairs allowed to fail, each with why. Keep it minimal: a pair that
passes is an error (:func:`test_every_exception_is_still_needed`)."""


def _public_modules():
    modules = ["fairconv"]
    for info in pkgutil.walk_packages(fairconv.__path__, "fairconv."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or parts[1] == "cli":
            continue
        if info.name == "fairconv.ir_measures" and importlib.util.find_spec("ir_measures") is None:
            continue  # the module of the ir-measures extra; tests_extra covers it
        modules.append(info.name)
    return modules


def _home(obj) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def _public_callables() -> dict[str, object]:
    """``{name numpydoc loads it by: object}`` of every public callable, each once."""
    found: dict[str, object] = {}
    for name in _public_modules():
        module = importlib.import_module(name)
        for attribute in module.__all__:
            obj = getattr(module, attribute)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue  # constants, and ir_measures' measure objects (GFR, GFR@10)
            if not getattr(obj, "__module__", "").startswith("fairconv"):
                continue
            found.setdefault(_home(obj), obj)
            if not inspect.isclass(obj):
                continue
            for base in obj.__mro__:
                if not base.__module__.startswith("fairconv"):
                    continue
                for key, value in vars(base).items():
                    func = getattr(value, "__func__", value)  # classmethod, staticmethod
                    if key.startswith("_") or not inspect.isfunction(func):
                        continue
                    if func.__code__.co_filename == "<string>":  # made by dataclasses
                        continue
                    found.setdefault(_home(func), func)
    return found


CALLABLES = _public_callables()


def test_the_walk_finds_the_api():
    assert len(CALLABLES) > 200
    assert {
        "fairconv.gfr.evaluate",
        "fairconv.io._tables.read_run",
        "fairconv.results.ScoreTable",
        "fairconv.results.ScoreTable.to_tsv",
        "fairconv._records.Record.to_dict",
        "fairconv.stats._results.PairedTTestResult",
    } <= set(CALLABLES)


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_numpydoc_validates_the_docstring(name):
    errors = [
        f"{code}: {message}"
        for code, message in numpydoc.validate.validate(name)["errors"]
        if code in CHECKED and (name, code) not in EXCEPTIONS
    ]
    assert not errors, "\n".join(errors)


def test_every_exception_is_still_needed():
    """An exception that no longer fails is taken off the list."""
    for (name, code), why in EXCEPTIONS.items():
        assert why
        codes = [c for c, _ in numpydoc.validate.validate(name)["errors"]]
        assert code in codes, f"{name} passes {code} now: remove it from EXCEPTIONS"
