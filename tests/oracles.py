"""Plain-loop implementations written straight from the formulas and the file rules.

Slow on purpose: the vectorised code must agree with them on random inputs. The
measures follow the papers' equations; the text readers follow docs/formats.md line by
line, one token at a time (the library reads the same files as array work over their
bytes, and must give the same values and the same messages).
"""

import gzip
import math
import re

import numpy as np


def jsd(p, q):
    m = [(a + b) / 2 for a, b in zip(p, q, strict=False)]
    kl = lambda x, y: sum(a * math.log2(a / b) for a, b in zip(x, y, strict=False) if a > 0)  # noqa: E731
    return max(0.0, (kl(p, m) + kl(q, m)) / 2)


def nmd(p, q):
    total, cp, cq = 0.0, 0.0, 0.0
    for a, b in zip(p, q, strict=False):
        cp += a
        cq += b
        total += abs(cp - cq)
    return total / (len(p) - 1)


def rnod(p, q):
    g = len(p)
    dws = []
    for i in range(g):
        if q[i] > 0:
            dws.append(sum(abs(i - j) * (p[j] - q[j]) ** 2 for j in range(g)))
    return math.sqrt(sum(dws) / len(dws) / (g - 1))


DIVERGENCES = {"JSD": jsd, "NMD": nmd, "RNOD": rnod}


def sim(p, q, divergence):
    return 1.0 - DIVERGENCES[divergence](p, q)


def gfr_topic(
    ranked,
    levels,
    memberships,
    targets,
    divergences,
    gains=(1, 3),
    phi=0.99,
    cutoff=None,
    listed_nonrelevant=(),
):
    """ERR, iRBU and one GF per attribute set for one ranked list, from the formulas.

    ranked: doc ids in rank order; levels: {doc: level}; memberships: list of
    {doc: vector} per set; a nonrelevant, unjudged or unlisted doc counts as uniform,
    except the judged-nonrelevant docs in ``listed_nonrelevant``, which keep their
    listed vector (the organisers' tool).
    """
    top = gains[-1] + 1.0
    survive, err, irbu = 1.0, 0.0, 0.0
    gf = [0.0] * len(targets)
    sums = [[0.0] * len(t) for t in targets]
    docs = ranked if cutoff is None else ranked[:cutoff]
    for k, doc in enumerate(docs, start=1):
        level = levels.get(doc, 0)
        p = 0.0 if level == 0 else gains[level - 1] / top
        decay = p * survive
        survive *= 1.0 - p
        err += decay / k
        irbu += decay * phi**k
        for m, target in enumerate(targets):
            g = len(target)
            own = level > 0 or doc in listed_nonrelevant
            vec = memberships[m].get(doc) if own else None
            if vec is None:
                vec = [1.0 / g] * g
            for i in range(g):
                sums[m][i] += vec[i]
            achieved = [x / k for x in sums[m]]
            gf[m] += decay * sim(achieved, target, divergences[m])
    return err, irbu, gf


def _dedupe(nuggets, dedupe):
    """Levels after crediting each entity once (nuggets in position order)."""
    seen, levels = set(), []
    for n in nuggets:
        level = n.get("level", 0) or 0
        key = n.get("entity")
        if dedupe and level > 0 and key is not None:
            if key in seen:
                level = 0
            seen.add(key)
        levels.append(level)
    return levels


