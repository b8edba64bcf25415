"""What each layer knows: your labels (STS-B's genres, or a label column of your file) probed at every layer of the
model, beside the words, the same architecture untrained and chance; then a layer's confusion, mistakes, possible
mislabels and a concept's direction."""

from __future__ import annotations

from ui.components.sidebar import page
from ui.pages.probes import probe_view


def main() -> None:
    settings, model = page("What each layer knows")
    probe_view(model, settings)


main()
