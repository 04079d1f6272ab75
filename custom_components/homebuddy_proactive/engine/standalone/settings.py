"""The standalone server's settings: what it reads from its environment, checked.

The variable names and defaults are the protocol's configuration table (``docs/standalone.md``,
*Configuration*). A wrong value stops the server at start-up with a :class:`ConfigError` that
names the variable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..config import (
    TUNING_SETTINGS,
    ConfigError,
    EngineConfig,
    http_url,
    validate_tuning,
    without_userinfo,
)
from ..const import DETECTOR_CONVERSATE, DETECTOR_MODES

DEFAULT_HOST: Final = "0.0.0.0"
DEFAULT_PORT: Final = 18743
DEFAULT_DATABASE_PATH: Final = "/data/homebuddy.db"
DEFAULT_OLLAMA_BASE_URL: Final = "http://192.168.68.112:11434"
DEFAULT_OLLAMA_MODEL: Final = "qwen3.5:cloud"
DEFAULT_AUTH_USERNAME: Final = "homebuddy"
DEFAULT_AUTH_PASSWORD: Final = "123456"
DEFAULT_TOKEN_TTL_SECONDS: Final = 86400
MIN_TOKEN_TTL_SECONDS: Final = 60
MAX_TOKEN_TTL_SECONDS: Final = 365 * 86400
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# HTTP timeouts: a connection must send its request headers within the header timeout, a
# request body must arrive within the body timeout, and an idle keep-alive connection (or one
# that starts a next request and never finishes its headers) is closed after the keep-alive
# timeout.
DEFAULT_HEADER_TIMEOUT_SECONDS: Final = 20
DEFAULT_BODY_TIMEOUT_SECONDS: Final = 20
DEFAULT_KEEPALIVE_TIMEOUT_SECONDS: Final = 30
MAX_HTTP_TIMEOUT_SECONDS: Final = 600
# Limits (docs/standalone.md): sockets per client address and in total, frames per second per
# socket, and how often one kind of accept() error may reach the log.
DEFAULT_MAX_SOCKETS_PER_ADDRESS: Final = 32
DEFAULT_MAX_SOCKETS: Final = 256
DEFAULT_MAX_FRAMES_PER_SECOND: Final = 50
DEFAULT_ACCEPT_ERROR_LOG_INTERVAL_SECONDS: Final = 60


@dataclass(frozen=True, kw_only=True)
class ServerSettings:
    """Everything the standalone server reads from its environment."""

    engine: EngineConfig
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    auth_username: str = DEFAULT_AUTH_USERNAME
    auth_password: str = DEFAULT_AUTH_PASSWORD
    auth_token_ttl_seconds: int = DEFAULT_TOKEN_TTL_SECONDS
    log_level: str = "INFO"
    header_timeout_seconds: int = DEFAULT_HEADER_TIMEOUT_SECONDS
    body_timeout_seconds: int = DEFAULT_BODY_TIMEOUT_SECONDS
    keepalive_timeout_seconds: int = DEFAULT_KEEPALIVE_TIMEOUT_SECONDS
    max_sockets_per_address: int = DEFAULT_MAX_SOCKETS_PER_ADDRESS
    max_sockets: int = DEFAULT_MAX_SOCKETS
    max_frames_per_second: int = DEFAULT_MAX_FRAMES_PER_SECOND
    accept_error_log_interval_seconds: int = DEFAULT_ACCEPT_ERROR_LOG_INTERVAL_SECONDS
    # The home's time zone (TZ, an IANA name): when "à 20 heures" is.
    time_zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))

    @property
    def auth_configured(self) -> bool:
        """Whether sign-in is possible (both credentials set and non-empty)."""
        return bool(self.auth_username) and bool(self.auth_password)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> ServerSettings:
        """Read and validate the settings; raise :class:`ConfigError` naming the variable.

        An empty value means "use the default", except for AUTH_USERNAME and AUTH_PASSWORD,
        where an explicitly empty value leaves authentication unconfigured.
        """

        def get(name: str, default: str) -> str:
            value = environ.get(name, "").strip()
            return value or default

        base_url = get("OLLAMA_BASE_URL", DEFAULT_OLLAMA_BASE_URL).rstrip("/")
        try:
            http_url(base_url)
        except ConfigError as err:
            raise ConfigError(
                "OLLAMA_BASE_URL must be an http:// or https:// URL, got"
                f" {without_userinfo(base_url)!r} ({err})"
            ) from None
        mode = get("DETECTOR_MODE", DETECTOR_CONVERSATE).lower()
        if mode not in DETECTOR_MODES:
            raise ConfigError(
                f"DETECTOR_MODE must be one of {', '.join(DETECTOR_MODES)}, got {mode!r}"
            )
        tuning: dict[str, float | int] = {}
        for setting in TUNING_SETTINGS:
            raw = environ.get(setting.env, "").strip()
            if raw:
                tuning[setting.key] = validate_tuning(setting.key, raw)
        target = tuning.get("insight_target_characters", 150)
        maximum = tuning.get("insight_max_characters", 220)
        if maximum < target:
            raise ConfigError(
                f"INSIGHT_MAX_CHARACTERS ({maximum}) must not be below "
                f"INSIGHT_TARGET_CHARACTERS ({target})"
            )
        engine = EngineConfig(
            ollama_base_url=base_url,
            ollama_model=get("OLLAMA_MODEL", DEFAULT_OLLAMA_MODEL),
            detector_mode=mode,
            embedding_model=get("OLLAMA_EMBEDDING_MODEL", ""),
        ).with_tuning(tuning)

        log_level = get("LOG_LEVEL", "INFO").upper()
        if log_level == "WARN":
            log_level = "WARNING"
        if log_level not in LOG_LEVELS:
            raise ConfigError(
                f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}"
            )

        return cls(
            engine=engine,
            time_zone=_time_zone(get("TZ", "UTC")),
            host=get("HOST", DEFAULT_HOST),
            port=_whole_number(environ, "PORT", DEFAULT_PORT, 1, 65535),
            database_path=Path(get("DATABASE_PATH", DEFAULT_DATABASE_PATH)),
            auth_username=environ.get("AUTH_USERNAME", DEFAULT_AUTH_USERNAME),
            auth_password=environ.get("AUTH_PASSWORD", DEFAULT_AUTH_PASSWORD),
            auth_token_ttl_seconds=_whole_number(
                environ,
                "AUTH_TOKEN_TTL_SECONDS",
                DEFAULT_TOKEN_TTL_SECONDS,
                MIN_TOKEN_TTL_SECONDS,
                MAX_TOKEN_TTL_SECONDS,
            ),
            log_level=log_level,
            header_timeout_seconds=_whole_number(
                environ,
                "HTTP_HEADER_TIMEOUT_SECONDS",
                DEFAULT_HEADER_TIMEOUT_SECONDS,
                1,
                MAX_HTTP_TIMEOUT_SECONDS,
            ),
            body_timeout_seconds=_whole_number(
                environ,
                "HTTP_BODY_TIMEOUT_SECONDS",
                DEFAULT_BODY_TIMEOUT_SECONDS,
                1,
                MAX_HTTP_TIMEOUT_SECONDS,
            ),
            keepalive_timeout_seconds=_whole_number(
                environ,
                "HTTP_KEEPALIVE_TIMEOUT_SECONDS",
                DEFAULT_KEEPALIVE_TIMEOUT_SECONDS,
                1,
                MAX_HTTP_TIMEOUT_SECONDS,
            ),
            max_sockets_per_address=_whole_number(
                environ, "MAX_SOCKETS_PER_ADDRESS", DEFAULT_MAX_SOCKETS_PER_ADDRESS, 1, 10_000
            ),
            max_sockets=_whole_number(environ, "MAX_SOCKETS", DEFAULT_MAX_SOCKETS, 1, 100_000),
            max_frames_per_second=_whole_number(
                environ, "MAX_FRAMES_PER_SECOND", DEFAULT_MAX_FRAMES_PER_SECOND, 1, 10_000
            ),
            accept_error_log_interval_seconds=_whole_number(
                environ,
                "ACCEPT_ERROR_LOG_INTERVAL_SECONDS",
                DEFAULT_ACCEPT_ERROR_LOG_INTERVAL_SECONDS,
                1,
                86_400,
            ),
        )


def _whole_number(
    environ: Mapping[str, str], name: str, default: int, minimum: int, maximum: int
) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as err:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from err
    if not minimum <= value <= maximum:
        raise ConfigError(f"{name} must be between {minimum} and {maximum}, got {raw!r}")
    return value


def _time_zone(name: str) -> ZoneInfo:
    """The home's time zone from its IANA name (``TZ``, as Docker images take it)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"TZ must be a time zone name such as Europe/Paris, got {name!r}"
        ) from None
