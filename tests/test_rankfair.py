"""fairconv.rankfair, the array level: reference values, properties and the plain-loop oracle.

docs/rankfair.md is the specification; each reference test names its section and
source. tests/rankfair_oracle.py scores one ranking at a time with the spec's
equations; the vectorised functions must agree with it to 1e-12 on random inputs
(hard and soft memberships, cut rankings, absent groups and the undefined edges).
"""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankfair_frt as frt
import rankfair_oracle as oracle
from fairconv import rankfair as rf

REFERENCE = Path(__file__).parent / "reference" / "rankfair"
WORKED = json.loads((REFERENCE / "worked.json").read_text(encoding="utf-8"))
RTOL = 1e-12


def _close(got, want, rtol=RTOL):
    """Equal to ``rtol`` relative, NaN where the other is NaN (never inf anywhere)."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert not np.isinf(got).any()
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)


def _at_digits(got, want, digits):
    if digits == "repr":
        assert float(got) == want, (float(got), want)
    elif isinstance(digits, str):
        rel = float(digits.split()[-1])  # "relative 1e-15"
        assert float(got) == pytest.approx(want, rel=rel, abs=0), (float(got), want)
    else:
        assert round(float(got), digits) == round(want, digits), (float(got), want)


def _one_hot(ranking, groups, n_groups):
    return np.eye(n_groups)[[groups[d] for d in ranking]]


# --------------------------------------------------------------------------- references
@pytest.mark.parametrize("case", WORKED["exposure"], ids=lambda c: c["statistic"])
def test_fairranktune_worked_exp_values_and_meta_metrics(case):
    """docs/rankfair.md section 13: FairRankTune 0.0.7's EXP on (a, c, b, d, e, f)."""
    G = max(case["groups"].values()) + 1
    m = _one_hot(case["ranking"], case["groups"], G)
    sizes = np.bincount(list(case["groups"].values()), minlength=G)
    v = rf.group_values(m, sizes, None, lengths=len(m), statistic=case["statistic"])
    for got, want in zip(v, case["values"], strict=True):
        _at_digits(got, want, case["digits"])
    for word, want in case["meta"].items():
        _at_digits(rf.meta(v, present=sizes > 0, meta=word), want, case["digits"])


@pytest.mark.parametrize("case", WORKED["ndkl"], ids=lambda c: c["source"][:20])
def test_fairranktune_worked_ndkl(case):
    """docs/rankfair.md section 13: FairRankTune's NDKL of the same ranking (full, so its
    own q is the population's)."""
    G = max(case["groups"].values()) + 1
    m = _one_hot(case["ranking"], case["groups"], G)
    q = np.bincount(list(case["groups"].values()), minlength=G) / len(case["groups"])
    _at_digits(rf.ndkl(m, q, lengths=len(m)), case["expected"], case["digits"])


@pytest.mark.parametrize("case", WORKED["yang"], ids=lambda c: f"{c['measure']}-{c['normalize']}")
def test_fairrank_demo_values(case):
    """docs/rankfair.md section 4.2: FairRank's demo (N = 100, the 50 protected first, step
    10): its printed raw rND and rRD, fairconv's raw values and the exact normalisation."""
    top = [1.0] * 50 + [0.0] * 50
    got = rf.yang(
        top,
        top,
        lengths=100,
        population_lengths=100,
        measure=case["measure"],
        normalize=case["normalize"],
    )
    _at_digits(got, case["expected"], case["digits"])


def _ee_inputs(levels, samples, groups):
    docs = list(levels) + sorted({d for s in samples for d in s} - set(levels))
    slot = {d: i for i, d in enumerate(docs)}
    K = max(len(s) for s in samples)
    index = np.full((len(samples), K), -1)
    for s, ranking in enumerate(samples):
        index[s, : len(ranking)] = [slot[d] for d in ranking]
    lev = np.array([levels.get(d, -1) for d in docs])
    G = len(next(iter(groups.values()))) if groups else 1
    memb = np.array([groups.get(d, [0] * G) for d in docs], dtype=float)
    return index, lev, [len(s) for s in samples], memb


@pytest.mark.parametrize(
    "topic, case",
    [(t, c) for t in WORKED["expected_exposure"] for c in t["cases"]],
    ids=lambda x: json.dumps(x.get("options")) if "options" in x else "",
)
def test_expeval_worked_example(topic, case):
    """docs/rankfair.md section 6: expeval's values at the 6 decimals it prints."""
    index, lev, lengths, memb = _ee_inputs(topic["levels"], topic["samples"], topic["groups"])
    options = dict(case["options"])
    if options.pop("groups", False):
        options["memberships"] = memb
    ee = rf.expected_exposure(index, lev, n_samples=len(index), lengths=lengths, **options)
    for name, want in case["expected"].items():
        _at_digits(ee[name], want, topic["digits"])
    # and the oracle, written from the spec, gives them too
    want = oracle.expected_exposure(
        topic["samples"],
        topic["levels"],
        topic["groups"] if "memberships" in options else None,
        **{k: v for k, v in options.items() if k != "memberships"},
    )
    _close([ee["EE-L"], ee["EE-D"], ee["EE-R"]], want)


def test_group_ee_is_zero_disparity_when_no_target_doc_is_ranked():
    """docs/rankfair.md sections 6 and 10: expeval prints inf; the definition gives 0,
    EE-R 0 and EE-L the sum of the squared target group exposures."""
    index, lev, lengths, memb = _ee_inputs(
        {"a": 1, "b": 1}, [["x", "y"]], {"a": [1, 0], "b": [0, 1]}
    )
    ee = rf.expected_exposure(index, lev, n_samples=1, lengths=lengths, memberships=memb)
    star = (1 - 0.25**2) / (2 * (1 - 0.25))  # two relevant docs, gERR 0.5/0.5
    assert float(ee["EE-D"]) == 0.0 and float(ee["EE-R"]) == 0.0
    assert float(ee["EE-L"]) == pytest.approx(2 * star**2, rel=1e-15)


def test_rrd_scores_an_all_protected_prefix_as_none_protected():
    """docs/rankfair.md section 12: the protected half ranked first gives rRD 0.768."""
    top = [1.0] * 50 + [0.0] * 50
    got = rf.yang(top, top, lengths=100, population_lengths=100, measure="rRD")
    assert round(float(got), 3) == 0.768
    # a soft prefix summing to i up to rounding counts as all protected (|i - x| <= 1e-9)
    soft = [1.0 - 1e-12] * 10
    pop = soft + [0.0] * 10
    raw = rf.yang(soft, pop, lengths=10, population_lengths=20, measure="rRD", normalize=False)
    P = sum(pop)
    assert float(raw) == pytest.approx(P / (20 - P) / math.log2(11), rel=1e-12)


