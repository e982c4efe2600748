"""Every public callable: data positional-only, options keyword-only, and a caller's name.

Walks the public modules' ``__all__`` and the public methods of the classes they list.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect

import pytest

MODULES = [
    "divergences", "gfr", "gfrc", "gfrc2", "ragfair", "nuggets", "results", "conversation",
    "rankings", "entities", "datasets", "plots", "io", "stats", "agreement", "trecfair",
    "rankfair",
]  # fmt: skip
if importlib.util.find_spec("ir_measures") is not None:  # the module of the extra
    MODULES.append("ir_measures")

ALLOWED = {
    # a dataclass-style factory of options by name: the preset is positional (as
    # ConversationOptions(...) fields are) and the options are the fields themselves
    "conversation.ConversationOptions.resolve": "options are the dataclass's fields",
}

RECORDS = ("stats._results", "agreement._results", "_records")  # to_dict/to_frame: no input


def _public_callables():
    for m in MODULES:
        module = importlib.import_module(f"fairconv.{m}")
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield f"{m}.{name}", obj
            elif inspect.isclass(obj) and obj.__module__.startswith("fairconv"):
                for key, value in vars(obj).items():
                    func = (
                        value.__func__ if isinstance(value, classmethod | staticmethod) else value
                    )
                    if (
                        inspect.isfunction(func)
                        and not key.startswith("_")
                        and func.__code__.co_filename != "<string>"
                    ):
                        yield f"{m}.{name}.{key}", func


CALLABLES = dict(_public_callables())


def test_the_walk_finds_the_api():
    assert len(CALLABLES) > 100
    assert {"gfr.evaluate", "io.read_run", "stats.compare", "results.ScoreTable.select"} <= set(
        CALLABLES
    )


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_data_is_positional_only_and_options_keyword_only(name):
    if name in ALLOWED:
        return
    params = list(inspect.signature(inspect.unwrap(CALLABLES[name])).parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    for p in params:
        assert p.kind is not p.VAR_KEYWORD, f"{name} takes **{p.name}"
        assert not p.name.startswith("_"), f"{name} has the private parameter {p.name}"
        assert p.kind is not p.POSITIONAL_OR_KEYWORD, f"{name}: {p.name} is " + (
            "data: make it positional-only" if p.default is p.empty else "an option: *"
        )


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_every_public_callable_names_itself_in_errors(name):
    func = CALLABLES[name]
    if func.__module__.endswith(RECORDS):
        return
    assert getattr(func, "__fairconv_public__", None), f"{name} lacks @public"
    assert func.__fairconv_public__.split(".")[-1] == name.split(".")[-1]
