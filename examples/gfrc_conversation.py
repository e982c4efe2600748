"""Annotate a conversation from its text and score it with GFRC and GFRC2.

python examples/gfrc_conversation.py [r_vs_gf.png]
"""

import sys

from fairconv import AttributeSet, gfrc, gfrc2
from fairconv.conversation import Conversation, Nugget, batch_from_conversations, find_span

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
        groups={
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

for preset in ("fairweb2", "gfrc2-paper"):
    table = gfrc.evaluate(batch, preset=preset)
    print(preset, {m: round(table.value("my-run", "R112", m), 6) for m in table.measures})
table = gfrc2.evaluate(batch)
print("gfrc2", {m: round(table.value("my-run", "R112", m), 6) for m in table.measures})

if len(sys.argv) > 1:
    from fairconv.plots import r_vs_gf

    r_vs_gf(gfrc.evaluate(batch)).savefig(sys.argv[1], dpi=150)
    print("wrote", sys.argv[1])
