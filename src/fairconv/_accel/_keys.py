"""Exact joins on (topic, doc) keys by hashing, as array work.

Docs are arrays of byte strings (fixed width ``S<n>``, or object arrays of bytes);
topics are integer ids. A doc's hash is computed from its bytes, eight at a time, the
same whatever the array's width; a key's hash mixes it with the topic id. Joins are a
sort and a binary search over 64-bit integers, and every match is verified against the
actual doc, so a hash collision can never produce a wrong match.
"""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ROWS = 1 << 18  # strings per step


def _scramble(x: np.ndarray) -> np.ndarray:
    """A bijective 64-bit mixer (splitmix64's finaliser), in place."""
    x ^= x >> np.uint64(30)
    x *= _M1
    x ^= x >> np.uint64(27)
    x *= _M2
    x ^= x >> np.uint64(31)
    return x


def _word_hashes(strings: np.ndarray) -> np.ndarray:
    """Hashes of a fixed-width byte-string array: a sum over its 8-byte words.

    An all-zero word (padding) adds nothing, so the width of the array does not matter.
    """
    u = _words(strings)
    n, words = u.shape
    h = np.zeros(n, dtype=np.uint64)
    for k in range(words):
        x = u[:, k].copy()
        present = x != 0
        x ^= np.uint64((k + 1) * 0x632BE59BD9B4E019 % 2**64)
        h += np.where(present, _scramble(x), np.uint64(0))
    return _scramble(h)


def as_docs(docs) -> np.ndarray:
    """Docs (a sequence of bytes, or an array of them) as an array of byte strings."""
    if isinstance(docs, np.ndarray):
        return docs
    if not len(docs):
        return np.zeros(0, dtype="S8")
    width = max(map(len, docs))
    return np.array(docs, dtype=f"S{-(-max(1, width) // 8) * 8}")


