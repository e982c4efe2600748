"""The conversation measures' shared options: :class:`ConversationOptions` and :data:`PRESETS`.

GFRC (:mod:`fairconv.gfrc`) and GFRC2 (:mod:`fairconv.gfrc2`) take the same keyword
options (patience ``L``, ``lmax``, ``dedupe``, ...), documented once here and filled
from a named preset. The conversations themselves (:class:`~fairconv.io.Conversation`,
:class:`~fairconv.io.ConversationBatch` and their JSON records) are inputs: they live
in :mod:`fairconv.io`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import io
from ._validation import (
    caller,
    check_choice,
    check_lmax,
    check_patience,
    check_weights,
    fail,
    fail_type,
    fill_doc,
    kind_of,
    moved,
    public,
)

__all__ = ["ConversationOptions", "PRESETS"]


# --------------------------------------------------------------------------- options
PRESETS: dict[str, dict] = {
    # NTCIR-18 FairWeb-2 CS official setting (its overview reports eq7 values)
    "fairweb2": dict(L=1000, variant="eq7", gain="exp", lmax=2, method="independent"),
    # the GFRC2 paper's Tables 4-5: FairWeb-2 with the intended Eq. 6
    "gfrc2-paper": dict(L=1000, variant="eq6", gain="exp", lmax=2, method="independent"),
    # Sakai, EVIA 2023, Tables 1-2: 5 minutes at 250 words per minute, gain l/lmax
    "evia2023": dict(L=1250, variant="eq6", gain="linear", lmax=2, method="independent"),
}
"""Named settings of the conversation measures; :class:`ConversationOptions` reads them."""

OPTIONS: dict[str, tuple[str, str]] = {
    "L": (
        "int",
        "Patience in words, an integer in 2..2^53: GFRC's position weight of a nugget\n"
        "ending at word wc is ``max(0, 1 - wc/L)`` (eq7, eq9) or ``max(0, 1 - (wc-1)/L)``\n"
        "(eq6); GFRC2's users stop at each relevant nugget end wc <= L with\n"
        "probability 1/L.",
    ),
    "lmax": (
        "int",
        "Highest relevance level, in 1..100; a nugget above it is an error. GFRC's\n"
        "gain of level l is ``(2^l - 1)/2^lmax`` (exp) or ``l/lmax`` (linear).",
    ),
    "dedupe": (
        "bool",
        "A later relevant mention of an entity already credited in the conversation\n"
        "earns nothing: its words count as nonrelevant (Sakai, EVIA 2023, Section 5).",
    ),
    "variant": (
        "{'eq6', 'eq7', 'eq9'}",
        "GFRC's position weight and normaliser of R: the GFRC2 paper's Eq. 6 (what it\n"
        "intends), Eq. 7 (what FairWeb-2 computed) or Eq. 9. GFRC2 does not use it.",
    ),
    "gain": (
        "{'exp', 'linear'}",
        "GFRC's nugget gain, ``(2^l - 1)/2^lmax`` or ``l/lmax``. GFRC2 weighs the\n"
        "words of a nugget by its level l.",
    ),
    "method": (
        "{'independent', 'cumulative'}",
        "GFRC's achieved distribution of a system turn: the mean membership of its own\n"
        "relevant nuggets, or of every relevant nugget up to it.",
    ),
    "empty": (
        "{'ignore', 'uniform'}",
        "GFRC: system turns without a relevant nugget are left out of GF, or count with\n"
        "a uniform achieved distribution (this needs the turn structure: text, or turns\n"
        "and length).",
    ),
}
"""The options of the conversation measures: ``{name: (type, description)}``.

The one text of each option: :func:`option_docs` writes it into the docstring of
every function that takes it, and of :class:`ConversationOptions`."""

PRESET_DOC = """preset : {'fairweb2', 'gfrc2-paper', 'evia2023'}, optional
    Named settings (:data:`~fairconv.conversation.PRESETS`), default ``'fairweb2'``:
    L = 1000, lmax = 2, eq7, exp, independent (FairWeb-2 CS). The options below that are
    None take the preset's value; those given override it."""
"""The ``preset`` parameter of the conversation measures, in numpydoc."""

BATCH_DOC = """batch : ConversationBatch
    The conversations with their nuggets and attribute sets
    (:func:`~fairconv.io.read_conversations`)."""
"""The ``batch`` parameter of the conversation measures, in numpydoc."""


