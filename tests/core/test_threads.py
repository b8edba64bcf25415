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
