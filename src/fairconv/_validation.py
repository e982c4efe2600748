"""Input checks shared by every public function.

Each check raises ``ValueError`` (or ``TypeError`` for the wrong kind of object) with
one message template: "The '<name>' parameter of <caller> must <rule>. Got <what>
instead." The arithmetic in :mod:`fairconv._core` assumes these checks have passed.

The caller is the public function the user called: :func:`public` marks a public
function or method, and records its name (``gfr.evaluate``,
``results.ScoreTable.select``) in a context variable for the duration of the call.
The outermost public call wins, so a public function calling another one still names
the function the user called; the threads of :mod:`fairconv._accel` run in a copy of
the caller's context and name it too.
"""

from __future__ import annotations

import contextvars
import functools
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

_CALLER: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "fairconv_caller", default=None
)
_SITE: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("fairconv_site", default=None)
"""Where the user called the outermost public function: (file, line, module globals)."""


def public_name(func: Callable[..., Any]) -> str:
    """The name a user calls ``func`` by: its public module path and qualified name.

    ``fairconv.stats._compare.compare`` is ``stats.compare``; a constructor
    (``__init__``, ``__post_init__``) is named after its class. A private module whose
    functions another module exports names that module in ``__fairconv_home__``
    (``fairconv.io._trecfair``: ``"trecfair"``).
    """
    home = getattr(sys.modules.get(func.__module__), "__fairconv_home__", None)
    module = (
        home.split(".")
        if home
        else [
            part
            for part in func.__module__.split(".")
            if part != "fairconv" and not part.startswith("_")
        ]
    )
    qualname = [
        part for part in func.__qualname__.split(".") if part not in ("__init__", "__post_init__")
    ]
    return ".".join(module + qualname)


