
import pytest

from core.data.corpus import CorpusError, labelled_corpus
from core.data.stsb import stsb_genres, stsb_sample
from tests import stsb_counts
from tests.row_ids import digest


def test_stsb_sentences_keep_their_genre_and_are_distinct():
    frame = stsb_genres()
    assert frame.text.is_unique
    assert set(frame.genre) == {"news", "captions", "forums"}
    assert frame.genre.value_counts().to_dict() == stsb_counts.genre_counts()


def test_the_sample_is_seeded_and_in_corpus_order():
    sample = stsb_sample(1_500, seed=0)
    assert len(sample) == 1_500 and sample.equals(stsb_sample(1_500, seed=0))
    whole = stsb_genres().text.tolist()
    positions = [whole.index(t) for t in sample.text[:50]]
    assert positions == sorted(positions)
    assert len(stsb_sample(10**6)) == len(whole)


def test_every_row_keeps_its_own_label_and_an_id_of_its_text_and_place_among_equal_texts():
    frame = labelled_corpus([" a ", "b", "a", "", " c"], ["x", "y", "z", "w", "v"])
    assert frame.to_dict("list") == {"row_id": [f"{digest('a')}:0", f"{digest('b')}:0", f"{digest('a')}:1",
                                                f"{digest('c')}:0"],
                                     "text": ["a", "b", "a", "c"], "label": ["x", "y", "z", "v"]}
    with pytest.raises(CorpusError, match="The corpus is empty"):
        labelled_corpus(["", "  "])


def test_the_same_rows_in_another_order_keep_their_ids():
    texts, labels = ["a", "b", "a", "c"], ["x", "y", "z", "v"]
    first = labelled_corpus(texts, labels).set_index("row_id")
    order = [3, 2, 1, 0]
    again = labelled_corpus([texts[i] for i in order], [labels[i] for i in order]).set_index("row_id")
    assert set(first.index) == set(again.index)
    # equal texts are told apart by their order among themselves: that is all a re-ordered upload can keep
    assert again.loc[first.index, "text"].tolist() == first["text"].tolist()


def test_a_tables_own_row_ids_are_kept_where_they_name_every_row_once():
    assert labelled_corpus(["a", "b"], row_ids=["r1", "r2"])["row_id"].tolist() == ["r1", "r2"]
    assert labelled_corpus(["a", "b"], row_ids=["r1", "r1"])["row_id"].tolist() == [f"{digest('a')}:0",
                                                                                     f"{digest('b')}:0"]
