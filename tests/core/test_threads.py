import json
import subprocess
import sys

from tests.conftest import ROOT


def test_one_blas_thread_sets_every_loaded_blas_to_one_thread_and_leaves_torch_alone():
    # in a process of its own: the setting is for the whole process
    script = ("import json, numpy, scipy.linalg, torch, threadpoolctl\n"
              "from core.threads import one_blas_thread\n"
              "torch.set_num_threads(2)\n"
              "threadpoolctl.threadpool_limits(2, user_api='blas')\n"
              "one_blas_thread()\n"
              "print(json.dumps({'blas': [p['num_threads'] for p in threadpoolctl.threadpool_info() "
              "if p['user_api'] == 'blas'], 'torch': torch.get_num_threads()}))")
    found = json.loads(subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                                      check=True).stdout)
    assert found["blas"] and set(found["blas"]) == {1}
    assert found["torch"] == 2


def test_a_fork_after_log_forks_is_said_in_the_log_with_where_it_came_from_and_a_subprocess_is_not():
    # in a process of its own: a fork hook stays for the whole process
    script = ("import multiprocessing, os, subprocess, sys\n"
              "from core.threads import log_forks\n"
              "log_forks()\n"
              "subprocess.run([sys.executable, '-c', 'pass'], check=True)\n"
              "print('after the subprocess', file=sys.stderr, flush=True)\n"
              "def pool_of_two():\n"
              "    with multiprocessing.get_context('fork').Pool(2) as pool:\n"
              "        pool.map(abs, [1, 2])\n"
              "pool_of_two()\n")
    err = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stderr
    from core.threads import FORK_LINE

    before, after = err.split("after the subprocess", 1)
    assert FORK_LINE not in before  # fork and exec at once: no fork hooks, no lock copied
    assert after.count(FORK_LINE) >= 2 and "in pool_of_two" in after


def test_work_shared_out_runs_on_threads_of_this_process():
    import os
    import threading

    from joblib import delayed

    from core.threads import shared_out

    found = shared_out([delayed(lambda: (os.getpid(), threading.get_ident()))() for _ in range(6)])
    assert {pid for pid, _ in found} == {os.getpid()}


def test_t_sne_on_every_core_runs_threads_not_processes():
    """openTSNE is asked for every core (`n_jobs=-1`): its own threads, and its neighbour search's, fork nothing."""
    import numpy as np

    from core.analysis.map.projection import fit_tsne
    from tests.forks import forks

    before = forks()
    fit_tsne(np.random.default_rng(0).normal(size=(300, 16)).astype(np.float32))
    assert forks() == before
