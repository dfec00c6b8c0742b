"""Settings from the environment (and an optional ``.env`` file).

Nothing here is built at import time: the composition root calls ``load_settings()``.
"""

from __future__ import annotations

import logging
import sys
from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
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

    @field_validator(
        "bot_token",
        "database_url",
        "telegram_api_url",
        "webhook_url",
        "webhook_secret",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        # An empty variable in .env or compose means "not set", not "the empty string".
        return None if value == "" else value

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
