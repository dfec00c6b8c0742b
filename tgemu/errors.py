"""Telegram-shaped API errors raised inside method implementations."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """Becomes ``{"ok": false, "error_code": ..., "description": ...}`` on the wire."""

    def __init__(
        self, error_code: int, description: str, *, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: {detail}")


def forbidden(detail: str) -> ApiError:
    return ApiError(403, f"Forbidden: {detail}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429,
        f"Too Many Requests: retry after {retry_after}",
        parameters={"retry_after": retry_after},
    )


UNAUTHORIZED = ApiError(401, "Unauthorized")
NOT_FOUND = ApiError(404, "Not Found")
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
