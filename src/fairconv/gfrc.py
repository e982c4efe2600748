"""GFRC: turn-based relevance (R) and group fairness (GF) of conversations.

Sakai, "Fairness-based Evaluation of Conversational Search: A Pilot Study", EVIA 2023;
the NTCIR-18 FairWeb-2 CS subtask; restated with its Eq. 6/7/9 variants in the GFRC2
paper. For a conversation with relevant nuggets n ending at word ``wc(n)``:

.. math::
    R = \\frac{1}{N} \\sum_n pw(n)\\, g(n),\\qquad
    GF^m = \\frac{1}{|T|} \\sum_{t \\in T} DistrSim(D^m_t \\| D^{m*}),\\qquad
    GFRC = \\alpha R + (1 - \\alpha) \\sum_m w_m GF^m

with ``pw = max(0, 1 - (wc-1)/L)``, ``N = (L+1)/2`` (eq6); ``pw = max(0, 1 - wc/L)``,
``N = (L+1)/2`` (eq7, what FairWeb-2 computed); ``pw = max(0, 1 - wc/L)``,
``N = (L-1)/2`` (eq9). Gain ``g = (2^l - 1)/2^lmax`` (exp) or ``l/lmax`` (linear). ``D_t``
is the mean membership of the relevant nuggets of system turn t (independent) or of
all relevant nuggets up to turn t (cumulative); T is the set of turns with a relevant
nugget, or every system turn when empty turns count as uniform. Defaults
``alpha = 1/(M+1)`` and ``w_m = 1/M`` make GFRC the plain mean of R and every GF^m, the
FairWeb-2 summary.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _core
from ._validation import check_choice, check_weights, fail
from .conversation import ConversationBatch, _raise_first
from .results import ScoreTable

__all__ = ["gfrc", "gfrc_arrays", "turns", "Turns", "GFRCOptions", "PRESETS"]

PRESETS = {
    # NTCIR-18 FairWeb-2 CS official setting (its overview reports eq7 values)
    "fairweb2": dict(
        L=1000, variant="eq7", gain="exp", lmax=2, method="independent", empty="ignore"
    ),
    # the GFRC2 paper's Tables 4-5: FairWeb-2 with the intended Eq. 6
    "gfrc2-paper": dict(
        L=1000, variant="eq6", gain="exp", lmax=2, method="independent", empty="ignore"
    ),
    # Sakai, EVIA 2023, Tables 1-2: 5 minutes at 250 words per minute, gain l/lmax
    "evia2023": dict(
        L=1250, variant="eq6", gain="linear", lmax=2, method="independent", empty="ignore"
    ),
}


@dataclass(frozen=True)
class GFRCOptions:
    """Settings of GFRC; :meth:`resolve` fills what is not given from a preset."""

    L: float = 1000
    variant: str = "eq7"
    gain: str = "exp"
    lmax: int = 2
    method: str = "independent"
    empty: str = "ignore"
    alpha: float | None = None
    weights: tuple | None = None
    dedupe: bool = True

    @classmethod
    def resolve(cls, preset=None, **given) -> GFRCOptions:
        func = "gfrc"
        base = dict(PRESETS[check_choice(preset or "fairweb2", "preset", func, tuple(PRESETS))])
        base.update({k: v for k, v in given.items() if v is not None})
        opts = cls(**base)
        if not isinstance(opts.L, (int, float, np.integer, np.floating)) or not opts.L > 1:
            raise fail("L", func, "be a patience in words greater than 1", repr(opts.L))
        if (
            isinstance(opts.lmax, bool)
            or not isinstance(opts.lmax, (int, np.integer))
            or opts.lmax < 1
        ):
            raise fail("lmax", func, "be an integer >= 1", repr(opts.lmax))
        return cls(
            L=float(opts.L),
            variant=check_choice(opts.variant, "variant", func, ("eq6", "eq7", "eq9")),
            gain=check_choice(opts.gain, "gain", func, ("exp", "linear")),
            lmax=int(opts.lmax),
            method=check_choice(opts.method, "method", func, ("independent", "cumulative")),
            empty=check_choice(opts.empty, "empty", func, ("ignore", "uniform")),
            alpha=opts.alpha,
            weights=opts.weights,
            dedupe=bool(opts.dedupe),
        )


def gain_of(level: np.ndarray, gain: str, lmax: int) -> np.ndarray:
    """(2^l - 1) / 2^lmax (exp, the GFRC2 paper) or l / lmax (linear, EVIA 2023)."""
    level = np.asarray(level, dtype=np.float64)
    if gain == "exp":
        return (2.0**level - 1.0) / 2.0**lmax
    return level / lmax


def position_weight(wc: np.ndarray, L: float, variant: str) -> np.ndarray:
    """pw(n): max(0, 1 - (wc-1)/L) for eq6, max(0, 1 - wc/L) for eq7 and eq9."""
    shift = 1.0 if variant == "eq6" else 0.0
    return np.maximum(0.0, 1.0 - (np.asarray(wc, dtype=np.float64) - shift) / L)


def normaliser(L: float, variant: str) -> float:
    """N = (L+1)/2 for eq6 and eq7, (L-1)/2 for eq9."""
    return (L - 1.0) / 2.0 if variant == "eq9" else (L + 1.0) / 2.0


def _combination(n_sets: int, alpha, weights, func):
    w = (
        np.full(n_sets, 1.0 / n_sets)
        if weights is None
        else check_weights(weights, n_sets, "weights", func)
    )
    a = 1.0 / (n_sets + 1) if alpha is None else alpha
    if not isinstance(a, (int, float, np.floating)) or not 0 <= a <= 1:
        raise fail("alpha", func, "lie in [0, 1]", repr(alpha))
    return float(a), w


@dataclass(frozen=True, eq=False)
class Turns:
    """Per-turn GF cells: one row per (conversation, system turn with a relevant nugget).

    ``achieved[name]`` (rows, G) is the turn's achieved distribution and ``sim[name]``
    its DistrSim, as in Table 4 (b)-(c) of the GFRC2 paper and Table 2 of EVIA 2023.
    """

    conversation: np.ndarray
    turn: np.ndarray
    achieved: dict
    sim: dict


def turns(batch: ConversationBatch, /, *, preset=None, **options) -> Turns:
    """The per-turn achieved distributions and DistrSim values behind GF^m."""
    opts = GFRCOptions.resolve(preset, **options)
    level = batch.effective_levels(opts.lmax, dedupe=opts.dedupe, func="gfrc")
    batch.check_relevant_groups(level > 0)
    return _turns(batch, level, opts)


def _turns(batch, level, opts) -> Turns:
    rel = np.flatnonzero(level > 0)
    conv = batch.conversation_of[rel]
    turn = batch.turn[rel]
    decreasing = np.zeros(len(batch.turn), dtype=bool)
    decreasing[rel[1:]] = (conv[1:] == conv[:-1]) & (turn[1:] < turn[:-1])
    _raise_first(decreasing, batch, "its turn is before the turn of the nugget before it")
    if opts.empty == "uniform":
        unknown = batch.system_turns < 0
        if unknown.any():
            c = int(np.argmax(unknown))
            raise ValueError(
                f"{batch.sources[c]}: empty='uniform' needs the turn structure "
                "(text, or turns and length); this record gives only each "
                "nugget's turn"
            )
    # one group of relevant nuggets per (conversation, system turn)
    new = np.ones(len(rel), dtype=bool)
    new[1:] = (conv[1:] != conv[:-1]) | (turn[1:] != turn[:-1])
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], len(rel)) - 1
    group_conv = conv[starts]
    conv_first = np.searchsorted(conv, np.arange(len(batch)))
    achieved, sim = {}, {}
    for a in batch.attributes:
        memb = batch.groups[a.name][rel]
        if opts.method == "independent":
            d = _core.segment_sum(memb, starts, len(rel))
            d /= (ends - starts + 1)[:, None]
        else:
            cum = _core.segment_cumsum(memb, conv_first[conv_first < len(rel)])
            d = cum[ends] / (ends - conv_first[group_conv] + 1)[:, None]
        achieved[a.name] = d
        sim[a.name] = _core.distr_sim(d, a.target, a.divergence)
    return Turns(group_conv, turn[starts], achieved, sim)


def gfrc_arrays(batch: ConversationBatch, /, *, preset=None, **options) -> dict:
    """R, GF per attribute set, GF and GFRC of every conversation of a batch.

    Parameters
    ----------
    batch : ConversationBatch
        Conversations with their attribute sets (:func:`read_conversations`).
    preset : {'fairweb2', 'gfrc2-paper', 'evia2023'}, optional
        Named settings (default 'fairweb2'); the keyword options below override it.
    L : float
        Patience in words (> 1).
    variant : {'eq6', 'eq7', 'eq9'}
    gain : {'exp', 'linear'}
    lmax : int
    method : {'independent', 'cumulative'}
    empty : {'ignore', 'uniform'}
        Whether system turns without a relevant nugget are left out of GF or count with
        a uniform achieved distribution (needs the turn structure: text or turns).
    alpha : float, optional
        Weight of R (default 1/(M+1)).
    weights : sequence of float, optional
        w_m over the attribute sets (default 1/M); sum to 1.
    dedupe : bool
        Later mentions of an already credited entity count as nonrelevant (default).

    Returns
    -------
    dict of str to ndarray (conversations,)
        ``R``, ``GF[<set>]``, ``GF``, ``GFRC``; all in [0, 1] (GF with RNOD against a
        target with zero entries can be negative), higher is better. A conversation
        without relevant nuggets scores 0 on every measure.
    """
    func = "gfrc"
    opts = GFRCOptions.resolve(preset, **options)
    sets = batch.attributes
    if not sets:
        raise fail("batch", func, "carry at least one attribute set", "none")
    alpha, w = _combination(len(sets), opts.alpha, opts.weights, func)
    level = batch.effective_levels(opts.lmax, dedupe=opts.dedupe, func=func)
    rel = np.flatnonzero(level > 0)
    batch.check_relevant_groups(level > 0)
    n_conv = len(batch)
    conv = batch.conversation_of[rel]

    pw = position_weight(batch.end[rel], opts.L, opts.variant)
    g = gain_of(level[rel], opts.gain, opts.lmax)
    out = {
        "R": np.bincount(conv, weights=pw * g, minlength=n_conv) / normaliser(opts.L, opts.variant)
    }

    per_turn = _turns(batch, level, opts)
    n_counted = np.bincount(per_turn.conversation, minlength=n_conv)
    gf_total = np.zeros(n_conv)
    for m, a in enumerate(sets):
        total = np.bincount(per_turn.conversation, weights=per_turn.sim[a.name], minlength=n_conv)
        if opts.empty == "uniform":
            uniform = float(
                _core.distr_sim(np.full(a.n_groups, 1.0 / a.n_groups), a.target, a.divergence)
            )
            turns = batch.system_turns
            total = total + (turns - n_counted) * uniform
            gf = np.divide(total, turns, out=np.zeros(n_conv), where=turns > 0)
        else:
            gf = np.divide(total, n_counted, out=np.zeros(n_conv), where=n_counted > 0)
        out[f"GF[{a.name}]"] = gf
        gf_total += w[m] * gf
    out["GF"] = gf_total
    out["GFRC"] = alpha * out["R"] + (1 - alpha) * gf_total
    return out


def gfrc(batch: ConversationBatch, /, *, preset=None, **options) -> ScoreTable:
    """GFRC scores per run and topic (one conversation per run and topic).

    Options as :func:`gfrc_arrays`. A run without a conversation for a topic that
    another run has scores 0 there.

    Examples
    --------
    >>> from fairconv.conversation import read_attribute_sets, read_conversations
    >>> from fairconv.datasets import path
    >>> sets = read_attribute_sets(path("cases", "r112-attributes.json"))
    >>> batch = read_conversations(path("cases", "r112-fairweb2.jsonl"), sets)
    >>> table = gfrc(batch, preset="gfrc2-paper")
    >>> round(table.value("COPWA-CS-QD-MN-2", "R112", "GFRC"), 6)
    0.382158
    """
    return batch.table(gfrc_arrays(batch, preset=preset, **options))