def public(func: F) -> F:
    """Mark a public function or method: errors raised during its call name it.

    The name (:func:`public_name`) is set for the call unless an outer public call has
    set one already, and reset when the call ends, error or not.
    """
    name = public_name(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if _CALLER.get() is not None:
            return func(*args, **kwargs)
        frame = sys._getframe(1)
        token = _CALLER.set(name)
        site = _SITE.set((frame.f_code.co_filename, frame.f_lineno, frame.f_globals))
        del frame
        try:
            return func(*args, **kwargs)
        finally:
            _SITE.reset(site)
            _CALLER.reset(token)

    wrapper.__fairconv_public__ = name  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


@contextmanager
def calling(name: str) -> Iterator[None]:
    """Name ``name`` (e.g. ``fairconv gfr``) as the caller within the block.

    For the command line, whose subcommands call the library on the user's behalf.
    """
    token = _CALLER.set(name)
    try:
        yield
    finally:
        _CALLER.reset(token)


def caller() -> str:
    """The public function being called (``fairconv`` outside any public call)."""
    return _CALLER.get() or "fairconv"


def moved(module: str, home: str, names: Mapping[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of a module whose public ``names`` moved to the module ``home``.

    Each name keeps working for one release from ``module``, its old home, with a
    ``DeprecationWarning`` that names the new one; the objects are those of ``home``
    (the old module is the higher one: its shim points down).
    """

    def __getattr__(name: str) -> Any:
        if name in names:
            warnings.warn(
                f"{module}.{name} has moved to {home}.{name}; import it from there "
                f"({module}.{name} will be removed in the next release)",
                DeprecationWarning,
                stacklevel=2,
            )
            return names[name]
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


class FairconvWarning(UserWarning):
    """The one warning fairconv gives: the input is valid but probably not what was meant.

    Given when a run's scores rise within a topic although its lines are ranked in file
    order, and when a membership file gives judged-nonrelevant docs vectors that the
    papers' rule replaces by uniform ones. The command line prints it as one line on
    stderr; ``warnings.simplefilter("error", FairconvWarning)`` turns it into an error.
    """


def notice(message: str) -> None:
    """Give a :class:`FairconvWarning`, attributed to the user's line that called fairconv.

    The line is that of the outermost public call (:func:`public`), whichever thread
    the notice comes from: the thread pools of fairconv carry the call's context.
    Outside a public call, the first frame outside fairconv.
    """
    _warn_at_user(message, FairconvWarning)


def deprecated(message: str) -> None:
    """Give a ``DeprecationWarning``, attributed to the user's line as :func:`notice` does.

    For a spelling that stays accepted for one release (``depth=0`` for "no cut"): the
    message says what to write instead.
    """
    _warn_at_user(message, DeprecationWarning)


def _warn_at_user(message: str, category: type[Warning]) -> None:
    site = _SITE.get()
    if site is None:
        # stack levels: 1 is this function, 2 notice or deprecated, 3 their caller
        frame: FrameType | None = sys._getframe(2)
        level = 3
        while frame is not None and frame.f_globals.get("__name__", "").startswith("fairconv"):
            frame, level = frame.f_back, level + 1
        warnings.warn(message, category, stacklevel=level)
        return
    filename, lineno, module_globals = site
    warnings.warn_explicit(
        message,
        category,
        filename,
        lineno,
        module=module_globals.get("__name__", "__main__"),
        registry=module_globals.setdefault("__warningregistry__", {}),
    )


SUM_TOLERANCE = 1e-5
"""A distribution sums to 1 within this tolerance (published targets have 6 digits)."""


def fail(name: str, rule: str, got: str) -> ValueError:
    """Build the standard error message (returned, so callers write ``raise fail(...)``)."""
    return ValueError(f"The '{name}' parameter of {caller()} must {rule}. Got {got} instead.")


def fail_type(name: str, rule: str, got: str) -> TypeError:
    """:func:`fail` for an object of the wrong kind: a ``TypeError``."""
    return TypeError(f"The '{name}' parameter of {caller()} must {rule}. Got {got} instead.")


def check_instance(value, types: type | tuple[type, ...], name: str, *, what: str = "") -> Any:
    """``value`` must be an instance of ``types``; returned unchanged.

    ``what`` says what the user should pass (e.g. ``"a Qrels (fairconv.io.read_qrels)"``);
    by default the names of the types.
    """
    if not isinstance(value, types):
        names = types if isinstance(types, tuple) else (types,)
        rule = what or " or ".join(_article(t.__name__) for t in names)
        raise fail_type(name, f"be {rule}", _article(type(value).__name__))
    return value


def _article(noun: str) -> str:
    """'an int', 'a str', 'an ndarray': the article as the name is read aloud."""
    vowel = noun[:1].lower() in "aeiou" or noun.startswith("nd")  # "en-dee-array"
    return ("an " if vowel else "a ") + noun


def as_float_array(x, name: str) -> np.ndarray:
    """Convert ``x`` to a float64 array, with a TypeError for non-numeric input."""
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(
            f"The '{name}' parameter of {caller()} must be an array of numbers. "
            f"Got an object numpy cannot read as an array ({exc})."
        ) from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_):
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be an array of numbers. "
            f"Got an array of dtype {arr.dtype} instead."
        )
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be real. Got complex values instead."
        )
    return arr.astype(np.float64, copy=False)


def _numbers(x, name: str) -> np.ndarray:
    """:func:`as_float_array`, refusing booleans (weights and gains are not flags)."""
    arr = as_float_array(x, name)
    if np.asarray(x).dtype == np.bool_:
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be a sequence of numbers. "
            "Got booleans instead."
        )
    return arr


def check_distributions(
    x, name: str, *, allow_nan_rows: bool = False, min_groups: int = 2
) -> np.ndarray:
    """Check probability vectors along the last axis; return them as float64.

    Each vector must have at least ``min_groups`` groups (two by default: a
    distribution over one group says nothing), finite non-negative entries and sum to 1
    within :data:`SUM_TOLERANCE`. Nothing is renormalised. With ``allow_nan_rows``, a
    vector that is entirely NaN passes (it marks a missing membership).
    """
    arr = as_float_array(x, name)
    if arr.ndim == 0:
        raise fail(name, "be an array with the groups on its last axis", "a scalar")
    if arr.shape[-1] < min_groups:
        groups = f"{min_groups} group" + ("s" if min_groups != 1 else "")
        raise fail(name, f"have at least {groups} on its last axis", f"shape {arr.shape}")
    work = arr
    if allow_nan_rows:
        nan_rows = np.isnan(arr).all(axis=-1)
        if nan_rows.any():
            work = np.where(nan_rows[..., None], 0.0, arr)
    # entries first, so that the sum below cannot overflow
    finite = np.isfinite(work)
    if not finite.all():
        bad = np.argwhere(~finite.all(axis=-1))
        raise fail(name, "contain only finite probabilities", f"NaN or infinity{_index(bad[0])}")
    negative = work < 0
    if negative.any():
        bad = np.argwhere(negative.any(axis=-1))
        raise fail(
            name,
            "contain only non-negative probabilities",
            f"a negative entry{_index(bad[0])}",
        )
    big = work > 1.0 + SUM_TOLERANCE
    if big.any():
        bad = np.argwhere(big.any(axis=-1))
        value = float(work[tuple(np.argwhere(big)[0])])
        raise fail(name, "contain only probabilities in [0, 1]", f"{value:.10g}{_index(bad[0])}")
    sums = work.sum(axis=-1)
    if allow_nan_rows and work is not arr:
        sums = np.where(nan_rows, 1.0, sums)
    off = np.abs(sums - 1.0) > SUM_TOLERANCE
    if off.any():
        first: tuple | np.ndarray = np.argwhere(off)[0] if off.ndim else ()
        raise fail(
            name,
            f"sum to 1 along its last axis (within {SUM_TOLERANCE:g})",
            f"sum {float(sums[tuple(first)]):.10g}{_index(first)}",
        )
    return arr


def _index(idx) -> str:
    idx = tuple(int(i) for i in idx)
    return f" at index {idx}" if idx else ""


def at_first(mask: np.ndarray) -> str:
    """Where the first True of ``mask`` is, for a message: `` at index (0, 3)``."""
    return _index(np.argwhere(mask)[0])


def first_bad_distribution(rows: np.ndarray) -> int:
    """Index of the first (n, G) row that is not a distribution, or -1.

    A distribution has finite entries in [0, 1] summing to 1 within
    :data:`SUM_TOLERANCE`; entries are checked before the sum, which cannot overflow.
    """
    if len(rows) and np.isfinite(rows).all() and rows.min() >= 0:
        if rows.max() <= 1 + SUM_TOLERANCE:  # in range: the sum below cannot overflow
            total = rows[:, 0].copy()
            for g in range(1, rows.shape[1]):
                total += rows[:, g]
            if np.abs(total - 1.0).max() <= SUM_TOLERANCE:
                return -1
    bad = ~np.isfinite(rows).all(axis=1)
    safe = np.where(np.isfinite(rows), rows, 0.0)
    bad |= ((safe < 0) | (safe > 1 + SUM_TOLERANCE)).any(axis=1)
    bad |= np.abs(np.where(bad[:, None], 0.0, safe).sum(axis=1) - 1.0) > SUM_TOLERANCE
    return int(np.argmax(bad)) if bad.any() else -1


def check_same_groups(p: np.ndarray, q: np.ndarray, names=("p", "q")) -> None:
    """Both arrays must have the same number of groups and broadcastable leading axes."""
    if p.shape[-1] != q.shape[-1]:
        raise ValueError(
            f"The '{names[0]}' and '{names[1]}' parameters of {caller()} must have "
            f"the same number of groups. Got shapes {p.shape} and {q.shape} instead."
        )
    try:
        np.broadcast_shapes(p.shape, q.shape)
    except ValueError:
        raise ValueError(
            f"The '{names[0]}' and '{names[1]}' parameters of {caller()} must have "
            f"broadcastable shapes. Got shapes {p.shape} and {q.shape} "
            "instead."
        ) from None


def check_choice(value, name: str, choices) -> str:
    """``value`` must be one of ``choices`` (compared case-insensitively for strings)."""
    if isinstance(value, str):
        for c in choices:
            if value.lower() == c.lower():
                return c
    raise fail(name, "be one of " + ", ".join(repr(c) for c in choices), shown(value))


def check_int(value, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (not a bool) within ``[minimum, maximum]``; returned as ``int``."""
    ok = not isinstance(value, bool) and isinstance(value, (int, np.integer))
    ok = ok and (minimum is None or value >= minimum) and (maximum is None or value <= maximum)
    if not ok:
        rule = "be " + _integer_rule("an integer", minimum, maximum)
        raise fail(name, rule, shown(value))
    return int(value)


def check_cut(value, name: str, *, words: tuple[str, ...] = ()) -> int | str | None:
    """A depth to cut lists at: None (no cut), an integer >= 1, or one of ``words``.

    ``words`` name cuts the caller defines (trecfair's ``"edition"``: the edition's own
    cut). 0 meant "no cut" before None did: it is taken as None for one release, with a
    ``DeprecationWarning`` saying to write None.
    """
    if value is None or (isinstance(value, str) and value in words):
        return value
    integer = not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, np.integer))
    if integer and value == 0:
        deprecated(
            f"{name}=0 for no cut is deprecated and will be refused in the next release; "
            f"pass {name}=None (None means no cut everywhere in fairconv)"
        )
        return None
    if not (integer and value >= 1):
        spelled = "".join(f", {w!r}" for w in words)
        raise fail(name, f"be None (no cut){spelled} or an integer >= 1", shown(value))
    return int(value)


def check_int_choice(value, name: str, choices: tuple[int, ...]) -> int:
    """An integer (not a bool or a float) among ``choices``; returned as ``int``."""
    ok = not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, np.integer))
    if not (ok and value in choices):
        words = [str(c) for c in choices]
        rule = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
        # repr, not shown(): tests/test_trecfair.py::test_targets_bad_input still expects
        # numpy's np.True_ here; its owners change both together
        raise fail(name, f"be {rule}", _short(repr(value)))
    return int(value)


