"""Where a loaded model came from on the Hugging Face hub: its id, the commit whose snapshot in the cache it was loaded
from, that commit's page on the hub, and what its model card (README.md, parsed by huggingface_hub's ModelCard)
declares. Read from the cache alone: no page waits on the network."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.models.cache import cached_origin
from core.models.download import CARD_FILE


@dataclass(frozen=True)
class CardFacts:
    """What the card's front matter (ModelCardData) declares; empty where it declares nothing."""

    license: str | None
    base_models: tuple[str, ...]
    languages: tuple[str, ...]
    library: str | None


@dataclass(frozen=True)
class HubOrigin:
    repo_id: str
    commit: str
    url: str | None  # the repo's page at `commit` on the hub (HF_ENDPOINT's); None for an id huggingface_hub refuses
    card: CardFacts | None
    card_note: str  # why there are no card facts ("" when there are)


def _listed(value: str | list[str] | None) -> tuple[str, ...]:
    return () if value is None else (value,) if isinstance(value, str) else tuple(value)


def card_facts(readme: Path) -> CardFacts:
    """The card's licence (the licence's own name where it is "other"), base models, languages and library;
    ValueError (or a yaml error) for front matter that is not a YAML mapping."""
    from huggingface_hub import ModelCard

    data = ModelCard.load(readme).data
    license_ = data.license_name if data.license == "other" and data.license_name else data.license
    return CardFacts(license_, _listed(data.base_model), _listed(data.language), data.library_name)


def hub_page(repo_id: str, commit: str) -> str | None:
    """The hub's page of `repo_id`'s files at `commit`, as huggingface_hub writes it (HfUri.to_url, on the endpoint
    HF_ENDPOINT names), so a shared link opens the same weights; None for an id it does not take (a legacy id
    without an owner)."""
    from huggingface_hub import HfUri
    from huggingface_hub.errors import HfUriError

    try:
        return HfUri(type="model", id=repo_id, revision=commit).to_url()
    except HfUriError:
        return None


def hub_origin(folder: Path, cache_dir: Path | None = None) -> HubOrigin | None:
    """Where `folder` came from on the hub (a snapshot in huggingface_hub's cache), or None for a folder from
    elsewhere (a packaged, converted or fine-tuned model, a local folder)."""
    import yaml

    origin = cached_origin(folder, cache_dir)
    if origin is None:
        return None
    repo_id, commit = origin
    readme, card, note = folder / CARD_FILE, None, ""
    if not readme.is_file():
        note = (f"The model card ({CARD_FILE}) is not in the cache: this model was downloaded before the app fetched "
                f"cards; `hf download {repo_id} {CARD_FILE} --revision {commit}` fetches it.")
    else:
        try:
            card = card_facts(readme)
        except (ValueError, yaml.YAMLError) as err:
            note = f"The model card's front matter could not be read ({type(err).__name__}), so it is not shown."
    return HubOrigin(repo_id, commit, hub_page(repo_id, commit), card, note)


def origin_facts(origin: HubOrigin) -> dict[str, object]:
    """The hub's facts about the model, for a table: id and commit, then what the card declares (where there is
    a card)."""
    facts: dict[str, object] = {"hub id": origin.repo_id, "revision (commit)": origin.commit}
    if origin.card is not None:
        card, none = origin.card, "not declared"
        facts |= {"licence": card.license or none, "base model": ", ".join(card.base_models) or none,
                  "languages": ", ".join(card.languages) or none, "library": card.library or none}
    return facts
