"""A TCP proxy in front of PostgreSQL that tests can cut: the operator's faults, on loopback.

``cut()`` drops every open connection at once (as a crashed server or a failover does) and
refuses new ones until ``restore()``; ``blink(seconds)`` is a cut that heals by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit


class DbProxy:
    def __init__(self, upstream_url: str) -> None:
        parts = urlsplit(upstream_url)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._parts = parts
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0
        self.down = False
        self.connections = 0
        # ``cut_after``: the bytes a client message must all hold, and how long the cut lasts
        self._trigger: tuple[tuple[bytes, ...], float] | None = None
        self.fired = 0  # armed cuts that went off
        # Sees every client message before it is passed on; True keeps it from the server
        # (e.g. the test SIGKILLs the client there, then ``cut``s: the message never arrives).
        self.on_client_message: Callable[[bytes], bool] | None = None

    @property
    def url(self) -> str:
        """The upstream URL with the proxy's address in it."""
        netloc = self._parts.netloc.rsplit("@", 1)
        auth = netloc[0] + "@" if len(netloc) == 2 else ""
        return urlunsplit(self._parts._replace(netloc=f"{auth}127.0.0.1:{self.port}"))

    async def start(self) -> DbProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._pipes):
            task.cancel()

    def cut(self) -> None:
        self.down = True
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()  # an RST, not a goodbye
        self._writers.clear()

    def restore(self) -> None:
        self.down = False

    async def blink(self, seconds: float) -> None:
        self.cut()
        await asyncio.sleep(seconds)
        self.restore()

    def cut_after(self, *markers: bytes, seconds: float) -> None:
        """Arm a cut for the next client message holding every one of ``markers`` (a
        statement's text or parameters): it reaches the server whole while its client's
        connection drops at once — a statement that commits with nobody told. With
        ``seconds`` the server then stays away that long (else a reconnect works at once)."""
        self._trigger = (markers, seconds)

    async def _fire(self, seconds: float) -> None:
        await asyncio.sleep(0.3)  # the server runs (and commits) the statement meanwhile
        await self.blink(seconds)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        self._writers.update((writer, up_writer))
        for src, dst, peer, up in (
            (reader, up_writer, writer, True),
            (up_reader, writer, up_writer, False),
        ):
            task = asyncio.create_task(self._pipe(src, dst, peer, upstream=up))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(
        self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, peer: asyncio.StreamWriter,
        *, upstream: bool,
    ) -> None:  # fmt: skip
        try:
            while data := await src.read(65536):
                if self.down:
                    break
                watch = self.on_client_message
                if upstream and watch is not None and watch(data):
                    break
                trigger = self._trigger
                if upstream and trigger is not None and all(m in data for m in trigger[0]):
                    self._trigger = None
                    self.fired += 1
                    dst.write(data)
                    await dst.drain()
                    peer.transport.abort()  # the client is gone: the answer is lost
                    if trigger[1] > 0:
                        self.down = True  # and the server is away for a while
                        task = asyncio.create_task(self._fire(trigger[1]))
                        self._pipes.add(task)
                        task.add_done_callback(self._pipes.discard)
                    continue
                dst.write(data)
                await dst.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                dst.transport.abort()
            self._writers.discard(dst)