def _short(text: str) -> str:
    """``text`` cut to 40 characters for a message (a huge integer has hundreds of digits)."""
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(value):
    """A numpy scalar as the Python value it holds; anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def shown(value) -> str:
    """A value as the user wrote it, for messages, cut to 40 characters.

    A numpy scalar as the Python value it holds: ``nan``, ``2.5``, ``-1``, ``'x'``,
    never numpy 2's ``np.float64(nan)``.

    Examples
    --------
    >>> shown(np.float64("nan")), shown(np.int64(-1)), shown(np.str_("x"))
    ('nan', '-1', "'x'")
    """
    return _short(repr(_plain(value)))


def _integer_rule(what: str, low: int | None, high: int | None) -> str:
    """'an integer in 1..100', 'integers >= 0', ...: the range part of a message."""
    if low is not None and high is not None:
        return f"{what} in {low}..{high}"
    if low is not None:
        return f"{what} >= {low}"
    if high is not None:
        return f"{what} <= {high}"
    return what


def check_real(
    value,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    closed: str = "both",
) -> float:
    """A finite real number (not a bool) in an interval.

    ``closed`` says which ends belong to it: ``"both"``, ``"neither"``, ``"low"`` or
    ``"high"``.
    """
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))
    try:
        v = float(value) if ok else float("nan")
    except OverflowError:  # an int beyond the float range
        v = float("nan")
    ok = ok and np.isfinite(v)
    if ok and low is not None:
        ok = v >= low if closed in ("both", "low") else v > low
    if ok and high is not None:
        ok = v <= high if closed in ("both", "high") else v < high
    if not ok:
        if low is not None and high is not None:
            left = "[" if closed in ("both", "low") else "("
            right = "]" if closed in ("both", "high") else ")"
            rule = f"be a number in {left}{low:g}, {high:g}{right}"
        elif low is not None:
            rule = f"be a number {'>=' if closed in ('both', 'low') else '>'} {low:g}"
        elif high is not None:
            rule = f"be a number {'<=' if closed in ('both', 'high') else '<'} {high:g}"
        else:
            rule = "be a finite number"
        raise fail(name, rule, shown(value))
    return v


def check_weights(weights, count: int, name: str) -> np.ndarray:
    """``count`` finite non-negative weights summing to 1 within :data:`SUM_TOLERANCE`.

    Where a component does not cover a topic, the measures renormalise the weights of
    the components that do (:func:`fairconv._core.combine`).
    """
    if isinstance(weights, (str, bytes)):
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be a sequence of numbers. "
            f"Got {weights!r} instead."
        )
    w = _numbers(weights, name)
    if w.ndim != 1 or w.shape[0] != count:
        raise fail(name, f"hold {count} weight" + ("s" if count != 1 else ""), f"shape {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise fail(name, "hold finite non-negative weights", repr(w.tolist()))
    if (w > 1.0 + SUM_TOLERANCE).any():  # before the sum, which could overflow
        raise fail(name, "hold weights of at most 1 (they sum to 1)", repr(w.tolist()))
    if abs(w.sum() - 1.0) > SUM_TOLERANCE:
        raise fail(name, f"sum to 1 (within {SUM_TOLERANCE:g})", f"sum {w.sum():.10g}")
    return w


def check_cutoffs(cutoffs, name: str) -> tuple[int, ...]:
    """A sequence of positive integer depths; sorted, without repeats."""
    if isinstance(cutoffs, (str, bytes)) or not hasattr(cutoffs, "__iter__"):
        raise fail(name, "be a sequence of positive integers", repr(cutoffs))
    values = list(cutoffs)
    for k in values:
        check_int(k, name, minimum=1)
    return tuple(sorted({int(k) for k in values}))


LMAX_LIMIT = 100
"""The highest relevance level accepted anywhere, so that gains like 2^l stay finite."""

LEVEL_DTYPE = np.dtype(np.int8)
"""The dtype relevance levels are stored in, 0..:data:`LMAX_LIMIT` (a negative TREC
level is stored as 0, nonrelevant)."""
assert np.iinfo(LEVEL_DTYPE).max >= LMAX_LIMIT, "the level dtype must hold LMAX_LIMIT"


def check_lmax(value, name: str) -> int:
    """The highest relevance level: an integer in 1..:data:`LMAX_LIMIT`."""
    return check_int(value, name, minimum=1, maximum=LMAX_LIMIT)


def check_patience(value, name: str) -> int:
    """Patience L in words: an integer in 2..2^53.

    At least 2 so that R and GFRC2 stay in [0, 1]; at most 2^53, the largest range in
    which every integer is exact as a float (the arithmetic divides by L).
    """
    patience = check_int(value, name, minimum=2)
    if patience > _INT_LIMIT:
        raise fail(name, f"be an integer <= 2^53 = {_INT_LIMIT}", shown(value))
    return patience


def check_gains(gains, name: str) -> np.ndarray:
    """Positive, finite, non-decreasing gains of levels 1..lmax (lmax <= LMAX_LIMIT)."""
    g = _numbers(gains, name)
    if (
        g.ndim != 1
        or not 1 <= len(g) <= LMAX_LIMIT
        or not np.isfinite(g).all()
        or (g <= 0).any()
        or (np.diff(g) < 0).any()
        or g[-1] > 1e300
    ):
        raise fail(
            name,
            f"give a positive, finite, non-decreasing gain for each level 1..lmax "
            f"(lmax <= {LMAX_LIMIT}; e.g. (1, 3))",
            repr(np.asarray(gains).tolist()),
        )
    return g


def check_sequence_of(items, cls: type, name: str, *, min_len: int = 0) -> list:
    """A sequence (not a string) of instances of ``cls`` with at least ``min_len`` items."""
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be a sequence of "
            f"{cls.__name__}. Got {type(items).__name__} instead."
        )
    out = list(items)
    for i, x in enumerate(out):
        if not isinstance(x, cls):
            raise TypeError(
                f"The '{name}' parameter of {caller()} must hold {cls.__name__} "
                f"objects. Got {type(x).__name__} at position {i} instead."
            )
    if len(out) < min_len:
        raise fail(name, f"hold at least {min_len} item(s)", f"{len(out)}")
    return out


def first_repeat(items) -> tuple[int, int] | None:
    """The positions (first, second) of the first item given twice, or None."""
    seen: dict = {}
    for i, item in enumerate(items):
        if item in seen:
            return seen[item], i
        seen[item] = i
    return None


def check_unique_names(names, name: str) -> None:
    """Names must be distinct (attribute sets, runs)."""
    names = list(names)
    repeat = first_repeat(names)
    if repeat is not None:
        raise fail(name, "have distinct names", f"{names[repeat[1]]!r} twice")


def check_once(names, name: str, *, what: str = "name") -> None:
    """Every item of ``names`` at most once (measures and topics asked for)."""
    names = list(names)
    repeat = first_repeat(names)
    if repeat is not None:
        raise fail(name, f"list each {what} once", f"{names[repeat[1]]!r} twice")


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by one insertion, deletion, substitution or adjacent swap."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def did_you_mean(word: str, choices, *, ignore_case: bool = False) -> str:
    """A " Did you mean 'x'?" hint for a misspelt name, or "" when nothing is close.

    A choice is close when ``word`` becomes it by one insertion, deletion, substitution
    or swap of adjacent characters (``levle`` -> ``level``, ``runn`` -> ``run``); an exact
    match up to case counts as close when ``ignore_case`` is set. Several close choices
    are all named, in the order given.
    """
    key = word.casefold() if ignore_case else word
    close = []
    for choice in choices:
        other = choice.casefold() if ignore_case else choice
        if (ignore_case and other == key and choice != word) or _one_edit_apart(key, other):
            if choice not in close:
                close.append(choice)
    if not close:
        return ""
    if len(close) == 1:
        return f" Did you mean {close[0]!r}?"
    return " Did you mean " + ", ".join(repr(c) for c in close[:-1]) + f" or {close[-1]!r}?"


def unknown_field(objects, known, what: str):
    """The first key of ``objects`` (dicts) outside ``known``, as ``(index, message)``.

    ``None`` when every key is known. The message names the field, ``what`` holds it
    ("a nugget") and a :func:`did_you_mean` hint; the caller adds where the object is.
    The union of the keys is taken once (in C), and the objects are searched only when
    it holds an unknown field.
    """
    known = frozenset(known)
    keys = set().union(*map(dict.keys, objects)) if objects else set()
    if keys <= known:
        return None
    i = next(i for i, obj in enumerate(objects) if not obj.keys() <= known)
    key = next(k for k in objects[i] if k not in known)
    hint = did_you_mean(key, sorted(known)) if isinstance(key, str) else ""
    if not hint:
        hint = " The known fields are " + ", ".join(f'"{k}"' for k in sorted(known)) + "."
    return i, f'unknown field "{key}" in {what}.{hint}'


_INT_LIMIT = 1 << 53
"""The largest integer that every float holds exactly (JSON integers beyond +-2^53 are
refused: they do not survive a round trip via floats)."""


# --------------------------------------------------------------------------- ids
ID_FORBIDDEN: tuple[tuple[int, int], ...] = (
    (0x00, 0x20),  # the C0 controls and the space
    (0x7F, 0xA0),  # DEL, the C1 controls and the no-break space
    (0x1680, 0x1680),  # Ogham space mark
    (0x2000, 0x200A),  # the en quad to the hair space
    (0x2028, 0x2029),  # the line and paragraph separators
    (0x202F, 0x202F),  # narrow no-break space
    (0x205F, 0x205F),  # medium mathematical space
    (0x3000, 0x3000),  # ideographic space
    (0xD800, 0xDFFF),  # the UTF-16 surrogates: alone in a str, not characters
    (0xFEFF, 0xFEFF),  # the byte-order mark
)
"""The id rule: the code points no identifier (topic, doc, run, entity key, attribute-set
name) holds, as closed ranges. Whitespace (every character ``str.isspace`` calls a space)
and control characters would split or forge a row of a TSV output; a byte-order mark
would be an invisible part of the id (a file skips one at its start); a lone surrogate
is not a character, so no UTF-8 text holds it. An id is a non-empty string of other
characters. :data:`NOT_IN_ID` (text) and :data:`NOT_IN_ID_BYTES` (UTF-8) are built from
these ranges; a whitespace table refuses the same characters, except the four that
separate its tokens (:data:`TOKEN_SEPARATORS`)."""

TOKEN_SEPARATORS = " \t\n\r"
"""The whitespace between the tokens of a whitespace table (every other character of
:data:`ID_FORBIDDEN` is refused in one, so a token is an id or a number as written)."""

NOT_IN_ID = re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ID_FORBIDDEN) + "]")
"""A character of :data:`ID_FORBIDDEN`, in a str."""


def forbidden_bytes(ranges, *, keep: str = "") -> re.Pattern[bytes]:
    r"""A bytes pattern matching the UTF-8 form of every code point of ``ranges``.

    ``keep``: characters left out. The surrogates take their ``surrogatepass`` form
    (``\xed\xa0\x80`` for U+D800), which no valid UTF-8 holds. A multi-byte form is
    matched from its first byte, so a search of UTF-8 text finds whole characters. The
    forms are laid out as a tree of byte classes (one branch per first byte), which the
    regex engine searches about as fast as a single class.
    """
    forms = set()
    for lo, hi in ranges:
        for code in range(lo, hi + 1):
            char = chr(code)
            if char not in keep:
                forms.add(char.encode("utf-8", "surrogatepass"))
    return re.compile(_tree(forms))


def _tree(forms) -> bytes:
    """A regex matching exactly the byte strings ``forms`` (all of one length or more)."""
    if forms == {b""}:
        return b""
    tails: dict[int, set] = {}
    for form in forms:
        tails.setdefault(form[0], set()).add(form[1:])
    by_rest: dict[bytes, list[int]] = {}
    for first, rest in sorted(tails.items()):
        by_rest.setdefault(_tree(rest), []).append(first)
    branches = [_byte_class(bytes(firsts)) + rest for rest, firsts in by_rest.items()]
    return branches[0] if len(branches) == 1 else b"(?:" + b"|".join(branches) + b")"


def _byte_class(values: bytes) -> bytes:
    """A regex class of the given bytes, as ranges of consecutive values."""
    values = bytes(sorted(set(values)))
    parts, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        lo, hi = values[i], values[j]
        parts.append(b"\\x%02x" % lo if lo == hi else b"\\x%02x-\\x%02x" % (lo, hi))
        i = j + 1
    return b"[" + b"".join(parts) + b"]"


NOT_IN_ID_BYTES = forbidden_bytes(ID_FORBIDDEN)
"""The UTF-8 form of a character of :data:`ID_FORBIDDEN`, in bytes."""


# the parts of the id rule, as id_fault names them in a message's rule
ID_EMPTY = "be a non-empty string"
ID_SPACE = "not contain whitespace or control characters"
ID_MARK = "not contain a byte-order mark (U+FEFF) or a lone surrogate"


def id_fault(text: str) -> str | None:
    """The part of the id rule ``text`` breaks (``ID_EMPTY``, ``ID_SPACE``, ``ID_MARK``).

    None for an id.
    """
    if not text:
        return ID_EMPTY
    bad = NOT_IN_ID.search(text)
    if bad is None:
        return None
    char = bad.group()
    if char == "\ufeff" or "\ud800" <= char <= "\udfff":
        return ID_MARK
    return ID_SPACE


def check_id(value, field: str, where) -> str:
    """``value``, a JSON string that is an id (:data:`ID_FORBIDDEN`); else :func:`file_error`.

    ``where`` names the record (``file:line``, a :class:`Where` or a str); the message
    names the ``field``: ``file:3: "topic" must not contain whitespace or control
    characters, got "a b"``.
    """
    if type(value) is not str or not value:
        raise file_error(where, f'"{field}" must be a non-empty string, got {json_repr(value)}')
    if NOT_IN_ID.search(value):
        rule = id_fault(value)
        raise file_error(where, f'"{field}" must {rule}, got {json_repr(value)}')
    return value


def first_bad_id(ids) -> int:
    """The position of the first item of ``ids`` that is not an id, or -1.

    ``ids``: a sequence or array of str, or of bytes holding UTF-8 text (a column of a
    text file, or ids encoded with ``surrogatepass``). One search over the joined text:
    a character of the rule is found within the item holding it, since each item is
    whole characters.
    """
    items = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    if not items:
        return -1
    lengths = np.fromiter(map(len, items), np.int64, len(items))
    bad = len(items)
    if int(lengths.min()) == 0:
        bad = int(np.argmax(lengths == 0))
    if isinstance(items[0], (bytes, bytearray, np.bytes_)):
        in_bytes = NOT_IN_ID_BYTES.search(b"".join(items))
        at = -1 if in_bytes is None else in_bytes.start()
    else:
        in_text = NOT_IN_ID.search("".join(items))
        at = -1 if in_text is None else in_text.start()
    if at >= 0:
        bad = min(bad, int(np.searchsorted(np.cumsum(lengths), at, side="right")))
    return bad if bad < len(items) else -1


def json_repr(value) -> str:
    """A short JSON-like rendering of a value for messages."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _short(text)


