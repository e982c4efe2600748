"""GFRC throughput: 20,000 synthetic conversations of 1,000 words, each with a text of its
own and 25 nuggets,
two attribute sets.

Prints conversations/second for scoring alone (``gfrc.gfrc`` on a batch, both GF
methods) and for the CLI path (JSON Lines in, TSV out), and the ratio of scoring time
to one numpy pass over the nugget arrays (``groups.sum(axis=-1)`` of each attribute
set). Goal: scoring within 30x of that pass.

    python benchmarks/bench_gfrc.py [--conversations 20000]
"""

from _conversations import run

from fairconv import gfrc

if __name__ == "__main__":
    run(
        __doc__,
        "gfrc",
        {
            "independent": lambda b: gfrc.gfrc(b, method="independent"),
            "cumulative": lambda b: gfrc.gfrc(b, method="cumulative"),
        },
    )
