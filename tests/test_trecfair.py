"""TREC Fair measures: the loop oracle, properties, batching and bad input (trecfair.md)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import trecfair_oracle as oracle
from fairconv import trecfair as tf
from fairconv._core import _trecfair as _core_trecfair
from fairconv._validation import FairconvWarning

SEEDS = st.integers(0, 2**32 - 1)
CONFIGS = [(task, edition) for task in (1, 2) for edition in (2022, 2021)]


def _targets(case, arr, *, quiet=True):
    if "targets" in arr and all(t["target"] is not None for t in case["topics"]):
        return arr["targets"]
    b = arr["build"]
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore", FairconvWarning)
        return tf.targets_from_alignments(
            b["alignments"],
            lengths=b["lengths"],
            task=case["task"],
            edition=case["edition"],
            known=b["known"],
            levels=b["levels"],
            backgrounds=b["backgrounds"],
        )


def _score(case, arr, targets=None, sl=slice(None)):
    targets = _targets(case, arr) if targets is None else targets
    if case["task"] == 1:
        return tf.task1(
            arr["relevant"][sl],
            [a[sl] for a in arr["alignments"]],
            targets,
            known=arr["known"][sl],
            lengths=arr["lengths"][sl],
            n_relevant=arr["n_relevant"][sl],
            edition=case["edition"],
        )
    return tf.task2(
        arr["relevant"][sl],
        [a[sl] for a in arr["alignments"]],
        targets,
        known=arr["known"][sl],
        lengths=arr["lengths"][sl],
        edition=case["edition"],
    )


def _close(got, want, rtol=1e-12, atol=0.0):
    got, want = float(got), float(want)
    if math.isnan(want):
        return math.isnan(got)
    return abs(got - want) <= atol + rtol * abs(want)


# --------------------------------------------------------------------------- oracle
@pytest.mark.parametrize("explicit", [True, False], ids=["explicit", "built"])
@pytest.mark.parametrize(("task", "edition"), CONFIGS)
@pytest.mark.parametrize("m", [1, 2, 3])
def test_agrees_with_the_loop_oracle(task, edition, explicit, m):
    """Spec 3, 4, 6: every per-topic value within 1e-12 relative of the plain loops.

    Random cases hold multi-hot, fractional, dense and all-zero rows, unknown-only rows,
    unlisted pages (ranked and relevant), empty rankings and padding rankings.
    """
    rng = np.random.default_rng([task, edition, explicit, m])
    for _ in range(25):
        case = oracle.random_case(rng, task=task, edition=edition, explicit=explicit, m=m)
        want = oracle.score_case(case)
        got = _score(case, oracle.case_arrays(case))
        for i, row in enumerate(want):
            for name, value in row.items():
                assert _close(got[name][i], value), (name, i, got[name][i], value)


@pytest.mark.parametrize(("task", "edition"), CONFIGS)
def test_built_targets_equal_the_oracle(task, edition):
    """Spec 6: the factored targets, materialised, are the oracle's cell by cell."""
    rng = np.random.default_rng([task, edition, 6])
    for _ in range(20):
        case = oracle.random_case(rng, task=task, edition=edition, explicit=False)
        dense = _targets(case, oracle.case_arrays(case)).toarray()
        for i, topic in enumerate(case["topics"]):
            want = oracle.target_of(case, topic)
            got = dense[i].reshape(-1)
            if want is None:
                assert np.isnan(got).all()
                continue
            expected = np.array([want[c] for c in oracle.cells(case["sizes"])])
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_constants_and_discount():
    """Spec 2: float32 discounts; Z_20 and Z_50 are numpy's float32 sums."""
    d = tf.discount(50)
    assert d[0] == d[1] == 1.0
    assert d[2] == 0.6309297680854797  # float32, not 0.6309297535714575
    assert tf.Z_20 == 7.812597751617432 == tf.exposure_of_ranking(20)
    assert tf.Z_50 == 13.721441268920898 == tf.exposure_of_ranking(50)
    assert d.tolist() == [oracle.delta(k) for k in range(1, 51)]
    assert tf.discount(0).shape == (0,)


def test_page_weights_spread_ideal_positions_by_work_level():
    """Spec 6.1: a level takes the next ideal positions, its pages share their mean."""
    w = tf.page_weights([[5, 0, 2, 0, -1]], lengths=[4])
    d = tf.discount(4)
    assert w[0, 1] == w[0, 3] == pytest.approx((d[0] + d[1]) / 2, rel=1e-15)
    assert w[0, 2] == d[2] and w[0, 0] == d[3] and w[0, 4] == 0.0
    # 2021 leaves a page without a level out of the positions; 2022 refuses it
    w = tf.page_weights([[-1, 3]], lengths=[2], edition=2021)
    assert w.tolist() == [[0.0, 1.0]]
    with pytest.raises(ValueError, match="every relevant page a level"):
        tf.page_weights([[-1, 3]], lengths=[2])