# --------------------------------------------------------------------------- file errors
class IndexLabel(str):
    """A DataFrame's row as messages name it: by its index label, what ``df.loc`` takes.

    The ``line`` of a row of a frame (:class:`FileFormatError`, :class:`Where`,
    ``Qrels.line``): ``index 5``, ``index 'b'``, never a position. ``label`` is the
    label as the user wrote it (a numpy scalar as the Python value it holds).

    Examples
    --------
    >>> import numpy as np
    >>> str(IndexLabel(np.int64(5))), str(IndexLabel("b")), str(IndexLabel(("a", np.int64(3))))
    ('index 5', "index 'b'", "index ('a', 3)")
    >>> place_text("run 'bm25' (DataFrame)", IndexLabel(5))
    "run 'bm25' (DataFrame, index 5)"
    """

    label: Any

    def __new__(cls, label) -> IndexLabel:
        label = tuple(map(_plain, label)) if isinstance(label, tuple) else _plain(label)
        self = super().__new__(cls, f"index {label!r}")
        self.label = label
        return self


def place_text(path, line=None) -> str:
    """A place in an input as messages write it.

    ``file:line`` (``file`` alone without a line); a DataFrame's row by its index
    label, ``qrels (DataFrame, index 5)`` for the input ``qrels (DataFrame)``.
    """
    if isinstance(line, IndexLabel):
        return f"{str(path).removesuffix(' (DataFrame)')} (DataFrame, {line})"
    return f"{path}:{line}" if line else f"{path}"


