"""A class on one server: many sessions speaking Streamlit's own websocket protocol (the BackMsg and ForwardMsg
protobufs the browser sends and receives), each opening pages and changing its own inputs as a student would.

A browser per student would spend the two cores on drawing; these clients cost almost nothing, so the figures are
the server's: the time from a change sent to the script finished with every element (figures included) delivered.
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from websockets.asyncio.client import connect

from core.data.stsb import stsb_corpus

T = TypeVar("T")
ANIMALS = ["otter", "heron", "badger", "lynx", "walrus", "gecko", "ibis", "marmot", "bison", "crane", "dingo", "eland",
           "ferret", "gibbon", "hyena", "impala", "jackal", "koala", "lemur", "magpie", "newt", "ocelot", "puffin",
           "quokka", "raven", "stoat", "tapir", "vole", "wombat", "yak"]


@dataclass
class Step:
    page: str  # the URL path: "similarity"
    key: str  # the widget's key on that page
    value: str  # what the student types
    mine: str  # what the page must show back once it has the student's value
    private: bool = True  # the page shows nothing but the student's own texts: no other animal may appear


def student_steps(k: int, corpus: list[str]) -> list[Step]:
    """Student k's own texts on Similarity and Layers, each naming its animal, and on Retrieval a query that is one
    corpus sentence of its own (the corpus is the same for everyone, so Retrieval is checked for that hit only)."""
    animal = ANIMALS[k % len(ANIMALS)]
    plain = [text for text in corpus if re.fullmatch(r"[A-Za-z ]{30,80}\.", text)]
    sentence = plain[(k * 97) % len(plain)]
    return [Step("similarity", "sim_texts", f"The {animal} sleeps.\nA {animal} swims in class {k}.\nTaxes rose.",
                 animal),
            Step("layers", "layers_texts", f"The {animal} sat on the river bank.\nThe bank by the {animal}.", animal),
            Step("retrieval", "ret_query", sentence, sentence, private=False)]


@dataclass
class Timing:
    session: int
    what: str  # "open similarity", "change sim_texts"
    seconds: float
    ok: bool


@dataclass
class Session:
    """One student's connection: sends reruns, reads ForwardMsgs until the script has finished."""

    number: int
    url: str
    pages: dict[str, str] = field(default_factory=dict)  # url path -> page script hash
    widgets: dict[str, str] = field(default_factory=dict)  # user key -> widget id, on the current page
    page: str = ""
    seen: bytes = b""  # everything the server sent on the last run, to look for other students' texts

    async def run(self, socket, path: str, states: list[WidgetState]) -> bool:
        """One script run; True when it finished without an exception element."""
        state = ClientState(query_string="", page_name=path, page_script_hash=self.pages.get(path, ""),
                            widget_states=WidgetStates(widgets=states))
        await socket.send(BackMsg(rerun_script=state).SerializeToString())
        ok, seen = True, []
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(await socket.recv())
            msg_type = msg.WhichOneof("type")
            if msg_type == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            elif msg_type == "delta":
                seen.append(msg.delta.SerializeToString())
                element = msg.delta.new_element
                which = element.WhichOneof("type") if msg.delta.WhichOneof("type") == "new_element" else None
                if which == "exception":
                    ok = False
                elif which is not None:
                    widget_id = getattr(getattr(element, which), "id", "")
                    if isinstance(widget_id, str) and widget_id.startswith("$$ID"):
                        self.widgets[widget_id.rsplit("-", 1)[-1]] = widget_id
            elif msg_type == "script_finished" and msg.script_finished not in (
                    ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY, ForwardMsg.FINISHED_EARLY_FOR_RERUN):
                self.seen = b"".join(seen)  # a run that asked for a rerun (st.rerun) is followed to its end
                return ok and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY


