"""Conversations: gains, position weights, GNP, the GFRC turn means and GFRC2's clusters."""

from __future__ import annotations

import numpy as np

from ._arrays import segment_cumsum, segment_sum
from ._ranked import combine


# --------------------------------------------------------------------------- conversations
def gain(level: np.ndarray, kind: str, lmax: int) -> np.ndarray:
    """Nugget gain: (2^l - 1) / 2^lmax (``"exp"``) or l / lmax (``"linear"``)."""
    level = np.asarray(level, dtype=np.float64)
    if kind == "exp":
        return (np.exp2(level) - 1.0) / np.exp2(lmax)
    return level / lmax


def position_weight(wc: np.ndarray, L: float, variant: str) -> np.ndarray:
    """pw(n): max(0, 1 - (wc-1)/L) for eq6, max(0, 1 - wc/L) for eq7 and eq9."""
    shift = 1.0 if variant == "eq6" else 0.0
    return np.maximum(0.0, 1.0 - (np.asarray(wc, dtype=np.float64) - shift) / L)


def normaliser(L: float, variant: str) -> float:
    """N of R: (L+1)/2 for eq6 and eq7, (L-1)/2 for eq9."""
    return (L - 1.0) / 2.0 if variant == "eq9" else (L + 1.0) / 2.0


def relevance(
    owner: np.ndarray, wc: np.ndarray, level: np.ndarray, n_owners: int, *, L, variant, kind, lmax
) -> np.ndarray:
    """R of each conversation: sum of pw(n) g(n) over its relevant nuggets, over N."""
    pw = position_weight(wc, L, variant)
    g = gain(level, kind, lmax)
    return np.bincount(owner, weights=pw * g, minlength=n_owners) / normaliser(L, variant)


def group_starts(keys: np.ndarray) -> np.ndarray:
    """Start index of every run of equal consecutive keys (``keys`` (n,) or (n, k))."""
    n = len(keys)
    new = np.ones(n, dtype=bool)
    if n > 1:
        diff = keys[1:] != keys[:-1]
        new[1:] = diff if diff.ndim == 1 else diff.any(axis=1)
    return np.flatnonzero(new)


def segment_means(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mean of each segment of flat ``x`` (segments start at ``starts``, none empty)."""
    n = len(x)
    counts = np.diff(np.append(starts, n))
    return segment_sum(x, starts, n) / counts.reshape((-1,) + (1,) * (x.ndim - 1))


def running_segment_means(x: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Mean of the items so far, restarting at every segment start (flat ``x``)."""
    n = len(x)
    if n == 0:
        return np.zeros_like(x, dtype=np.float64)
    seg = np.searchsorted(starts, np.arange(n), side="right") - 1
    count = np.arange(n) - starts[seg] + 1
    return segment_cumsum(x, starts) / count.reshape((-1,) + (1,) * (x.ndim - 1))


def gnp(words: np.ndarray, wc: np.ndarray, level: np.ndarray, starts: np.ndarray) -> tuple:
    """GWCrel, WCnonrel and GNP at the end of every relevant nugget (GFRC2, Eqs. 11-14).

    ``words``, ``wc`` and ``level`` are per relevant nugget, in position order, with
    conversations starting at ``starts``. Returns three (n,) arrays.
    """
    gwc_rel = segment_cumsum(words * level, starts)
    wc_nonrel = wc - segment_cumsum(words, starts)
    return gwc_rel, wc_nonrel, gwc_rel / (wc_nonrel + gwc_rel)


def dedupe_levels(owner: np.ndarray, entity: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Levels with later relevant mentions of an entity of the same owner set to 0.

    Items are in position order within each owner; ``entity`` -1 means no key.
    """
    out = level.copy()
    rel = np.flatnonzero((level > 0) & (entity >= 0))
    if len(rel):
        # by (owner, entity), position order kept within each pair: no packed key, so
        # no limit on the codes
        o, e = owner[rel], entity[rel]
        order = np.lexsort((e, o))
        first = np.ones(len(rel), dtype=bool)
        first[1:] = (o[order[1:]] != o[order[:-1]]) | (e[order[1:]] != e[order[:-1]])
        repeat = np.ones(len(rel), dtype=bool)
        repeat[order[first]] = False
        out[rel[repeat]] = 0
    return out


# --------------------------------------------------------------------------- GFRC, GFRC2
def turn_mean(
    owner: np.ndarray,
    sim: np.ndarray,
    n_owners: int,
    turns: np.ndarray | None = None,
    fill: float = 0.0,
) -> np.ndarray:
    r"""GF^m of each conversation: the mean DistrSim over its counted turns; 0 if none.

    .. math::
        GF^m(C) = \frac{1}{|S|} \sum_{S_i \in S} DistrSim^m(D^m(S_i) \| D^m_*),
        \qquad GF^m(C) = 0 \text{ if } S = \emptyset

    ``sim`` holds the DistrSim of each turn with a relevant nugget and ``owner`` its
    conversation. When ``turns`` (system turns per conversation) is given, every
    system turn counts, those without a relevant nugget adding ``fill`` (the DistrSim
    of a uniform distribution).

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eq. 10; T. Sakai, EVIA 2023, Eq. 4 with
    PW(S_i) = 1 on the turns of S.
    """
    total = np.bincount(owner, weights=sim, minlength=n_owners)
    counted = np.bincount(owner, minlength=n_owners)
    if turns is None:
        count = counted
    else:
        count = turns
        total = total + (count - counted) * fill
    return np.divide(total, count, out=np.zeros(n_owners), where=count > 0)


def gf_of_sets(gf: np.ndarray, weights: np.ndarray) -> np.ndarray:
    r"""GFRC's GF: the GF^m of the M sets weighed by w_1..w_M renormalised.

    .. math::
        GF = \frac{\sum_{m \ge 1} w_m GF^m}{\sum_{m \ge 1} w_m}

    ``gf`` is (M, ...) and ``weights`` the M + 1 weights of GFRC (w_0 for R first).
    When w_1..w_M are all 0 (w_0 = 1, GFRC = R) they say nothing of GF, and GF is
    the plain mean of the GF^m.

    References
    ----------
    T. Sakai, EVIA 2023, Eqs. 4 and 9; T. Sakai et al., the GFRC2 paper, Eqs. 2-3.
    """
    set_w = weights[1:]
    if not set_w.sum() > 0:
        set_w = np.full(len(gf), 1.0 / len(gf))
    return combine(gf, set_w)


def cluster_probability(wc: np.ndarray, L: float) -> np.ndarray:
    r"""Prob(wc) of the user cluster ending at each relevant nugget end wc.

    .. math::
        Prob(wc) = 1/L \text{ if } wc \le L, \text{ else } 0

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eq. 14.
    """
    return np.where(wc <= L, 1.0 / L, 0.0)


def expectation(owner: np.ndarray, prob: np.ndarray, value: np.ndarray, n_owners: int):
    r"""sum_{wc} Prob(wc) value(wc) per owner (conversation), 0 for none.

    .. math::
        GFRC2 = \sum_{wc} Prob(wc)\, Experience(wc),\quad
        EGNP = \sum_{wc} Prob(wc)\, GNP(wc),\quad
        EGF^m = \sum_{wc} Prob(wc)\, GF^m(wc)

    References
    ----------
    T. Sakai et al., the GFRC2 paper, Eqs. 11, 20 and 21.
    """
    return np.bincount(owner, weights=prob * value, minlength=n_owners)
