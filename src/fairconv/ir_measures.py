"""GFR as an ir_measures measure, beside nDCG and friends (the ``ir_measures`` extra).

ir_measures names a measure by text (``GFR(spec='fw1')@10``), so the attribute sets a
GFR needs (memberships and targets) are registered once under a name, the *spec*; this
registry is the one piece of global state fairconv keeps, because ir_measures' design
requires it. Importing this module registers the measure ``GFR`` and the provider
``fairconv`` with ir_measures::

    import ir_measures
    from fairconv import ir_measures as fc
    from fairconv.io import load_attribute

    fc.register_spec("fw1", [load_attribute("M-ORIGIN", gmemb, target, "nominal")])
    ir_measures.calc_aggregate([ir_measures.nDCG @ 10, fc.GFR(spec="fw1") @ 10], qrels, run)

Runs are ranked by score with ties by doc id descending, as ir_measures ranks them,
which is ``order="score"`` in :func:`fairconv.gfr.evaluate` (``--order score``).
Only the topics of the qrels are scored, as the other providers do.

The other way round, :func:`from_ir_measures` turns ``ir_measures.iter_calc`` results
into a :class:`~fairconv.results.ScoreTable`, to join with fairconv's tables::

    results = ir_measures.iter_calc([ir_measures.nDCG @ 10], qrels, run)
    both = gfr_table.join(fc.from_ir_measures(results, name="bm25"))

or several runs at once, ``fc.from_ir_measures({"bm25": results, "qld": other})``.
"""

from __future__ import annotations

from collections.abc import Sequence

try:
    import ir_measures as _irm
    from ir_measures import measures as _measures
    from ir_measures import providers as _providers
except ImportError:  # pragma: no cover - the extra is not installed
    raise ImportError(
        "fairconv.ir_measures needs ir_measures: pip install 'fairconv[ir-measures]'"
    ) from None

from ._validation import (
    check_sequence_of,
    check_unique_names,
    fail,
    fail_type,
    id_fault,
    kind_of,
    public,
)
from .io import AttributeData
from .io._scores import from_ir_measures

__all__ = ["GFR", "register_spec", "specs", "FairconvProvider", "from_ir_measures"]

_SPECS: dict[str, tuple[AttributeData, ...]] = {}


@public
def register_spec(name: str, attributes: Sequence[AttributeData] | AttributeData, /) -> None:
    """Register attribute sets (what :func:`fairconv.io.load_attribute` returns) as a spec.

    Parameters
    ----------
    name : str
        The spec's name, as ``GFR(spec=NAME)`` gives it; registering a name again
        replaces its sets.
    attributes : AttributeData or sequence of AttributeData
        The attribute sets GFR combines with ERR, equal weights.

    Raises
    ------
    ValueError, TypeError
        For a name with whitespace, or attributes that are not AttributeData with
        distinct names.
    """
    if not isinstance(name, str):
        raise fail_type("name", "be a str", kind_of(name))
    fault = id_fault(name)
    if fault is not None:
        raise fail("name", fault, repr(name))
    sets = [attributes] if isinstance(attributes, AttributeData) else attributes
    sets = check_sequence_of(sets, AttributeData, "attributes", min_len=1)
    check_unique_names([a.attribute.name for a in sets], "attributes")
    _SPECS[name] = tuple(sets)


@public
def specs() -> tuple[str, ...]:
    """The names of the registered specs.

    Returns
    -------
    tuple of str
        The names given to :func:`register_spec`, in order of registration.
    """
    return tuple(_SPECS)


class _GFR(_measures.Measure):
    """GFR (Sakai, Kim and Kang, TOIS 2023): ERR and group fairness of a ranked list."""

    __name__ = "GFR"
    NAME = "GFR"
    PRETTY_NAME = "Group Fairness and Relevance"
    SHORT_DESC = "ERR and the GF of each attribute set of a registered spec, equal weights."
    SUPPORTED_PARAMS = {
        "cutoff": _measures.ParamInfo(dtype=int, required=False, desc="ranking cutoff"),
        "spec": _measures.ParamInfo(
            dtype=str, required=True, desc="the attribute sets (fairconv.ir_measures.register_spec)"
        ),
    }


GFR = _GFR()
"""The GFR measure: ``GFR(spec="NAME") @ 10``."""

if "GFR" not in _measures.registry:
    _measures.register(GFR)


class _Evaluator(_providers.Evaluator):
    def __init__(self, measures, qrels: dict):
        from .io import as_qrels

        super().__init__(measures, set(qrels))
        self._qrels = as_qrels(qrels)

    def _iter_calc(self, run):
        from . import gfr
        from .io import as_run

        as_dict = _irm.util.RunConverter(run).as_dict_of_dict()
        ranked = as_run(as_dict, name="run")
        for measure in self.measures:
            spec = measure["spec"]
            if spec not in _SPECS:
                known = ", ".join(_SPECS) or "none"
                raise ValueError(
                    f"GFR(spec={spec!r}): no such spec; register it with "
                    f"fairconv.ir_measures.register_spec (registered: {known})"
                )
            cutoff = measure.params.get("cutoff")
            name = "GFR" if cutoff is None else f"GFR@{cutoff}"
            table = gfr.evaluate(
                self._qrels,
                [ranked],
                _SPECS[spec],
                cutoffs=[] if cutoff is None else [cutoff],
                order="score",
            )[name]
            for t, topic in enumerate(table.topics):
                if topic in self.qrel_qids:
                    yield _irm.Metric(
                        query_id=topic, measure=measure, value=float(table.values[t, 0, 0])
                    )


class FairconvProvider(_providers.Provider):
    """The ir_measures provider of fairconv's measures (GFR)."""

    NAME = "fairconv"
    SUPPORTED_MEASURES = [
        _GFR(cutoff=_measures.base._NOT_PROVIDED, spec=_measures.base._NOT_PROVIDED)
    ]

    @public
    def supports(self, measure, /) -> bool:
        """Whether this provider computes ``measure`` (any GFR).

        Parameters
        ----------
        measure : ir_measures measure
            A measure object (``GFR(spec="fairweb")@10``).

        Returns
        -------
        bool
            True for a GFR measure.
        """
        return isinstance(measure, _GFR)

    def _evaluator(self, measures, qrels):
        qrels = _irm.util.QrelsConverter(qrels).as_dict_of_dict()
        return _Evaluator(list(measures), qrels)


_PROVIDER = FairconvProvider()
if FairconvProvider.NAME not in _providers.registry:
    _providers.register(_PROVIDER)
if not any(isinstance(p, FairconvProvider) for p in _irm.DefaultPipeline.providers):
    _irm.DefaultPipeline.providers.insert(0, _PROVIDER)
