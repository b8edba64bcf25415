"""Every command that embeds or scores, with a model of every registered kind, refuses each option that does not apply
to that kind in one sentence (exit 1) from the kind's own list, and runs with --pooling left out (the model's own)."""

import pyarrow.parquet as pq
import pytest

from core.cli import main
from core.kinds import KINDS

VALUES = {"--pooling": ["--pooling", "mean"], "--layer": ["--layer", "1"], "--normalize": ["--normalize"],
          "--max-length": ["--max-length", "16"], "--truncate-dim": ["--truncate-dim", "8"],
          "--prompt": ["--prompt", "query: "], "--prompt-name": ["--prompt-name", "query"],
          "--no-prompts": ["--no-prompts"], "--quantize": ["--quantize", "int8"]}
# the options each command takes (the others are argparse's to refuse, exit 2)
TAKES = {"embed": {"--pooling", "--layer", "--normalize", "--max-length", "--truncate-dim", "--prompt",
                   "--prompt-name"},
         "search": {"--pooling", "--layer", "--truncate-dim", "--prompt", "--prompt-name", "--no-prompts"},
         "evaluate sts": {"--pooling", "--layer", "--truncate-dim", "--prompt", "--prompt-name", "--no-prompts"},
         "evaluate retrieval": {"--pooling", "--layer", "--truncate-dim", "--prompt", "--prompt-name", "--no-prompts",
                                "--quantize"}}
# a reranker embeds nothing: only the commands that score pairs take it
SCORES_PAIRS = {"evaluate sts"}
# what each kind refuses, written out here rather than read from the kind (a flag left off the kind's list must fail)
REFUSED = {
    "dense": set(),
    "sparse": {"--pooling", "--layer", "--normalize", "--truncate-dim", "--quantize"},
    "late interaction": {"--pooling", "--layer", "--normalize", "--max-length", "--truncate-dim", "--prompt",
                         "--prompt-name", "--no-prompts", "--quantize"},
    "reranker": {"--pooling", "--layer", "--normalize", "--max-length", "--truncate-dim", "--prompt", "--prompt-name",
                 "--no-prompts", "--quantize"},
}


@pytest.fixture(scope="module")
def folders(tiny_sentence_transformer_folder, sparse_folders, late_folders, reranker_folder):
    return {"dense": tiny_sentence_transformer_folder, "sparse": sparse_folders["splade"],
            "late interaction": late_folders["colbert"], "reranker": reranker_folder}


def _argv(command: str, tmp_path) -> list[str]:
    texts = tmp_path / "in.txt"
    texts.write_text("A man plays guitar.\nA woman slices an onion.\n", encoding="utf-8")
    return {"embed": ["embed", "--input", str(texts), "--output", str(tmp_path / "out.parquet")],
            "search": ["search", "--query", "a guitar", "--corpus", str(texts)],
            "evaluate sts": ["evaluate", "sts", "--split", "dev"],
            "evaluate retrieval": ["evaluate", "retrieval", "--split", "dev"]}[command]


CASES = [(kind, command, flag) for kind, refused in REFUSED.items() for command in TAKES
         for flag in sorted(refused) if flag in TAKES[command] and (kind != "reranker" or command in SCORES_PAIRS)]


@pytest.mark.parametrize("kind, command, flag", CASES)
def test_an_option_that_does_not_apply_is_refused_in_one_sentence(folders, tmp_path, capsys, kind, command, flag):
    assert main([*_argv(command, tmp_path), "--model", str(folders[kind]), *VALUES[flag]]) == 1
    said = capsys.readouterr().err
    shown = " ".join(VALUES[flag][:1] + VALUES[flag][1:] if flag == "--pooling" else VALUES[flag][:1])
    assert said == f"error: {shown} does not apply to {KINDS[kind].article}{KINDS[kind].why_refused}; leave it out.\n"
    assert not (tmp_path / "out.parquet").exists()


def test_each_kind_refuses_exactly_the_options_written_here():
    assert {name: set(kind.refused_flags()) for name, kind in KINDS.items()} == REFUSED
    assert ("late interaction", "search", "--prompt") in CASES


@pytest.mark.parametrize("kind", ["dense", "sparse", "late interaction"])
def test_embed_without_pooling_writes_the_models_own_pooling(folders, tmp_path, kind):
    assert main([*_argv("embed", tmp_path), "--model", str(folders[kind])]) == 0
    left_out = pq.read_table(tmp_path / "out.parquet")
    (tmp_path / "out.parquet").unlink()
    assert main([*_argv("embed", tmp_path), "--model", str(folders[kind]), "--pooling", "default"]) == 0
    assert left_out.equals(pq.read_table(tmp_path / "out.parquet"))


def test_a_reranker_given_to_embed_is_refused_in_one_sentence(folders, tmp_path, capsys):
    assert main([*_argv("embed", tmp_path), "--model", str(folders["reranker"])]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "is a reranker" in said