# --------------------------------------------------------------------------- recorded FRT
FRT = json.loads((REFERENCE / "fairranktune.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", FRT["cases"], ids=[f"case{i}" for i in range(len(FRT["cases"]))])
def test_fairranktunes_recorded_values(case):
    """FairRankTune 0.0.7's outputs on random inputs (recorded by
    tests_extra/record_fairranktune.py): every value it defines is equal within 1e-9
    relative (the spec's "equal"); where it returns inf or nan, raises, or computes a
    number from an undefined group value, the value here is NaN (docs/rankfair.md,
    sections 3.2 and 10)."""
    for result in case["results"]:
        got = frt.reproduce(case, result)
        if frt.frt_defines(result):
            want = frt.number(result["value"])
            assert got == pytest.approx(want, rel=1e-9, abs=frt.tolerance(result)), result
        else:
            assert math.isnan(got), (result, got)


def test_the_recorded_table_covers_the_edges():
    """The table holds the cases section 13 lists: cut rankings, a group absent from the
    ranking, a population of one group, undefined values, ARP's crash."""
    results = [r for c in FRT["cases"] for r in c["results"]]
    assert len(results) > 2000
    assert any(not c["full"] for c in FRT["cases"])
    assert any(len(set(c["groups"].values())) == 1 for c in FRT["cases"])
    assert any(
        len({c["groups"][d] for d in c["ranking"]}) < len(set(c["groups"].values()))
        for c in FRT["cases"]
    )
    assert sum(not frt.frt_defines(r) for r in results) > 50
    assert any("error" in r for r in results)


# --------------------------------------------------------------------------- FairRank, expeval
FAIRRANK = json.loads((REFERENCE / "fairrank.json").read_text(encoding="utf-8"))
EXPEVAL = json.loads((REFERENCE / "expeval.json").read_text(encoding="utf-8"))


def test_fairranks_recorded_raw_values():
    """FairRank's per-cut functions summed over its cut-offs (tests_extra/
    record_references.py) on 150 random hard rankings: unnormalised rND and rRD equal
    within 1e-12 relative, and rKL wherever no cut-off prefix is all or none protected.
    Where one is, FairRank's KL replaces the share 0 or 1 by 0.001 and the exact KL here
    differs (docs/rankfair.md, section 10)."""
    cases = FAIRRANK["cases"]
    clamped = 0
    for case in cases:
        mass = np.array([float(c) for c in case["protected"]])
        N = len(mass)
        for measure in ("rND", "rKL", "rRD"):
            got = float(
                rf.yang(
                    mass,
                    mass,
                    lengths=N,
                    population_lengths=N,
                    measure=measure,
                    step=case["step"],
                    normalize=False,
                )
            )
            if measure == "rKL" and case["clamped"]:
                clamped += 1
                assert got != pytest.approx(case[measure], rel=1e-6)
                continue
            assert got == pytest.approx(case[measure], rel=1e-12), (case["step"], measure)
    assert 20 < clamped < len(cases)


@pytest.mark.parametrize("groups", [False, True], ids=["per-doc", "per-group"])
def test_expevals_recorded_values(groups):
    """expeval's unnormalised values, computed in memory with its modules (tests_extra/
    record_references.py) on 150 random sampled runs: equal within 1e-12 relative,
    except a group EE-D that expeval gives as inf (no target doc ranked), which is 0
    here (docs/rankfair.md, sections 6 and 10)."""
    infinite = 0
    for case in EXPEVAL["cases"]:
        samples = case["samples"]
        index = np.full((len(samples), max(map(len, samples))), -1)
        for s, order in enumerate(samples):
            index[s, : len(order)] = order
        memb = np.eye(case["n_groups"])[case["groups"]] if groups else None
        ee = rf.expected_exposure(
            index,
            case["levels"],
            n_samples=len(samples),
            lengths=[len(o) for o in samples],
            memberships=memb,
            **case["options"],
        )
        for name, want in case["per_group" if groups else "per_doc"].items():
            if want == "inf":
                infinite += 1
                assert name == "EE-D" and float(ee[name]) == 0.0
                continue
            assert float(ee[name]) == pytest.approx(want, rel=1e-12, abs=0), (case, name)
    assert (infinite > 0) == groups


# --------------------------------------------------------------------------- random inputs
def _population(rng, N, G, soft, *, grid=False):
    """(N, G) membership rows over a random subset of the groups (absent groups).

    ``grid``: soft rows of multiples of 1/32, whose sums are exact in float64 (rND,
    rKL, rRD compare sums of different orders: x_i with P; rounding noise there would
    be compared with the exact oracle's).
    """
    used = np.sort(rng.choice(G, size=rng.integers(1, G + 1), replace=False))
    if soft:
        rows = np.zeros((N, G))
        shares = rng.dirichlet(np.full(len(used), 0.7), size=N)
        if grid:
            shares = rng.multinomial(32, shares / shares.sum(axis=1, keepdims=True)) / 32
        rows[:, used] = shares
        hard = rng.random(N) < 0.3  # some one-hot rows among the soft ones
        rows[hard] = np.eye(G)[rng.choice(used, size=hard.sum())]
        return rows
    return np.eye(G)[rng.choice(used, size=N)]


def _rows(rng, B, K, G, soft, *, graded=False, grid=False):
    """B random topics: population, a ranking (a cut permutation of it) and relevance.

    Returns the padded arrays (garbage in the padding) and per-row Python lists.
    """
    memb = np.full((B, K, G), np.nan)
    rel = np.full((B, K), 7.0)
    lengths = np.zeros(B, dtype=int)
    sizes = np.zeros((B, G))
    utility = np.zeros((B, G))
    width = K + 6
    pop_mass = np.full((B, G, width), -3.0)
    pop_n = np.zeros(B, dtype=int)
    rows = []
    for b in range(B):
        N = int(rng.integers(0, width + 1))
        pop = _population(rng, N, G, soft, grid=grid)
        levels = rng.integers(0, 4, size=N) * (rng.random(N) < 0.6)
        u = levels / 3 if graded else (levels > 0).astype(float)
        if rng.random() < 0.15:
            u[:] = 0.0  # a topic without relevant docs
        n = int(rng.integers(0, min(N, K) + 1))
        if rng.random() < 0.3:
            n = min(N, K)
        order = rng.permutation(N)[:n]
        memb[b, :n] = pop[order]
        rel[b, :n] = u[order]
        lengths[b] = n
        sizes[b] = pop.sum(axis=0)
        utility[b] = (pop * u[:, None]).sum(axis=0)
        pop_mass[b, :, :N] = pop.T
        pop_n[b] = N
        rows.append(
            {
                "ranked": pop[order].tolist(),
                "u": u[order].tolist(),
                "sizes": sizes[b].tolist(),
                "utility": utility[b].tolist(),
                "population": pop,
            }
        )
    return {
        "memberships": memb,
        "relevance": rel,
        "lengths": lengths,
        "sizes": sizes,
        "utility": utility,
        "pop_mass": pop_mass,
        "pop_n": pop_n,
        "rows": rows,
    }


SEEDS = range(6)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("soft", [False, True], ids=["hard", "soft"])
@pytest.mark.parametrize("statistic", rf.STATISTICS)
def test_group_values_and_meta_match_the_oracle(seed, soft, statistic):
    rng = np.random.default_rng(seed)
    G = int(rng.integers(2, 6))
    data = _rows(rng, 40, 12, G, soft, graded=bool(seed % 2))
    decay, attention = rng.uniform(0.05, 0.95, size=2)
    for population in (False, True):
        utility = data["utility"] if population else None
        got = rf.group_values(
            data["memberships"],
            data["sizes"],
            data["relevance"],
            lengths=data["lengths"],
            statistic=statistic,
            decay=decay,
            attention=attention,
            population_utility=utility,
        )
        for b, row in enumerate(data["rows"]):
            want = oracle.group_values(
                row["ranked"],
                row["sizes"],
                row["u"],
                statistic,
                decay,
                attention,
                row["utility"] if population else None,
            )
            _close(got[b], want)
            present = np.array(row["sizes"]) > 0
            for word in rf.METAS:  # each stage on the same input as its oracle
                value = rf.meta(got[b], present=present, meta=word)
                _close(value, oracle.meta(got[b].tolist(), present, word))
        present = data["sizes"] > 0
        for word in rf.METAS:  # the batch at once, as the rows one by one
            batch = rf.meta(got, present=present, meta=word)
            one = [rf.meta(got[b], present=present[b], meta=word) for b in range(len(got))]
            np.testing.assert_array_equal(batch, one)


@pytest.mark.parametrize("seed", SEEDS)
def test_arp_matches_the_oracle(seed):
    rng = np.random.default_rng(seed)
    B, K, G = 60, 15, int(rng.integers(2, 5))
    groups = np.full((B, K), -7)  # padding outside 0..G-1: never read
    lengths = rng.integers(0, K + 1, size=B)
    for b in range(B):
        used = rng.choice(G, size=rng.integers(1, G + 1), replace=False)
        groups[b, : lengths[b]] = rng.choice(used, size=lengths[b])
    got = rf.arp(groups, lengths=lengths, n_groups=G)
    for b in range(B):
        want = oracle.arp(groups[b, : lengths[b]].tolist(), G)
        _close(got[b], want)
        present = np.bincount(groups[b, : lengths[b]], minlength=G) > 0
        for word in rf.METAS:
            value = rf.meta(got[b], present=present, meta=word)
            _close(value, oracle.meta(got[b].tolist(), present, word))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("soft", [False, True], ids=["hard", "soft"])
@pytest.mark.parametrize("epsilon", [1e-7, 0.0, 0.01])
def test_ndkl_matches_the_oracle(seed, soft, epsilon):
    rng = np.random.default_rng(seed)
    G = int(rng.integers(2, 6))
    data = _rows(rng, 40, 14, G, soft)
    target = np.where(
        (data["pop_n"] > 0)[:, None],
        data["sizes"] / np.maximum(data["pop_n"], 1)[:, None],
        1.0 / G,
    )
    given_target = rng.dirichlet(np.ones(G), size=40)
    given_target[::3, 0] = 0.0  # a group the target gives nothing
    given_target /= given_target.sum(axis=1, keepdims=True)
    for q in (target, given_target):
        got = rf.ndkl(data["memberships"], q, lengths=data["lengths"], epsilon=epsilon)
        want = [
            oracle.ndkl(r["ranked"], q[b].tolist(), epsilon) for b, r in enumerate(data["rows"])
        ]
        _close(got, want)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("soft", [False, True], ids=["hard", "soft"])
@pytest.mark.parametrize("measure", ["rND", "rKL", "rRD"])
def test_yang_matches_the_oracle(seed, soft, measure):
    rng = np.random.default_rng(seed)
    data = _rows(rng, 50, 30, 2, soft, grid=True)
    mass = data["memberships"][..., 0]
    pop = data["pop_mass"][:, 0]
    for step, discount, normalize in itertools.product(
        (1, 2, 3, 5, 10), ("code", "paper"), (True, False)
    ):
        if discount == "paper" and step == 1:
            continue
        got = rf.yang(
            mass,
            pop,
            lengths=data["lengths"],
            population_lengths=data["pop_n"],
            measure=measure,
            step=step,
            discount=discount,
            normalize=normalize,
        )
        for b, row in enumerate(data["rows"]):
            ranked = [r[0] for r in row["ranked"]]
            population = row["population"][:, 0].tolist()
            want = oracle.yang(ranked, population, measure, step, discount, normalize)
            _close(got[b], want)


@pytest.mark.parametrize("seed", SEEDS)
def test_fair_matches_the_oracle(seed):
    rng = np.random.default_rng(seed)
    data = _rows(rng, 40, 25, 2, False)
    protected = np.where(np.isnan(data["memberships"][..., 0]), 9.0, data["memberships"][..., 0])
    share = data["sizes"][:, 0] / np.maximum(data["pop_n"], 1)
    for p in (share, rng.uniform(0, 1, 40), np.zeros(40), np.ones(40)):
        got = rf.fair(protected, p, lengths=data["lengths"])
        for b, row in enumerate(data["rows"]):
            want = oracle.fair([int(r[0]) for r in row["ranked"]], float(p[b]))
            _close(got[b], want)


def test_fair_is_the_mean_of_scipys_binomial_cdf_over_the_prefixes():
    """Raj and Ekstrand's avg_prefix (BoiseState rank-fairness-metrics, zehlike.py):
    ``binom.cdf(cumsum(protected), rank, p).mean()`` with scipy's binomial CDF."""
    from scipy.stats import binom

    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 80))
        protected = (rng.random(n) < rng.random()).astype(int)
        p = float(rng.random())
        want = binom.cdf(np.cumsum(protected), np.arange(1, n + 1), p).mean()
        assert float(rf.fair(protected, p, lengths=n)) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_iaa_matches_the_oracle(seed):
    rng = np.random.default_rng(seed)
    data = _rows(rng, 40, 20, 2, False, graded=bool(seed % 2))
    got = rf.iaa(data["relevance"], lengths=data["lengths"])
    _close(got, [oracle.iaa(r["u"]) for r in data["rows"]])