# --------------------------------------------------------------------------- properties
@given(seed=SEEDS, task_edition=st.sampled_from(CONFIGS[:2] + CONFIGS[2:]))
def test_awrf_in_its_range(seed, task_edition):
    """Spec 3: JS in nats is in [0, ln 2], so AWRF is in [1 - ln 2, 1]."""
    _, edition = task_edition
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=1, edition=edition, explicit=bool(seed % 2))
    awrf = _score(case, oracle.case_arrays(case))["AWRF"]
    ok = awrf[~np.isnan(awrf)]
    assert ((ok >= 1 - math.log(2) - 1e-15) & (ok <= 1 + 1e-15)).all()


@given(seed=SEEDS, edition=st.sampled_from([2022, 2021]), scale=st.floats(0.01, 100))
def test_awrf_is_one_when_exposure_points_like_the_target(seed, edition, scale):
    """Spec 3: only the direction of E and tau counts; AWRF = 1 when they are parallel."""
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=1, edition=edition, explicit=True, n_topics=1)
    topic = case["topics"][0]
    if not topic["ranking"]:
        topic["ranking"] = [0]
    sizes, table = case["sizes"], case["table"]
    exposure = dict.fromkeys(oracle.cells(sizes), 0.0)
    for k, d in enumerate(topic["ranking"], 1):
        if d in table:
            for c, v in oracle.outer(table[d], sizes).items():
                exposure[c] += oracle.delta(k) * v
    target = np.array([exposure[c] for c in oracle.cells(sizes)]) * scale
    if edition == 2021:
        target[0] = 0.0
    if not target.sum() > 0:
        return  # nothing exposed: AWRF is NaN (2022) or the uniform fallback (2021)
    topic["target"] = list(target)
    got = _score(case, oracle.case_arrays(case))["AWRF"][0]
    assert got == pytest.approx(1.0, abs=1e-12)


@given(seed=SEEDS, edition=st.sampled_from([2022, 2021]), explicit=st.booleans())
def test_expected_exposure_identities(seed, edition, explicit):
    """Spec 4: EE-D, EE-R, EE-L >= 0 and EE-L = EE-D - 2 EE-R + |eps*|^2."""
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=2, edition=edition, explicit=explicit)
    arr = oracle.case_arrays(case)
    targets = _targets(case, arr)
    got = _score(case, arr, targets)
    dense = targets if explicit else targets.toarray()
    z = tf.Z_20 if edition == 2022 else tf.Z_50
    star = (z * dense.reshape(dense.shape[0], -1) ** 2).sum(axis=1) * z
    for i in range(dense.shape[0]):
        if math.isnan(got["EE-L"][i]):
            continue
        assert got["EE-D"][i] >= 0 and got["EE-R"][i] >= 0 and got["EE-L"][i] >= 0
        identity = got["EE-D"][i] - 2 * got["EE-R"][i] + star[i]
        assert got["EE-L"][i] == pytest.approx(identity, rel=1e-9, abs=1e-9)


@given(seed=SEEDS, config=st.sampled_from(CONFIGS), explicit=st.booleans(), data=st.data())
def test_permuting_categories_changes_nothing(seed, config, explicit, data):
    """Spec 1: groups are nominal; permuting one dimension's known categories consistently
    (rows, targets, backgrounds) leaves every value unchanged."""
    task, edition = config
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
    arr = oracle.case_arrays(case)
    base = _score(case, arr)
    sizes = case["sizes"]
    j = data.draw(st.integers(0, len(sizes) - 1))
    perm = np.concatenate(([0], 1 + np.array(data.draw(st.permutations(range(sizes[j] - 1))))))
    arr["alignments"][j] = arr["alignments"][j][..., perm]
    arr["build"]["alignments"][j] = arr["build"]["alignments"][j][..., perm]
    if "targets" in arr:
        arr["targets"] = np.take(arr["targets"], perm, axis=1 + j)
    if case["backgrounds"] and case["backgrounds"][j] is not None:
        case["backgrounds"] = list(case["backgrounds"])
        case["backgrounds"][j] = list(np.asarray(case["backgrounds"][j])[perm[1:] - 1])
        arr["build"]["backgrounds"] = case["backgrounds"]
    if explicit:
        for i, t in enumerate(case["topics"]):
            t["target"] = list(arr["targets"][i].reshape(-1))
    moved = _score(case, arr)
    for name in base:
        np.testing.assert_allclose(moved[name], base[name], rtol=1e-12, atol=1e-14)