def gfrc(
    nuggets,
    system_turns,
    sets,
    *,
    L,
    variant,
    gain,
    lmax,
    method,
    empty,
    weights=None,
    dedupe=True,
):
    """R, {set: GF}, GF, GFRC of one conversation, straight from the formulas.

    nuggets: dicts with start, end, level, entity, groups, turn (1-based system turn);
    sets: list of (name, target, divergence); system_turns: count or None.
    """
    nuggets = sorted(nuggets, key=lambda n: n["start"])
    levels = _dedupe(nuggets, dedupe)
    big_n = (L - 1) / 2 if variant == "eq9" else (L + 1) / 2
    r = 0.0
    for n, level in zip(nuggets, levels, strict=False):
        if level > 0:
            wc = n["end"]
            pw = max(0.0, 1 - (wc - 1) / L) if variant == "eq6" else max(0.0, 1 - wc / L)
            g = (2**level - 1) / 2**lmax if gain == "exp" else level / lmax
            r += pw * g
    r /= big_n
    gf = {}
    for name, target, divergence in sets:
        sims, so_far = [], []
        turns = sorted({n["turn"] for n, lv in zip(nuggets, levels, strict=False) if lv > 0})
        for t in turns:
            in_turn = [
                n["groups"][name]
                for n, lv in zip(nuggets, levels, strict=False)
                if lv > 0 and n["turn"] == t
            ]
            so_far += in_turn
            vecs = in_turn if method == "independent" else so_far
            achieved = [sum(v[i] for v in vecs) / len(vecs) for i in range(len(target))]
            sims.append(sim(achieved, target, divergence))
        if empty == "uniform":
            g = len(target)
            sims += [sim([1 / g] * g, target, divergence)] * (system_turns - len(turns))
        gf[name] = sum(sims) / len(sims) if sims else 0.0
    m = len(sets)
    w = weights or [1 / (m + 1)] * (m + 1)  # w_0 for R, then one per set
    total = sum(wi * gf[name] for wi, (name, _, _) in zip(w[1:], sets, strict=False)) / sum(w[1:])
    score = w[0] * r + sum(wi * gf[name] for wi, (name, _, _) in zip(w[1:], sets, strict=False))
    return r, gf, total, score


def gfrc2(nuggets, sets, *, L=1000, weights=None, dedupe=True):
    """Per-cluster rows and (EGNP, {set: EGF}, GFRC2) of one conversation, word by word."""
    nuggets = sorted(nuggets, key=lambda n: n["start"])
    levels = _dedupe(nuggets, dedupe)
    relevant = [(n, lv) for n, lv in zip(nuggets, levels, strict=False) if lv > 0]
    m = len(sets)
    w = weights or [1 / (m + 1)] * (m + 1)
    rows, egnp, egf, total = [], 0.0, {s[0]: 0.0 for s in sets}, 0.0
    for k, (n, _) in enumerate(relevant):
        wc = n["end"]
        level_of_word = {}
        for other, lv in relevant[: k + 1]:
            for word in range(other["start"], other["end"] + 1):
                level_of_word[word] = lv
        gwc = sum(level_of_word.get(word, 0) for word in range(1, wc + 1))
        nonrel = sum(1 for word in range(1, wc + 1) if word not in level_of_word)
        gnp = gwc / (nonrel + gwc)
        experience = w[0] * gnp
        sims = {}
        for i, (name, target, divergence) in enumerate(sets):
            vecs = [o["groups"][name] for o, _ in relevant[: k + 1]]
            achieved = [sum(v[j] for v in vecs) / len(vecs) for j in range(len(target))]
            sims[name] = sim(achieved, target, divergence)
            experience += w[i + 1] * sims[name]
        prob = 1 / L if wc <= L else 0.0
        rows.append((wc, gwc, nonrel, gnp, sims, experience, prob))
        egnp += prob * gnp
        for name in sims:
            egf[name] += prob * sims[name]
        total += prob * experience
    return rows, (egnp, egf, total)


def ragfair_topic(
    ranked, levels, memberships, target, divergence, answer, cutoff=None, gains=(1, 3)
):
    """GF-Re, GF-Gen, RIGF (percent or None) and ADsim (or None) for one list and answer.

    answer: list of (level, vector) entities.
    """
    g = len(target)
    _, _, gf = gfr_topic(
        ranked, levels, [memberships], [target], [divergence], gains=gains, cutoff=cutoff
    )
    gf_re = gf[0]
    relevant = [v for lv, v in answer if lv > 0]
    if relevant:
        d_a = [sum(v[i] for v in relevant) / len(relevant) for i in range(g)]
        gf_gen = sim(d_a, target, divergence)
    else:
        d_a, gf_gen = None, 0.0
    rigf = None if gf_re == 0 else (gf_gen - gf_re) / gf_re * 100
    exposure = [0.0] * g
    docs = ranked if cutoff is None else ranked[:cutoff]
    for k, doc in enumerate(docs, start=1):
        if levels.get(doc, 0) > 0:
            vec = memberships.get(doc) or [1 / g] * g
            for i in range(g):
                exposure[i] += vec[i] / math.log2(k + 1)
    total = sum(exposure)
    d_l = [x / total for x in exposure] if total > 0 else None
    ad = None if d_l is None or d_a is None else sim(d_l, d_a, divergence)
    return gf_re, gf_gen, rigf, ad