def _run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` in an event loop of its own thread: a test session may hold a running loop already (the
    browser tests' Playwright does)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _student(number: int, url: str, corpus: list[str], think: tuple[float, float], timings: list[Timing],
                   leaks: list[str], start: asyncio.Event) -> None:
    rng = random.Random(number)
    session = Session(number, url)
    async with connect(f"{url.replace('http', 'ws')}/_stcore/stream", subprotocols=["streamlit"],
                       max_size=None, open_timeout=60, ping_interval=None) as socket:
        await session.run(socket, "", [])  # the home page, as a new visitor lands
        await start.wait()
        for step in student_steps(number, corpus):
            await asyncio.sleep(rng.uniform(*think))
            began = time.perf_counter()
            ok = await session.run(socket, step.page, [])
            timings.append(Timing(number, f"open {step.page}", time.perf_counter() - began, ok))
            await asyncio.sleep(rng.uniform(*think))
            widget = WidgetState(id=session.widgets.get(step.key, step.key), string_value=step.value)
            began = time.perf_counter()
            ok = await session.run(socket, step.page, [widget]) and step.key in session.widgets
            timings.append(Timing(number, f"change {step.key}", time.perf_counter() - began, ok))
            if step.mine.encode() not in session.seen:
                leaks.append(f"session {number} does not see its own texts after changing {step.key}")
            mine = ANIMALS[number % len(ANIMALS)]
            others = [a for a in ANIMALS if a != mine and a.encode() in session.seen]
            if step.private and others:
                leaks.append(f"session {number} sees other sessions' texts on {step.page}: {others}")


@dataclass
class ClassReport:
    sessions: int
    timings: list[Timing]
    leaks: list[str]
    peak_rss_mb: float

    def changes(self) -> list[float]:
        return [t.seconds for t in self.timings if t.what.startswith("change")]

    def quantile(self, q: float) -> float:
        values = sorted(self.changes())
        return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1] if len(values) > 1 \
            else values[0]

    @property
    def errors(self) -> list[Timing]:
        return [t for t in self.timings if not t.ok]


async def _classroom(url: str, sessions: int, think: tuple[float, float], rss_mb) -> ClassReport:
    timings: list[Timing] = []
    leaks: list[str] = []
    start = asyncio.Event()
    peak = [rss_mb()]

    async def watch_memory() -> None:
        while True:
            peak[0] = max(peak[0], rss_mb())
            await asyncio.sleep(0.5)

    watcher = asyncio.create_task(watch_memory())
    corpus = stsb_corpus()
    students = [asyncio.create_task(_student(k, url, corpus, think, timings, leaks, start)) for k in range(sessions)]
    await asyncio.sleep(0)
    start.set()
    try:
        await asyncio.gather(*students)
    finally:
        watcher.cancel()
    return ClassReport(sessions, timings, leaks, peak[0])


CLASS_THINK = (5.0, 15.0)  # seconds between a student's actions: typing a sentence, reading the figure
STRESS_THINK = (1.0, 4.0)  # a class clicking as fast as it reads: four times the load


def run_class(url: str, sessions: int, rss_mb, think: tuple[float, float] = CLASS_THINK) -> ClassReport:
    """`sessions` students at once on the server at `url`, each pausing `think` seconds (uniform) between actions."""
    return _run_apart(_classroom(url, sessions, think, rss_mb))


async def _open_home(url: str) -> bool:
    async with connect(f"{url.replace('http', 'ws')}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                       open_timeout=60, ping_interval=None) as socket:
        return await Session(-1, url).run(socket, "", [])


def open_home(url: str) -> bool:
    """A first visitor's Home page, drawn to the end; True when it ran without an error."""
    return _run_apart(_open_home(url))


async def _press_start_training(url: str) -> bool:
    session = Session(-1, url)
    async with connect(f"{url.replace('http', 'ws')}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                       open_timeout=60, ping_interval=None) as socket:
        await session.run(socket, "", [])
        await session.run(socket, "finetune", [])
        button = WidgetState(id=session.widgets["ft_start"], trigger_value=True)
        return await session.run(socket, "finetune", [button])


def start_training(url: str) -> bool:
    """A teacher presses Start training on the Fine-tune page with its defaults; the run goes on in the server."""
    return _run_apart(_press_start_training(url))
