"""One model built at a time in this process. transformers builds a model under context managers that patch
process-wide state and restore it on exit (`PreTrainedModel.tie_weights` replaced by a no-op, torch's init functions,
the default dtype), so two threads building at once can leave a tied weight on the meta device, or keep the no-op for
good when their patches overlap, and every later load of a tied model fails (huggingface/transformers#44940, open).
The app builds models in page threads and in its background queue at the same time."""

from __future__ import annotations

import threading

BUILDING = threading.RLock()  # re-entrant: a load may build a second model inside the first (untrained-bert)
