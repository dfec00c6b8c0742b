"""The aiohttp side: routing /bot{token}/{method}, faults, call recording."""

from __future__ import annotations

import asyncio
import logging
import time
from http import HTTPStatus
from typing import Any

from aiohttp import web

from tgemu.errors import NOT_FOUND, UNAUTHORIZED, ApiError, bad_request
from tgemu.methods import METHODS_BY_LOWER
from tgemu.params import read_params
from tgemu.spec import (
    Deviation,
    DeviationLog,
    SpecError,
    limit_refusal,
    load_spec,
    received_params,
)
from tgemu.state import EmuState, RequestContext
from tgemu.types import ApiCall, EmuEvent, Fault

logger = logging.getLogger(__name__)

MAX_UPLOAD = 50 * 1024 * 1024  # Telegram's limit for bot uploads
TOO_LARGE = ApiError(413, "Request Entity Too Large")
_FAULT_DESCRIPTIONS = {500: "Internal Server Error", 502: "Bad Gateway"}


def fault_error(fault: Fault) -> ApiError:
    if fault.status == 429:
        retry_after = fault.retry_after if fault.retry_after is not None else 1
        description = fault.description or f"Too Many Requests: retry after {retry_after}"
        return ApiError(429, description, parameters={"retry_after": retry_after})
    try:
        phrase = HTTPStatus(fault.status).phrase
    except ValueError:
        phrase = "Error"
    description = fault.description or _FAULT_DESCRIPTIONS.get(fault.status, phrase)
    return ApiError(fault.status, description)


class SpecRefusal(ApiError):
    """A call refused by the specification check (already recorded as a deviation)."""


class ApiServer:
    def __init__(self, state: EmuState, token: str) -> None:
        self.state = state
        self.token = token
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        # calls the Bot API specification does not allow (tgemu/spec.py)
        self.deviations = DeviationLog()

    async def start(self, host: str, port: int) -> str:
        self.state.queue.reopen()
        app = web.Application(client_max_size=MAX_UPLOAD)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/documents/{file_id}", self._download)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        # handler_cancellation: a client that gave up (timeout) cancels its request here
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.base_url = f"http://{bound_host}:{bound_port}"
        logger.info("Bot API emulator listening on %s", self.base_url)
        return self.base_url

    async def stop(self) -> None:
        self.state.queue.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _download(self, request: web.Request) -> web.Response:
        """File downloads (``getFile``'s ``file_path``), as Telegram serves them."""
        stored = self.state.files.get(request.match_info["file_id"])
        if request.match_info["token"] != self.token or stored is None:
            return web.json_response(NOT_FOUND.to_api(), status=404)
        return web.Response(body=stored.document.data, content_type=stored.mime_type)

    async def _not_found(self, request: web.Request) -> web.Response:
        return web.json_response(NOT_FOUND.to_api(), status=404)

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        method = request.match_info["method"]
        entry = METHODS_BY_LOWER.get(method.lower())
        name = entry[0] if entry else method
        polling = name == "getUpdates"
        state = self.state
        params: dict[str, Any] = {}
        if not polling:
            state.in_flight += 1
        state.touch()
        try:
            params, files = await read_params(request)
            if request.match_info["token"] != self.token:
                raise UNAUTHORIZED
            await self._check_spec(method, params, request)
            if entry is None:
                raise NOT_FOUND
            await self._apply_fault(name, params.get("chat_id"))
            result = await entry[1](state, RequestContext(name, params, files))
            body: dict[str, Any] = {"ok": True, "result": result}
        except ApiError as exc:
            body = exc.to_api()
            if not isinstance(exc, SpecRefusal) and limit_refusal(exc.description):
                self.deviations.add(Deviation(name, exc.description, params))
        except web.HTTPRequestEntityTooLarge:
            body = TOO_LARGE.to_api()  # an upload past 50 MB, answered as Telegram does
        except (ValueError, TypeError) as exc:
            logger.warning("bad parameters for %s: %s", name, exc)
            body = bad_request(f"invalid parameters: {exc}").to_api()
        finally:
            if not polling:
                state.in_flight -= 1
        self._record(name, params, body, arrived)
        return web.json_response(body, status=body.get("error_code", 200))

    async def _check_spec(self, method: str, params: dict[str, Any], request: web.Request) -> None:
        """The call against the pinned Bot API specification: a deviation is recorded and
        refused as Telegram refuses it (an unknown method is 404 "Not Found")."""
        spec = load_spec()
        try:
            received, parts = await received_params(request)
            spec.check_call(method, received, parts)
        except SpecError as exc:
            self.deviations.add(Deviation(method, exc.problem, params))
            logger.warning("%s deviates from the Bot API: %s", method, exc.problem)
            if spec.method_name(method) is None:
                raise SpecRefusal(404, NOT_FOUND.description) from None
            raise SpecRefusal(400, f"Bad Request: {exc.answer}") from None

    async def _apply_fault(self, method: str, chat_id: Any) -> None:
        fault = next((f for f in self.state.faults if f.matches(method, chat_id)), None)
        if fault is None:
            return
        fault.hits += 1
        if fault.exhausted:
            self.state.faults.remove(fault)
        logger.info("injecting fault into %s: status %s", method, fault.status)
        if fault.delay > 0:
            await asyncio.sleep(fault.delay)
        if fault.status != 200:
            raise fault_error(fault)

    def _record(self, name: str, params: dict[str, Any], body: dict[str, Any], at: float) -> None:
        ok = bool(body.get("ok"))
        call = ApiCall(
            method=name,
            params=params,
            ok=ok,
            error_code=None if ok else body.get("error_code"),
            description=None if ok else body.get("description"),
            at=at,
            chat_id=params.get("chat_id"),
            finished_at=time.monotonic(),
            result=body.get("result"),
        )
        self.state.calls.append(call)
        if not ok and call.error_code != 409:  # 409: a superseded long poll, not a bot error
            logger.debug("%s failed: %s", name, call.description)
            self.state.emit(EmuEvent("api_error", call=call))
        self.state.touch()
