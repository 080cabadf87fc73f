"""A small asyncio HTTP/1.1 client (standard library only) for the load generator.

The load generator shares two cores with the server, so it must be cheap: one asyncio
loop holds every phone's stream and requests, with no thread per connection and no
parsing beyond what a phone needs. It speaks just enough HTTP/1.1 for this server:
Content-Length and chunked bodies, keep-alive, and `Connection: close`.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

now = time.perf_counter


class HttpError(Exception):
    """The connection failed or the answer could not be read."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    wire_bytes: int  # status line + headers + body as they arrived


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], int]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return status, headers, len(head)


async def _read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body; b"" for the last one."""
    size_line = await reader.readuntil(b"\r\n")
    size = int(size_line.split(b";", 1)[0], 16)
    if size == 0:
        await reader.readuntil(b"\r\n")  # no trailers from this server
        return b""
    data = await reader.readexactly(size + 2)
    return data[:-2]


class _Conn:
    __slots__ = ("reader", "writer", "used_at")

    def __init__(self, reader, writer):
        self.reader, self.writer, self.used_at = reader, writer, now()

    def close(self) -> None:
        try:
            self.writer.close()
        except Exception:
            pass


class Client:
    """The request connections of one phone (as a browser: up to `max_conns` to one
    origin, kept alive while they are fresh; the server forgets idle ones after its
    keepalive of 5 s, so this one drops them after `idle` seconds)."""

    def __init__(self, host: str, port: int, max_conns: int = 4, idle: float = 4.0,
                 timeout: float = 15.0):
        self.host, self.port = host, port
        self.idle, self.timeout = idle, timeout
        self._free: list[_Conn] = []
        self._slots = asyncio.Semaphore(max_conns)
        self.connects = 0

    async def _conn(self) -> tuple[_Conn, bool]:
        while self._free:
            conn = self._free.pop()
            if now() - conn.used_at < self.idle and not conn.reader.at_eof():
                return conn, True
            conn.close()
        reader, writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        self.connects += 1
        return _Conn(reader, writer), False

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes | None = None) -> Response:
        async with self._slots:
            for attempt in range(2):
                conn, reused = await self._conn()
                try:
                    response, keep = await asyncio.wait_for(
                        self._exchange(conn, method, path, headers, body), self.timeout)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                        ValueError, IndexError) as exc:
                    conn.close()
                    # A kept-alive connection the server had just closed: send again on a
                    # new one (every POST of the bench carries an action_id: retries are
                    # idempotent).
                    if reused and attempt == 0:
                        continue
                    raise HttpError(f"{type(exc).__name__}: {exc}") from None
                except asyncio.TimeoutError:
                    conn.close()
                    raise HttpError("timeout") from None
                except BaseException:
                    conn.close()
                    raise
                if keep:
                    conn.used_at = now()
                    self._free.append(conn)
                else:
                    conn.close()
                return response
        raise HttpError("unreachable")

    async def _exchange(self, conn: _Conn, method: str, path: str,
                        headers: dict[str, str] | None, body: bytes | None):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if headers:
            lines.extend(f"{k}: {v}" for k, v in headers.items())
        if body is not None or method in ("POST", "PUT"):
            lines.append(f"Content-Length: {len(body or b'')}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")
        conn.writer.write(request)
        status, rheaders, head_len = await _read_head(conn.reader)
        keep = rheaders.get("connection", "").lower() != "close"
        if "content-length" in rheaders:
            data = await conn.reader.readexactly(int(rheaders["content-length"]))
        elif rheaders.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while chunk := await _read_chunk(conn.reader):
                parts.append(chunk)
            data = b"".join(parts)
        elif status in (204, 304) or method == "HEAD":
            data = b""
        else:
            data = await conn.reader.read()
            keep = False
        return Response(status, rheaders, data, head_len + len(data)), keep

    def close(self) -> None:
        for conn in self._free:
            conn.close()
        self._free.clear()


async def open_stream(host: str, port: int, path: str, headers: dict[str, str],
                      timeout: float = 15.0):
    """Send the GET of an event stream; (reader, writer, status) once its head arrived."""
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream",
             "Cache-Control: no-cache"]
    lines.extend(f"{k}: {v}" for k, v in headers.items())
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    try:
        status, rheaders, _ = await asyncio.wait_for(_read_head(reader), timeout)
    except BaseException:
        writer.close()
        raise
    if rheaders.get("transfer-encoding", "").lower() != "chunked":
        writer.close()
        raise HttpError(f"stream answered {status} without a chunked body")
    return reader, writer, status


async def sse_events(reader: asyncio.StreamReader):
    """The (event, data) pairs of a chunked text/event-stream, as they arrive; ends when
    the server ends the stream."""
    buffer = ""
    while True:
        chunk = await _read_chunk(reader)
        if not chunk:
            return
        buffer += chunk.decode()
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            event, lines = "message", []
            for line in message.split("\n"):
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    lines.append(line[5:].removeprefix(" "))
            if lines:  # "retry:" and ": keep-alive" carry none
                yield event, "\n".join(lines)


async def sse_sized_events(reader: asyncio.StreamReader):
    """The (event, data, size) of a chunked text/event-stream as they arrive, `size` the
    message's bytes as sent (every line of it and the blank line ending it), whatever
    the event is named; ends when the server ends the stream."""
    buffer = b""
    while True:
        chunk = await _read_chunk(reader)
        if not chunk:
            return
        buffer += chunk
        while b"\n\n" in buffer:
            raw, buffer = buffer.split(b"\n\n", 1)
            event, lines = "message", []
            for line in raw.decode().split("\n"):
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    lines.append(line[5:].removeprefix(" "))
            yield event, "\n".join(lines), len(raw) + 2
