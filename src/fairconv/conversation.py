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


@dataclass(frozen=True)
class ConversationOptions:
    """Settings shared by GFRC and GFRC2; :meth:`resolve` fills them from a preset.

    Attributes
    ----------
    L : int
        Patience in words (>= 2): GFRC's position weights and GFRC2's user clusters.
    lmax : int
        Highest relevance level (1..100); a nugget above it is an error.
    dedupe : bool
        A later relevant mention of an already credited entity earns nothing.
    variant : {'eq6', 'eq7', 'eq9'}
        GFRC's R (position weight and normaliser); GFRC2 does not use it.
    gain : {'exp', 'linear'}
        GFRC's nugget gain (2^l - 1)/2^lmax or l/lmax; GFRC2 weighs words by l.
    method : {'independent', 'cumulative'}
        GFRC's achieved distribution per turn, or of all turns so far.
    empty : {'ignore', 'uniform'}
        GFRC: system turns without a relevant nugget are left out of GF, or count
        with a uniform achieved distribution.

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
    n = len(batch.attributes)
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
