"""The whole path of a corpus beyond one machine, as a deployment runs it: STS-B sentences embedded by `core embed
--engine ray`, the output folder listed for a server, and Retrieval and the map opening it in Chromium."""

from __future__ import annotations

import pytest

from core.cli import main
from core.data.stsb import stsb_corpus
from tests.browser.harness import SHOTS, check_and_shoot, open_page, start_server

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("ray")]
ray = pytest.importorskip("ray", reason="Ray is an optional extra: `make scale`")


@pytest.fixture(scope="module")
def dataset_server(tmp_path_factory, chromium):
    folder = tmp_path_factory.mktemp("ray-run")
    (folder / "stsb.txt").write_text("\n".join(stsb_corpus()[:500]) + "\n", encoding="utf-8")
    ray.init(num_cpus=3, include_dashboard=False, logging_level="WARNING")
    try:
        assert main(["embed", "--engine", "ray", "--model", "all-MiniLM-L6-v2", "--pooling", "default",
                     "--input", str(folder / "stsb.txt"), "--output", str(folder / "stsb-500")]) == 0
    finally:
        ray.shutdown()
    app = start_server(SHOTS / "server-datasets.log", env={"EXPLORER_DATASETS": str(folder / "stsb-500")})
    yield app
    app.stop()


def test_retrieval_answers_from_the_folder_ray_wrote_and_the_map_draws_it(page, dataset_server):
    open_page(page, dataset_server, "retrieval?ret_source=Dataset%3A+stsb-500")
    page.get_by_text("Dataset: stsb-500 (500 texts, all-MiniLM-L6-v2, default pooling)").first.wait_for()
    page.get_by_text("answered by exact search over 500 vectors", exact=False).first.wait_for()
    check_and_shoot(page, "retrieval-dataset")
    open_page(page, dataset_server, "map?map_source=dataset%3Astsb-500")
    page.get_by_text("All 500 texts of the dataset", exact=False).first.wait_for()
    page.get_by_text("The query's nearest texts in all 500 of stsb-500").first.wait_for()
    page.get_by_text("every row is on the map", exact=False).first.wait_for()
    check_and_shoot(page, "map-dataset")
    assert "Traceback" not in dataset_server.log()
