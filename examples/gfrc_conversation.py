"""Annotate a conversation from its text and score it with GFRC and GFRC2.

The conversation is small enough to score by hand: the end of the script works each
printed value out from the equations of T. Sakai, "Fairness-based Evaluation of
Conversational Search: A Pilot Study" (EVIA 2023, Eqs. 1-4) and of the GFRC2 paper
(T. Sakai, S. Tao, Y.-I. Song, Eqs. 6-7 and 11-21), and stops if they differ.

python examples/gfrc_conversation.py [r_vs_gf.png]
"""

import sys

from fairconv import AttributeSet, gfrc, gfrc2
from fairconv.io import Conversation, Nugget, batch_from_conversations, find_span

text = (
    "U:Please list researchers who have published at ICLR. "
    "S:Here are a few: Yoshua Bengio https://scholar.example/yb "
    "Geoffrey Hinton https://scholar.example/gh and Fei-Fei Li https://scholar.example/ffl "
    "U:More please. S:Sure! Yoshua Bengio https://scholar.example/yb "
    "Chelsea Finn https://scholar.example/cf"
)
pronoun = AttributeSet("PRONOUN", [1 / 3, 1 / 3, 1 / 3], "nominal")
hindex = AttributeSet("HINDEX", [0.25] * 4, "ordinal")


def nugget(phrase, occurrence, entity, he_she, h_group):
    start, end = find_span(text, phrase, occurrence=occurrence)
    return Nugget(
        start,
        end,
        level=2,
        entity=entity,
        memberships={
            "PRONOUN": [1, 0, 0] if he_she == "he" else [0, 1, 0],
            "HINDEX": [1 if g == h_group else 0 for g in range(4)],
        },
    )


conversation = Conversation(
    "R112",
    "my-run",
    (
        nugget("Yoshua Bengio https://scholar.example/yb", 1, "yb", "he", 3),
        nugget("Geoffrey Hinton https://scholar.example/gh", 1, "gh", "he", 3),
        nugget("Fei-Fei Li https://scholar.example/ffl", 1, "ffl", "she", 3),
        nugget("Yoshua Bengio https://scholar.example/yb", 2, "yb", "he", 3),  # a repeat
        nugget("Chelsea Finn https://scholar.example/cf", 1, "cf", "she", 2),
    ),
    text=text,
)
batch = batch_from_conversations([conversation], [pronoun, hindex])
print("nugget spans:", list(zip(batch.start.tolist(), batch.end.tolist(), strict=False)))

printed = {}
for preset in ("fairweb2", "gfrc2-paper"):
    table = gfrc.evaluate(batch, preset=preset)
    printed[preset] = {m: round(table.value("my-run", "R112", m), 6) for m in table.measures}
    print(preset, printed[preset])
table = gfrc2.evaluate(batch)
printed["gfrc2"] = {m: round(table.value("my-run", "R112", m), 6) for m in table.measures}
print("gfrc2", printed["gfrc2"])

if len(sys.argv) > 1:
    from fairconv.plots import r_vs_gf

    r_vs_gf(gfrc.evaluate(batch)).savefig(sys.argv[1], dpi=150)
    print("wrote", sys.argv[1])


# ---- the same numbers by hand
def check(what, value, by_hand):
    """Stop with exit status 1 when a printed value differs from the hand computation."""
    if value != round(by_hand, 6):
        sys.exit(f"{what}: printed {value}, by hand {round(by_hand, 6)}")


spans = [(13, 15), (16, 18), (20, 22), (26, 28), (29, 31)]  # words counted in the text
if list(zip(batch.start.tolist(), batch.end.tolist(), strict=True)) != spans:
    sys.exit(f"the nugget spans are not the words counted by hand, {spans}")
# R (Eq. 7 of fairweb2, Eq. 6 of the GFRC2 paper): the repeat of Yoshua Bengio counts
# once, so four level-2 nuggets (gain (2**2 - 1) / 2**2) ending at words 15, 18, 22 and
# 31, each discounted by its position, over N = (L + 1) / 2 with L = 1000
ends = [15, 18, 22, 31]
r_eq7 = sum(0.75 * (1 - e / 1000) for e in ends) / 500.5
check("R, fairweb2", printed["fairweb2"]["R"], r_eq7)
r_eq6 = sum(0.75 * (1 - (e - 1) / 1000) for e in ends) / 500.5
check("R, gfrc2-paper", printed["gfrc2-paper"]["R"], r_eq6)
# GF: the mean over the system turns of DistrSim of the turn's relevant nuggets (first
# turn: he, he, she and three of h-index group 3; second: Chelsea Finn alone, she, group 2)
gf_pronoun = (pronoun.similarity([2 / 3, 1 / 3, 0]) + pronoun.similarity([0, 1, 0])) / 2
gf_hindex = (hindex.similarity([0, 0, 0, 1]) + hindex.similarity([0, 0, 1, 0])) / 2
for preset, r in (("fairweb2", r_eq7), ("gfrc2-paper", r_eq6)):
    check(f"GF[PRONOUN], {preset}", printed[preset]["GF[PRONOUN]"], gf_pronoun)
    check(f"GF[HINDEX], {preset}", printed[preset]["GF[HINDEX]"], gf_hindex)
    check(f"GF, {preset}", printed[preset]["GF"], (gf_pronoun + gf_hindex) / 2)
    check(f"GFRC, {preset}", printed[preset]["GFRC"], (r + gf_pronoun + gf_hindex) / 3)
# GFRC2: the expectations over a stopping word uniform on 1..L of GNP = GWCrel /
# (WCnonrel + GWCrel) and of DistrSim of the nuggets read so far, at each relevant nugget
gnp = [6 / (6 + 12), 12 / (12 + 12), 18 / (18 + 13), 24 / (24 + 19)]
check("EGNP", printed["gfrc2"]["EGNP"], sum(gnp) / 1000)
egf_hindex = (3 * hindex.similarity([0, 0, 0, 1]) + hindex.similarity([0, 0, 1 / 4, 3 / 4])) / 1000
check("EGF[HINDEX]", printed["gfrc2"]["EGF[HINDEX]"], egf_hindex)
so_far = ([1, 0, 0], [1, 0, 0], [2 / 3, 1 / 3, 0], [1 / 2, 1 / 2, 0])
check("EGF[PRONOUN]", printed["gfrc2"]["EGF[PRONOUN]"], sum(map(pronoun.similarity, so_far)) / 1000)
components = sum(gnp) / 1000 + sum(map(pronoun.similarity, so_far)) / 1000 + egf_hindex
check("GFRC2", printed["gfrc2"]["GFRC2"], components / 3)
