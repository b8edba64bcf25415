"""The labels a corpus's rows carry besides its own columns: tags, each a name given to a set of rows (a selection on
the map, the texts a probe finds mislabelled), kept by row id (core.data.rows).

A text's row id is a content id (its digest and its place among equal texts), so every corpus of texts shares one
store of tags, TEXTS: a corpus re-ordered, grown or shrunk, a sample of another size, or another page's corpus keeps
the tags of the rows it still holds, and a tag made on one page shows on every other. A dataset folder's rows are
numbered within its name and version, so its tags are a scope of their own (`dataset_scope`). Each scope's tags are
one JSON file in the cache folder (`tags/<scope>.json`), written whole and atomically under a lock, with the states
before its last changes, so a change can be undone. A tag's rows that a corpus does not hold are kept, and count again
where a corpus holds them.

Exported, a table of rows has one boolean `tag_<name>` column per tag (as latent-scope exports its tags)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from core.data.rows import ROW_ID
from core.paths import atomic_write, cache_dir, held

TAG_PREFIX = "tag_"  # an exported tag's column: tag_<name>
MAX_NAME = 60  # characters of a tag's name
UNDO_DEPTH = 20  # the changes that can be undone, latest first


class TagError(ValueError):
    """A tag that cannot be made, renamed or found; the message says why and what to do."""


TEXTS = "texts"  # the scope of every corpus whose rows are known by their texts


def dataset_scope(name: str, version: str) -> str:
    """A dataset folder's scope: its name and version (its rows are numbered within that version)."""
    digest = hashlib.blake2b(f"{name}\0{version}".encode("utf-8"), digest_size=20, person=b"dataset").hexdigest()
    return f"dataset-{digest}"


def tag_name(name: str) -> str:
    """A tag's name, trimmed; TagError where it is empty or too long."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise TagError("A tag needs a name: type one, such as “questions” or “possible mislabel”.")
    if len(cleaned) > MAX_NAME:
        raise TagError(f"A tag's name is at most {MAX_NAME} characters, not {len(cleaned)}; shorten it.")
    return cleaned


Tags = dict[str, frozenset[str]]  # a tag's name -> the ids of its rows


@dataclass(frozen=True)
class TagState:
    """A scope's tags now, and the states before its last changes (latest first), each said in a few words."""

    tags: Tags = field(default_factory=dict)
    history: tuple[tuple[str, Tags], ...] = ()

    def changed(self, tags: Tags, change: str) -> TagState:
        return TagState(tags, ((change, self.tags), *self.history)[:UNDO_DEPTH])

    @property
    def last_change(self) -> str | None:
        return self.history[0][0] if self.history else None


def _encoded(state: TagState) -> str:
    def plain(tags: Tags) -> dict[str, list[str]]:
        return {name: sorted(rows) for name, rows in tags.items()}

    return json.dumps({"tags": plain(state.tags),
                       "history": [{"change": change, "tags": plain(tags)} for change, tags in state.history]})


def _decoded(text: str) -> TagState:
    def sets(tags: dict[str, list[str]]) -> Tags:
        return {str(name): frozenset(map(str, rows)) for name, rows in tags.items()}

    data = json.loads(text)
    return TagState(sets(data.get("tags", {})),
                    tuple((str(step["change"]), sets(step["tags"])) for step in data.get("history", [])))


