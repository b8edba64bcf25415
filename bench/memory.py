"""Resident memory of a process that embeds and caches texts, and after an Evaluation run."""

from __future__ import annotations

import os
import subprocess
import sys

from bench.common import ROOT, Row

MEMORY_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from core.data.stsb import stsb_sentences
from core.encoding.embedding_cache import cached_embeddings
from core.models.loading import load_model

def peak_mb():  # VmHWM starts afresh at exec (ru_maxrss would carry the parent's peak over)
    line = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:'))
    return int(line.split()[1]) / 1024

texts = list(dict.fromkeys(stsb_sentences('train') + stsb_sentences('dev') + stsb_sentences('test')))[:10000]
model = load_model('all-MiniLM-L6-v2', 'cpu')
after_load = peak_mb()
cached_embeddings(model, texts)
print(len(texts), after_load, peak_mb())
"""


EVALUATION_MEMORY_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
from core.evaluation.retrieval import evaluate_embeddings, paraphrase_task
from core.models.loading import load_model
from core.settings import Settings

def resident_mb():
    line = next(l for l in open('/proc/self/status') if l.startswith('VmRSS:'))
    return int(line.split()[1]) / 1024

model = load_model('all-MiniLM-L6-v2', 'cpu')
task = paraphrase_task('dev')
loaded = resident_mb()
for pooling in ('default', 'cls', 'max'):
    evaluate_embeddings(model, task, Settings(pooling=pooling))
print(loaded, resident_mb())
"""


def _run_script(script: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", script.format(root=str(ROOT))], capture_output=True, text=True,
                          check=True, env=os.environ).stdout.split()


def bench_memory(rows: list[Row]) -> None:
    out = _run_script(MEMORY_SCRIPT)
    count, loaded, peak = int(out[0]), float(out[1]), float(out[2])
    rows.append(Row(f"Peak resident memory: default model loaded, {count:,} texts embedded and cached",
                    f"{peak:,.0f} MB", f"model loaded only: {loaded:,.0f} MB", f"+{peak - loaded:,.0f} MB",
                    raw={"peak_mb": peak, "loaded_mb": loaded, "texts": count}))
    loaded, after = (float(v) for v in _run_script(EVALUATION_MEMORY_SCRIPT))
    rows.append(Row("Resident memory after an Evaluation run of three configurations (default, CLS, max pooling) on "
                    "the paraphrase task (7,977 + 262 texts each)", f"{after:,.0f} MB",
                    f"model loaded only: {loaded:,.0f} MB", f"+{after - loaded:,.0f} MB",
                    raw={"after_mb": after, "loaded_mb": loaded}))