@given(seed=SEEDS, config=st.sampled_from(CONFIGS), explicit=st.booleans())
def test_batched_call_equals_a_loop_over_topics(seed, config, explicit):
    """One call over all topics gives what one call per topic gives."""
    task, edition = config
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
    arr = oracle.case_arrays(case)
    targets = _targets(case, arr)
    dense = targets if explicit else targets.toarray()
    defined = ~np.isnan(dense.reshape(dense.shape[0], -1)).any(axis=1)
    dense = np.where(np.isnan(dense), 1.0, dense)  # an undefined target has no dense form
    if (task, edition) == (1, 2021):
        dense.reshape(dense.shape[0], -1)[:, 0] = 0.0  # the all-unknown cell stays 0
    together = _score(case, arr, dense)
    for i in range(len(case["topics"])):
        alone = _score(case, arr, dense[i : i + 1], slice(i, i + 1))
        for name in together:
            np.testing.assert_allclose(alone[name][0], together[name][i], rtol=1e-13)
    built = _score(case, arr)  # factored targets give the dense ones' values
    for name in together:
        np.testing.assert_allclose(
            built[name][defined], together[name][defined], rtol=1e-12, atol=1e-14
        )


def test_topics_by_runs_broadcast_one_target_per_topic():
    """Axis order (topics, runs, K): targets of shape (topics, 1, ...) serve every run."""
    rng = np.random.default_rng(7)
    sizes = (3, 2)
    T, R, K = 4, 3, 6
    align = [rng.random((T, R, K, g)) * (rng.random((T, R, K, g)) < 0.6) for g in sizes]
    rel = rng.random((T, R, K)) < 0.5
    known = rng.random((T, R, K)) < 0.8
    lengths = rng.integers(0, K + 1, (T, R))
    tau = rng.dirichlet(np.ones(6), T).reshape(T, 1, *sizes)
    nrel = np.full((T, R), 3)
    out = tf.task1(rel, align, tau, known=known, lengths=lengths, n_relevant=nrel)
    assert out["AWRF"].shape == (T, R)
    for r in range(R):
        one = tf.task1(
            rel[:, r],
            [a[:, r] for a in align],
            tau[:, 0],
            known=known[:, r],
            lengths=lengths[:, r],
            n_relevant=nrel[:, r],
        )
        for name in out:
            np.testing.assert_allclose(out[name][:, r], one[name], rtol=1e-13)
    eps = tf.task2(
        rel[..., None, :],
        [a[..., None, :, :] for a in align],
        tau,
        known=known[..., None, :],
        lengths=lengths[..., None],
        edition=2021,
    )
    assert eps["EE-L"].shape == (T, R)


def test_built_targets_keep_each_blocks_mass():
    """Spec 6.3: mixing moves mass only within a block, so T* sums to what T sums to."""
    rng = np.random.default_rng(3)
    sizes = (3, 4, 2)
    rows = [rng.random((5, 6, g)) * (rng.random((5, 6, g)) < 0.5) for g in sizes]
    for a in rows:
        a[..., 0] += 0.01  # every page has some mass in every dimension
    plain = tf.targets_from_alignments(rows, lengths=[6, 5, 4, 3, 2], task=1)
    mixed = tf.targets_from_alignments(
        rows, lengths=[6, 5, 4, 3, 2], task=1, backgrounds=[[0.5, 0.5], None, [1.0]]
    )
    np.testing.assert_allclose(mixed.total, plain.total, rtol=1e-13)
    np.testing.assert_allclose(mixed.toarray().sum(axis=(1, 2, 3)), mixed.total, rtol=1e-13)
    assert (mixed.toarray() >= 0).all()


def test_undefined_target_is_nan_with_a_warning():
    """Spec 6.2: 2021 Task 1 with only fully unknown relevant pages: the target is NaN."""
    rows = [np.array([[[1.0, 0.0], [1.0, 0.0]]]), np.array([[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]])]
    with pytest.warns(FairconvWarning, match=r"index \(0,\)"):
        t = tf.targets_from_alignments(rows, lengths=[2], task=1, edition=2021)
    assert np.isnan(t.total).all() and not t.defined.any()
    out = tf.task1(
        [[True]],
        [r[:, :1] for r in rows],
        t,
        known=[[True]],
        lengths=[1],
        n_relevant=[2],
        edition=2021,
    )
    assert np.isnan(out["AWRF"][0]) and np.isnan(out["nDCG*AWRF"][0]) and out["nDCG"][0] == 0.5


