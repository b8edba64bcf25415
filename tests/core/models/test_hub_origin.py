"""Where a model came from on the hub, as Home and Model show it: a card's facts as huggingface_hub's ModelCard parses
them, the hub page at a commit as huggingface_hub writes it, and, against olah on loopback (tests/hubserver.py), a
model the app downloads showing the commit olah serves and its card's facts, and one cached without its card."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.models.hub_origin import CardFacts, card_facts, hub_page, origin_facts
from tests.conftest import ROOT
from tests.hubserver import hub_env

CARDED = "explorer-tests/tiny-st-card"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def parsed(readme: Path) -> CardFacts:
    """The reference: huggingface_hub's own parse of the card, each field as it declares it."""
    from huggingface_hub import ModelCard

    data = ModelCard.load(readme).data
    listed = [data.base_model] if isinstance(data.base_model, str) else data.base_model or []
    languages = [data.language] if isinstance(data.language, str) else data.language or []
    return CardFacts(data.license, tuple(listed), tuple(languages), data.library_name)


def test_a_cards_facts_are_what_huggingface_hub_parses_from_it(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("---\nlicense: mit\nbase_model:\n- org/one\n- org/two\nlanguage: fr\n---\n# x\n",
                      encoding="utf-8")
    assert card_facts(readme) == parsed(readme) == CardFacts("mit", ("org/one", "org/two"), ("fr",), None)
    readme.write_text("# A card with no front matter\n", encoding="utf-8")
    assert card_facts(readme) == CardFacts(None, (), (), None)


def test_a_licence_the_card_calls_other_is_named_by_its_own_name(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("---\nlicense: other\nlicense_name: gemma\n---\n", encoding="utf-8")
    assert card_facts(readme).license == "gemma"


def test_the_hub_page_is_the_repos_files_at_the_commit_as_huggingface_hub_writes_it():
    from huggingface_hub import constants, parse_hf_uri

    url = hub_page("org/name", COMMIT)
    assert url == f"{constants.ENDPOINT}/org/name/tree/{COMMIT}"
    back = parse_hf_uri(url)  # huggingface_hub reads its own link back as the same repo and commit
    assert (back.type, back.id, back.revision) == ("model", "org/name", COMMIT)
    assert hub_page("gpt2", COMMIT) is None  # a legacy id with no owner: no link rather than a wrong one


def test_the_table_says_what_a_card_does_not_declare():
    from core.models.hub_origin import HubOrigin

    origin = HubOrigin("org/name", COMMIT, None, CardFacts(None, (), ("en",), "transformers"), "")
    assert origin_facts(origin) == {"hub id": "org/name", "revision (commit)": COMMIT, "licence": "not declared",
                                    "base model": "not declared", "languages": "en", "library": "transformers"}
    assert list(origin_facts(HubOrigin("org/name", COMMIT, None, None, "no card"))) == ["hub id", "revision (commit)"]


def _client(model_id: str, env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.hubclient", model_id], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_downloaded_model_shows_the_commit_served_its_cards_facts_and_its_page_there(hub, carded_hub_home):
    answer = _client(CARDED, hub_env(hub.url, carded_hub_home, HF_HUB_OFFLINE="1"))  # the cache alone answers
    commit = hub.commits[CARDED][-1]
    source_card = hub.sources[CARDED] / "README.md"
    assert Path(answer["folder"], "README.md").read_bytes() == source_card.read_bytes()  # the download fetched it
    origin = answer["origin"]
    assert (origin["repo_id"], origin["commit"]) == (CARDED, commit)
    assert origin["url"] == f"{hub.url}/{CARDED}/tree/{commit}"  # on HF_ENDPOINT's hub
    reference = parsed(source_card)
    assert CardFacts(**{key: tuple(value) if isinstance(value, list) else value
                        for key, value in origin["card"].items()}) == reference
    assert reference == CardFacts("apache-2.0", ("explorer-tests/tiny-bert",), ("en", "de"), "sentence-transformers")
    assert origin["card_note"] == ""


@pytest.mark.slow
def test_a_model_cached_without_its_card_loads_and_says_the_card_is_not_in_the_cache(hub, carded_hub_home, tmp_path):
    home = tmp_path / "home"
    shutil.copytree(carded_hub_home, home, symlinks=True)
    commit = hub.commits[CARDED][-1]
    snapshot = home / "hub" / f"models--{CARDED.replace('/', '--')}" / "snapshots" / commit
    (snapshot / "README.md").unlink()  # as a download made before the card was fetched left it
    answer = _client(CARDED, hub_env(hub.url, home, HF_HUB_OFFLINE="1"))
    assert answer["folder"] == str(snapshot)  # still complete for loading: no download needed
    origin = answer["origin"]
    assert (origin["repo_id"], origin["commit"], origin["card"]) == (CARDED, commit, None)
    assert origin["url"] == f"{hub.url}/{CARDED}/tree/{commit}"
    assert origin["card_note"] == (
        "The model card (README.md) is not in the cache: this model was downloaded before the app fetched cards; "
        f"`hf download {CARDED} README.md --revision {commit}` fetches it.")


def test_a_folder_from_elsewhere_has_no_hub_origin(tiny_sentence_transformer_folder):
    from core.models.hub_origin import hub_origin

    assert hub_origin(tiny_sentence_transformer_folder) is None
