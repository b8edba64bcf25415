from dataclasses import dataclass

import pandas as pd
import pytest

from core.data.corpus import CorpusError, corpus_texts
from core.data.stsb import stsb_corpus
from core.data.uploads import column, decode_text, parse_table, query_pairs, read_upload, text_columns
from tests import stsb_counts


@dataclass
class FakeUpload:
    name: str
    data: bytes = b""
    size: int | None = None

    def __post_init__(self):
        if self.size is None:
            self.size = len(self.data)

    def getvalue(self) -> bytes:
        return self.data


def test_stsb_corpus_is_the_7977_distinct_first_sentences_of_all_splits():
    corpus = stsb_corpus()
    assert len(corpus) == len(set(corpus)) == stsb_counts.first_sentences()
    assert corpus[0] == "A plane is taking off."


def test_txt_upload_is_one_text_a_line_without_blank_lines():
    frame = read_upload(FakeUpload("notes.txt", "\ufeffFirst text\n\n  Second text  \r\nThird\n".encode()))
    assert frame["text"].tolist() == ["First text", "Second text", "Third"]


def test_csv_upload_keeps_its_columns_as_strings_and_offers_text_first():
    frame = read_upload(FakeUpload("d.csv", b'id,body,text\n1,"a, quoted",x\n2,,y\n'))
    assert column(frame, "body") == ["a, quoted", ""]
    assert column(frame, "id") == ["1", "2"]
    assert text_columns(frame) == ["text", "id", "body"]


def test_jsonl_upload_becomes_a_table():
    frame = read_upload(FakeUpload("d.jsonl", b'{"text": "one", "n": 1}\n\n{"text": "two"}\n'))
    assert column(frame, "text") == ["one", "two"]
    assert column(frame, "n") == ["1", ""]


def test_jsonl_lines_that_are_not_objects_are_refused():
    with pytest.raises(CorpusError, match="must be a JSON object"):
        read_upload(FakeUpload("d.jsonl", b'["a"]\n'))


def test_csv_without_the_named_column_lists_the_columns_found():
    frame = read_upload(FakeUpload("d.csv", b"title,body\nx,y\n"))
    with pytest.raises(CorpusError, match=r"no column 'text'; the columns found are: title, body"):
        column(frame, "text")


def test_non_utf8_file_is_refused_with_a_remedy():
    with pytest.raises(CorpusError, match="not UTF-8 text .*save it as UTF-8"):
        read_upload(FakeUpload("latin.txt", "café\n".encode("latin-1")))


def test_binary_file_is_refused():
    with pytest.raises(CorpusError, match="binary file"):
        decode_text("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_an_upload_over_the_limit_is_refused_before_it_is_read():
    class Huge(FakeUpload):
        def getvalue(self) -> bytes:
            raise AssertionError("a refused upload must not be read")

    with pytest.raises(CorpusError, match=r"300 MB, over the 200 MB upload limit"):
        read_upload(Huge("big.csv", size=300 * 2**20))


def test_unknown_file_type_is_refused():
    with pytest.raises(CorpusError, match=r"\.pdf file; upload a .txt, .csv or .jsonl"):
        parse_table("paper.pdf", "x")


def test_empty_corpus_is_refused():
    with pytest.raises(CorpusError, match="corpus is empty"):
        corpus_texts(["", "   "])
    with pytest.raises(CorpusError, match="corpus is empty"):
        corpus_texts([])


@pytest.mark.parametrize("name", ["empty.txt", "empty.csv"])
def test_an_uploaded_file_without_a_text_is_one_sentence_in_the_page(name):
    # what the pages do with an upload (views/retrieval.py, ui/pages/evaluation_tasks.py): read it, take its column
    with pytest.raises(CorpusError, match=r"^(The corpus is empty; paste texts|empty\.csv could not be read)"):
        frame = read_upload(FakeUpload(name, b""))
        corpus_texts(column(frame, "text"))


def test_corpus_of_one_text_is_kept_and_repeats_are_dropped():
    assert corpus_texts([" only one "]) == ["only one"]
    assert corpus_texts(["b", "a", "b", ""]) == ["b", "a"]


def test_corpus_over_the_row_limit_names_it(monkeypatch):
    from core import deployment as config

    monkeypatch.setenv("EXPLORER_MAX_CORPUS_ROWS", "3")
    config.load_config.cache_clear()
    try:
        with pytest.raises(CorpusError, match="over the limit of 3"):
            corpus_texts(["a", "b", "c", "d"])
    finally:
        monkeypatch.delenv("EXPLORER_MAX_CORPUS_ROWS")
        config.load_config.cache_clear()


def test_query_pairs_group_relevant_texts_per_query():
    frame = pd.DataFrame({"query": ["q1", "q1", "q2", ""], "relevant": ["a", "b", "c", "d"]})
    assert query_pairs(frame, "query", "relevant") == {"q1": {"a", "b"}, "q2": {"c"}}
    with pytest.raises(CorpusError, match="columns found are: query, relevant"):
        query_pairs(frame, "question", "relevant")


def test_more_queries_than_the_deployment_allows_are_refused(monkeypatch):
    from core import deployment

    monkeypatch.setenv("EXPLORER_MAX_EVAL_QUERIES", "2")
    deployment.load_config.cache_clear()
    try:
        frame = pd.DataFrame({"query": ["a", "b", "c"], "relevant": ["x", "y", "z"]})
        with pytest.raises(CorpusError, match="3 distinct queries, over the limit of 2"):
            query_pairs(frame, "query", "relevant")
    finally:
        monkeypatch.delenv("EXPLORER_MAX_EVAL_QUERIES")
        deployment.load_config.cache_clear()