class TagStore:
    """Every scope's tags (TEXTS, or a dataset's `dataset_scope`), kept in `folder` (the cache folder's `tags/` by
    default)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else cache_dir() / "tags"

    def _path(self, scope: str) -> Path:
        return self.folder / f"{scope}.json"

    def state(self, scope: str) -> TagState:
        path = self._path(scope)
        if not path.exists():
            return TagState()
        try:
            return _decoded(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError):  # a file this app did not write whole: start again, said by its name
            raise TagError(f"The tags in {path} could not be read; move the file away to start these tags "
                           "afresh.") from None

    def tags(self, scope: str) -> Tags:
        return self.state(scope).tags

    def _change(self, scope: str, change: str, edit: Callable[[Tags], Tags]) -> TagState:
        """Apply `edit(tags) -> tags` to the stored tags, under the lock, and store the result with the change."""
        with held(self.folder / ".lock"):
            state = self.state(scope)
            new = state.changed(edit(dict(state.tags)), change)
            atomic_write(self._path(scope), lambda tmp: tmp.write_text(_encoded(new), encoding="utf-8"))
            return new

    def tag(self, scope: str, name: str, rows: Iterable[str]) -> TagState:
        """Add `rows` to the tag `name` (made if new)."""
        name, chosen = tag_name(name), frozenset(rows)
        if not chosen:
            raise TagError("Nothing is selected: select points on the map (click, Box or Lasso), then tag them.")
        return self._change(scope, f"tagged {len(chosen):,} row(s) “{name}”",
                            lambda tags: {**tags, name: tags.get(name, frozenset()) | chosen})

    def untag(self, scope: str, name: str, rows: Iterable[str]) -> TagState:
        """Take `rows` out of the tag `name` (the tag stays, if empty)."""
        gone = frozenset(rows)
        return self._change(scope, f"took {len(gone):,} row(s) out of “{name}”",
                            lambda tags: {**_having(tags, name), name: tags[name] - gone})

    def rename(self, scope: str, old: str, new: str) -> TagState:
        new = tag_name(new)

        def renamed(tags: Tags) -> Tags:
            _having(tags, old)
            if new != old and new in tags:
                raise TagError(f"There is a tag “{new}” already; pick another name, or remove that tag first.")
            return {(new if name == old else name): rows for name, rows in tags.items()}

        return self._change(scope, f"renamed “{old}” to “{new}”", renamed)

    def remove(self, scope: str, name: str) -> TagState:
        return self._change(scope, f"removed “{name}”",
                            lambda tags: {key: rows for key, rows in _having(tags, name).items() if key != name})

    def undo(self, scope: str) -> TagState:
        """The tags as they were before the last change."""
        with held(self.folder / ".lock"):
            state = self.state(scope)
            if not state.history:
                raise TagError("There is no change to undo.")
            before = TagState(state.history[0][1], state.history[1:])
            atomic_write(self._path(scope), lambda tmp: tmp.write_text(_encoded(before), encoding="utf-8"))
            return before


def _having(tags: Tags, name: str) -> Tags:
    if name not in tags:
        raise TagError(f"There is no tag “{name}”; the tags are: {', '.join(tags) or 'none yet'}.")
    return tags


def tags_here(row_ids: Iterable[str], tags: Tags) -> Tags:
    """The tags that some of these rows carry (a scope's tags of other corpora's rows left out)."""
    here = set(row_ids)
    return {name: rows for name, rows in tags.items() if not here.isdisjoint(rows)}


def tag_columns(row_ids: Sequence[str], tags: Tags) -> pd.DataFrame:
    """One boolean column per tag that some of the rows carry, `tag_<name>`, true where the row carries it."""
    ids = np.asarray(row_ids, dtype=object)
    return pd.DataFrame({f"{TAG_PREFIX}{name}": np.isin(ids, list(rows))
                         for name, rows in tags_here(row_ids, tags).items()}, index=range(len(ids)))


def labelled_table(frame: pd.DataFrame, tags: Tags, coords: np.ndarray | None = None) -> pd.DataFrame:
    """The rows to export: `row_id`, `text`, the label columns, one `tag_<name>` column per tag, and the map's `x`
    and `y` where a map is drawn."""
    table = frame.reset_index(drop=True)
    parts = [table, tag_columns(table[ROW_ID].tolist(), tags)]
    if coords is not None:
        parts.append(pd.DataFrame({"x": coords[:, 0], "y": coords[:, 1]}))
    return pd.concat(parts, axis=1)


def tags_from_table(table: pd.DataFrame) -> Tags:
    """The tags of an exported table (a map file's download, say): each `tag_<name>` column's true rows, by row id."""
    if ROW_ID not in table.columns:
        raise TagError("The table has no row_id column, so its tags cannot be matched to rows; export it from the "
                       "app, which writes one.")
    ids = table[ROW_ID].astype(str)
    found = {}
    for column in table.columns:
        if str(column).startswith(TAG_PREFIX):
            marked = table[column].astype(str).str.lower().isin(["true", "1", "yes"])
            found[tag_name(str(column)[len(TAG_PREFIX):])] = frozenset(ids[marked])
    return found
