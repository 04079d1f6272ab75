"""Engine configuration: the tuning settings, their defaults and their valid ranges.

Both hosts build an :class:`EngineConfig` from here: Home Assistant from the config entry's
data and options, the standalone server from environment variables (their names and defaults:
``docs/standalone.md``, *Configuration*).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final
from urllib.parse import urlsplit

from .const import DETECTOR_CONVERSATE, DETECTOR_MODES


class ConfigError(ValueError):
    """A configuration value is missing, of the wrong type or out of range."""


def http_url(value: str) -> str:
    """``value`` without surrounding blanks, once it reads as an http(s) address with a host.

    The Ollama server's address and a news feed's are checked here, so that an address typed
    wrong (a port that is not a number, two addresses run together) is refused when it is
    given, with :class:`ConfigError`, instead of failing when it is first used.
    """
    url = value.strip()
    try:
        parts = urlsplit(url)
        port = parts.port  # a port that is not a number from 0 to 65535 raises here
    except ValueError as err:
        raise ConfigError(f"not a valid address: {err}") from err
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError("not an http:// or https:// address with a host")
    if port == 0 or any(character.isspace() for character in url):
        raise ConfigError("not a valid address")
    return url


def without_userinfo(url: str) -> str:
    """``url`` without a ``user:password@`` part: safe to log or to show in a repair."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not an address at all ("http://[bad"): cut at the last "@" by hand
        scheme, _, rest = url.rpartition("://")
        return f"{scheme}://{rest.rpartition('@')[2]}" if scheme else url.rpartition("@")[2]
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


@dataclass(frozen=True, kw_only=True)
class TuningSetting:
    """One tunable value: its option key, environment variable, default and range."""

    key: str
    env: str
    default: float
    minimum: float
    maximum: float
    integer: bool = True
    step: float = 1


TUNING_SETTINGS: Final[tuple[TuningSetting, ...]] = (
    TuningSetting(
        key="detector_threshold",
        env="DETECTOR_THRESHOLD",
        default=0.62,
        minimum=0.0,
        maximum=1.0,
        integer=False,
        step=0.01,
    ),
    TuningSetting(
        key="insight_cooldown_seconds",
        env="INSIGHT_COOLDOWN_SECONDS",
        default=20,
        minimum=0,
        maximum=3600,
    ),
    TuningSetting(
        key="partial_insight_debounce_ms",
        env="PARTIAL_INSIGHT_DEBOUNCE_MS",
        default=250,
        minimum=0,
        maximum=10000,
    ),
    TuningSetting(
        key="partial_insight_interval_ms",
        env="PARTIAL_INSIGHT_INTERVAL_MS",
        default=1500,
        minimum=100,
        maximum=60000,
    ),
    TuningSetting(
        key="partial_insight_cooldown_seconds",
        env="PARTIAL_INSIGHT_COOLDOWN_SECONDS",
        default=6,
        minimum=0,
        maximum=3600,
    ),
    TuningSetting(
        key="insight_target_characters",
        env="INSIGHT_TARGET_CHARACTERS",
        default=150,
        minimum=40,
        maximum=1000,
    ),
    TuningSetting(
        key="insight_max_characters",
        env="INSIGHT_MAX_CHARACTERS",
        default=220,
        minimum=60,
        maximum=2000,
    ),
    TuningSetting(
        key="transcript_window_seconds",
        env="TRANSCRIPT_WINDOW_SECONDS",
        default=90,
        minimum=5,
        maximum=3600,
    ),
    TuningSetting(
        key="transcript_max_items",
        env="TRANSCRIPT_MAX_ITEMS",
        default=40,
        minimum=1,
        maximum=500,
    ),
    TuningSetting(
        key="memory_result_limit",
        env="MEMORY_RESULT_LIMIT",
        default=5,
        minimum=0,
        maximum=50,
    ),
    TuningSetting(
        key="memory_weight_recency",
        env="MEMORY_WEIGHT_RECENCY",
        default=0.6,
        minimum=0.0,
        maximum=1.0,
        integer=False,
        step=0.05,
    ),
    TuningSetting(
        key="memory_weight_frequency",
        env="MEMORY_WEIGHT_FREQUENCY",
        default=0.2,
        minimum=0.0,
        maximum=1.0,
        integer=False,
        step=0.05,
    ),
    TuningSetting(
        key="memory_weight_feedback",
        env="MEMORY_WEIGHT_FEEDBACK",
        default=0.1,
        minimum=0.0,
        maximum=1.0,
        integer=False,
        step=0.05,
    ),
    TuningSetting(
        key="memory_weight_importance",
        env="MEMORY_WEIGHT_IMPORTANCE",
        default=0.1,
        minimum=0.0,
        maximum=1.0,
        integer=False,
        step=0.05,
    ),
    TuningSetting(
        key="memory_learning_turns",
        env="MEMORY_LEARNING_TURNS",
        default=8,
        minimum=0,
        maximum=60,
    ),
    TuningSetting(
        key="ollama_timeout_seconds",
        env="OLLAMA_TIMEOUT_SECONDS",
        default=45,
        minimum=1,
        maximum=600,
    ),
    TuningSetting(
        key="prompt_token_budget",
        env="PROMPT_TOKEN_BUDGET",
        default=3072,
        minimum=1024,
        maximum=32768,
    ),
    TuningSetting(
        key="ollama_keep_alive_minutes",
        env="OLLAMA_KEEP_ALIVE_MINUTES",
        default=-1,
        minimum=-1,
        maximum=1440,
    ),
)
TUNING_BY_KEY: Final = {setting.key: setting for setting in TUNING_SETTINGS}


