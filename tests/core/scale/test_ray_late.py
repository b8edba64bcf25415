"""`core embed --engine ray` with a late-interaction model writes the local command's Parquet layout (text, tokens,
token_vectors) file by file, and the folder opens as a late-interaction dataset whose exact MaxSim search equals the
model's own similarity."""

import numpy as np
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from core.analysis.late.index import LateIndex
from core.cli import main
from core.data.datasets import listed_datasets, open_late_dataset
from core.data.stsb import stsb_corpus
from core.encoding.late.matrix import TokenMatrix
from tests.extras import extra_module
from tests.references import assert_top_order

ray = extra_module("ray", "Ray is an optional extra: `make scale`")
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


def test_a_late_interaction_model_on_ray_equals_the_local_command_and_opens_on_retrieval(late_folders, tmp_path):
    from sentence_transformers import MultiVectorEncoder

    folder = str(late_folders["colbert"])
    texts = list(stsb_corpus()[:600])
    source = tmp_path / "stsb.txt"
    source.write_text("\n".join(texts) + "\n", encoding="utf-8")
    model = ["--model", folder, "--pooling", "default", "--input", str(source)]
    assert main(["embed", *model, "--output", str(tmp_path / "local.parquet")]) == 0
    assert main(["embed", *model, "--engine", "ray", "--workers", "1", "--output", str(tmp_path / "out")]) == 0
    local = pq.read_table(tmp_path / "local.parquet")
    remote = pads.dataset(str(tmp_path / "out" / "stsb"), format="parquet").to_table()
    assert remote.column("text").to_pylist() == texts
    assert remote.column("tokens").to_pylist() == local.column("tokens").to_pylist()
    for row in range(0, len(texts), 37):
        np.testing.assert_allclose(np.asarray(remote.column("token_vectors")[row].as_py(), np.float32),
                                   np.asarray(local.column("token_vectors")[row].as_py(), np.float32), atol=1e-5)
    found, problems = listed_datasets([tmp_path / "out"])
    assert not problems and found[0].late
    dataset = open_late_dataset(tmp_path / "out", [tmp_path / "out"])
    reference = MultiVectorEncoder(folder, device="cpu", local_files_only=True)
    query = reference.encode_query(["A man is playing a guitar."])
    scores = reference.similarity(query, reference.encode_document(texts)).numpy()[0]
    hits = LateIndex(dataset.corpus).search(TokenMatrix.bare(query[0].numpy(), np.array([0, len(query[0])])), 5)
    assert_top_order(hits.indices[0].tolist(), scores, 5)  # near ties (random weights) in either order
    np.testing.assert_allclose(hits.scores[0], -np.sort(-scores)[:5], rtol=1e-5)