def _ee_random(rng, B, S, K, G):
    """B topics of sampled runs: slots, levels, samples and memberships, padded."""
    D = K + 8
    index = np.full((B, S, K), -1)
    levels = np.full((B, D), -1)
    lengths = np.full((B, S), 99)  # the lengths of padding samples: never read
    memb = np.zeros((B, D, G))
    n_samples = rng.integers(0, S + 1, size=B)
    topics = []
    for b in range(B):
        n_docs = int(rng.integers(1, D + 1))
        judged = rng.random(n_docs) < 0.7
        lev = np.where(judged, rng.integers(0, 4, size=n_docs), -1)
        if rng.random() < 0.2:
            lev = np.where(judged, 0, -1)  # no relevant doc
        levels[b, :n_docs] = lev
        rows = _population(rng, n_docs, G, soft=bool(rng.random() < 0.5))
        rows[rng.random(n_docs) < 0.15] = 0.0  # docs the set does not list
        memb[b, :n_docs] = rows
        samples = []
        for s in range(n_samples[b]):
            n = int(rng.integers(0, min(K, n_docs) + 1))
            order = rng.permutation(n_docs)[:n]
            index[b, s, :n] = order
            lengths[b, s] = n
            samples.append([int(d) for d in order])
        topics.append(
            {
                "samples": samples,
                "levels": {d: int(v) for d, v in enumerate(lev) if v >= 0},
                "memberships": {d: rows[d].tolist() for d in range(n_docs)},
            }
        )
    return index, levels, n_samples, lengths, memb, topics


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("model", ["gerr", "rbp"])
@pytest.mark.parametrize("complete, binarize", [(False, False), (True, False), (False, True)])
def test_expected_exposure_matches_the_oracle(seed, model, complete, binarize):
    rng = np.random.default_rng(seed)
    G = int(rng.integers(2, 5))
    index, levels, n_samples, lengths, memb, topics = _ee_random(rng, 30, 5, 9, G)
    patience, stop = rng.uniform(0.05, 0.95, size=2)
    options = dict(model=model, patience=patience, stop=stop, complete=complete, binarize=binarize)
    for groups in (None, memb):
        ee = rf.expected_exposure(
            index, levels, n_samples=n_samples, lengths=lengths, memberships=groups, **options
        )
        for b, t in enumerate(topics):
            want = oracle.expected_exposure(
                t["samples"], t["levels"], None if groups is None else t["memberships"], **options
            )
            _close([ee["EE-L"][b], ee["EE-D"][b], ee["EE-R"][b]], want)