def at_line(line) -> str:
    """Where another row is, within a message about a row of the same input.

    ``on line 3`` of a file (or a record), ``at index 5`` of a DataFrame.

    Examples
    --------
    >>> at_line(3), at_line(IndexLabel("x"))
    ('on line 3', "at index 'x'")
    """
    return f"at {line}" if isinstance(line, IndexLabel) else f"on line {line}"


class FileFormatError(ValueError):
    r"""A file that does not follow its format; the message starts with ``file:line:``.

    ``path`` names the input (a path, a file object's name, ``qrels (DataFrame)``);
    ``line`` is its line (a record's number, a DataFrame row's :class:`IndexLabel`), or
    None (or 0) for the input as a whole; ``message``
    is what is wrong there. Exported as ``fairconv.io.FileFormatError``.

    Examples
    --------
    >>> import io
    >>> from fairconv.io import read_qrels
    >>> read_qrels(io.StringIO("T1 d1 high\n"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fairconv.io._text.FileFormatError: <stream>:1: an NTCIR qrels level must ...; found 'high'
    """

    # the io module of the text rules is its home: tracebacks name it there, and
    # fairconv.io exports it from there (defined here, below io, for the checks above)
    __module__ = "fairconv.io._text"

    def __init__(self, path, line, message):
        self.path, self.line, self.message = str(path), line, message
        super().__init__(f"{place_text(path, line)}: {message}")

    def __reduce__(self):
        # rebuilt from its three parts, so it crosses processes (pickle, multiprocessing)
        return type(self), (self.path, self.line, self.message)


