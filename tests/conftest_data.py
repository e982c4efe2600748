"""Random conversations for oracle and property tests."""

import numpy as np

from fairconv import AttributeSet

SETS = [
    AttributeSet("NOM", [0.5, 0.3, 0.2], "nominal"),
    AttributeSet("ORD", [0.4, 0.0, 0.3, 0.3], "ordinal"),
    AttributeSet("NMD", [0.25] * 4, "ordinal", "NMD"),
]


def random_record(rng, topic="T1", run="r", n_sets=2, with_turn_field=False, lmax=2):
    """A record with turns and length, relevant and nonrelevant nuggets, repeats."""
    sets = SETS[:n_sets]
    turns, pos = [], 1
    for _ in range(int(rng.integers(1, 5))):
        for role in "US":
            length = int(rng.integers(1, 6) if role == "U" else rng.integers(0, 40) + 1)
            turns.append({"role": role, "start": pos, "end": pos + length - 1})
            pos += length
    nuggets, s_turn = [], 0
    for t in turns:
        if t["role"] != "S":
            continue
        s_turn += 1
        p = t["start"]
        while p <= t["end"]:
            p += int(rng.integers(0, 6))
            length = int(rng.integers(1, 4))
            if p + length - 1 > t["end"]:
                break
            level = int(rng.integers(0, lmax + 1))
            n = {"start": p, "end": p + length - 1, "level": level}
            if rng.random() < 0.7:
                n["entity"] = f"e{int(rng.integers(0, 6))}"
            if level > 0 or rng.random() < 0.3:
                n["groups"] = {
                    a.name: (
                        rng.dirichlet(np.ones(a.n_groups))
                        if rng.random() < 0.5
                        else np.eye(a.n_groups)[rng.integers(a.n_groups)]
                    ).tolist()
                    for a in sets
                }
            if with_turn_field:
                n["turn"] = s_turn
            nuggets.append(n)
            p += length
    order = rng.permutation(len(nuggets))  # the reader sorts them
    rec = {
        "topic": topic,
        "run": run,
        "turns": turns,
        "length": pos - 1,
        "nuggets": [nuggets[i] for i in order],
    }
    if with_turn_field:
        del rec["turns"], rec["length"]
    return rec, s_turn


def system_turn_of(rec):
    """Attach each nugget's system turn from the record's turns (for the oracles)."""
    out, s = [], 0
    spans = []
    for t in rec["turns"]:
        if t["role"] == "S":
            s += 1
            spans.append((t["start"], t["end"], s))
    for n in rec["nuggets"]:
        turn = next(k for a, b, k in spans if a <= n["start"] <= b)
        out.append(dict(n, turn=turn))
    return out
