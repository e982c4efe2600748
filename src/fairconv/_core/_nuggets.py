"""Nugget match ratios and nuggetizer's scores."""

from __future__ import annotations

import numpy as np


# --------------------------------------------------------------------------- nuggets
def ratio(num, den, empty: float) -> np.ndarray:
    """The ratio num / den, ``empty`` where den is 0 (one IEEE division per cell)."""
    num = np.asarray(num, dtype=np.float64)
    out = np.full(num.shape, empty, dtype=np.float64)
    return np.divide(num, den, out=out, where=np.asarray(den) > 0)


def match_ratios(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Recall-NtN, Precision-NtN and Recall-NtR from counts (..., 5); NaN for 0/0.

    With c = (matched gold, gold, matched extracted, extracted, entailed gold):

    .. math::
        Recall\text{-}NtN = c_0 / c_1,\quad Precision\text{-}NtN = c_2 / c_3,\quad
        Recall\text{-}NtR = c_4 / c_1

    References
    ----------
    Z. Abbasiantaeb et al., Conversational Gold (TREC iKAT 2024 resources), Eqs. 4-6.
    """
    nan = float("nan")
    return (
        ratio(counts[..., 0], counts[..., 1], nan),
        ratio(counts[..., 2], counts[..., 3], nan),
        ratio(counts[..., 4], counts[..., 1], nan),
    )


def nuggetizer_scores(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    r"""The strict-vital, strict-all, vital and all scores of nuggetizer; 0 for an empty set.

    With c = (|V|, vital support, vital partial, |N|, support, partial) and
    s(n) = 1 for support, 1/2 for partial support, 0 otherwise:

    .. math::
        \text{strict-vital} = c_1 / c_0,\quad \text{strict-all} = c_4 / c_3,\quad
        \text{vital} = (c_1 + c_2/2) / c_0,\quad \text{all} = (c_4 + c_5/2) / c_3

    References
    ----------
    R. Pradeep et al., Initial Nugget Evaluation Results for the TREC 2024 RAG Track
    with the AutoNuggetizer Framework; castorini/nuggetizer ``calculate_nugget_scores``.
    """
    return (
        ratio(counts[..., 1], counts[..., 0], 0.0),
        ratio(counts[..., 4], counts[..., 3], 0.0),
        ratio(counts[..., 1] + 0.5 * counts[..., 2], counts[..., 0], 0.0),
        ratio(counts[..., 4] + 0.5 * counts[..., 5], counts[..., 3], 0.0),
    )
