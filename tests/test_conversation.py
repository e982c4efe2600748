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
