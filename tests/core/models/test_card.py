import json

from core.models.card import matryoshka_dims


def test_matryoshka_dims_are_read_from_the_loss_block_sentence_transformers_writes(tmp_path):
    loss = {"loss": "MultipleNegativesRankingLoss", "matryoshka_dims": [64, 768, 256], "n_dims_per_step": -1}
    (tmp_path / "README.md").write_text(f"## Training Details\n\n```json\n{json.dumps(loss, indent=4)}\n```\n")
    assert matryoshka_dims(tmp_path) == (768, 256, 64)


def test_a_card_without_them_or_no_card_declares_none(tmp_path):
    assert matryoshka_dims(tmp_path) == ()
    (tmp_path / "README.md").write_text("Trained with MultipleNegativesRankingLoss.")
    assert matryoshka_dims(tmp_path) == ()
