"""Throughput of each divergence on one million distributions (G = 4 and 8).

Prints distributions/second for the public (validating) functions and the core, and
the ratio of their time to one numpy pass over the same array (``p.sum(axis=-1)``).
Goals: JSD and NMD within 10x of that pass, RNOD within 20x.

    python benchmarks/bench_divergences.py [--n 1000000]
"""

import argparse

import numpy as np
from _timing import best_of

from fairconv import _core, divergences

GOALS = {"JSD": 10, "NMD": 10, "RNOD": 20}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'G':>2} {'divergence':<10} {'path':<7} {'dist/s':>12} {'x numpy pass':>13}  goal")
    for g in (4, 8):
        p = rng.dirichlet(np.ones(g), size=args.n)
        q = rng.dirichlet(np.ones(g))
        base = best_of(lambda p=p: p.sum(axis=-1))
        for name in ("JSD", "NMD", "RNOD"):
            public = getattr(divergences, name.lower())
            core = _core.DIVERGENCES[name]
            for path, f in (("public", public), ("core", core)):
                t = best_of(lambda f=f, p=p, q=q: f(p, q))
                ratio = t / base
                flag = "ok" if ratio <= GOALS[name] else "MISSED"
                print(
                    f"{g:>2} {name:<10} {path:<7} {args.n / t:12.3e} {ratio:13.1f}  "
                    f"<= {GOALS[name]}x {flag}"
                )


if __name__ == "__main__":
    main()