# --------------------------------------------------------------------------- properties
@st.composite
def hard_populations(draw, max_n=40):
    N = draw(st.integers(2, max_n))
    P = draw(st.integers(1, N - 1))
    order = draw(st.permutations(range(N)))
    population = np.array([1.0] * P + [0.0] * (N - P))
    step = draw(st.sampled_from([1, 2, 3, 5, 10]))
    n = draw(st.integers(min(step, N), N))
    return population, population[list(order)][:n], step


@given(hard_populations(), st.sampled_from(["code", "paper"]))
def test_rnd_and_rkl_are_bounded_by_ranking_the_protected_group_first_or_last(case, discount):
    """docs/rankfair.md 4.2: for hard groups the exact Z is the larger value of the two
    sorted arrangements, so any ranking scores at most 1 and one of them scores 1."""
    population, ranking, step = case
    if discount == "paper" and step == 1:
        step = 2
    n, N = len(ranking), len(population)
    if n < step:
        return
    first = np.sort(population)[::-1][:n]
    last = np.sort(population)[:n]
    for measure in ("rND", "rKL") + (("rRD",) if population.sum() <= N / 2 else ()):
        values = rf.yang(
            [ranking, first, last],
            [population] * 3,
            lengths=[n] * 3,
            population_lengths=[N] * 3,
            measure=measure,
            step=step,
            discount=discount,
        )
        if np.isnan(values).any():  # Z = 0: only when the one cut-off is N (x_N = P)
            assert np.isnan(values).all() and n == N < 2 * step
            continue
        assert ((values >= 0) & (values <= 1 + 1e-12)).all(), values
        if measure != "rRD":
            assert max(values[1], values[2]) == 1.0


@pytest.mark.parametrize("N", range(2, 11))
def test_the_exact_normaliser_is_the_maximum_over_every_arrangement(N):
    """The spec's claim (4.2), checked exhaustively for N <= 10: over every 0/1 arrangement
    of every P, depth n, steps 1, 2, 3 and both discounts, the largest rND and rKL is 1
    (and rRD's when P <= N / 2)."""
    for P in range(1, N):
        patterns = np.array(
            [
                [1.0 if i in ones else 0.0 for i in range(N)]
                for ones in map(set, itertools.combinations(range(N), P))
            ]
        )
        B = len(patterns)
        population = np.broadcast_to(patterns[0], (B, N))
        cases = itertools.product((1, 2, 3), range(1, N + 1), ("code", "paper"))
        for step, n, discount in cases:
            if n < step or (discount == "paper" and step == 1):
                continue
            for measure in ("rND", "rKL", "rRD"):
                if measure == "rRD" and P > N / 2:
                    continue
                values = rf.yang(
                    patterns,
                    population,
                    lengths=n,
                    population_lengths=N,
                    measure=measure,
                    step=step,
                    discount=discount,
                )
                if np.isnan(values).all():  # Z = 0: the one cut-off is N
                    assert n == N < 2 * step
                    continue
                assert np.nanmax(values) == pytest.approx(1.0, rel=1e-12), (P, step, n, measure)


