"""The one registry of pages: each page's file, title, icon, URL path and the prefix its widget keys start with.
The navigation, the URL state, the lessons and the tests read it, so adding a page is one entry here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    file: str
    title: str
    icon: str
    url_path: str  # "" for the default page
    prefix: str  # every widget key of the page starts with it

    @property
    def default(self) -> bool:
        return self.url_path == ""


PAGES: tuple[PageInfo, ...] = (
    PageInfo("views/home.py", "Home", ":material/home:", "", "home_"),
    PageInfo("views/lessons.py", "Lessons", ":material/school:", "lessons", "les_"),
    PageInfo("views/similarity.py", "Similarity", ":material/grid_on:", "similarity", "sim_"),
    PageInfo("views/layers.py", "Layers", ":material/stacked_line_chart:", "layers", "layers_"),
    PageInfo("views/probes.py", "What each layer knows", ":material/label:", "probes", "probe_"),
    PageInfo("views/model.py", "Model", ":material/memory:", "model", "model_"),
    PageInfo("views/retrieval.py", "Retrieval", ":material/search:", "retrieval", "ret_"),
    PageInfo("views/evaluation.py", "Evaluation", ":material/fact_check:", "evaluation", "ev_"),
    PageInfo("views/map.py", "Embedding map", ":material/scatter_plot:", "map", "map_"),
    PageInfo("views/images.py", "Pictures and words", ":material/image:", "images", "img_"),
    PageInfo("views/finetune.py", "Fine-tune", ":material/model_training:", "finetune", "ft_"),
)
BY_PATH = {page.url_path: page for page in PAGES}
