"""The phone pages' web server (aiohttp): join a seat, then see and follow your own cards.

Routes
- GET  /                 the join page: the join code and a choice of seat (works without JavaScript)
- POST /join             code + seat -> 303 to /seat/NAME#TOKEN (the token rides in the
                         fragment, which browsers never send back: it stays out of
                         request lines, logs and Referer headers)
- GET  /seat/NAME        the hand page (the same static file for every seat; no secrets in it)
- GET  /api/seat/NAME    that seat's page as JSON; header X-Seat-Token must be its token
- POST /api/seat/NAME/press {version, action}   a button; POST .../mark {label, on}
- GET  /ws/NAME          WebSocket: first message {"token": ...}, then the page as JSON
                         on every change; the page may send {"press": ...} or {"mark": ...}

Anything asked with a token that is not the seat's own gets 403 (WebSocket close
code 4403) and a warning in the log naming the seat asked for and the address,
never the token.

Anyone on the LAN can reach the server, so a malformed or hostile request (JSON
nested thousands deep, bytes that are not UTF-8, a broken request line) gets a 4xx
and at most one short log line, never a traceback; every log line is one printable
line (partyhost/logs.py), so a request cannot write its own lines on the host's terminal.
A connection that has not sent a complete request within REQUEST_TIMEOUT_S is closed, and so is a body that takes
longer; responses name no server software or version.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from pathlib import Path
from string import Template
from typing import Any, TypedDict
from urllib.parse import quote

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from host.contract import JsonObject
from partyhost.logs import one_line_logs, short_error

from .hub import PageRefused, PhoneHub
from .seats import SeatBook, SeatRefused

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("partyhost.phones")
AUTH_TIMEOUT_S = 1.5
"""A page sends its token the moment its WebSocket opens; on a LAN that takes milliseconds."""
CLOSE_TIMEOUT_S = 0.5
"""How long a closed WebSocket waits for the page's own close (a page answers at once)."""
REQUEST_TIMEOUT_S = 10.0
"""Headers and body must arrive within this; an idle connection is closed after it too."""
SERVER_NAME = "partyhost"
HOSTILE = (ValueError, RecursionError, UnicodeError, TypeError, LookupError, HttpProcessingError)
"""What parsing a request someone crafted can raise: their fault, answered with 400."""


class PageReply(TypedDict, total=False):
    """The answer to a press or a mark: ok, with the button's label sent, or the reason it was refused."""

    ok: bool
    reason: str
    sent: str


class SocketReply(TypedDict):
    reply: PageReply


HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; frame-ancestors 'none'",
}
HUB: web.AppKey[PhoneHub] = web.AppKey("hub", PhoneHub)
SEATS: web.AppKey[SeatBook] = web.AppKey("seats", SeatBook)
SOCKETS: web.AppKey[set[web.WebSocketResponse]] = web.AppKey("sockets", set)
BUSY: web.AppKey[set] = web.AppKey("busy", set)
"""The connections (protocols) with a request being handled now: not idle, whatever their age."""
DONE: web.AppKey[dict] = web.AppKey("done", dict)
"""When each connection's last request was answered (time.monotonic), for the gate (gate.py)."""


def make_app(hub: PhoneHub, seats: SeatBook) -> web.Application:
    one_line_logs(LOG.name)
    app = web.Application(middlewares=[_headers], client_max_size=16 * 1024)
    app[HUB], app[SEATS], app[SOCKETS], app[BUSY], app[DONE] = hub, seats, set(), set(), {}
    app.add_routes(
        [
            web.get("/", join_page),
            web.post("/join", join),
            web.get("/seat/{player}", hand_page),
            web.get("/api/seat/{player}", seat_json),
            web.post("/api/seat/{player}/press", press),
            web.post("/api/seat/{player}/mark", mark),
            web.get("/ws/{player}", socket),
            web.static("/static", STATIC, show_index=False),
        ]
    )
    app.on_shutdown.append(_close_sockets)
    app.on_response_prepare.append(_no_banner)
    return app


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    busy = request.app[BUSY]
    busy.add(request.protocol)
    try:
        response = await handler(request)
    except web.HTTPException as error:  # refusals and redirects get them too
        error.headers.update(HEADERS)
        raise
    except asyncio.TimeoutError:
        LOG.warning("request from %s: body not sent within %g s", request.remote, REQUEST_TIMEOUT_S)
        raise web.HTTPRequestTimeout(text="Too slow.", headers=HEADERS) from None
    except ConnectionError:  # the peer left, or the gate closed it for a newcomer: nobody to answer
        raise web.HTTPServiceUnavailable(headers=HEADERS) from None
    except HOSTILE as error:
        LOG.warning("bad request from %s to %s: %s", request.remote, request.path, short_error(error))
        raise web.HTTPBadRequest(text="Bad request.", headers=HEADERS) from None
    except Exception as error:  # a bug of ours: still one line, not a traceback
        LOG.error("failed request from %s to %s: %s", request.remote, request.path, short_error(error))
        raise web.HTTPInternalServerError(text="Sorry, something went wrong.", headers=HEADERS) from None
    finally:
        busy.discard(request.protocol)
        request.app[DONE][request.protocol] = time.monotonic()
    response.headers.update(HEADERS)
    return response


