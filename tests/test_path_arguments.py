"""A reader given something that is not a path or an open file says so.

An int in particular is not read: ``open`` would take it for a file descriptor, read
whatever the process has open there, and close it.
"""

import os

import pytest

from fairconv import agreement, io, trecfair

READERS = {
    "io.read_qrels": (lambda x: io.read_qrels(x), "path"),
    "io.read_run": (lambda x: io.read_run(x), "path"),
    "io.read_gmemb": (lambda x: io.read_gmemb(x), "path"),
    "io.read_golddistr": (lambda x: io.read_golddistr(x), "path"),
    "io.read_json": (lambda x: io.read_json(x), "path"),
    "io.iter_jsonl": (lambda x: list(io.iter_jsonl(x)), "path"),
    "io.read_attribute_sets": (lambda x: io.read_attribute_sets(x), "path"),
    "io.read_conversations": (lambda x: io.read_conversations(x, []), "paths"),
    "io.read_answers": (lambda x: io.read_answers(x, []), "path"),
    "io.read_labels": (lambda x: io.read_labels(x), "path"),
    "io.read_scores": (lambda x: io.read_scores(x), "paths"),
    "io.read_topics": (lambda x: io.read_topics(x), "path"),
    "trecfair.read_run": (lambda x: trecfair.read_run(x, task=1), "path"),
    "trecfair.read_qrels": (lambda x: trecfair.read_qrels(x), "path"),
    "trecfair.read_alignment": (lambda x: trecfair.read_alignment("gender", x), "path"),
    "trecfair.read_metadata": (lambda x: trecfair.read_metadata(x, edition=2021), "path"),
    "trecfair.read_background": (lambda x: trecfair.read_background(x), "source"),
    "trecfair.read_work": (lambda x: trecfair.read_work(x), "path"),
    "io.read_nuggetizer": (lambda x: io.read_nuggetizer(x), "path_or_records"),
    "io.read_cone_rag": (lambda x: io.read_cone_rag(x), "gold"),
    "agreement.read_label_file": (lambda x: agreement.read_label_file(x), "path"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("value", [None, 2.5])
def test_a_value_that_is_no_path_is_a_type_error_naming_the_parameter(reader, value):
    read, parameter = READERS[reader]
    with pytest.raises(TypeError, match=rf"^The '{parameter}' parameter of {reader} must be"):
        read(value)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_file_descriptor_is_refused_and_left_open(reader, tmp_path):
    read, parameter = READERS[reader]
    held = tmp_path / "held.txt"
    held.write_text("q1 0 d1 1\n")
    fd = os.open(held, os.O_RDONLY)
    try:
        with pytest.raises(TypeError, match=rf"^The '{parameter}' parameter of {reader} must be"):
            read(fd)
        assert os.fstat(fd).st_size == held.stat().st_size  # still open: nothing closed it
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0  # and nothing read from it
    finally:
        os.close(fd)
