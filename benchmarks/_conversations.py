"""Synthetic conversations for the GFRC and GFRC2 benchmarks."""

import json

import numpy as np

from fairconv import AttributeSet
from fairconv.io import ConversationBatch

SETS = [AttributeSet("A4", [0.25] * 4, "ordinal"), AttributeSet("B3", [1 / 3] * 3, "nominal")]


def synthetic_batch(n_conv, rng, words=1000, nuggets=25, turns=4):
    """A checked-shape batch built from arrays: ``words`` words in ``turns`` exchanges,
    ``nuggets`` nuggets of 3 words spread over the system turns, levels 0..2."""
    per = np.full(n_conv, nuggets)
    offsets = np.concatenate(([0], np.cumsum(per)))
    n = int(offsets[-1])
    span = words // turns  # an exchange: "U:<word>", "S:<word>", span - 3 words, "answer"
    k = np.tile(np.arange(nuggets), n_conv)
    turn0 = k * turns // nuggets  # 0-based exchange of nugget k
    first = -(-np.arange(turns) * nuggets // turns)  # the first nugget of each exchange
    count = np.diff(np.append(first, nuggets))
    slot = (span - 3) // count[turn0]
    j = k - first[turn0]
    # a nugget's 3 words lie after the turn's "S:" word and before its last word
    start = turn0 * span + 2 + j * slot + rng.integers(0, slot - 3, size=n)
    end = start + 2
    turn = turn0 + 1
    level = rng.integers(0, 3, size=n)
    entity = rng.integers(0, 40, size=n) + np.repeat(np.arange(n_conv), per) * 40
    groups = {
        a.name: rng.multinomial(1000, np.full(a.n_groups, 1 / a.n_groups), size=n) / 1000
        for a in SETS
    }  # 3-decimal vectors, exact in JSON
    return ConversationBatch(
        tuple(f"T{i:06d}" for i in range(n_conv)),
        ("run",) * n_conv,
        offsets,
        start,
        end,
        level,
        turn,
        entity,
        groups,
        np.full(n_conv, turns),
        np.full(n_conv, words),
        tuple("synthetic" for _ in range(n_conv)),
        tuple(SETS),
    )


VOCABULARY = np.array(
    [
        "".join(chr(97 + c) for c in np.random.default_rng(n).integers(0, 26, 3 + n % 8))
        for n in range(5000)
    ]
)


def write_jsonl(batch, path, turns=4, words=1000):
    """The batch as JSON Lines records, each with a text of its own: ``turns`` exchanges
    of a ``U:`` word, an ``S:`` word and words drawn from a 5,000-word vocabulary."""
    span = words // turns
    rng = np.random.default_rng(1)
    groups = batch.memberships
    with open(path, "w") as f:
        for c in range(len(batch)):
            lo, hi = batch.offsets[c], batch.offsets[c + 1]
            nuggets = [
                {
                    "start": int(batch.start[i]),
                    "end": int(batch.end[i]),
                    "level": int(batch.level[i]),
                    "entity": f"e{batch.entity[i]}",
                    "groups": {k: v[i].tolist() for k, v in groups.items()},
                }
                for i in range(lo, hi)
            ]
            drawn = VOCABULARY[rng.integers(0, len(VOCABULARY), size=(turns, span - 1))]
            text = " ".join(f"U:{w[0]} S:{' '.join(w[1:])} answer" for w in drawn.tolist())
            record = {"topic": batch.topics[c], "run": batch.runs[c], "text": text}
            f.write(json.dumps({**record, "nuggets": nuggets}) + "\n")


def bare_reading(path):
    """What reading the file costs at least: json.loads and text.split() per line."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            json.loads(line)["text"].split()


def attributes_json(path):
    with open(path, "w") as f:
        json.dump({a.name: {"target": a.target.tolist(), "scale": a.scale} for a in SETS}, f)


def run(doc, command, scorers):
    """The shared GFRC/GFRC2 benchmark: ``scorers`` maps a label to f(batch)."""
    import argparse
    import importlib.util
    import os
    import tempfile

    from _timing import best_of, succeeds

    from fairconv.cli import main as cli_main

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=20_000)
    args = parser.parse_args()
    batch = synthetic_batch(args.conversations, np.random.default_rng(0))
    n = len(batch)
    base = best_of(lambda: [g.sum(axis=-1) for g in batch.memberships.values()], 3)
    print(f"{n:,} conversations, {batch.n_nuggets:,} nuggets, attribute sets with G = 4 and 3")
    print(f"one numpy pass over the nugget arrays: {base * 1e3:8.1f} ms")
    for label, score in scorers.items():
        t = best_of(lambda score=score: score(batch), 3)
        print(
            f"scoring ({label}):{' ' * max(1, 24 - len(label))}{t * 1e3:8.1f} ms  "
            f"{n / t:12,.0f} conv/s  {t / base:5.1f}x the numpy pass "
            f"(goal <= 30x: {'ok' if t / base <= 30 else 'MISSED'})"
        )
    with tempfile.TemporaryDirectory() as folder:
        data, attrs = os.path.join(folder, "c.jsonl"), os.path.join(folder, "a.json")
        write_jsonl(batch, data)
        attributes_json(attrs)
        out = os.path.join(folder, "out.tsv")

        def cli():
            if os.path.exists(out):
                os.remove(out)
            succeeds(cli_main([command, "--attributes", attrs, "-o", out, data]))

        bare = best_of(lambda: bare_reading(data), 2)
        print(
            f"json.loads + text.split() per line:    {bare * 1e3:8.1f} ms  {n / bare:12,.0f} conv/s"
        )
        routes = {"the standard decoder (FAIRCONV_PURE=1)": "1"}
        if importlib.util.find_spec("orjson"):
            routes = {"orjson (the fast extra)": "", **routes}
        else:
            print("orjson is not installed: pip install 'fairconv[fast]' for the fast route")
        for label, pure in routes.items():
            os.environ["FAIRCONV_PURE"] = pure
            t = best_of(cli, 2)
            print(
                f"CLI path (JSON Lines in, TSV out), {label}:\n"
                f"    {t * 1e3:8.1f} ms  {n / t:12,.0f} conv/s "
                f"({os.path.getsize(data) / 1e6:.0f} MB in); {t / bare:.2f}x the bare reading "
                f"(goal <= 2x: {'ok' if t / bare <= 2 else 'MISSED'})"
            )
        os.environ.pop("FAIRCONV_PURE")