async def _no_banner(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER_NAME


async def close_idle_connections(runner: web.BaseRunner, app: web.Application) -> None:
    """Close every connection that has not completed a request within REQUEST_TIMEOUT_S.

    That is a connection sending its headers a byte at a time (slowloris), one that
    sends nothing, and a kept-alive one gone quiet; one whose request is being handled
    (a WebSocket, for its whole life) is left alone. Runs until cancelled.
    """
    loop = asyncio.get_running_loop()
    since: dict[Any, float] = {}
    while True:
        await asyncio.sleep(1.0)
        now = loop.time()
        live = runner.server.connections if runner.server is not None else []
        for connection in live:
            if connection in app[BUSY]:
                since[connection] = now
            elif now - since.setdefault(connection, now) >= REQUEST_TIMEOUT_S:
                connection.force_close()
        for gone in set(since) - set(live):
            del since[gone]


# ---- joining -----------------------------------------------------------------


async def join_page(request: web.Request) -> web.Response:
    return _join_response(request, code=request.query.get("code", ""), error="", status=200)


async def join(request: web.Request) -> web.Response:
    form = await asyncio.wait_for(request.post(), REQUEST_TIMEOUT_S)
    code, player = str(form.get("code", "")), str(form.get("seat", ""))
    seats = request.app[SEATS]
    try:
        token = seats.join(code, player, request.remote or "?")
    except SeatRefused as refused:
        if refused.status in (403, 429):
            LOG.warning("join refused (%s) from %s", refused.reason, request.remote)
        return _join_response(
            request, code=code if refused.status != 403 else "", error=refused.reason, status=refused.status
        )
    raise web.HTTPSeeOther(f"/seat/{quote(player, safe='')}#{token}")


def _join_response(request: web.Request, code: str, error: str, status: int) -> web.Response:
    seats, hub = request.app[SEATS], request.app[HUB]
    choices = []
    for i, player in enumerate(seats.players):
        taken = player in seats.claimed
        name = html.escape(player)
        choices.append(
            f'<li><input type="radio" name="seat" id="seat-{i}" value="{name}"'
            f"{' disabled' if taken else ''} required>"
            f'<label for="seat-{i}">{name}{" (taken)" if taken else ""}</label></li>'
        )
    page = Template((STATIC / "join.html").read_text(encoding="utf-8")).substitute(
        game=html.escape(hub.title),
        seats="\n".join(choices),
        code=html.escape(code),
        error=(f'<p id="error" class="error" role="alert">{html.escape(error)}</p>' if error else ""),
        described=' aria-describedby="error"' if error else "",
    )
    return web.Response(text=page, content_type="text/html", status=status)


# ---- one seat's page ---------------------------------------------------------


async def hand_page(request: web.Request) -> web.StreamResponse:
    player = request.match_info["player"]
    if player not in request.app[SEATS].tokens:
        raise web.HTTPNotFound(text="No such seat in this game.")
    return web.FileResponse(STATIC / "hand.html")


def _check(request: web.Request, player: str, token: str | None) -> None:
    """403 (and a warning in the log) unless `token` is the token of `player`'s seat."""
    holder = request.app[SEATS].player_for(token)
    if holder is None or holder != player:
        who = f"{holder}'s page" if holder else ("a request without a token" if not token else "an unknown token")
        LOG.warning("refused: %s asked for %s's cards (from %s)", who, player, request.remote)
        raise web.HTTPForbidden(text="These are not your cards.")


async def seat_json(request: web.Request) -> web.Response:
    player = request.match_info["player"]
    _check(request, player, request.headers.get("X-Seat-Token"))
    return web.json_response(request.app[HUB].snapshot(player))


async def _body(request: web.Request) -> JsonObject:
    try:
        data = await asyncio.wait_for(request.json(), REQUEST_TIMEOUT_S)
    except (ValueError, RecursionError):  # also JSON nested past Python's recursion limit
        raise web.HTTPBadRequest(text="Send JSON.") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text="Send a JSON object.")
    return data