@given(
    seed=SEEDS,
    config=st.sampled_from(CONFIGS),
    explicit=st.booleans(),
    exponent=st.integers(100, 307),
)
def test_large_alignment_values_give_nan_with_a_notice_never_inf_or_a_numpy_warning(
    seed, config, explicit, exponent
):
    """Issue 33's decision: where the arithmetic overflows the value is NaN with a
    notice naming it, never inf, and numpy gives no RuntimeWarning. Below overflow the
    measures of renormalised quantities (AWRF, built targets) do not depend on the
    scale of the alignment rows."""
    task, edition = config
    rng = np.random.default_rng(seed)
    case = oracle.random_case(rng, task=task, edition=edition, explicit=explicit)
    arr = oracle.case_arrays(case)
    base = _score(case, arr)
    scale = 10.0**exponent
    arr["alignments"] = [a * scale for a in arr["alignments"]]
    arr["build"]["alignments"] = [a * scale for a in arr["build"]["alignments"]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _score(case, arr, _targets(case, arr, quiet=False))
    assert not [w for w in caught if not issubclass(w.category, FairconvWarning)]
    said = " | ".join(str(w.message) for w in caught)
    for name, values in got.items():
        assert not np.isinf(values).any(), name
        for i in np.flatnonzero(np.isnan(values) & ~np.isnan(base[name])).tolist():
            # NaN from overflow: said for this measure and index, or for the target
            assert f"{name.split('*')[-1]} is NaN at index" in said or (
                f"({i},)" in said and "sums beyond float64" in said
            ), (name, i, said)
    if task == 1:
        both = ~np.isnan(got["AWRF"]) & ~np.isnan(base["AWRF"])
        np.testing.assert_allclose(got["AWRF"][both], base["AWRF"][both], rtol=1e-9)
        assert np.array_equal(got["nDCG"], base["nDCG"])


def test_sparse_products_work_in_blocks(monkeypatch):
    """Topics are processed in blocks of bounded size; the values do not depend on it."""
    rng = np.random.default_rng(11)
    case = oracle.random_case(rng, task=1, edition=2022, explicit=True, m=3, n_topics=6)
    arr = oracle.case_arrays(case)
    whole = _score(case, arr)
    monkeypatch.setattr(_core_trecfair, "CELL_BLOCK", 1)
    one_by_one = _score(case, arr)
    for name in whole:
        np.testing.assert_allclose(one_by_one[name], whole[name], rtol=1e-14)


# --------------------------------------------------------------------------- bad input
def _t1(**over):
    args = dict(
        relevant=np.array([[True, False]]),
        alignments=[np.array([[[0.0, 1.0], [1.0, 0.0]]])],
        targets=np.array([[0.5, 0.5]]),
        known=np.array([[True, True]]),
        lengths=np.array([2]),
        n_relevant=np.array([1]),
    )
    args.update(over)
    pos = [args.pop(k) for k in ("relevant", "alignments", "targets")]
    return tf.task1(*pos, **args)


def _t2(**over):
    args = dict(
        relevant=np.array([[[True, False]]]),
        alignments=[np.array([[[[0.0, 1.0], [1.0, 0.0]]]])],
        targets=np.array([[0.5, 0.5]]),
        known=np.array([[[True, True]]]),
        lengths=np.array([[2]]),
    )
    args.update(over)
    pos = [args.pop(k) for k in ("relevant", "alignments", "targets")]
    return tf.task2(*pos, **args)


@pytest.mark.parametrize(
    ("over", "error", "match"),
    [
        (
            {"lengths": np.array([3])},
            ValueError,
            r"'lengths' parameter of trecfair.task1 must hold integers in 0\.\.2\. Got 3 at index "
            r"\(0,\)",
        ),
        ({"target_len": 1}, ValueError, "at most the target length 1. Got 2"),
        ({"n_relevant": np.array([0])}, ValueError, "needs a relevant page"),
        ({"relevant": np.array([[1, 0]])}, TypeError, "array of booleans"),
        ({"known": np.array([[True] * 3])}, ValueError, r"'known' .* to \(1, 2\) .* \(1, 3\)"),
        ({"alignments": [np.array([[[0.0, -1.0], [1.0, 0.0]]])]}, ValueError, "non-negative"),
        ({"alignments": [np.array([[[0.0, np.nan], [1.0, 0.0]]])]}, ValueError, "finite"),
        ({"alignments": np.zeros((1, 2, 2))}, TypeError, "sequence with one entry per dimension"),
        ({"alignments": []}, ValueError, "at least one dimension"),
        ({"targets": np.array([[0.5, 0.5, 0.0]])}, ValueError, r"cell shape \(2,\)"),
        ({"targets": np.array([[0.0, 0.0]])}, ValueError, "positive sum"),
        ({"targets": np.array([[-0.5, 1.5]])}, ValueError, "non-negative"),
        ({"targets": np.ones((3, 2))}, ValueError, r"broadcasts to \(1,\)"),
        ({"edition": 2020}, ValueError, "2021 or 2022"),
        ({"edition": 2021.0}, ValueError, "2021 or 2022. Got 2021.0"),  # an integer, not 2021.0
        ({"edition": True}, ValueError, "2021 or 2022. Got True"),
        ({"target_len": 2.5}, ValueError, "an integer"),
        ({"edition": 2021, "targets": np.array([[0.5, 0.5]])}, ValueError, "all-unknown cell"),
        (
            {"edition": 2021, "alignments": [np.ones((1, 2, 1))], "targets": np.ones((1, 1))},
            ValueError,
            "unknown category 0",
        ),
    ],
)
def test_task1_bad_input(over, error, match):
    with pytest.raises(error, match=match):
        _t1(**over)


def test_unknown_rows_and_padding_are_neither_checked_nor_used():
    """Rows of unlisted pages and of positions past the length may hold anything."""
    junk = np.array([[[np.nan, -1.0], [1.0, 0.0], [np.inf, np.inf]]])
    out = _t1(
        relevant=np.array([[False, True, False]]),
        alignments=[junk],
        known=np.array([[False, True, True]]),
        lengths=np.array([2]),
    )
    # E = (1, 0) from the page at rank 2 alone, against (1/2, 1/2)
    want = 1 - 1.5 * math.log(2) + 0.75 * math.log(3)
    assert out["AWRF"][0] == pytest.approx(want, rel=1e-15)
    assert out["nDCG"][0] == 1.0


@pytest.mark.parametrize(
    ("over", "match"),
    [
        ({"known": np.array([[[False, True]]])}, "every retrieved relevant page"),
        ({"lengths": np.array([[3]])}, r"must hold integers in 0\.\.2\. Got 3 at index \(0, 0\)"),
        ({"relevant": np.array([True, False])}, "a ranking and a rank axis"),
        ({"targets": np.array([[[0.5, 0.5]]])}, "broadcasts"),
    ],
)
def test_task2_bad_input(over, match):
    with pytest.raises(ValueError, match=match):
        _t2(**over)


def test_task2_edge_values():
    """Spec 4: padding rankings do not count; no ranking: NaN; no relevant page: eps = 0."""
    two = _t2(
        relevant=np.array([[[True, False], [False, False]]]),
        alignments=[np.array([[[[0.0, 1.0], [1.0, 0.0]], [[9.0, 9.0], [9.0, 9.0]]]])],
        known=np.array([[[True, True], [True, True]]]),
        lengths=np.array([[2, 0]]),
    )
    one = _t2()
    for name in one:
        assert two[name][0] == one[name][0]
    none = _t2(lengths=np.array([[0]]))
    assert all(np.isnan(v[0]) for v in none.values())
    zero = _t2(relevant=np.array([[[False, False]]]))
    assert zero["EE-D"][0] == 0 and zero["EE-R"][0] == 0
    assert zero["EE-L"][0] == pytest.approx(tf.Z_20**2 * 0.5, rel=1e-15)


@pytest.mark.parametrize(
    ("over", "match"),
    [
        ({"task": 3}, "be 1 or 2"),
        ({"task": 1.0}, r"be 1 or 2. Got 1.0"),  # an integer, as the official code's argument
        ({"task": np.bool_(True)}, r"be 1 or 2\. Got True "),
        ({"lengths": [0]}, "needs a relevant page"),
        ({"known": [[False]]}, r"every relevant page \(2022\)"),
        ({"task": 2}, "given for Task 2"),
        ({"task": 2, "levels": [[6]]}, "work level code"),
        ({"backgrounds": [[0.5]]}, "one weight per known category"),
        ({"backgrounds": [[0.5, 0.4]]}, "sum to 1"),
        ({"backgrounds": [[1.5, -0.5]]}, "non-negative"),
        ({"backgrounds": [None, None]}, "one entry per dimension"),
    ],
)
def test_targets_bad_input(over, match):
    args = dict(lengths=[1], task=1)
    args.update(over)
    with pytest.raises(ValueError, match=match):
        tf.targets_from_alignments([[[[0.0, 1.0, 0.0]]]], **args)
