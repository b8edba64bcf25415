"""Dataset folders: Parquet files of texts and vectors (the layout `to_parquet` writes, one row per text) with an
`_embedding.json` saying how they were embedded. pyarrow's dataset readers skip names starting with "_" or ".",
so the manifest and unfinished parts are never read as data."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import pyarrow.fs as pafs

from core.settings import Settings

MANIFEST = "_embedding.json"
PARTIAL = "_partial"  # folders being written; moved into place whole
FORMAT = 1


@dataclass(frozen=True)
class Manifest:
    """The settings every vector in the folder was made with (the device left out: it changes no vector)."""

    settings: Settings

    def to_json(self) -> str:
        settings = {key: value for key, value in asdict(self.settings).items() if key != "device"}
        return json.dumps({"format": FORMAT, "settings": settings}, indent=2)

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"This dataset's {MANIFEST} is of format {data.get('format')}, not {FORMAT}.")
        return cls(Settings(**data["settings"]))


def read_manifest(fs: pafs.FileSystem, folder: str) -> Manifest | None:
    path = f"{folder.rstrip('/')}/{MANIFEST}"
    if fs.get_file_info(path).type != pafs.FileType.File:
        return None
    with fs.open_input_stream(path) as stream:
        return Manifest.from_json(stream.read().decode("utf-8"))


def write_manifest(fs: pafs.FileSystem, folder: str, manifest: Manifest) -> None:
    with fs.open_output_stream(f"{folder.rstrip('/')}/{MANIFEST}") as stream:
        stream.write(manifest.to_json().encode("utf-8"))