async def press(request: web.Request) -> web.Response:
    player = request.match_info["player"]
    _check(request, player, request.headers.get("X-Seat-Token"))
    data = await _body(request)
    reply, status = _press(request.app[HUB], player, data.get("version"), data.get("action"), data.get("value"))
    return web.json_response(reply, status=status)


async def mark(request: web.Request) -> web.Response:
    player = request.match_info["player"]
    _check(request, player, request.headers.get("X-Seat-Token"))
    data = await _body(request)
    reply, status = _mark(request.app[HUB], player, data.get("label"), data.get("on"))
    return web.json_response(reply, status=status)


def _press(hub: PhoneHub, player: str, version: Any, action: Any, value: Any = None) -> tuple[PageReply, int]:
    """A button pressed: the reply, and its HTTP status (409: refused), for a request or a socket."""
    try:
        label = hub.press(player, version, action, value)
    except PageRefused as refused:
        return {"ok": False, "reason": str(refused)}, 409
    return {"ok": True, "sent": label}, 200


def _mark(hub: PhoneHub, player: str, label: Any, on: Any) -> tuple[PageReply, int]:
    """A word marked: the reply, and its HTTP status (409: refused), for a request or a socket."""
    try:
        hub.mark(player, str(label), bool(on))
    except PageRefused as refused:
        return {"ok": False, "reason": str(refused)}, 409
    return {"ok": True}, 200


async def socket(request: web.Request) -> web.WebSocketResponse:
    """Live updates for one seat, after the first message proves the token.

    Until then the socket is not busy: the gate may close it for a newcomer, the one
    waiting longest first, so sockets that never send a token cannot fill the server
    (issue 58); and it is closed after AUTH_TIMEOUT_S (and CLOSE_TIMEOUT_S for the close),
    since a page sends its token as soon as the socket opens."""
    player = request.match_info["player"]
    ws = web.WebSocketResponse(heartbeat=20, timeout=CLOSE_TIMEOUT_S)
    await ws.prepare(request)
    hub, sockets, busy = request.app[HUB], request.app[SOCKETS], request.app[BUSY]
    busy.discard(request.protocol)
    try:
        first = await ws.receive(timeout=AUTH_TIMEOUT_S)
        if first.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return ws  # gone before its token (closed by its page, or by the gate): nothing to refuse
        token = _json_field(first, "token")
        try:
            _check(request, player, token if isinstance(token, str) else None)
        except web.HTTPForbidden:
            await ws.close(code=4403, message=b"not your seat")
            return ws
    except asyncio.TimeoutError:
        await ws.close(code=4408, message=b"no token")
        return ws
    busy.add(request.protocol)
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def wake() -> None:
        try:
            loop.call_soon_threadsafe(changed.set)
        except RuntimeError:  # the server is stopping
            pass

    stop = hub.listen(player, wake)
    sockets.add(ws)
    sender = asyncio.create_task(_send_changes(ws, hub, player, changed))
    try:
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            answer = _socket_request(hub, player, message.data)
            if answer is not None:
                await ws.send_json(answer)
    finally:
        stop()
        sockets.discard(ws)
        sender.cancel()
    return ws


async def _send_changes(ws: web.WebSocketResponse, hub: PhoneHub, player: str, changed: asyncio.Event) -> None:
    while not ws.closed:
        await ws.send_json({"page": hub.snapshot(player)})
        await changed.wait()
        changed.clear()


def _socket_request(hub: PhoneHub, player: str, text: str) -> PageReply | SocketReply | None:
    """A press or a mark sent over the socket; the seat is always the socket's own."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {"ok": False, "reason": "Send JSON."}
    if not isinstance(data, dict):
        return {"ok": False, "reason": "Send a JSON object."}
    if "press" in data:
        reply, _ = _press(hub, player, data.get("version"), data.get("press"), data.get("value"))
    elif "mark" in data:
        reply, _ = _mark(hub, player, data.get("mark"), data.get("on", True))
    else:
        return None
    return {"reply": reply}


def _json_field(message: Any, key: str) -> Any:
    if message.type != WSMsgType.TEXT:
        return None
    try:
        data = json.loads(message.data)
    except (ValueError, RecursionError):
        return None
    return data.get(key) if isinstance(data, dict) else None


async def _close_sockets(app: web.Application) -> None:
    sockets = app[SOCKETS]
    for ws in list(sockets):  # a copy: each socket's handler takes it out as it closes
        await ws.close(code=1001, message=b"host stopped")