class Where(str):
    """A place in an input as messages name it, ``file:line[: detail]``, with its parts.

    A str, so that it is written into messages as it always was; :func:`file_error`
    reads its ``path`` and ``line``.
    """

    path: str
    line: int | str | None
    detail: str

    def __new__(cls, path, line=None, detail: str = "") -> Where:
        text = place_text(path, line)
        self = super().__new__(cls, f"{text}: {detail}" if detail else text)
        self.path, self.line, self.detail = str(path), line, detail
        return self

    def then(self, detail: str) -> Where:
        """The same place, narrowed to ``detail`` (``nugget 2``, ``"nuggets"``)."""
        return Where(self.path, self.line, f"{self.detail}: {detail}" if self.detail else detail)


def file_error(where, message: str) -> ValueError:
    """The error of ``message`` at ``where``, returned (callers write ``raise file_error(...)``).

    At a :class:`Where` (a place in a file, or a row of a frame), a
    :class:`FileFormatError` knowing its path and line; at a place named by a plain str
    (a record given in memory, ``record 3``), a ``ValueError``. The message reads
    ``where: message`` either way.
    """
    if isinstance(where, Where):
        detail = f"{where.detail}: {message}" if where.detail else message
        return FileFormatError(where.path, where.line, detail)
    return ValueError(f"{where}: {message}")


