import io

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from core.data.corpus import CorpusError
from core.data.vectors import (
    VectorCorpus,
    from_npy,
    from_parquet,
    from_projector,
    read_vector_files,
    to_npy,
    to_parquet,
    to_projector,
)

TEXTS = ["A cat sleeps.", "Stocks fell.", "A tab\tin a text"]


@pytest.fixture
def corpus():
    vectors = np.random.default_rng(0).standard_normal((3, 8)).astype(np.float32)
    return VectorCorpus(TEXTS, vectors, pd.DataFrame({"genre": ["pets", "news", "misc"]}))


def test_parquet_round_trips_texts_vectors_and_metadata_in_embedding_atlas_layout(corpus):
    data = to_parquet(corpus)
    table = pq.read_table(io.BytesIO(data))
    import pyarrow as pa

    assert table.column_names == ["text", "vector", "genre"]
    vector_type = table.schema.field("vector").type
    assert pa.types.is_list(vector_type) and vector_type.value_type == pa.float32()
    back = from_parquet("x.parquet", data)
    np.testing.assert_array_equal(back.vectors, corpus.vectors)
    assert back.texts == TEXTS and back.metadata["genre"].tolist() == ["pets", "news", "misc"]


def test_npy_and_projector_tsv_round_trip(corpus):
    np.testing.assert_array_equal(from_npy("v.npy", to_npy(corpus), TEXTS).vectors, corpus.vectors)
    vectors_tsv, metadata_tsv = to_projector(corpus)
    assert metadata_tsv.splitlines()[0] == "text\tgenre" and "A tab in a text" in metadata_tsv
    back = from_projector("vectors.tsv", vectors_tsv.encode(), "metadata.tsv", metadata_tsv.encode())
    np.testing.assert_allclose(back.vectors, corpus.vectors, rtol=1e-6)
    assert back.texts[:2] == TEXTS[:2] and back.metadata["genre"].tolist() == ["pets", "news", "misc"]
    plain = VectorCorpus(TEXTS[:2], corpus.vectors[:2], pd.DataFrame(index=range(2)))
    assert to_projector(plain)[1] == "A cat sleeps.\nStocks fell.\n"  # one column: no header, as the Projector wants


def projector_rows(tsv):
    """A metadata.tsv as the Projector reads it (parseMetadata): lines split on newlines, blank ones skipped, fields
    split on tabs, nothing unquoted."""
    return [line.split("\t") for line in tsv.split("\n") if line.strip()]


QUOTED = ['She said "hi" to him', '"Quoted" at the start', 'a lone " quote', '""']


def test_projector_metadata_holds_texts_with_quotes_as_they_are():
    vectors = np.random.default_rng(1).standard_normal((len(QUOTED), 4)).astype(np.float32)
    corpus = VectorCorpus(QUOTED, vectors, pd.DataFrame({"genre": ['a "kind"', "b", None, "d"]}))
    vectors_tsv, metadata_tsv = to_projector(corpus)
    header, *rows = projector_rows(metadata_tsv)
    assert header == ["text", "genre"]
    assert [row[0] for row in rows] == QUOTED and [row[1] for row in rows] == ['a "kind"', "b", "", "d"]
    files = [("vectors.tsv", vectors_tsv.encode()), ("metadata.tsv", metadata_tsv.encode())]
    back = read_vector_files(files)
    np.testing.assert_allclose(back.vectors, vectors, rtol=1e-6)
    assert back.texts == QUOTED and back.metadata["genre"].tolist() == ['a "kind"', "b", "", "d"]


@pytest.mark.parametrize("metadata", [False, True])
def test_texts_holding_other_line_breaks_come_back_as_they_were(metadata):
    texts = ["a\u2028b", "form\x0cfeed", "next\x85line", "plain"]  # str.splitlines splits at each of these
    vectors = np.random.default_rng(2).standard_normal((len(texts), 3)).astype(np.float32)
    meta = pd.DataFrame({"genre": list("wxyz")}) if metadata else pd.DataFrame(index=range(len(texts)))
    vectors_tsv, metadata_tsv = to_projector(VectorCorpus(texts, vectors, meta))
    back = read_vector_files([("vectors.tsv", vectors_tsv.encode()), ("metadata.tsv", metadata_tsv.encode())])
    assert back.texts == texts


@pytest.mark.parametrize("make, message", [
    (lambda v: VectorCorpus(TEXTS[:2], v, pd.DataFrame()), "3 vectors but 2 texts"),
    (lambda v: VectorCorpus(TEXTS, np.where(np.arange(8) == 2, np.nan, v), pd.DataFrame()), "NaN or infinite"),
    (lambda v: VectorCorpus(TEXTS, v[:, 0], pd.DataFrame()), "rows by dimensions"),
])
def test_bad_vector_corpora_say_what_is_wrong(corpus, make, message):
    with pytest.raises(CorpusError, match=message):
        make(corpus.vectors)


def test_bad_files_say_what_is_wrong():
    with pytest.raises(CorpusError, match="could not be read as Parquet"):
        from_parquet("x.parquet", b"not parquet")
    with pytest.raises(CorpusError, match="no column of vectors"):
        sink = io.BytesIO()
        pd.DataFrame({"text": ["a"]}).to_parquet(sink)
        from_parquet("x.parquet", sink.getvalue())
    with pytest.raises(CorpusError, match="not a NumPy"):
        from_npy("v.npy", b"junk", ["a"])
    with pytest.raises(CorpusError, match="tab-separated numbers"):
        from_projector("vectors.tsv", b"1\tx\n", "metadata.tsv", b"a\n")
    with pytest.raises(CorpusError, match="more tab-separated values than its header row"):
        from_projector("vectors.tsv", b"1\t2\n3\t4\n", "metadata.tsv", b"text\tgenre\na\tb\nc\td\te\n")
    with pytest.raises(CorpusError, match="same number of dimensions"):
        import pyarrow as pa

        sink = io.BytesIO()
        pq.write_table(pa.table({"text": ["a", "b"], "vector": [[1.0, 2.0], [1.0]]}), sink)
        from_parquet("x.parquet", sink.getvalue())


def test_uploaded_files_are_recognised_together(corpus):
    np.testing.assert_array_equal(read_vector_files([("x.parquet", to_parquet(corpus))]).vectors, corpus.vectors)
    texts = "\n".join(TEXTS[:2]) + "\n"
    two = VectorCorpus(TEXTS[:2], corpus.vectors[:2], pd.DataFrame(index=range(2)))
    assert read_vector_files([("t.txt", texts.encode()), ("v.npy", to_npy(two))]).texts == TEXTS[:2]
    vectors_tsv, metadata_tsv = to_projector(corpus)
    back = read_vector_files([("vectors.tsv", vectors_tsv.encode()), ("metadata.tsv", metadata_tsv.encode())])
    assert back.metadata["genre"].tolist() == ["pets", "news", "misc"]
    with pytest.raises(CorpusError, match="not a vector corpus"):
        read_vector_files([("v.npy", to_npy(two))])
