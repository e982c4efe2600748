"""fairconv.conversation: the conversation measures' module.

The records that moved to fairconv.io keep working from here for one release, with a
DeprecationWarning at the importing line (the records themselves are tested in
test_io_conversation_records.py, the reader in test_io_conversations.py)."""

import pytest

from fairconv import conversation, io

MOVED = ["Turn", "turns_of", "find_span", "word_at", "Nugget", "Conversation",
         "ConversationBatch", "batch_from_conversations", "batch_from_records"]  # fmt: skip


@pytest.mark.parametrize("name", MOVED)
def test_the_records_keep_working_from_their_old_home_for_one_release(name):
    message = rf"fairconv\.conversation\.{name} has moved to fairconv\.io\.{name}"
    with pytest.warns(DeprecationWarning, match=message):
        old = getattr(conversation, name)
    assert old is getattr(io, name)
    assert name not in conversation.__all__
    with pytest.raises(AttributeError, match="has no attribute 'Turns'"):
        conversation.Turns  # noqa: B018


def test_an_import_from_the_old_home_warns_at_the_importing_line():
    with pytest.warns(DeprecationWarning) as caught:
        from fairconv.conversation import Nugget as Old  # noqa: F401
    assert caught[0].filename == __file__


def test_every_conversation_measure_documents_its_options_with_the_one_text():
    """The options' text is written once (conversation.OPTIONS) and is what every
    signature that takes an option says of it, as plain numpydoc."""
    import inspect

    from fairconv import gfrc, gfrc2
    from fairconv.conversation import OPTIONS, ConversationOptions, option_docs

    functions = [gfrc.gfrc, gfrc.evaluate, gfrc.turns, gfrc2.gfrc2, gfrc2.evaluate, gfrc2.clusters]
    for f in functions:
        doc = inspect.getdoc(f)
        assert "{" + "options}" not in doc and "{" + "preset}" not in doc
        for name in inspect.signature(f).parameters:
            if name in OPTIONS:
                assert option_docs(name) in doc, (f.__qualname__, name)
    fields = inspect.getdoc(ConversationOptions)
    assert option_docs(*OPTIONS, optional=False) in fields
    assert set(OPTIONS) == set(ConversationOptions.__dataclass_fields__)