@given(
    st.integers(2, 5),
    st.integers(0, 6),
    st.lists(st.floats(0, 10, allow_subnormal=False), min_size=1, max_size=1),
    st.randoms(use_true_random=False),
)
def test_meta_metrics_of_equal_groups_are_at_their_fair_values(G, mask_bits, value, rnd):
    present = np.array([(mask_bits >> g) & 1 == 1 for g in range(G)])
    if not present.any():
        present[rnd.randrange(G)] = True
    values = np.where(present, value[0], rnd.random() * 100)  # absent groups: anything
    out = {w: float(rf.meta(values, present=present, meta=w)) for w in rf.METAS}
    fair_zero = ("MaxMinDiff", "MaxAbsDiff", "MeanAbsDev", "Variance")
    assert all(out[w] == 0.0 for w in fair_zero), out
    if value[0] > 0:
        assert out["MinMaxRatio"] == 1.0 and out["MaxMinRatio"] == 1.0
    else:  # all zero: max V = 0 and min V = 0 make both ratios undefined
        assert math.isnan(out["MinMaxRatio"]) and math.isnan(out["MaxMinRatio"])
    assert out["LTwo"] == pytest.approx(math.sqrt(present.sum()) * value[0], rel=1e-15)


@given(st.integers(0, 2**32 - 1), st.integers(2, 5))
def test_a_permutation_of_group_labels_changes_nothing(seed, G):
    """Relabelling the groups permutes the per-group values and leaves every meta-metric,
    NDKL and per-group expected exposure as they were."""
    rng = np.random.default_rng(seed)
    data = _rows(rng, 6, 8, G, soft=bool(seed % 2))
    perm = rng.permutation(G)
    m, sizes, rel, n = data["memberships"], data["sizes"], data["relevance"], data["lengths"]
    for statistic in rf.STATISTICS:
        v = rf.group_values(m, sizes, rel, lengths=n, statistic=statistic)
        w = rf.group_values(m[..., perm], sizes[:, perm], rel, lengths=n, statistic=statistic)
        np.testing.assert_allclose(w, v[:, perm], rtol=1e-15, atol=0)
        for word in rf.METAS:
            a = rf.meta(v, present=sizes > 0, meta=word)
            b = rf.meta(w, present=sizes[:, perm] > 0, meta=word)
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-300)
    q = rng.dirichlet(np.ones(G), size=6)
    np.testing.assert_allclose(
        rf.ndkl(m, q, lengths=n), rf.ndkl(m[..., perm], q[:, perm], lengths=n), rtol=1e-12
    )
    groups = rng.integers(0, G, size=(6, 8))
    relabel = np.argsort(perm)  # group g becomes relabel[g]: values move to relabel[g]
    a = rf.arp(groups, lengths=n, n_groups=G)
    b = rf.arp(relabel[groups], lengths=n, n_groups=G)
    np.testing.assert_array_equal(b[:, relabel], a)
    index, levels, count, lengths, memb, _ = _ee_random(rng, 5, 3, 6, G)
    a = rf.expected_exposure(index, levels, n_samples=count, lengths=lengths, memberships=memb)
    b = rf.expected_exposure(
        index, levels, n_samples=count, lengths=lengths, memberships=memb[..., perm]
    )
    for key in a:
        np.testing.assert_allclose(a[key], b[key], rtol=1e-12)


@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=9),
    st.sampled_from(["gerr", "rbp"]),
    st.floats(0.05, 0.95),
    st.floats(0.05, 0.95),
    st.booleans(),
)
def test_a_run_equal_to_its_target_has_zero_loss(levels, model, patience, stop, complete):
    """docs/rankfair.md 6: a stochastic run that gives each doc the mean exposure of its
    level's positions (every rotation of each level's block, blocks in level order) is
    the target: EE-L is 0 (up to rounding), per doc and per group."""
    levels = np.array(levels)
    target = levels >= 0 if complete else levels > 0
    order = [
        np.flatnonzero(target & (levels == lv)) for lv in sorted(set(levels[target]), reverse=True)
    ]
    if not order:
        return
    S = math.lcm(*(len(block) for block in order))
    index = np.array([np.concatenate([np.roll(block, s) for block in order]) for s in range(S)])
    memb = np.eye(2)[np.arange(len(levels)) % 2]
    for groups in (None, memb):
        ee = rf.expected_exposure(
            index,
            levels,
            n_samples=S,
            lengths=np.full(S, index.shape[1]),
            memberships=groups,
            model=model,
            patience=patience,
            stop=stop,
            complete=complete,
        )
        assert float(ee["EE-L"]) <= 1e-28 * max(1.0, float(ee["EE-D"]))


def test_padding_is_ignored_whatever_it_holds():
    rng = np.random.default_rng(5)
    data = _rows(rng, 20, 10, 3, soft=True)
    n = data["lengths"]
    inside = np.arange(10) < n[:, None]
    clean_m = np.where(inside[..., None], data["memberships"], 0.0)
    clean_u = np.where(inside, data["relevance"], 0.0)
    for garbage in (np.nan, np.inf, -1e300, 5.0):
        dirty_m = np.where(inside[..., None], data["memberships"], garbage)
        dirty_u = np.where(inside, data["relevance"], garbage)
        for statistic in rf.STATISTICS:
            np.testing.assert_array_equal(
                rf.group_values(dirty_m, data["sizes"], dirty_u, lengths=n, statistic=statistic),
                rf.group_values(clean_m, data["sizes"], clean_u, lengths=n, statistic=statistic),
            )
        q = np.full(3, 1 / 3)
        np.testing.assert_array_equal(
            rf.ndkl(dirty_m, q, lengths=n), rf.ndkl(clean_m, q, lengths=n)
        )
        np.testing.assert_array_equal(rf.iaa(dirty_u, lengths=n), rf.iaa(clean_u, lengths=n))
        hard = (clean_m[..., 0] == 1).astype(float)
        dirty_hard = np.where(inside, hard, garbage)
        np.testing.assert_array_equal(
            rf.fair(dirty_hard, 0.3, lengths=n), rf.fair(hard, 0.3, lengths=n)
        )
        pop, N = data["pop_mass"][:, 0], data["pop_n"]
        dirty_pop = np.where(np.arange(pop.shape[1]) < N[:, None], pop, garbage)
        for measure in ("rND", "rKL", "rRD"):
            a = rf.yang(
                np.where(inside, data["memberships"][..., 0], garbage),
                dirty_pop,
                lengths=n,
                population_lengths=N,
                measure=measure,
                step=2,
            )
            b = rf.yang(
                clean_m[..., 0],
                np.where(np.isnan(dirty_pop), 0, pop),
                lengths=n,
                population_lengths=N,
                measure=measure,
                step=2,
            )
            np.testing.assert_array_equal(a, b)
        values = np.where(data["sizes"] > 0, 1.5, garbage)
        for word in rf.METAS:
            np.testing.assert_array_equal(
                rf.meta(values, present=data["sizes"] > 0, meta=word),
                rf.meta(
                    np.where(data["sizes"] > 0, 1.5, 0.0), present=data["sizes"] > 0, meta=word
                ),
            )
    index, levels, count, lengths, memb, _ = _ee_random(rng, 8, 4, 6, 2)
    real = np.arange(4) < count[:, None]
    live = np.arange(6) < np.where(real, lengths, 0)[..., None]
    a = rf.expected_exposure(
        np.where(live, index, 10**9),
        levels,
        n_samples=count,
        lengths=np.where(real, lengths, -5),
        memberships=memb,
    )
    b = rf.expected_exposure(index, levels, n_samples=count, lengths=lengths, memberships=memb)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])


