"""The page "Pictures and words": a model of images and texts (CLIP, SigLIP) typed here, the example pictures or
uploaded ones, and texts typed beside them; then the one space they share (the modality gap), a text's nearest
pictures, zero-shot classification by prompts, and why a picture matches a text (integrated gradients over its
patches). The sidebar's model is a text model and is not used here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis.image_attribution import PatchAttribution, attribute_image
from core.analysis.image_space import image_text_space
from core.analysis.map.methods import METHODS, Method
from core.analysis.map.projection import ProjectionParams
from core.analysis.search import top_k, unit_rows
from core.data.image_examples import example_captions, example_corpus
from core.data.images import ImageCorpus, NoImages, uploaded_images
from core.data.stsb import DataUnavailable
from core.data.thumbnails import data_uri, thumbnail
from core.evaluation.captioned import captioned_retrieval, captions_pair
from core.evaluation.zero_shot import TEMPLATE, ZeroShot, prompts_of, zero_shot
from core.maps.pictures import LABEL, MODALITY, PictureMap, picture_map
from core.models.catalog import IMAGE_TEXT_ENTRIES, ModelUnavailable
from core.models.image_text import ImageTextModel, load_image_text
from core.plots.images import confusion_figure, gap_figure, patch_figure, space_heatmap
from ui.components.columns import THREE_DECIMALS
from ui.components.downloads import map_file_download
from ui.components.map_canvas import map_canvas
from ui.components.model_download import ready_or_download
from ui.state.persist import kept

SOURCES = {"examples": "The example pictures (14, CC0 or public domain)", "upload": "Upload pictures or a zip"}
PICTURES = ["png", "jpg", "jpeg", "webp", "gif"]
UPLOADS = ["zip", *PICTURES]
HITS = 5
IG_STEPS = 32


@st.cache_resource(show_spinner="Loading the model of images and texts…", max_entries=2)
def _model(model_id: str, device: str) -> ImageTextModel:
    return load_image_text(model_id, device)


@st.cache_data(show_spinner="Embedding the pictures…", max_entries=8)
def _image_vectors(model_id: str, fingerprint: str, row_ids: tuple[str, ...], _corpus: ImageCorpus,
                   _model: ImageTextModel) -> np.ndarray:
    return _model.encode_images(_corpus.images())


@st.cache_resource(show_spinner="Reading the pictures…", max_entries=1)
def _examples() -> ImageCorpus:
    return example_corpus()


@st.cache_resource(show_spinner="Reading the pictures…", max_entries=4)
def _uploaded(named: tuple[tuple[str, str], ...], _files: list[tuple[str, bytes]]) -> ImageCorpus:
    """The uploaded files read and checked once (`named`: each file's name and upload id)."""
    return uploaded_images(_files)


@st.cache_data(show_spinner="Classifying the pictures…", max_entries=16)
def _zero_shot(model_id: str, fingerprint: str, row_ids: tuple[str, ...], template: str, _images: np.ndarray,
               _labels: list[str], _model: ImageTextModel) -> ZeroShot:
    return zero_shot(_images, _labels, [row.split(":")[0] for row in row_ids],
                     lambda prompts: _text_vectors(model_id, fingerprint, tuple(prompts), _model), template)


@st.cache_data(show_spinner="Integrated gradients over the picture's patches…", max_entries=32)
def _attribution(model_id: str, fingerprint: str, row_id: str, text: str, _model: ImageTextModel,
                 _corpus: ImageCorpus, row: int) -> PatchAttribution:
    return attribute_image(_model, _corpus.image(row), text, steps=IG_STEPS)


@st.cache_resource(show_spinner="Mapping the pictures and texts…", max_entries=8)
def _map(model_id: str, fingerprint: str, row_ids: tuple[str, ...], texts: tuple[str, ...], method: Method,
         colour_by: str, query: str, _corpus: ImageCorpus, _images: np.ndarray, _vectors: np.ndarray,
         _model: ImageTextModel) -> PictureMap:
    asked = (query, _text_vectors(model_id, fingerprint, (query,), _model)[0]) if query else None
    return picture_map(_corpus, _images, list(texts), _vectors, ProjectionParams(method), colour_by=colour_by,
                       query=asked, top=HITS, model_id=model_id)


@st.cache_data(show_spinner="Embedding the texts…", max_entries=32)
def _text_vectors(model_id: str, fingerprint: str, texts: tuple[str, ...], _model: ImageTextModel) -> np.ndarray:
    return _model.encode_texts(list(texts))


def chosen_model(device: str) -> ImageTextModel | None:
    model_id = kept(st.text_input, "Model of images and texts", key="img_model", url=True, default="",
                    placeholder="a CLIP or SigLIP folder on this machine, or a Hugging Face id",
                    help="Any model sentence-transformers loads with an image modality: a CLIP or SigLIP folder "
                         "saved by sentence-transformers or transformers, or a hub id such as "
                         "sentence-transformers/clip-ViT-B-32 where downloads are on.").strip()
    st.caption("From the Hugging Face hub, downloaded once where downloads are on: " + "; ".join(
        f"{entry.repo} ({entry.facts.brief})" for entry in IMAGE_TEXT_ENTRIES if entry.facts is not None) + ".")
    if not model_id:
        st.info("Type a model of images and texts above (a CLIP or SigLIP folder, or a hub id where downloads are on) "
                "to see pictures and words in one space. The sidebar's model reads texts only, so it is not used "
                "here.")
        return None
    if not ready_or_download(model_id, key="img_model_download",
                             meanwhile="The pictures and texts are drawn once the model is here."):
        return None
    try:
        return _model(model_id, device)
    except ModelUnavailable as err:
        st.error(f"{err} Type another model above.")
        return None


def chosen_pictures() -> tuple[ImageCorpus, list[str]] | None:
    """The pictures, and the texts offered with them at first (the examples' captions)."""
    source = kept(st.radio, "Pictures", key="img_source", url=True, default="examples", options=list(SOURCES),
                  format_func=SOURCES.get, horizontal=True)
    try:
        if source == "examples":
            return _examples(), example_captions()
        files = st.file_uploader("Pictures (PNG, JPEG, WebP, GIF), or one zip of them (its subfolders are labels)",
                                 type=UPLOADS, accept_multiple_files=True, key="img_upload")
        if not files:
            st.info("Upload pictures, or a zip whose subfolders name their classes (for zero-shot classification).")
            return None
        corpus = _uploaded(tuple((file.name, file.file_id) for file in files),
                           [(file.name, file.getvalue()) for file in files])
    except (NoImages, DataUnavailable) as err:
        st.warning(str(err))
        return None
    if corpus.said():
        st.caption(corpus.said())
    return corpus, []


def _texts(offered: list[str]) -> list[str]:
    typed = kept(st.text_area, "Texts (one a line)", key="img_texts", default="\n".join(offered), height=140,
                 help="With as many texts as pictures, each text is read as its picture's caption, in order, and "
                      "retrieval is measured both ways.")
    return [line.strip() for line in typed.splitlines() if line.strip()]


def space_section(corpus: ImageCorpus, images: np.ndarray, texts: list[str], vectors: np.ndarray) -> None:
    st.subheader("One space: every picture and text against every other")
    space = image_text_space(images, vectors)
    thumbs = [data_uri(thumbnail(corpus, row)) for row in range(len(corpus))]
    st.plotly_chart(space_heatmap(space, corpus.paths, texts, thumbs), key="img_heatmap")
    blocks = space.blocks
    st.caption(f"Mean cosine: {blocks['image–image']:.3f} between pictures, {blocks['text–text']:.3f} between "
               f"texts, {blocks['image–text']:.3f} between a picture and a text. The white lines split the "
               "pictures (top left) from the texts (bottom right): a model of images and texts keeps each modality "
               "in a region of its own, so a picture and its caption can score below two unrelated pictures.")
    st.subheader("The modality gap")
    a, b = st.columns(2)
    a.metric("Distance between the centroids", f"{space.gap.distance:.3f}",
             help="‖mean picture − mean text‖ of the unit vectors (0 would be no gap; 2 at most).")
    b.metric("Variance along the gap", f"{space.gap.variance_share:.0%}",
             help="The share of all the vectors' variance that lies along the line between the two centroids.")
    st.plotly_chart(gap_figure(space, corpus.paths, texts), key="img_gap")
    st.caption("Liang et al. 2022 (“Mind the Gap”): the two modalities sit apart in the shared space. Closing the "
               "gap here centres each modality on its own centroid; the right panel shows the result.")
    if captions_pair(images, vectors):
        retrieval = captioned_retrieval(images, vectors)
        st.dataframe(retrieval, hide_index=True, column_config={
            column: THREE_DECIMALS for column in retrieval.columns if "@" in column})
        st.caption("Each text read as its picture's caption, in order: a caption finding its picture among all of "
                   "them and a picture its caption (Recall@k, MRR@10, nDCG@10, as sentence-transformers' evaluators "
                   "define them), with the gap as it is and closed.")


def search_section(corpus: ImageCorpus, images: np.ndarray, model: ImageTextModel) -> str:
    """The query's nearest pictures; the query, which the map lights too."""
    st.subheader("A text's nearest pictures")
    query = kept(st.text_input, "Query", key="img_query", url=True, default="a photo of a cat").strip()
    if not query:
        return ""
    vector = _text_vectors(model.model_id, model.fingerprint, (query,), model)
    hits = top_k(unit_rows(vector), unit_rows(images), min(HITS, len(corpus)))
    columns = st.columns(len(hits.indices[0]))
    for rank, (column, row, score) in enumerate(zip(columns, hits.indices[0], hits.scores[0], strict=True)):
        column.image(thumbnail(corpus, int(row), 160), caption=f"{corpus.paths[row]} · cosine {score:.3f}",
                     alt=f"{corpus.paths[row]}, hit {rank + 1} for “{query}”")
    return query


def map_section(corpus: ImageCorpus, images: np.ndarray, texts: list[str], vectors: np.ndarray,
                model: ImageTextModel, query: str) -> None:
    st.subheader("The map: pictures and texts")
    left, right = st.columns(2)
    method = kept(left.selectbox, "Projection", key="img_map_method", url=True, default="PCA", options=list(METHODS))
    colours = {MODALITY: "Picture or text", LABEL: "The pictures' labels (subfolders)"}
    colour_by = kept(right.radio, "Colour by", key="img_map_colour", url=True, default=MODALITY,
                     options=list(colours), format_func=colours.get, horizontal=True)
    try:
        found = _map(model.model_id, model.fingerprint, tuple(corpus.row_ids), tuple(texts), method, colour_by, query,
                     corpus, images, vectors, model)
    except ValueError as err:
        st.info(f"{err} Try PCA, or add pictures or texts.")
        return
    canvas = found.canvas()
    map_canvas(canvas, key="img_map", hover_text=found.hover, on_selection=lambda rows: None,
               hover_image=lambda row: None if (jpeg := found.thumbnail(corpus, row)) is None else data_uri(jpeg))
    map_file_download(canvas, lambda: found.file_rows(corpus), {}, file_name="pictures-map.html", key="img_map_html")
    lit = "" if found.lit is None else (f" The query “{query}” is the star; its {len(found.lit)} nearest pictures by "
                                        "the cosine in the full space are lit, with lines to them.")
    st.caption(f"Each point is a picture or a text; hover a picture for its thumbnail. Only closeness means "
               f"something: the axes have no units, and the two modalities sit apart (the gap above).{lit}")


def picture_query_section(corpus: ImageCorpus, images: np.ndarray, texts: list[str], vectors: np.ndarray,
                          model: ImageTextModel) -> None:
    st.subheader("A picture's nearest pictures and texts")
    upload = st.file_uploader("A picture as the query (PNG, JPEG, WebP, GIF)", type=PICTURES, key="img_query_file")
    if upload is None:
        st.caption("Upload a picture: the pictures and texts nearest it by the cosine, in the one space they share.")
        return
    try:
        query = _uploaded(((upload.name, upload.file_id),), [(upload.name, upload.getvalue())])
    except NoImages as err:
        st.warning(f"{err} Upload another picture.")
        return
    vector = unit_rows(_image_vectors(model.model_id, model.fingerprint, tuple(query.row_ids), query, model))
    hits = top_k(vector, unit_rows(images), min(HITS, len(corpus)))
    columns = st.columns(len(hits.indices[0]))
    for rank, (column, row, score) in enumerate(zip(columns, hits.indices[0], hits.scores[0], strict=True)):
        column.image(thumbnail(corpus, int(row), 160), caption=f"{corpus.paths[row]} · cosine {score:.3f}",
                     alt=f"{corpus.paths[row]}, hit {rank + 1} for the picture {upload.name}")
    if texts:
        found = top_k(vector, unit_rows(vectors), min(HITS, len(texts)))
        st.dataframe(pd.DataFrame({"text": [texts[i] for i in found.indices[0]], "cosine": found.scores[0]}),
                     hide_index=True, column_config={"cosine": THREE_DECIMALS})


def zero_shot_section(corpus: ImageCorpus, images: np.ndarray, model: ImageTextModel) -> None:
    st.subheader("Zero-shot classification")
    template = kept(st.text_input, "Prompt for each class", key="img_template", default=TEMPLATE,
                    help="Each class's name goes where {label} is.")
    try:
        prompts_of(["x"], template)
        found = _zero_shot(model.model_id, model.fingerprint, tuple(corpus.row_ids), template, images, corpus.labels,
                           model)
    except ValueError as err:
        st.info(str(err))
        return
    a, b, c, d = st.columns(4)
    a.metric("Accuracy", f"{found.accuracy:.0%}")
    b.metric("Gap closed", f"{found.closed_accuracy:.0%}")
    c.metric("Always the largest class", f"{found.majority:.0%}")
    d.metric("Linear probe", "—" if found.probe_accuracy is None else f"{found.probe_accuracy:.0%}")
    st.plotly_chart(confusion_figure(found.confusion, found.classes), key="img_confusion")
    said = [f"{found.unlabelled:,} pictures without a label were left out."] if found.unlabelled else []
    st.caption(" ".join([f"Each picture takes the class whose prompt (“{found.prompts[0]}”, …) is nearest by the "
                         "cosine. “Gap closed”: the same with each modality centred on its own centroid. The linear "
                         "probe is trained on the picture vectors (folds that keep equal pictures together): what "
                         "the vectors hold, against what the prompts find of it.", *said, found.probe_note]))


def why_section(corpus: ImageCorpus, texts: list[str], model: ImageTextModel) -> None:
    st.subheader("Why does this picture match this text?")
    if not texts:
        st.info("Type a text above to explain a match.")
        return
    left, right = st.columns(2)
    row = left.selectbox("Picture", range(len(corpus)), format_func=corpus.paths.__getitem__, key="img_why_image")
    text = right.selectbox("Text", texts, key="img_why_text")
    try:
        found = _attribution(model.model_id, model.fingerprint, corpus.row_ids[row], text, model, corpus, row)
    except ValueError as err:
        st.info(str(err))
        return
    st.plotly_chart(patch_figure(found), key="img_patches")
    st.caption(f"Integrated gradients ({found.steps} steps) of the cosine ({found.score:.3f}) over the picture's "
               f"patches, from the picture of the processor's mean colour (cosine {found.baseline_score:.3f}): red "
               f"patches raised the score, blue ones lowered it. They sum to {found.patches.sum():.4f}, the change "
               f"is {found.change:.4f} (gap {found.gap:+.4f}).")
    table = pd.DataFrame([(r, c, float(found.patches[r, c])) for r in range(found.patches.shape[0])
                          for c in range(found.patches.shape[1])], columns=["row", "column", "attribution"])
    with st.expander("Every patch's attribution"):
        st.dataframe(table, hide_index=True)


def images_view(device: str) -> None:
    model = chosen_model(device)
    pictures = chosen_pictures()
    if model is None or pictures is None:
        return
    corpus, offered = pictures
    texts = _texts(offered)
    images = _image_vectors(model.model_id, model.fingerprint, tuple(corpus.row_ids), corpus, model)
    vectors = _text_vectors(model.model_id, model.fingerprint, tuple(texts), model)
    if texts:
        space_section(corpus, images, texts, vectors)
    else:
        st.info("Type texts above to put them in one space with the pictures.")
    query = search_section(corpus, images, model)
    map_section(corpus, images, texts, vectors, model, query)
    picture_query_section(corpus, images, texts, vectors, model)
    zero_shot_section(corpus, images, model)
    why_section(corpus, texts, model)
