"""The performance code behind one private boundary: the rest of fairconv calls these.

- The byte tokeniser and column parsers of the text readers (:mod:`._bytes`):
  :func:`padded`, :func:`read_padded`, :func:`table`, :func:`strings`,
  :func:`decimals`, :func:`unsigned`, and :func:`lines` for the TSV writer.
- Exact joins on (topic, doc) keys by hashing (:mod:`._keys`): :class:`KeyTable`,
  :func:`first_occurrences`, :func:`string_hashes`, :func:`key_hashes`,
  :func:`argsort`.
- The optional orjson of the ``fast`` extra, off with ``FAIRCONV_PURE=1``
  (:mod:`._orjson`): :func:`json_decoder` and :func:`repr_text`, each giving what the
  standard route gives.
- Threads (:mod:`._threads`): :func:`resolve_n_jobs`, :func:`thread_map`,
  :func:`thread_imap`.

Nothing here changes the process for longer than a call: no allocator setting, no
collector threshold, no thread left running.
"""

from ._bytes import (
    PAD,
    OtherWidth,
    Table,
    decimals,
    lines,
    padded,
    read_padded,
    size,
    strings,
    table,
    unsigned,
)
from ._keys import KeyTable, argsort, first_occurrences, key_hashes, string_hashes
from ._orjson import json_decoder, repr_text
from ._threads import available_cores, resolve_n_jobs, thread_imap, thread_map

__all__ = [
    "PAD",
    "KeyTable",
    "OtherWidth",
    "Table",
    "argsort",
    "available_cores",
    "decimals",
    "first_occurrences",
    "json_decoder",
    "key_hashes",
    "lines",
    "padded",
    "read_padded",
    "repr_text",
    "resolve_n_jobs",
    "size",
    "string_hashes",
    "strings",
    "table",
    "thread_imap",
    "thread_map",
    "unsigned",
]