def option_docs(*names: str, optional: bool = True) -> str:
    """The numpydoc Parameters entries of the options ``names``, in that order.

    ``optional`` marks each as optional (a keyword of a measure, None for the preset's
    value), as the fields of :class:`ConversationOptions` are not. For
    :func:`fairconv._validation.fill_doc`.
    """
    entries = []
    for name in names:
        kind, text = OPTIONS[name]
        if optional:
            kind += ", optional"
        entries.append(f"{name} : {kind}\n" + "\n".join("    " + t for t in text.split("\n")))
    return "\n".join(entries)


@dataclass(frozen=True)
@fill_doc(fields=option_docs(*OPTIONS, optional=False))
class ConversationOptions:
    """Settings shared by GFRC and GFRC2; :meth:`resolve` fills them from a preset.

    The measures (:func:`fairconv.gfrc.gfrc`, :func:`fairconv.gfrc2.gfrc2`, their
    ``evaluate``, :func:`fairconv.gfrc.turns`, :func:`fairconv.gfrc2.clusters`) take
    these fields as keyword options, with ``preset``.

    Parameters
    ----------
    {fields}

    Examples
    --------
    >>> options = ConversationOptions.resolve("evia2023", L=500)
    >>> options.L, options.variant, options.gain, options.method
    (500, 'eq6', 'linear', 'independent')
    """

    L: int = 1000
    lmax: int = 2
    dedupe: bool = True
    variant: str = "eq7"
    gain: str = "exp"
    method: str = "independent"
    empty: str = "ignore"

    @classmethod
    @public
    def resolve(cls, preset: str | None = None, **given) -> ConversationOptions:
        """Options of ``preset`` (default ``'fairweb2'``) with the given fields overriding.

        ``None`` values are ignored, so callers can pass every keyword through.

        Parameters
        ----------
        preset : {'fairweb2', 'gfrc2-paper', 'evia2023'}, optional
            A name of :data:`PRESETS`; None for ``'fairweb2'``.
        **given
            Fields of :class:`ConversationOptions` (``L``, ``lmax``, ...); None values
            keep the preset's.

        Returns
        -------
        ConversationOptions
            The options, each checked.

        Raises
        ------
        TypeError
            For a keyword that is not a field.
        ValueError
            For an unknown preset or a value out of its range.

        Examples
        --------
        >>> ConversationOptions.resolve("evia2023", lmax=3)
        ConversationOptions(L=1250, lmax=3, dedupe=True, variant='eq6', gain='linear', \
method='independent', empty='ignore')
        """
        name = check_choice(preset or "fairweb2", "preset", tuple(PRESETS))
        fields = dict(PRESETS[name])
        unknown = set(given) - set(cls.__dataclass_fields__)
        if unknown:
            raise TypeError(f"{caller()} got unknown option(s): {', '.join(sorted(unknown))}")
        fields.update({k: v for k, v in given.items() if v is not None})
        dedupe = fields.get("dedupe", True)
        if not isinstance(dedupe, (bool, np.bool_)):
            raise fail("dedupe", "be True or False", repr(dedupe))
        return cls(
            L=check_patience(fields["L"], "L"),
            lmax=check_lmax(fields["lmax"], "lmax"),
            dedupe=bool(dedupe),
            variant=check_choice(fields["variant"], "variant", ("eq6", "eq7", "eq9")),
            gain=check_choice(fields["gain"], "gain", ("exp", "linear")),
            method=check_choice(fields["method"], "method", ("independent", "cumulative")),
            empty=check_choice(fields.get("empty", "ignore"), "empty", ("ignore", "uniform")),
        )


def measure_setup(batch, preset, weights, given: dict):
    """Check a batch and resolve the options and weights of a conversation measure.

    Returns ``(options, weights)``: the :class:`ConversationOptions` and the M + 1
    weights (equal by default; checked to sum to 1 otherwise).
    """
    if not isinstance(batch, io.ConversationBatch):
        raise fail_type(
            "batch",
            "be a ConversationBatch (fairconv.io.read_conversations)",
            kind_of(batch),
        )
    opts = ConversationOptions.resolve(preset, **given)
    n = len(batch.attribute_sets)
    if n == 0:
        raise fail("batch", "carry at least one attribute set", "none")
    if weights is None:
        return opts, np.full(n + 1, 1.0 / (n + 1))
    return opts, check_weights(weights, n + 1, "weights")


__getattr__ = moved(
    __name__,
    "fairconv.io",
    {
        name: getattr(io, name)
        for name in (
            "Turn",
            "turns_of",
            "find_span",
            "word_at",
            "Nugget",
            "Conversation",
            "ConversationBatch",
            "batch_from_conversations",
            "batch_from_records",
        )
    },
)
