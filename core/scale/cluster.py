"""Where a scaled run's actors run: Ray started inside the command on this machine, or a running cluster reached by
its address, with the authentication token Ray 2.60 asks for by default."""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

INSTALL = "install it with `make scale` (pip install -r requirements-scale.txt)"
MODE_VARIABLE = "RAY_AUTH_MODE"  # Ray's own: "token" sends a token, "disabled" sends none
DEFAULT_TOKEN_FILE = "~/.ray/auth_token"  # where Ray reads the token when neither variable below names it


class ScaleError(ValueError):
    """A run that cannot start or go on, said in one sentence."""


@dataclass(frozen=True)
class Cluster:
    """Where the actors run: this machine (`address` None) or a running Ray cluster, and what each actor holds."""

    address: str | None = None
    workers: int = 2
    cpus_per_worker: float = 1.0
    gpus_per_worker: float = 0.0


def import_ray() -> ModuleType:
    try:
        import ray
        import ray.data  # noqa: F401  (the extra is ray[data])
    except ModuleNotFoundError as err:
        raise ScaleError(f"Ray is not installed; {INSTALL}.") from err
    return ray


def no_cluster(address: str, reason: str) -> str:
    return (f"No Ray cluster answers at {address} ({reason.splitlines()[0] if reason else 'no reason given'}); start "
            "one there with `ray start --head`, or leave out --address to run on this machine.")


def check_answers(address: str, timeout: float = 5.0) -> None:
    """Ray's own connect retries an address that does not answer for minutes (seen: over 5 with no error), so a
    plain TCP connect to its host and port decides first."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except ValueError as err:
        raise ScaleError(f"{address} is not a Ray address; give host:6379, or ray://host:10001.") from err
    except OSError as err:
        raise ScaleError(no_cluster(address, str(err.strerror or err))) from err


def token_source() -> str:
    """Where Ray reads this machine's token, in Ray's own order."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return "the variable RAY_AUTH_TOKEN"
    return os.environ.get("RAY_AUTH_TOKEN_PATH") or DEFAULT_TOKEN_FILE


def token_refused(address: str, sent: bool) -> str:
    """What to do when the cluster at `address` refuses this machine: its token is wrong, missing or not sent."""
    fetch = "print the cluster's token on its head node with `ray get-auth-token`"
    if sent:
        return (f"The Ray cluster at {address} refuses this machine's authentication token (read from "
                f"{token_source()}): {fetch} and put it there, then run again.")
    if os.environ.get(MODE_VARIABLE, "").lower() == "disabled":
        return (f"The Ray cluster at {address} asks for its authentication token and {MODE_VARIABLE}=disabled keeps "
                f"this machine from sending one: unset {MODE_VARIABLE} ({fetch}; this machine sends the one in "
                f"{DEFAULT_TOKEN_FILE} or RAY_AUTH_TOKEN).")
    return (f"The Ray cluster at {address} asks for its authentication token and this machine has none: {fetch} "
            f"and save it here as {DEFAULT_TOKEN_FILE} (or set RAY_AUTH_TOKEN to it), then run again.")


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Ray's C++ client logs a refused request on the process's stderr itself; the caller says it in one sentence."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _accepted(address: str) -> bool:
    """Whether the cluster's control service (GCS) answers this process's requests, with or without a token."""
    from ray._raylet import GcsClient  # type: ignore[attr-defined]
    from ray.exceptions import AuthenticationError, RpcError

    try:
        with _stderr_silenced():
            GcsClient(address=address)
    except AuthenticationError:
        return False
    except RpcError as err:  # something else listens there (seen: 40 s, then "Timed out while waiting for GCS")
        raise ScaleError(no_cluster(address, str(err))) from err
    return True


def check_token(address: str) -> None:
    """Send a token exactly when the cluster asks for one, as `ray start` began it: Ray's own connect retries a
    refused token for 25 s and then says the cluster does not answer, and a driver that holds a token expects one
    from the cluster's workers too, so on a cluster without authentication its actors never start (seen; loading
    the token is enough). Ray itself decides so only for address "auto"; RAY_AUTH_MODE, when set, is followed."""
    from ray._private.authentication.authentication_token_setup import maybe_enable_token_auth_if_token_available
    from ray._raylet import AuthenticationTokenLoader  # type: ignore[attr-defined]

    mode = os.environ.get(MODE_VARIABLE, "").lower()
    if mode == "token":
        if not AuthenticationTokenLoader.instance().has_token(ignore_auth_mode=True):  # Ray's client would abort
            raise ScaleError(f"{MODE_VARIABLE}=token is set but this machine has no Ray authentication token: print "
                             "the cluster's on its head node with `ray get-auth-token` and save it here as "
                             f"{DEFAULT_TOKEN_FILE} (or set RAY_AUTH_TOKEN to it).")
        if not _accepted(address):
            raise ScaleError(token_refused(address, sent=True))
        return
    if _accepted(address):  # no token asked for
        return
    if mode or not maybe_enable_token_auth_if_token_available(warn_if_disabled=False):
        raise ScaleError(token_refused(address, sent=False))
    if not _accepted(address):
        raise ScaleError(token_refused(address, sent=True))


def connect(ray: ModuleType, cluster: Cluster) -> bool:
    """Start Ray here or reach the cluster; False when Ray was already running in this process (so the run leaves
    it running), True when this call started or reached it (so the run ends it)."""
    from ray.exceptions import AuthenticationError

    if ray.is_initialized():
        return False
    try:
        if cluster.address:
            check_answers(cluster.address)
            if cluster.address != "auto" and not cluster.address.startswith("ray://"):
                check_token(cluster.address)
            import core

            ray.init(address=cluster.address, runtime_env={"py_modules": [core]}, logging_level="WARNING")
        else:
            # Reading tasks need a CPU beside the actors' or Ray waits for one forever (seen on 2 cores)
            needed = math.ceil(cluster.workers * cluster.cpus_per_worker) + 1
            ray.init(num_cpus=max(os.cpu_count() or 1, needed), include_dashboard=False, logging_level="WARNING")
    except AuthenticationError as err:
        raise ScaleError(token_refused(str(cluster.address), os.environ.get(MODE_VARIABLE) == "token")) from err
    except (ConnectionError, TimeoutError, RuntimeError) as err:
        raise ScaleError(no_cluster(str(cluster.address), str(err))) from err
    return True