def test_a_batched_call_equals_a_loop_over_rows():
    rng = np.random.default_rng(11)
    data = _rows(rng, 12, 9, 3, soft=True)
    T = data["memberships"].reshape(3, 4, 9, 3)
    sizes, rel, n = (
        data["sizes"].reshape(3, 4, 3),
        data["relevance"].reshape(3, 4, 9),
        data["lengths"].reshape(3, 4),
    )
    for statistic in rf.STATISTICS:
        batch = rf.group_values(T, sizes, rel, lengths=n, statistic=statistic)
        for t, r in itertools.product(range(3), range(4)):
            one = rf.group_values(
                T[t, r], sizes[t, r], rel[t, r], lengths=n[t, r], statistic=statistic
            )
            np.testing.assert_array_equal(batch[t, r], one)
    pop, N = data["pop_mass"][:, 0].reshape(3, 4, -1), data["pop_n"].reshape(3, 4)
    mass = T[..., 0]
    for measure in ("rND", "rKL", "rRD"):
        batch = rf.yang(mass, pop, lengths=n, population_lengths=N, measure=measure, step=2)
        for t, r in itertools.product(range(3), range(4)):
            one = rf.yang(
                mass[t, r],
                pop[t, r],
                lengths=n[t, r],
                population_lengths=N[t, r],
                measure=measure,
                step=2,
            )
            np.testing.assert_array_equal(batch[t, r], one)
    q = np.full(3, 1 / 3)
    batch = rf.ndkl(T, q, lengths=n)
    for t, r in itertools.product(range(3), range(4)):
        np.testing.assert_array_equal(batch[t, r], rf.ndkl(T[t, r], q, lengths=n[t, r]))
    index, levels, count, lengths, memb, _ = _ee_random(rng, 6, 3, 5, 3)
    ee = rf.expected_exposure(
        index.reshape(2, 3, 3, 5),
        levels.reshape(2, 3, -1),
        n_samples=count.reshape(2, 3),
        lengths=lengths.reshape(2, 3, 3),
        memberships=memb.reshape(2, 3, -1, 3),
    )
    for b in range(6):
        one = rf.expected_exposure(
            index[b], levels[b], n_samples=count[b], lengths=lengths[b], memberships=memb[b]
        )
        for key in ee:
            np.testing.assert_array_equal(ee[key].reshape(-1)[b], one[key])


def test_the_normaliser_is_shared_by_rankings_of_one_population(monkeypatch):
    """Z is computed once per (population, n, step, discount), not once per ranking."""
    from fairconv._core import _rankfair

    calls = []
    real = _rankfair.yang_raw

    def counting(mass, *args):
        calls.append(len(mass))
        return real(mass, *args)

    monkeypatch.setattr(_rankfair, "yang_raw", counting)
    rng = np.random.default_rng(0)
    population = np.array([1.0] * 30 + [0.0] * 70)
    rankings = np.array([rng.permutation(population) for _ in range(1000)])
    rf.yang(rankings, population, lengths=100, population_lengths=100, measure="rND")
    # one call for the 1,000 rankings, two for the sorted arrangements of one case
    assert calls == [1000, 1, 1]


# --------------------------------------------------------------------------- undefined
def test_undefined_values_are_nan_never_inf():
    """docs/rankfair.md sections 3-6: each undefined case is NaN (and no numpy warning:
    the suite turns warnings into errors)."""
    one_hot = np.eye(2)
    # U_g = 0: EXPU, EXPRU, ERBR undefined for that group
    m = one_hot[[0, 1]]
    for statistic in ("EXPU", "EXPRU", "ERBR"):
        v = rf.group_values(m, [1, 1], [1.0, 0.0], lengths=2, statistic=statistic)
        assert not math.isnan(v[0]) and math.isnan(v[1])
        assert math.isnan(rf.meta(v, present=[True, True], meta="MinMaxRatio"))
    # a group with members but none ranked: V = 0, MinMaxRatio 0 (as FRT), MaxMinRatio NaN
    v = rf.group_values(one_hot[[0]], [1, 1], None, lengths=1, statistic="EXP")
    assert float(rf.meta(v, present=[True, True], meta="MinMaxRatio")) == 0.0
    assert math.isnan(rf.meta(v, present=[True, True], meta="MaxMinRatio"))
    # an empty ranking: max V = 0
    v = rf.group_values(np.zeros((0, 2)), [1, 1], None, lengths=0, statistic="EXP")
    assert math.isnan(rf.meta(v, present=[True, True], meta="MinMaxRatio"))
    # no present group; a single present group (ratios 1, differences 0)
    assert math.isnan(rf.meta([1.0, 2.0], present=[False, False], meta="LTwo"))
    assert float(rf.meta([2.0, 5.0], present=[True, False], meta="MaxMinRatio")) == 1.0
    # ARP: one group holding every ranked doc
    assert np.isnan(rf.arp([0, 0, 0], lengths=3, n_groups=2)).all()
    # NDKL: an empty ranking; epsilon 0 with a prefix on a group q gives nothing
    assert math.isnan(rf.ndkl(np.zeros((3, 2)), [0.5, 0.5], lengths=0))
    assert math.isnan(rf.ndkl(one_hot[[0, 1]], [1.0, 0.0], lengths=2, epsilon=0))
    # rND/rKL/rRD: P = 0, P = N, no cut-off within the ranking
    for measure in ("rND", "rKL", "rRD"):
        assert math.isnan(
            rf.yang([0.0] * 10, [0.0] * 10, lengths=10, population_lengths=10, measure=measure)
        )
        assert math.isnan(
            rf.yang([1.0] * 10, [1.0] * 10, lengths=10, population_lengths=10, measure=measure)
        )
        assert math.isnan(
            rf.yang([1.0] * 9, [1.0] * 9 + [0.0], lengths=9, population_lengths=10, measure=measure)
        )
    # a ranking without any protected doc is defined
    assert (
        rf.yang([0.0] * 10, [0.0] * 10 + [1.0], lengths=10, population_lengths=11, measure="rND")
        > 0
    )
    # FAIR of an empty ranking
    assert math.isnan(rf.fair([1, 0], 0.5, lengths=0))
    # EE: no relevant doc (without complete), no sample
    ee = rf.expected_exposure([[0, 1]], [0, 0], n_samples=1, lengths=[2])
    assert all(math.isnan(v) for v in ee.values())
    ee = rf.expected_exposure([[0, 1]], [1, 0], n_samples=0, lengths=[2])
    assert all(math.isnan(v) for v in ee.values())