def _words(strings: np.ndarray) -> np.ndarray:
    """A fixed-width byte-string array as (n, words) uint64 (zero-padded when needed)."""
    n, width = len(strings), strings.itemsize
    if width % 8 == 0 and strings.flags.c_contiguous:
        return strings.view(np.uint64).reshape(n, width // 8)
    m = np.zeros((n, -(-width // 8) * 8), dtype=np.uint8)
    m[:, :width] = strings.view(np.uint8).reshape(n, width)
    return m.view(np.uint64)


def string_hashes(docs) -> np.ndarray:
    """64-bit hash of every byte string of ``docs`` (equal strings, equal hashes)."""
    docs = as_docs(docs)
    n = len(docs)
    out = np.empty(n, dtype=np.uint64)
    if docs.dtype.kind == "S":
        for lo in range(0, n, _ROWS):
            out[lo : lo + _ROWS] = _word_hashes(docs[lo : lo + _ROWS])
        return out
    # object arrays (ragged ids): in steps of similar length, as fixed-width arrays
    lengths = np.fromiter(map(len, docs), np.int64, n)
    order = np.argsort(lengths, kind="stable")
    lo = 0
    while lo < n:
        hi = min(n, lo + _ROWS)
        while hi - lo > 1 and (hi - lo) * int(lengths[order[hi - 1]]) > 1 << 24:
            hi = lo + max(1, (1 << 24) // int(lengths[order[hi - 1]]))
        idx = order[lo:hi]
        width = max(1, int(lengths[order[hi - 1]]))
        out[idx] = _word_hashes(np.array(docs[idx].tolist(), dtype=f"S{width}"))
        lo = hi
    return out


def argsort(hashes: np.ndarray) -> np.ndarray:
    """``np.argsort(hashes, kind="stable")`` of 64-bit hashes, as one plain sort.

    numpy sorts plain integers several times faster than it argsorts them, so each
    hash is sorted with its index in its low bits (as many as the indices need).
    Hashes that agree on their high bits end up in one run; the rare runs of more than
    one are then ordered by the whole hash and the index.
    """
    n = len(hashes)
    if n < 2:
        return np.arange(n, dtype=np.int64)
    low = np.uint64((1 << (n - 1).bit_length()) - 1)
    key = hashes & ~low
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & low).astype(np.int64)
    key &= ~low
    tie = key[1:] == key[:-1]
    if tie.any():
        member = np.zeros(n, dtype=bool)
        member[1:] |= tie
        member[:-1] |= tie
        at = np.flatnonzero(member)
        run = np.cumsum(np.concatenate(([True], ~tie)))[at]
        rows = order[at]
        order[at] = rows[np.lexsort((rows, hashes[rows], run))]
    return order


def key_hashes(topic_ids: np.ndarray, doc_hashes: np.ndarray) -> np.ndarray:
    """64-bit hash of each (topic id, doc) key, from the docs' :func:`string_hashes`."""
    return doc_hashes ^ (np.asarray(topic_ids, dtype=np.int64).view(np.uint64) * _MIX)


def _same_docs(a: np.ndarray, ia: np.ndarray, b: np.ndarray, ib: np.ndarray) -> np.ndarray:
    """a[ia[i]] == b[ib[i]] for every i (whole ids as rows of 8-byte words)."""
    if len(ia) == 0:
        return np.zeros(0, dtype=bool)
    if a.dtype.kind != "S" or b.dtype.kind != "S" or a.itemsize % 8 or b.itemsize % 8:
        return np.asarray(a[ia] == b[ib], dtype=bool)
    wa, wb = _words(a), _words(b)
    width = max(wa.shape[1], wb.shape[1])
    same = np.empty(len(ia), dtype=bool)
    for lo in range(0, len(ia), _ROWS):
        x, y = wa[ia[lo : lo + _ROWS]], wb[ib[lo : lo + _ROWS]]  # one gather per id
        if x.shape[1] != y.shape[1]:  # zero words beyond the narrower width
            x, y = (np.pad(z, ((0, 0), (0, width - z.shape[1]))) for z in (x, y))
        step = same[lo : lo + _ROWS]
        np.equal(x[:, 0], y[:, 0], out=step)  # word by word: numpy reduces a short
        for k in range(1, width):  # axis (.all(axis=1)) row by row, several times slower
            step &= x[:, k] == y[:, k]
    return same


def _hashes(topic_ids, docs, at) -> np.ndarray:
    """:func:`key_hashes` of keys whose docs are ``docs[at]`` (``docs`` when None)."""
    return key_hashes(topic_ids, string_hashes(docs if at is None else docs[at]))


def _pick(at, i):
    """``at[i]``, where ``at`` None means items in the order of their docs."""
    return i if at is None else at[i]


class KeyTable:
    """The keys of one table (qrels, gmemb), for exact lookups of many keys at once."""

    def __init__(self, topic_ids: np.ndarray, docs: np.ndarray, doc_hashes=None):
        self.topic_ids = np.asarray(topic_ids, dtype=np.int64)
        self.docs = docs = as_docs(docs)
        doc_hashes = string_hashes(docs) if doc_hashes is None else doc_hashes
        hashes = key_hashes(self.topic_ids, doc_hashes)
        self.order = argsort(hashes)
        self.sorted = hashes[self.order]

    def find(self, topic_ids: np.ndarray, docs: np.ndarray, hashes=None, order=None, at=None):
        """Row of each (topic id, doc) in this table; -1 where it is absent.

        ``hashes`` may pass the keys' :func:`key_hashes` when the caller has them, and
        ``order`` their argsort. With ``at``, key i's doc is ``docs[at[i]]`` (no copy
        of the docs in key order).
        """
        topic_ids = np.asarray(topic_ids, dtype=np.int64)
        docs = as_docs(docs)
        rows = np.full(len(topic_ids), -1, dtype=np.int64)
        n = len(self.sorted)
        if n == 0 or len(topic_ids) == 0:
            return rows
        h = _hashes(topic_ids, docs, at) if hashes is None else hashes
        by_hash = argsort(h) if order is None else order
        for lo in range(0, len(h), _ROWS):  # queries in hash order: cache-friendly, and
            q = by_hash[lo : lo + _ROWS]  # the temporaries stay small
            pos = np.searchsorted(self.sorted, h[q])
            np.minimum(pos, n - 1, out=pos)
            hit = self.sorted[pos] == h[q]
            rows[q[hit]] = self.order[pos[hit]]
        # verified in query order (the queries' docs read in sequence), in steps
        for lo in range(0, len(h), _ROWS):
            i = np.flatnonzero(rows[lo : lo + _ROWS] >= 0) + lo
            cand = rows[i]
            same = self.topic_ids[cand] == topic_ids[i]
            same[same] = _same_docs(docs, _pick(at, i[same]), self.docs, cand[same])
            for j in i[~same].tolist():  # a hash collision: scan the equal hashes
                p = int(np.searchsorted(self.sorted, h[j]))
                rows[j] = self._scan(int(topic_ids[j]), docs[_pick(at, j)], h[j], p)
        return rows

    def find_aligned(self, topic_ids: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """:meth:`find`, trying first the row at the same place within the topic.

        A table that lists each topic's docs in this table's order (a gmemb file written
        from the qrels, or part of one) then needs no hashing: key j of a run of keys of
        one topic is compared with the row j places after that topic's first row here,
        and only the keys not found there are looked up by hash.
        """
        topic_ids = np.asarray(topic_ids, dtype=np.int64)
        docs = as_docs(docs)
        rows = np.full(len(topic_ids), -1, dtype=np.int64)
        if len(rows) == 0 or len(self.topic_ids) == 0:
            return rows
        guess = self._same_place(topic_ids)
        i = np.flatnonzero(guess >= 0)
        g = guess[i]
        same = self.topic_ids[g] == topic_ids[i]
        same[same] = _same_docs(docs, i[same], self.docs, g[same])
        rows[i[same]] = g[same]
        rest = np.flatnonzero(rows < 0)
        if len(rest):
            rows[rest] = self.find(topic_ids[rest], docs, at=rest)
        return rows

    def _same_place(self, topic_ids: np.ndarray) -> np.ndarray:
        """The row of this table at each key's place within its topic.

        That is the topic's first row here plus the key's place in its run of keys of
        that topic; -1 where the topic is not here or the row is past the end.
        """
        t = self.topic_ids
        heads = np.flatnonzero(np.concatenate(([True], t[1:] != t[:-1])))
        by_topic = np.lexsort((heads, t[heads]))  # the first head of each topic first
        head_topics = t[heads][by_topic]
        first = np.concatenate(([True], head_topics[1:] != head_topics[:-1]))
        topics, first_rows = head_topics[first], heads[by_topic][first]
        n = len(topic_ids)
        new_run = np.concatenate(([True], topic_ids[1:] != topic_ids[:-1]))
        run_heads = np.flatnonzero(new_run)
        place = np.arange(n) - run_heads[np.cumsum(new_run) - 1]
        k = np.minimum(np.searchsorted(topics, topic_ids), len(topics) - 1)
        guess = np.where(topics[k] == topic_ids, first_rows[k] + place, -1)
        guess[guess >= len(t)] = -1
        return guess

    def _scan(self, tid, doc, h, p) -> int:
        while p < len(self.sorted) and self.sorted[p] == h:
            row = int(self.order[p])
            if self.topic_ids[row] == tid and self.docs[row] == doc:
                return row
            p += 1
        return -1


def first_occurrences(topic_ids: np.ndarray, docs: np.ndarray, hashes=None, order=None, at=None):
    """Index of the first occurrence of each item's key (itself when it is the first).

    ``hashes`` may pass the keys' :func:`key_hashes`, and ``order`` their argsort. With
    ``at``, item i's doc is ``docs[at[i]]``.
    """
    docs = as_docs(docs)
    n = len(topic_ids)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    h = _hashes(topic_ids, docs, at) if hashes is None else hashes
    order = argsort(h) if order is None else order
    hs = h[order]
    new_group = np.empty(n, dtype=bool)
    new_group[0] = True
    new_group[1:] = hs[1:] != hs[:-1]
    if new_group.all():  # no hash twice: every item is the first of its key
        return np.arange(n, dtype=np.int64)
    group_first = np.minimum.reduceat(order, np.flatnonzero(new_group))  # earliest item
    first = np.empty(n, dtype=np.int64)
    first[order] = group_first[np.cumsum(new_group) - 1]
    check = np.flatnonzero(first != np.arange(n))
    if len(check):
        tid = np.asarray(topic_ids)
        same = tid[check] == tid[first[check]]
        same[same] = _same_docs(docs, _pick(at, check[same]), docs, _pick(at, first[check][same]))
        for i in check[~same].tolist():  # hash collision: find the true first
            first[i] = next(
                j
                for j in range(i + 1)
                if tid[j] == tid[i] and docs[_pick(at, j)] == docs[_pick(at, i)]
            )
    return first
