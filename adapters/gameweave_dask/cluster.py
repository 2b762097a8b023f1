"""``simulate --cluster``: the games of a simulation on a Dask cluster.

Dask's distributed scheduler does the hard parts: placing tasks on workers, work
stealing, and running again the tasks a lost worker held. :func:`open_cluster`
connects to a scheduler (or starts a ``LocalCluster`` for the run), checks that
every worker has the title at the version this machine has, and hands back an
ordinary :class:`concurrent.futures.Executor`; :func:`~gameweave_cli.simulate.simulate`
does the rest as for ``--jobs``: batches of games, a bounded number in flight,
tallies merged as they arrive. Results are keyed by game, and a batch is counted
once, when its future resolves, so a batch run twice (its first worker died) is
still counted once.

Dask is an optional extra (``pip install 'gameweave[dask]'``); nothing here
imports it before :func:`open_cluster` is called.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, Future, InvalidStateError
from typing import Any
from urllib.parse import urlsplit

import attrs

from gameweave_cli.simulate import RunStopped, describe_error
from gameweave_core import default_registry
from gameweave_core.registry import TitleEntry

#: What to run when Dask is missing.
INSTALL = "pip install 'gameweave[dask]'"


#: Seconds between two looks at whether the client still has its scheduler.
WATCH_EVERY = 1.0

#: Dask settings for a local cluster, whose scheduler shares the cores that play the
#: games: fewer periodic chores (the profiler samples a busy worker's stack every 10
#: ms; the event loops check their health every 20 ms, memory every 100 ms).
LOCAL_SETTINGS: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


class ClusterError(RunStopped):
    """The cluster cannot run the simulation (said in one line)."""


@attrs.frozen
class TitleStamp:
    """Which build of a title a machine has: enough to tell two builds apart."""

    name: str
    version: str
    distribution: str
    distribution_version: str
    core_version: str

    @classmethod
    def of(cls, entry: TitleEntry) -> TitleStamp:
        from gameweave_core import __version__

        return cls(
            entry.title.name,
            str(entry.title.version),
            entry.distribution,
            entry.distribution_version,
            __version__,
        )

    def describe(self) -> str:
        return (
            f"{self.name} {self.version} from {self.distribution} {self.distribution_version}"
            f" on gameweave {self.core_version}"
        )


def installed_titles() -> dict[str, TitleStamp] | str:
    """Run on each worker: the titles it has, or why its registry failed to load."""
    try:
        return {e.title.name: TitleStamp.of(e) for e in default_registry().entries()}
    except Exception as exc:  # reported, with the worker's address, by the client
        return describe_error(exc)


#: This process's answer to :func:`installed_titles` (a worker's titles do not change).
_installed: list[dict[str, TitleStamp] | str] = []


def checked_call(wanted: TitleStamp, fn: Callable[..., Any], /, *args: Any) -> Any:
    """Run on a worker: ``fn(*args)`` if the worker has the build of the title
    ``wanted`` describes, else :class:`ClusterError`, which stops the run. This
    catches workers that join after :func:`open_cluster` checked the others."""
    if not _installed:
        _installed.append(installed_titles())
    try:
        from distributed import get_worker

        worker = str(get_worker().address)
    except (ImportError, ValueError):  # not on a Dask worker: a plain executor
        worker = f"pid {os.getpid()}"
    check_workers({worker: _installed[0]}, wanted)
    return fn(*args)


def check_workers(found: Mapping[str, dict[str, TitleStamp] | str], wanted: TitleStamp) -> None:
    """Raise :class:`ClusterError` naming the first worker (by address) that lacks
    the title ``wanted`` describes or has another build of it."""
    for worker in sorted(found):
        titles = found[worker]
        if isinstance(titles, str):
            raise ClusterError(f"worker {worker} cannot load its titles: {titles}")
        theirs = titles.get(wanted.name)
        if theirs is None:
            others = ", ".join(sorted(titles)) or "none"
            raise ClusterError(
                f"worker {worker} does not have {wanted.name} (it has: {others}); "
                f"install {wanted.describe()} there, as on this machine"
            )
        if theirs != wanted:
            raise ClusterError(
                f"worker {worker} has {theirs.describe()}, this machine has "
                f"{wanted.describe()}: install the same on every worker"
            )


def _quiet() -> None:
    """Silence Dask's logging in this process (run on a local cluster's workers too)."""
    # Dask's configuration gives some of its loggers levels of their own; Tornado (its
    # network layer) logs a lost scheduler's closed streams as errors, and asyncio the
    # tasks its event loop leaves behind.
    roots = ("distributed", "tornado", "asyncio")
    children = [n for n in logging.Logger.manager.loggerDict if n.split(".")[0] in roots]
    for name in [*roots, *children]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def dask_setup(worker: object) -> None:
    """Run by Dask in each worker process of a local cluster as it starts (the
    cluster's ``preload``): the worker ignores SIGINT.

    Ctrl-C at the terminal sends SIGINT to every process of the command, the
    local cluster's workers included, and each would end in a traceback of its
    own. The run that started them owns Ctrl-C: it says in one line that it was
    interrupted and closes the cluster, which stops its workers. The workers the
    cluster starts with already ignore SIGINT (see :func:`_ctrl_c_ignored`); this
    covers one its nanny starts again later. (A remote cluster's workers are not
    preloaded with this: their own Ctrl-C stops them.)
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT while the block runs: the local cluster's start.

    Processes started meanwhile inherit the ignoring, and Python keeps it: the
    workers ignore the terminal's Ctrl-C from their first instruction, long before
    their preload (:func:`dask_setup`) runs. Without it, a Ctrl-C while they
    start kills them half-way, each with a traceback, and the cluster's start
    fails with more. The price: a Ctrl-C during the start (a second or two) is
    lost; the next one stops the run."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal dispositions are set from the main thread only
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@attrs.frozen
class ClusterSpec:
    """What ``--cluster`` asked for: a scheduler's address, or a local cluster."""

    address: str | None = None
    local_workers: int | None = None

    @classmethod
    def parse(cls, text: str) -> ClusterSpec:
        """``local``, ``local:N`` or a scheduler address such as ``tcp://10.0.0.5:8786``."""
        text = text.strip()
        name, sep, count = text.partition(":")
        if name == "local":
            if not sep:
                return cls(local_workers=os.cpu_count() or 1)
            if not count.isdigit() or int(count) < 1:
                raise ClusterError(
                    f"--cluster {text!r}: write local:N with N at least 1, e.g. local:2"
                )
            return cls(local_workers=int(count))
        if not text:
            raise ClusterError("--cluster needs a scheduler address, e.g. tcp://10.0.0.5:8786")
        return cls(address=text)


#: Seconds a first look at a scheduler's port may take (Dask's own connection
#: then has the whole timeout).
PROBE_TIMEOUT = 5.0


def refused(address: str) -> str | None:
    """Why nothing answers at a ``tcp://`` or ``tls://`` scheduler ``address``, in
    words, when that is certain at once (the port is closed, the host unknown),
    else ``None``. Dask itself retries a refused connection until its timeout (30
    s by default) before it says anything."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls"):
        return None
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        return None  # Dask says what is wrong with the address
    if not host or port is None:
        return None
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT):
            return None
    except ConnectionRefusedError:
        return f"nothing listens on {host}:{port} (is the scheduler started, on that port?)"
    except socket.gaierror as exc:
        return f"the host {host!r} is unknown ({exc.strerror or exc})"
    except TimeoutError:
        return None  # a slow network: Dask may still get through
    except OSError as exc:
        return exc.strerror or str(exc)


class ClusterExecutor(Executor):
    """An executor on a Dask cluster; shutting it down closes the connection (and
    the local cluster, if it started one)."""

    def __init__(
        self, client: Any, wanted: TitleStamp, cluster: Any = None, where: str = "the cluster"
    ) -> None:
        self.client = client
        self.wanted = wanted
        self.cluster = cluster
        self.where = where
        # pure=False: two batches never share a result by accident of their keys.
        self._inner: Executor = client.get_executor(pure=False)
        self._pending: set[Future[Any]] = set()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        threading.Thread(target=self._watch, name="gameweave-cluster-watch", daemon=True).start()

    def _watch(self) -> None:
        """Fail the pending tasks once the client has given up on the scheduler (after
        trying to reconnect for a while): their futures would never resolve."""
        while not self._closing.wait(WATCH_EVERY):
            if self.client.status in ("closing", "closed"):
                lost = ClusterError(f"lost {self.where}: the client could not reconnect")
                with self._lock:
                    pending, self._pending = self._pending, set()
                for future in pending:
                    with contextlib.suppress(InvalidStateError):
                        future.set_exception(lost)
                return

    @property
    def threads(self) -> int:
        """How many games the cluster plays at once (its workers' threads)."""
        return max(1, int(sum(self.client.nthreads().values())))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if kwargs:
            raise TypeError("ClusterExecutor.submit takes positional arguments only")
        # Every task checks its worker's build of the title first (see checked_call).
        try:
            future = self._inner.submit(checked_call, self.wanted, fn, *args)
        except Exception as exc:
            # The client gave up on the scheduler (it retries for a while first).
            raise ClusterError(f"lost {self.where}: {describe_error(exc)}") from exc
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        # The run has collected every future it wants by now; on an interrupt the
        # rest are cancelled rather than waited for. Each step is tried even if one
        # before failed: the scheduler may be gone.
        self._closing.set()
        steps: list[Callable[[], object]] = [lambda: self._inner.shutdown(wait=False)]
        if self.cluster is not None:
            # A local cluster's workers log the heartbeats its own closing
            # interrupts; the run's output is over by now.
            steps.append(lambda: self.client.run(_quiet))
        steps.append(self.client.close)
        if self.cluster is not None:
            steps.append(self.cluster.close)
        for step in steps:
            with contextlib.suppress(Exception):  # nothing more to do for a closing cluster
                step()


def open_cluster(text: str, entry: TitleEntry, *, timeout: float | None = None) -> ClusterExecutor:
    """Connect to the cluster ``--cluster text`` names (or start a local one) and
    check that its workers have ``entry``'s title; a :class:`ClusterError` says in
    one line why not."""
    spec = ClusterSpec.parse(text)
    try:
        import dask.utils
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL}") from None
    cluster_api: Any = distributed  # its constructors are not annotated
    if timeout is None:
        # Seconds to reach the scheduler (and to reconnect to it), and for a first
        # worker to join: Dask's setting, 30 s unless configured otherwise
        # (DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT).
        setting: Any = dask.config.get("distributed.comm.timeouts.connect")
        timeout = float(dask.utils.parse_timedelta(setting))
    # Dask's own log lines (reconnecting, closing, a lost scheduler) are not the run's
    # output: what stops the run is said in one line by a ClusterError.
    _quiet()
    cluster: Any = None
    client: Any = None
    try:
        if spec.local_workers is not None:
            dask.config.set(LOCAL_SETTINGS)  # for this process and the workers it starts
            with _ctrl_c_ignored():
                cluster = cluster_api.LocalCluster(
                    n_workers=spec.local_workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    # No dashboard; the scheduler's health routes on loopback, not on :8787.
                    scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                    # Each worker ignores Ctrl-C, which this process answers (dask_setup).
                    preload=[__name__],
                )
            client = cluster_api.Client(cluster, timeout=timeout)
            where = f"the local cluster ({spec.local_workers} workers)"
        else:
            where = f"the Dask scheduler at {spec.address}"
            assert spec.address is not None
            why = refused(spec.address)
            if why is not None:
                raise ClusterError(f"cannot reach {where}: {why}")
            try:
                client = cluster_api.Client(spec.address, timeout=timeout)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(f"cannot reach {where}: {describe_error(exc)}") from exc
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError as exc:
            raise ClusterError(f"no worker has joined {where} within {timeout:g} s") from exc
        wanted = TitleStamp.of(entry)
        check_workers(client.run(installed_titles), wanted)
    except BaseException:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        raise
    return ClusterExecutor(client, wanted, cluster, where)