# --------------------------------------------------------------------------- text readers
# docs/formats.md, "Text files": UTF-8; no control character but tab, LF and CR (nor
# the C1 controls, nor U+2028/U+2029); a byte-order mark only at the start; tokens
# split at ASCII white space; blank lines and lines whose first token starts with '#'
# skipped; every row of one width; numbers by the decimal grammar.
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]")
_BOM = b"\xef\xbb\xbf"
# and, in a table, the Unicode spaces beyond ASCII: no-break, Ogham, en quad to hair,
# narrow no-break, medium mathematical and ideographic spaces (a token holding one
# would look like two)
_SPACE = re.compile(rb"\xc2\xa0|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xaf]|\xe2\x81\x9f|\xe3\x80\x80")
_REFUSED = re.compile(_CONTROL.pattern + b"|" + _BOM + b"|" + _SPACE.pattern)
DECIMAL = re.compile(rb"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
NTCIR_LEVEL = re.compile(rb"^L([0-9]{1,2}|100)$")
TREC_LEVEL = re.compile(rb"^-?[0-9]{1,18}$")
RANK = re.compile(rb"^[0-9]{1,18}$")


def _fail(name, line, message):
    return ValueError(f"{name}:{line}: {message}" if line else f"{name}: {message}")


def _table_lines(path):
    """(name, [(line number, tokens)]) of the rows of a text table, by the text rules."""
    if hasattr(path, "read"):
        name = str(getattr(path, "name", None) or "<stream>")
        data = path.read()
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
    elif str(path).endswith(".gz"):
        name = str(path)
        try:
            with gzip.open(path, "rb") as f:
                data = f.read()
        except (OSError, EOFError) as exc:
            raise _fail(name, None, f"is not a readable gzip file ({exc})") from None
    else:
        name = str(path)
        with open(path, "rb") as f:
            data = f.read()
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    bad = _REFUSED.search(data)
    if bad:
        line = data.count(b"\n", 0, bad.start()) + 1
        if bad.group() == _BOM:
            raise _fail(
                name,
                line,
                "a byte-order mark (U+FEFF) is allowed only at the start of a file: "
                "here it would be an invisible part of a token (two files joined?)",
            )
        if _SPACE.fullmatch(bad.group()):
            code = ord(bad.group().decode("utf-8"))
            raise _fail(
                name,
                line,
                f"a Unicode space (U+{code:04X}) is not allowed in a whitespace table: only "
                "spaces and tabs separate tokens, and a token holding one would look like two",
            )
        raise _fail(
            name, line, f"a control character ({bad.group()!r}) is not allowed in a text file"
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _fail(name, line, "the line is not UTF-8 text") from None
    rows = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        tokens = line.split()
        if tokens and not tokens[0].startswith(b"#"):
            rows.append((number, tokens))
    return name, rows


def _rows(path, what, ncols=None, min_cols=1):
    """(name, rows): every row of ``ncols`` tokens, or of the first row's count."""
    name, rows = _table_lines(path)
    if not rows:
        raise _fail(name, None, f"the file is empty (no {what} rows)")
    width = ncols
    for number, tokens in rows:
        if width is None:
            width = len(tokens)
            if width < min_cols:
                raise _fail(
                    name, number, f"a {what} line needs at least {min_cols} columns; found {width}"
                )
        if len(tokens) != width:
            raise _fail(
                name, number, f"expected {width} columns in this {what} line, found {len(tokens)}"
            )
    return name, rows


def _number(name, number, token, what, label):
    value = float(token) if DECIMAL.match(token) else math.inf
    if not math.isfinite(value):
        raise _fail(
            name,
            number,
            f"the {label} of a {what} line must be a finite number; found {token.decode()!r}",
        )
    return value


def _integer(name, number, token, pattern, message, limit=None):
    if not pattern.match(token) or (limit is not None and int(token) > limit):
        raise _fail(name, number, f"{message}; found {token.decode()!r}")
    return int(token.lstrip(b"L"))


def _topics(topics):
    names = list(dict.fromkeys(t.decode() for t in topics))
    return tuple(names), np.array([names.index(t.decode()) for t in topics], dtype=np.int64)


def _lines(rows):
    numbers = [number for number, _ in rows]
    return None if numbers == list(range(1, len(rows) + 1)) else np.array(numbers)


def _docs(rows, column):
    out = np.empty(len(rows), dtype=object)
    out[:] = [tokens[column] for _, tokens in rows]
    return out


def _once(name, rows, column, what):
    """A (topic, doc) key given twice is an error naming its second line."""
    first = {}
    for number, tokens in rows:
        key = (tokens[0], tokens[column])
        if key in first:
            raise _fail(
                name,
                number,
                f"doc {tokens[column].decode()!r} of topic {tokens[0].decode()!r} {what} "
                f"(first on line {first[key]})",
            )
        first[key] = number


def read_qrels(path):
    """NTCIR (topic doc L<level>) or TREC (topic iter doc level) qrels, line by line."""
    from fairconv.io import Qrels

    name, rows = _rows(path, "qrels")
    width = len(rows[0][1])
    if width == 3:
        message = "an NTCIR qrels level must look like L0, L1, L2... (at most L100)"
        levels = [_integer(name, n, t[2], NTCIR_LEVEL, message) for n, t in rows]
    elif width == 4:
        message = "a TREC qrels level must be an integer (at most 100)"
        levels = [max(0, _integer(name, n, t[3], TREC_LEVEL, message, 100)) for n, t in rows]
    else:
        raise _fail(
            name,
            rows[0][0],
            "expected NTCIR qrels (topic doc L<level>) or TREC qrels (topic iter doc level); "
            f"found {width} columns",
        )
    doc = width - 2
    topics, ids = _topics([t[0] for _, t in rows])
    _once(name, rows, doc, "is judged twice")
    return Qrels(name, topics, ids, _docs(rows, doc), np.array(levels, np.int64), _lines(rows))


def read_gmemb(path, n_groups=None):
    """topic doc p1 .. pG lines, each a distribution, line by line."""
    from fairconv.io import GroupMemberships

    name, rows = _rows(path, "gmemb", min_cols=4)
    width = len(rows[0][1])
    if n_groups is not None and width != n_groups + 2:
        raise _fail(
            name,
            rows[0][0],
            f"expected {n_groups} group probabilities (the target has {n_groups} groups), "
            f"found {width - 2}",
        )
    matrix = [[_number(name, n, p, "gmemb", "group probability") for p in t[2:]] for n, t in rows]
    topics, ids = _topics([t[0] for _, t in rows])
    for (number, _), vector in zip(rows, matrix, strict=True):
        total = vector[0]
        for p in vector[1:]:  # left to right (Python 3.12's sum() compensates)
            total += p
        if min(vector) < 0 or max(vector) > 1 + 1e-5 or abs(total - 1) > 1e-5:
            raise _fail(
                name,
                number,
                "group probabilities must be finite, in [0, 1] and sum to 1 (within 1e-05); "
                f"found {vector} with sum {total:.10g}",
            )
    _once(name, rows, 1, "is listed twice")
    matrix = np.array(matrix, np.float64)
    return GroupMemberships(name, topics, ids, _docs(rows, 1), matrix, _lines(rows))


def read_golddistr(path):
    """One probability per line."""
    name, rows = _rows(path, "golddistr", ncols=1)
    if len(rows) < 2:
        raise _fail(
            name,
            None,
            "a golddistr file needs one probability per group and at least 2 groups; "
            f"found {len(rows)} lines",
        )
    return np.array([_number(name, n, t[0], "golddistr", "probability") for n, t in rows])


def read_run(path, run_name=None):
    """topic Q0 doc rank score tag lines, line by line."""
    from fairconv.io import Run

    name, rows = _rows(path, "run", ncols=6)
    message = "a rank (4th column) must be an integer >= 0"
    for number, tokens in rows:
        _integer(name, number, tokens[3], RANK, message)
    scores = [_number(name, n, t[4], "run", "score (5th column)") for n, t in rows]
    topics, ids = _topics([t[0] for _, t in rows])
    samples, sample_ids = _topics([t[1] for _, t in rows])  # column 2: the sample id
    tag = run_name or rows[0][1][5].decode()
    return Run(
        name,
        topics,
        ids,
        _docs(rows, 2),
        tag,
        np.array(scores),
        _lines(rows),
        samples=samples,
        sample_ids=sample_ids,
    )


# --------------------------------------------------------------------------- core arithmetic
# One value at a time, from the equations the functions of fairconv._core cite.
def rigf(gen, re_):
    """RIGF (BREV-RAG 2025, Eq. 7) in percent; NaN where GF-Re is 0."""
    return math.nan if re_ == 0 else (gen - re_) / re_ * 100.0


def gf_gen(answer, target, divergence):
    """DistrSim(d_A || target) (Eq. 5); 0 for an answer without a distribution."""
    if any(math.isnan(x) for x in answer):
        return 0.0
    return sim(answer, target, divergence)


def adsim(list_distribution, answer, divergence):
    """DistrSim(d_L || d_A) (Eqs. 8-11); NaN when either is missing."""
    if any(math.isnan(x) for x in list(list_distribution) + list(answer)):
        return math.nan
    return sim(list_distribution, answer, divergence)


def stop_probabilities(gains):
    """ERR's P(l) = gain(l) / (gain(lmax) + 1), P(0) = 0."""
    return [0.0] + [g / (gains[-1] + 1.0) for g in gains]


def turn_mean(owner, sims, n_owners, turns=None, fill=0.0):
    """GF^m per conversation (the GFRC2 paper, Eq. 10): mean over counted turns, 0 if none."""
    out = []
    for c in range(n_owners):
        mine = [s for o, s in zip(owner, sims, strict=True) if o == c]
        count = len(mine) if turns is None else turns[c]
        total = sum(mine) + (count - len(mine)) * fill
        out.append(total / count if count > 0 else 0.0)
    return out


def gf_of_sets(gf, weights):
    """GFRC's GF: sum_m w_m GF^m / sum_m w_m over m >= 1; the plain mean if they are 0."""
    w = list(weights[1:])
    if sum(w) == 0:
        w = [1.0] * len(w)
    return [sum(wm * g[i] for wm, g in zip(w, gf, strict=True)) / sum(w) for i in range(len(gf[0]))]


def expectation(owner, prob, value, n_owners):
    """sum of Prob(wc) value(wc) per conversation (the GFRC2 paper, Eqs. 11, 20, 21)."""
    out = [0.0] * n_owners
    for o, p, v in zip(owner, prob, value, strict=True):
        out[o] += p * v
    return out


def match_ratios(counts):
    """Recall-NtN, Precision-NtN, Recall-NtR (Conversational Gold, Eqs. 4-6); NaN for 0/0."""
    c = [int(x) for x in counts]

    def div(a, b):
        return a / b if b else math.nan

    return div(c[0], c[1]), div(c[2], c[3]), div(c[4], c[1])


def nuggetizer_scores(counts):
    """nuggetizer's four scores of one record's counts; 0 for an empty set."""
    v, vs, vp, n, s, p = (int(x) for x in counts)

    def div(a, b):
        return a / b if b else 0.0

    return div(vs, v), div(s, n), div(vs + 0.5 * vp, v), div(s + 0.5 * p, n)


def exact_mean(xs):
    """The exact sum of the doubles over n, rounded once."""
    from fractions import Fraction

    return float(sum((Fraction(x) for x in xs), Fraction(0)) / len(xs))


def fsum_mean(xs, e):
    """The exact sum of x / 2^e, rounded, over n, times 2^e (2^e the scale of the array)."""
    from fractions import Fraction

    scaled = [math.ldexp(x, -e) for x in xs]  # as the array is scaled, subnormals included
    total = float(sum((Fraction(x) for x in scaled), Fraction(0)))
    return math.ldexp(total / len(xs), e)


def sequential_mean(xs):
    """Values added left to right, over n; 0 for none."""
    total = 0.0
    for x in xs:
        total += x
    return total / len(xs) if xs else 0.0
