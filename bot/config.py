"""Settings from the environment (and an optional ``.env`` file).

Nothing here is built at import time: the composition root calls ``load_settings()``.
"""

from __future__ import annotations

import logging
import sys
from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Locale(StrEnum):
    RU = "ru"
    EN = "en"


class LogLevel(StrEnum):
    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"


class Settings(BaseSettings):
    """All knobs of the bot; each is documented in ``.env.example``."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr | None = Field(default=None, alias="BOT_TOKEN")
    telegram_api_url: str | None = Field(default=None, alias="TELEGRAM_API_URL")
    database_url: SecretStr | None = Field(default=None, alias="DATABASE_URL")
    log_level: LogLevel = Field(default=LogLevel.INFO, alias="LOG_LEVEL")
    default_locale: Locale = Field(default=Locale.RU, alias="DEFAULT_LOCALE")
    data_dir: Path = Field(default=Path(".data"), alias="DATA_DIR")
    webhook_url: str | None = Field(default=None, alias="WEBHOOK_URL")
    webhook_secret: SecretStr | None = Field(default=None, alias="WEBHOOK_SECRET")
    webhook_listen: str = Field(default="0.0.0.0:8080", alias="WEBHOOK_LISTEN")
    # Prometheus metrics: off unless set (``host:port``; polling mode serves them there, on
    # loopback as a rule; webhook mode serves them on the webhook server when set to "webhook")
    metrics_listen: str | None = Field(default=None, alias="METRICS_LISTEN")
    # The character sheet's Mini App: its public HTTPS URL (ending in /app/), unset → off. It is
    # served with the webhook in webhook mode, else on WEBAPP_LISTEN (behind the TLS proxy).
    webapp_url: str | None = Field(default=None, alias="WEBAPP_URL")
    webapp_listen: str = Field(default="0.0.0.0:8080", alias="WEBAPP_LISTEN")

    @field_validator(
        "bot_token",
        "database_url",
        "telegram_api_url",
        "webhook_url",
        "webhook_secret",
        "metrics_listen",
        "webapp_url",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        # An empty variable in .env or compose means "not set", not "the empty string".
        return None if value == "" else value

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        # Without the secret anyone who finds the URL can post updates as any user.
        if self.webhook and self.webhook_secret is None:
            raise ValueError(
                "WEBHOOK_SECRET is required in webhook mode (WEBHOOK_URL set): 1-256 "
                "characters of A-Z a-z 0-9 _ -, the same for every worker"
            )
        return self

    @property
    def sandbox(self) -> bool:
        return self.bot_token is None

    @property
    def webhook(self) -> bool:
        return self.webhook_url is not None and self.bot_token is not None


def load_settings() -> Settings:
    return Settings()


def setup_logging(level: LogLevel, *, to_stderr_only: bool = False) -> None:
    # In the sandbox the terminal chat owns stdout; logs go to stderr at WARNING and above
    # unless LOG_LEVEL asks for more.
    if to_stderr_only and level is LogLevel.INFO:
        level = LogLevel.WARNING
    logging.basicConfig(
        level=level.value,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # aiogram logs every update at INFO; keep the bot's own lines readable.
    logging.getLogger("aiogram.event").setLevel(logging.WARNING)