def test_empty_batches_and_rankings_of_no_position():
    """A batch of no topic gives empty arrays; rankings padded to 0 positions give the
    values of empty rankings."""
    for batch in ((0,), (2,)):
        m, u = np.zeros(batch + (0, 2)), np.zeros(batch + (0,))
        for statistic in rf.STATISTICS:
            v = rf.group_values(m, [1, 1], u, lengths=0, statistic=statistic)
            assert v.shape == batch + (2,)
            if statistic in ("EXPU", "EXPRU", "ERBR"):
                assert np.isnan(v).all()  # U_g = 0
            else:
                assert (v == 0).all()
        assert rf.arp(np.zeros(batch + (0,), int), lengths=0, n_groups=2).shape == batch + (2,)
        assert np.isnan(rf.ndkl(m, [0.5, 0.5], lengths=0)).all()
        for normalize in (True, False):
            y = rf.yang(
                u,
                np.zeros(batch + (3,)),
                lengths=0,
                population_lengths=0,
                measure="rKL",
                normalize=normalize,
            )
            assert y.shape == batch and np.isnan(y).all()
        assert np.isnan(rf.fair(u, 0.5, lengths=0)).all()
        assert (rf.iaa(u, lengths=0) == 0).all() and rf.iaa(u, lengths=0).shape == batch
        for groups in (None, np.zeros(batch + (4, 2))):
            ee = rf.expected_exposure(
                np.zeros(batch + (1, 0), int),
                np.zeros(batch + (4,), int),
                n_samples=1,
                lengths=0,
                memberships=groups,
            )
            assert all(v.shape == batch and np.isnan(v).all() for v in ee.values())
    for word in rf.METAS:
        assert rf.meta(np.zeros((0, 2)), present=np.zeros((0, 2), bool), meta=word).shape == (0,)


def test_a_quotient_beyond_the_float_range_is_nan_not_inf():
    """A soft membership of 1e-320 on the group's one relevant doc: E/U overflows."""
    m = [[1.0, 0.0], [1e-320, 1.0]]
    v = rf.group_values(m, [1.0, 1.0], [0.0, 1.0], lengths=2, statistic="EXPU")
    assert math.isnan(v[0]) and math.isfinite(v[1])
    assert math.isnan(rf.meta([1e300, 1e-300], present=[True, True], meta="MaxMinRatio"))
    assert math.isfinite(rf.meta([1e300, 1e300], present=[True, True], meta="LTwo"))


