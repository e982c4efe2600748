"""The performance code behind one private boundary: the rest of fairconv calls these.

- The byte tokeniser and column parsers of the text readers (:mod:`._bytes`):
  :func:`padded`, :func:`read_padded`, :func:`table`, :func:`strings`,
  :func:`decimals`, :func:`unsigned`.
- Exact joins on (topic, doc) keys by hashing (:mod:`._keys`): :class:`KeyTable`,
  :func:`first_occurrences`, :func:`string_hashes`, :func:`key_hashes`,
  :func:`argsort`.
- The optional orjson of the ``fast`` extra, off with ``FAIRCONV_PURE=1``
  (:mod:`._orjson`): :func:`json_decoder`, giving what the standard route gives.
- Threads (:mod:`._threads`): :func:`resolve_n_jobs`, :func:`thread_map`.

Nothing here changes the process for longer than a call: no allocator setting, no
collector threshold, no thread left running.
"""

from ._bytes import (
    PAD,
    OtherWidth,
    Table,
    decimals,
    padded,
    read_padded,
    size,
    strings,
    table,
    unsigned,
)
from ._keys import KeyTable, argsort, first_occurrences, key_hashes, string_hashes
from ._orjson import json_decoder
from ._threads import available_cores, resolve_n_jobs, thread_map

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
    "padded",
    "read_padded",
    "resolve_n_jobs",
    "size",
    "string_hashes",
    "strings",
    "table",
    "thread_map",
    "unsigned",
]
