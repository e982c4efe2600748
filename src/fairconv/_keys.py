"""Exact joins on (topic, doc) keys by hashing, as array work.

Docs are byte strings; topics are integer ids. A key's hash combines Python's hash of
the doc (computed in C, cached by the bytes object) with its topic id; joins are then
a sort and a binary search over 64-bit integers, and every match is verified against
the actual doc, so a hash collision can never produce a wrong match.
"""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)


def key_hashes(topic_ids: np.ndarray, docs: list) -> np.ndarray:
    """64-bit hash of each (topic id, doc) key."""
    h = np.fromiter(map(hash, docs), np.int64, len(docs)).view(np.uint64)
    return h ^ (np.asarray(topic_ids, dtype=np.int64).view(np.uint64) * _MIX)


def _same_docs(a: list, ia: np.ndarray, b: list, ib: np.ndarray) -> np.ndarray:
    """a[ia[i]] == b[ib[i]] for every i (C-level map, no Python loop)."""
    return np.fromiter(
        map(bytes.__eq__, map(a.__getitem__, ia.tolist()), map(b.__getitem__, ib.tolist())),
        bool,
        len(ia),
    )


class KeyTable:
    """The keys of one table (qrels, gmemb), for exact lookups of many keys at once."""

    def __init__(self, topic_ids: np.ndarray, docs: list):
        self.topic_ids = np.asarray(topic_ids, dtype=np.int64)
        self.docs = docs
        hashes = key_hashes(self.topic_ids, docs)
        self.order = np.argsort(hashes)
        self.sorted = hashes[self.order]

    def find(self, topic_ids: np.ndarray, docs: list, hashes=None) -> np.ndarray:
        """Row of each (topic id, doc) in this table; -1 where it is absent.

        ``hashes`` may pass the keys' :func:`key_hashes` when the caller has them.
        """
        topic_ids = np.asarray(topic_ids, dtype=np.int64)
        rows = np.full(len(docs), -1, dtype=np.int64)
        n = len(self.sorted)
        if n == 0 or len(docs) == 0:
            return rows
        h = key_hashes(topic_ids, docs) if hashes is None else hashes
        by_hash = np.argsort(h)  # sorted queries make the search cache-friendly
        pos = np.empty(len(h), dtype=np.int64)
        pos[by_hash] = np.searchsorted(self.sorted, h[by_hash])
        np.minimum(pos, n - 1, out=pos)
        idx = np.flatnonzero(self.sorted[pos] == h)
        cand = self.order[pos[idx]]
        same = self.topic_ids[cand] == topic_ids[idx]
        same[same] = _same_docs(docs, idx[same], self.docs, cand[same])
        rows[idx[same]] = cand[same]
        for i, p in zip(idx[~same].tolist(), pos[idx[~same]].tolist(), strict=False):
            rows[i] = self._scan(int(topic_ids[i]), docs[i], h[i], p)  # hash collision
        return rows

    def _scan(self, tid, doc, h, p) -> int:
        while p < len(self.sorted) and self.sorted[p] == h:
            row = int(self.order[p])
            if self.topic_ids[row] == tid and self.docs[row] == doc:
                return row
            p += 1
        return -1


def first_occurrences(topic_ids: np.ndarray, docs: list, hashes=None) -> np.ndarray:
    """Index of the first occurrence of each item's key (itself when it is the first)."""
    n = len(docs)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    h = key_hashes(topic_ids, docs) if hashes is None else hashes
    order = np.argsort(h)
    hs = h[order]
    new_group = np.empty(n, dtype=bool)
    new_group[0] = True
    new_group[1:] = hs[1:] != hs[:-1]
    group_first = np.minimum.reduceat(order, np.flatnonzero(new_group))  # earliest item
    first = np.empty(n, dtype=np.int64)
    first[order] = group_first[np.cumsum(new_group) - 1]
    check = np.flatnonzero(first != np.arange(n))
    if len(check):
        tid = np.asarray(topic_ids)
        same = tid[check] == tid[first[check]]
        same[same] = _same_docs(docs, check[same], docs, first[check][same])
        for i in check[~same].tolist():  # hash collision: find the true first
            first[i] = next(j for j in range(i + 1) if tid[j] == tid[i] and docs[j] == docs[i])
    return first
