"""A TCP proxy in front of PostgreSQL that tests can cut: the operator's faults, on loopback.

``cut()`` drops every open connection at once (as a crashed server or a failover does) and
refuses new ones until ``restore()``; ``blink(seconds)`` is a cut that heals by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
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
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                if self.down:
                    break
                dst.write(data)
                await dst.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                dst.transport.abort()
            self._writers.discard(dst)