# --------------------------------------------------------------------------- arrays
def check_int_array(
    x,
    name: str,
    *,
    ndim: int | None = None,
    low: int | None = None,
    high: int | None = None,
) -> np.ndarray:
    """An array of integers (not bools or floats) within ``[low, high]``; int64.

    An empty array passes whatever its dtype (``[]`` reads as float64).
    """
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(
            f"The '{name}' parameter of {caller()} must be an array of integers. "
            f"Got an object numpy cannot read as an array ({exc})."
        ) from None
    if arr.size and (arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(
            f"The '{name}' parameter of {caller()} must be an array of integers. "
            f"Got an array of dtype {arr.dtype} instead."
        )
    if ndim is not None and arr.ndim != ndim:
        raise fail(name, f"be a {ndim}-d array", f"shape {arr.shape}")
    if arr.size:
        outside = np.zeros(arr.shape, dtype=bool)
        if arr.dtype.kind == "u":  # beyond int64
            outside |= arr > np.iinfo(np.int64).max
        if low is not None:
            outside |= arr < low
        if high is not None:
            outside |= arr > high
        if outside.any():
            first = tuple(np.argwhere(outside)[0])
            rule = "hold " + _integer_rule("integers", low, high)
            if low is None and high is None:
                rule = "hold 64-bit integers"
            raise fail(name, rule, f"{int(arr[first])}{_index(first)}")
    return arr.astype(np.int64, copy=False)


# --------------------------------------------------------------------------- shared rules
# Rules that several public functions state about their parameters, each written once.


def _parameters(names: str | tuple[str, ...]) -> str:
    """The subject of a message: "The 'x' parameter", "The 'x' and 'y' parameters"."""
    if isinstance(names, str):
        return f"The '{names}' parameter"
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return f"The {quoted[0]} parameter"
    return f"The {', '.join(quoted[:-1])} and {quoted[-1]} parameters"


def fail_params(
    names: str | tuple[str, ...],
    rule: str,
    got: str,
    *,
    hint: str = "",
    error: type[Exception] = ValueError,
) -> Exception:
    """:func:`fail` for a rule that parameters break together, with an optional hint.

    The message reads "The 'x' and 'y' parameters of <caller> must <rule>. Got <got>
    instead; <hint>." (one name gives "The 'x' parameter"). ``error`` is the class to
    build (``TypeError`` for objects of the wrong kind).
    """
    tail = f"; {hint}" if hint else ""
    return error(f"{_parameters(names)} of {caller()} must {rule}. Got {got} instead{tail}.")


def kind_of(value) -> str:
    """'an int', 'a dict': the kind of object the user passed, for a message."""
    return _article(type(value).__name__)


def check_names(items, name: str, what: str = "names") -> list[str]:
    """A sequence (not a string) of str, e.g. run names or topic ids; returned as a list.

    ``what`` is the plural the message uses ("run names", "topic ids").
    """
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        raise fail_type(name, f"be a sequence of {what}", kind_of(items))
    out = list(items)
    for i, value in enumerate(out):
        if not isinstance(value, str):
            raise fail_type(
                name,
                f"hold {what} as str",
                f"{kind_of(value)} {shown(value)} at position {i}",
            )
    return out


def check_one_per(items, name: str, what: str, *, count: int | None = None) -> list:
    """A sequence (not a string or an array) with one entry per ``what``; a list.

    With ``count``, exactly that many entries.
    """
    if isinstance(items, (str, bytes, np.ndarray)) or not isinstance(items, Sequence):
        raise fail_type(name, f"be a sequence with one entry per {what}", kind_of(items))
    if count is not None and len(items) != count:
        raise fail(name, f"have one entry per {what} ({count})", f"{len(items)}")
    return list(items)


def check_mapping(value, name: str, keys: str, values: str) -> Mapping:
    """A mapping (e.g. a dict) from ``keys`` to ``values``; returned unchanged."""
    if not isinstance(value, Mapping):
        raise fail_type(name, f"be a mapping from {keys} to {values}", kind_of(value))
    return value


def check_bool_array(x, name: str) -> np.ndarray:
    """An array of booleans (not 0/1 numbers); returned as an array."""
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists and the like
        raise fail(
            name, "be an array of booleans", f"an object numpy cannot read as an array ({exc})"
        ) from None
    if arr.dtype != np.bool_:
        raise fail_type(name, "be an array of booleans", f"an array of dtype {arr.dtype}")
    return arr


def check_flag(value, name: str) -> bool:
    """True or False (a bool or a numpy bool, not a number); returned as ``bool``."""
    if not isinstance(value, (bool, np.bool_)):
        raise fail(name, "be True or False", shown(value))
    return bool(value)


def check_shape(
    arr: np.ndarray, shape: tuple, name: str, what: str, *, exact: bool = False
) -> np.ndarray:
    """``arr`` broadcast to ``shape`` (a view); ``what`` says what the shape holds.

    The message prints both shapes: "must have a shape broadcastable to (2, 3) (one
    value per ranking). Got shape (4,) instead." With ``exact``, ``arr`` must have
    ``shape`` itself (one weight per category: a single weight spread over them would
    pass for a distribution).
    """
    if exact:
        if arr.shape != tuple(shape):
            raise fail(name, f"have shape {tuple(shape)} ({what})", f"shape {arr.shape}")
        return arr
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise fail(
            name, f"have a shape broadcastable to {tuple(shape)} ({what})", f"shape {arr.shape}"
        ) from None


def check_lengths(lengths, shape: tuple, name: str, *, limit: int) -> np.ndarray:
    """One integer length in 0..``limit`` per padded list (``shape``, broadcast); int64.

    The lengths of padded arrays: positions at or beyond a list's length are padding.
    """
    arr = check_shape(check_int_array(lengths, name), shape, name, "one length per list")
    bad = (arr < 0) | (arr > limit)
    if bad.any():
        first = tuple(np.argwhere(bad)[0])
        raise fail(name, f"hold integers in 0..{limit}", f"{int(arr[first])}{_index(first)}")
    return arr


def check_values(x, name: str, *, low: float, high: float | None = None, inside=None) -> np.ndarray:
    """Finite numbers in [low, high] (``high`` None: >= low) where ``inside`` is True.

    ``inside`` None checks every position. Returned as a float64 array, whatever the
    other positions hold (padding is neither checked nor changed: the caller ignores
    it). The message names the first value outside, as written (``nan``, ``1.5``), and
    its index.
    """
    arr = as_float_array(x, name)
    ok = (arr >= low) & ((arr <= high) if high is not None else np.isfinite(arr))
    if inside is not None:
        ok |= ~inside
    if not ok.all():
        first = tuple(np.argwhere(~ok)[0])
        where = " within the lengths" if inside is not None else ""
        rule = (
            f"numbers in [{low:g}, {high:g}]" if high is not None else f"finite numbers >= {low:g}"
        )
        raise fail(name, f"hold {rule}{where}", f"{float(arr[first])!r}{_index(first)}")
    return arr
