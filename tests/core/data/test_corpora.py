import pytest

from core.data.corpus import CorpusError, labelled_corpus
from core.data.stsb import stsb_genres, stsb_sample
from tests import stsb_counts


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


def test_labels_follow_the_first_occurrence_of_each_cleaned_text():
    frame = labelled_corpus([" a ", "b", "a", "", " c"], ["x", "y", "z", "w", "v"])
    assert frame.to_dict("list") == {"text": ["a", "b", "c"], "label": ["x", "y", "v"]}
    with pytest.raises(CorpusError, match="The corpus is empty"):
        labelled_corpus(["", "  "])