def _default(key: str) -> Any:
    """A tuning value's default, written once in TUNING_SETTINGS."""
    setting = TUNING_BY_KEY[key]
    return int(setting.default) if setting.integer else float(setting.default)


@dataclass(frozen=True, kw_only=True)
class EngineConfig:
    """Everything the engine needs to know, independent of its host."""

    ollama_base_url: str = "http://127.0.0.1:11434"
    ollama_model: str = "qwen3.5:cloud"
    detector_mode: str = DETECTOR_CONVERSATE
    detector_threshold: float = _default("detector_threshold")
    insight_cooldown_seconds: float = _default("insight_cooldown_seconds")
    partial_insight_debounce_ms: int = _default("partial_insight_debounce_ms")
    partial_insight_interval_ms: int = _default("partial_insight_interval_ms")
    partial_insight_cooldown_seconds: float = _default("partial_insight_cooldown_seconds")
    insight_target_characters: int = _default("insight_target_characters")
    insight_max_characters: int = _default("insight_max_characters")
    transcript_window_seconds: float = _default("transcript_window_seconds")
    transcript_max_items: int = _default("transcript_max_items")
    memory_result_limit: int = _default("memory_result_limit")
    memory_weight_recency: float = _default("memory_weight_recency")
    memory_weight_frequency: float = _default("memory_weight_frequency")
    memory_weight_feedback: float = _default("memory_weight_feedback")
    memory_weight_importance: float = _default("memory_weight_importance")
    memory_learning_turns: int = _default("memory_learning_turns")
    ollama_timeout_seconds: float = _default("ollama_timeout_seconds")
    # The Ollama model whose vectors memory search adds to BM25 ("" for none: BM25 alone).
    embedding_model: str = ""
    # Estimated tokens a prompt may take (see proactive.prompt); Ollama's num_ctx follows.
    prompt_token_budget: int = _default("prompt_token_budget")
    # How long Ollama keeps the model loaded after a call; -1: always (0 unloads at once).
    ollama_keep_alive_minutes: int = _default("ollama_keep_alive_minutes")

    @property
    def ollama_keep_alive(self) -> str | int:
        """Ollama's ``keep_alive``: -1 keeps the model loaded, otherwise a duration."""
        minutes = self.ollama_keep_alive_minutes
        return -1 if minutes < 0 else f"{minutes}m"

    @property
    def partial_insights(self) -> bool:
        """Whether partial transcripts are evaluated (conversate mode only)."""
        return self.detector_mode == DETECTOR_CONVERSATE

    def with_tuning(self, values: Mapping[str, Any]) -> EngineConfig:
        """Return a copy with the given tuning values validated and applied."""
        known = {f.name for f in fields(self)}
        changes = {
            key: validate_tuning(key, value)
            for key, value in values.items()
            if key in TUNING_BY_KEY and key in known
        }
        config = replace(self, **changes)  # type: ignore[arg-type]
        config.check()
        return config

    def check(self) -> None:
        """Raise :class:`ConfigError` when values contradict each other."""
        if self.detector_mode not in DETECTOR_MODES:
            raise ConfigError(
                f"detector mode must be one of {', '.join(DETECTOR_MODES)}, "
                f"not {self.detector_mode!r}"
            )
        if self.insight_max_characters < self.insight_target_characters:
            raise ConfigError("insight_max_characters must not be below insight_target_characters")
        if not self.ollama_model:
            raise ConfigError("an Ollama model name is required")
        if self.embedding_model != self.embedding_model.strip() or len(self.embedding_model) > 200:
            raise ConfigError(f"not an embedding model name: {self.embedding_model!r}")


def validate_tuning(key: str, value: Any) -> float | int:
    """Validate one tuning value against its range and return it with the right type."""
    setting = TUNING_BY_KEY[key]
    try:
        number = float(value)
    except (TypeError, ValueError) as err:
        raise ConfigError(f"{setting.env} must be a number, got {value!r}") from err
    if math.isnan(number) or not setting.minimum <= number <= setting.maximum:
        raise ConfigError(
            f"{setting.env} must be between {setting.minimum:g} and {setting.maximum:g}, "
            f"got {value!r}"
        )
    if setting.integer:
        if number != int(number):
            raise ConfigError(f"{setting.env} must be a whole number, got {value!r}")
        return int(number)
    return number


def default_tuning() -> dict[str, float | int]:
    """Return the default tuning values keyed by option key."""
    return {setting.key: setting.default for setting in TUNING_SETTINGS}
