"""Home, the sidebar and Model say what a late-interaction model's vectors are: one per kept token, what the
built-in corpus takes stored that way beside a dense vector, and a typed text's tokens as a query and as a document
with the bytes they take (sentence-transformers' own encode_query / encode_document as the reference)."""

from core.analysis.late.storage import corpus_storage
from core.data.stsb import stsb_corpus
from core.models.loading import load_model
from core.progress import byte_size
from tests.conftest import app_test_on_model
from tests.figures import figure
from tests.multivector import WIDTH


def test_home_and_the_sidebar_give_the_built_in_corpus_storage_beside_a_dense_vector(late_folders):
    folder = str(late_folders["colbert"])
    at = app_test_on_model(folder, "views/home.py")
    assert not at.exception
    storage = corpus_storage(load_model(folder, "cpu"), stsb_corpus())
    table = at.table[1].value
    assert table.loc["late interaction", "7,977 texts"] == byte_size(storage.bytes)
    assert table.loc["dense, one vector", "7,977 texts"] == byte_size(7_977 * 32 * 4)
    assert any(f"{storage.vectors:,} token vectors" in caption.value for caption in at.sidebar.caption)


def test_model_shows_a_typed_text_as_a_query_and_as_a_document_with_its_bytes(late_folders):
    from sentence_transformers import MultiVectorEncoder

    folder = late_folders["colbert"]
    at = app_test_on_model(str(folder), "views/model.py")
    assert not at.exception and not at.error
    text = "Cats sleep, mostly!"
    at.text_area(key="model_late_text").set_value(text).run()
    reference = MultiVectorEncoder(str(folder), device="cpu", local_files_only=True)
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["As a query"] == byte_size(len(reference.encode_query([text])[0]) * WIDTH * 4)
    assert metrics["As a document"] == byte_size(len(reference.encode_document([text])[0]) * WIDTH * 4)
    assert metrics["One dense vector"] == byte_size(32 * 4)
    rows = figure(at, "model_late_tokens").data[0]
    assert [row.split(":")[0] for row in rows.y if ":" in row] == ["query", "document"]
    marked = {name for trace in figure(at, "model_late_tokens").data[1:] for name in [trace.name]}
    assert {"query expansion", "dropped by the skiplist", "the role's prompt or marker"} <= marked
    breakdown = at.dataframe[0].value
    assert breakdown["module"].str.startswith("Dense of the token vectors").any()
    at.text_area(key="model_late_text").set_value("  ").run()
    assert any("Type a text above" in info.value for info in at.info)