# --------------------------------------------------------------------------- bad input
BAD = [
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1, statistic="EXQ"),
     "The 'statistic' parameter of rankfair.group_values must be one of 'EXP', 'EXPU'"),
    (lambda: rf.group_values([[0.5, 0.4]], [1, 1], None, lengths=1, statistic="EXP"),
     "'memberships' parameter of rankfair.group_values must sum to 1"),
    (lambda: rf.group_values([[1, 0]], [1, -1], None, lengths=1, statistic="EXP"),
     "'sizes' parameter of rankfair.group_values must hold finite numbers >= 0. Got -1.0 at "
     "index (1,) instead."),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1, statistic="EXP",
                             population_utility=[np.inf, 0]),
     "'population_utility' parameter of rankfair.group_values must hold finite numbers >= 0. "
     "Got inf at index (0,) instead."),
    (lambda: rf.group_values([[1, 0]], [1, 1], [1.5], lengths=1, statistic="EXPU"),
     "'relevance' parameter of rankfair.group_values must hold numbers in [0, 1] within the "
     "lengths. Got 1.5 at index (0,) instead."),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1, statistic="ERBR"),
     "'relevance' parameter of rankfair.group_values must be given for ERBR"),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=2, statistic="EXP"),
     "'lengths' parameter of rankfair.group_values must hold integers in 0..1. Got 2"),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1.0, statistic="EXP"),
     "'lengths' parameter of rankfair.group_values must be an array of integers"),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1, statistic="ATT", attention=1),
     "'attention' parameter of rankfair.group_values must be a number in (0, 1)"),
    (lambda: rf.group_values([[1, 0]], [1, 1], None, lengths=1, statistic="ERBE", decay=0),
     "'decay' parameter of rankfair.group_values must be a number in (0, 1)"),
    (lambda: rf.group_values([[1, 0]], [1, 1, 1], None, lengths=1, statistic="EXP"),
     "'sizes' parameter of rankfair.group_values must have a shape broadcastable to (2,)"),
    (lambda: rf.group_values([1, 0], [1, 1], None, lengths=1, statistic="EXP"),
     "'memberships' parameter of rankfair.group_values must be an array of shape (..., K, G)"),
    (lambda: rf.meta([1.0, np.inf], present=[True, True], meta="LTwo"),
     "'values' parameter of rankfair.meta must hold finite numbers >= 0 (or NaN: undefined) "
     "for the present groups. Got inf at index (1,) instead."),
    (lambda: rf.meta([1.0, -1.0], present=[True, True], meta="LTwo"),
     "'values' parameter of rankfair.meta must hold finite numbers >= 0"),
    (lambda: rf.meta([1.0, 2.0], present=[1, 1], meta="LTwo"),
     "'present' parameter of rankfair.meta must be an array of booleans"),
    (lambda: rf.meta([1.0, 2.0], present=[True, True], meta="Mean"),
     "'meta' parameter of rankfair.meta must be one of 'MinMaxRatio', 'MaxMinRatio', "
     "'MaxMinDiff', 'MaxAbsDiff', 'MeanAbsDev', 'LTwo', 'Variance'. Got 'Mean' instead."),
    (lambda: rf.arp([0, 2], lengths=2, n_groups=2),
     "'groups' parameter of rankfair.arp must hold groups in 0..1 within the lengths. "
     "Got 2 at index (1,) instead."),
    (lambda: rf.arp([0.0, 1.0], lengths=2, n_groups=2),
     "'groups' parameter of rankfair.arp must be an array of integers"),
    (lambda: rf.arp([0, 1], lengths=2, n_groups=1),
     "'n_groups' parameter of rankfair.arp must be an integer >= 2"),
    (lambda: rf.ndkl([[1, 0]], [0.5, 0.6], lengths=1),
     "'target' parameter of rankfair.ndkl must sum to 1"),
    (lambda: rf.ndkl([[1, 0]], [0.5, 0.5], lengths=1, epsilon=-1e-7),
     "'epsilon' parameter of rankfair.ndkl must be a number >= 0"),
    (lambda: rf.ndkl([[1, 0]], [1 / 3] * 3, lengths=1),
     "'target' parameter of rankfair.ndkl must have a shape broadcastable to (2,)"),
    (lambda: rf.yang([1.5], [1.0, 0.0], lengths=1, population_lengths=2, measure="rND"),
     "'protected_mass' parameter of rankfair.yang must hold numbers in [0, 1] within the lengths"),
    (lambda: rf.yang([1.0], [1.0, np.nan], lengths=1, population_lengths=2, measure="rND"),
     "'population_mass' parameter of rankfair.yang must hold numbers in [0, 1] within the "
     "lengths. Got nan at index (1,) instead."),
    (lambda: rf.yang([1.0, 0.0], [1.0, 0.0], lengths=2, population_lengths=1, measure="rND"),
     "'lengths' parameter of rankfair.yang must be at most the population's size"),
    (lambda: rf.yang([1.0], [1.0, 0.0], lengths=1, population_lengths=2, measure="rDD"),
     "'measure' parameter of rankfair.yang must be one of 'rND', 'rKL', 'rRD'"),
    (lambda: rf.yang([1.0], [1.0, 0.0], lengths=1, population_lengths=2, measure="rND", step=0),
     "'step' parameter of rankfair.yang must be an integer >= 1"),
    (lambda: rf.yang([1.0], [1.0, 0.0], lengths=1, population_lengths=2, measure="rND",
                     discount="book"),
     "'discount' parameter of rankfair.yang must be one of 'code', 'paper'"),
    (lambda: rf.yang([1.0], [1.0, 0.0], lengths=1, population_lengths=2, measure="rND", step=1,
                     discount="paper"),
     "'step' parameter of rankfair.yang must be at least 2 with discount='paper'"),
    (lambda: rf.yang([1.0], [1.0, 0.0], lengths=1, population_lengths=2, measure="rND",
                     normalize=1),
     "'normalize' parameter of rankfair.yang must be True or False. Got 1 instead."),
    (lambda: rf.fair([1, 0.5], 0.5, lengths=2),
     "'protected' parameter of rankfair.fair must hold 0 or 1 within the lengths (hard "
     "groups). Got 0.5 at index (1,) instead."),
    (lambda: rf.fair([1, 0], 1.5, lengths=2),
     "'p' parameter of rankfair.fair must hold numbers in [0, 1]. Got 1.5"),
    (lambda: rf.iaa([0.5, -0.1], lengths=2),
     "'relevance' parameter of rankfair.iaa must hold numbers in [0, 1] within the lengths"),
    (lambda: rf.iaa(["a"], lengths=1),
     "'relevance' parameter of rankfair.iaa must be an array of numbers"),
    (lambda: rf.expected_exposure([[0, 3]], [1, 0], n_samples=1, lengths=[2]),
     "'doc_index' parameter of rankfair.expected_exposure must hold slots in 0..1 within the "
     "lengths. Got 3 at index (0, 1) instead."),
    (lambda: rf.expected_exposure([[0, 0]], [1, 0], n_samples=1, lengths=[2]),
     "'doc_index' parameter of rankfair.expected_exposure must give each slot at most once "
     "per sample (a doc is ranked once). Got slot 0 twice in sample (0,) instead."),
    (lambda: rf.expected_exposure([[0, 1]], [1, -2], n_samples=1, lengths=[2]),
     "'levels' parameter of rankfair.expected_exposure must hold integers in -1..100"),
    (lambda: rf.expected_exposure([[0, 1]], [[1, 0]], n_samples=1, lengths=[2]),
     "'levels' parameter of rankfair.expected_exposure must have shape () + (D,)"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=2, lengths=[2]),
     "'n_samples' parameter of rankfair.expected_exposure must hold integers in 0..1"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[3]),
     "'lengths' parameter of rankfair.expected_exposure must hold integers in 0..2"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2], model="dcg"),
     "'model' parameter of rankfair.expected_exposure must be one of 'gerr', 'rbp'"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2], stop=1.0),
     "'stop' parameter of rankfair.expected_exposure must be a number in (0, 1)"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2], patience=0.0),
     "'patience' parameter of rankfair.expected_exposure must be a number in (0, 1)"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2], complete="yes"),
     "'complete' parameter of rankfair.expected_exposure must be True or False"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2],
                                  memberships=[[0.5, 0.4], [0, 0]]),
     "'memberships' parameter of rankfair.expected_exposure must sum to 1"),
    (lambda: rf.expected_exposure([[0, 1]], [1, 0], n_samples=1, lengths=[2],
                                  memberships=[[1, 0]]),
     "'memberships' parameter of rankfair.expected_exposure must have shape (2,) + (G,)"),
]  # fmt: skip


@pytest.mark.parametrize(
    "call, message", BAD, ids=[m.split("'")[1] + str(i) for i, (_, m) in enumerate(BAD)]
)
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert message in str(info.value)


def test_a_membership_row_of_a_non_target_doc_is_not_read():
    """Only target docs carry exposure to groups: other rows may hold anything."""
    a = rf.expected_exposure(
        [[0, 1]], [1, -1], n_samples=1, lengths=[2], memberships=[[1.0, 0.0], [np.nan, 7.0]]
    )
    b = rf.expected_exposure(
        [[0, 1]], [1, -1], n_samples=1, lengths=[2], memberships=[[1.0, 0.0], [0.0, 0.0]]
    )
    for key in a:
        assert float(a[key]) == float(b[key])
