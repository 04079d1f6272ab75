"""ServerSettings: the seed's environment variables, defaults and ranges."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.homebuddy_proactive.engine.config import TUNING_SETTINGS, ConfigError
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings


def test_defaults_are_the_seeds() -> None:
    """With nothing set, every value is the seed's configuration-table default."""
    settings = ServerSettings.from_env({})
    engine = settings.engine
    assert engine.ollama_base_url == "http://192.168.68.112:11434"
    assert engine.ollama_model == "qwen3.5:cloud"
    assert engine.ollama_timeout_seconds == 45
    assert engine.detector_mode == "conversate"
    assert engine.detector_threshold == 0.62
    assert engine.insight_cooldown_seconds == 20
    assert engine.partial_insight_debounce_ms == 250
    assert engine.partial_insight_interval_ms == 1500
    assert engine.partial_insight_cooldown_seconds == 6
    assert engine.insight_target_characters == 150
    assert engine.insight_max_characters == 220
    assert engine.transcript_window_seconds == 90
    assert engine.transcript_max_items == 40
    assert engine.memory_result_limit == 5
    assert settings.auth_username == "homebuddy"
    assert settings.auth_password == "123456"
    assert settings.auth_configured
    assert settings.auth_token_ttl_seconds == 86400
    assert settings.database_path == Path("/data/homebuddy.db")
    assert settings.host == "0.0.0.0"
    assert settings.port == 18743
    assert settings.log_level == "INFO"


def test_every_tuning_variable_is_read() -> None:
    """Each variable of the tuning table reaches the engine configuration."""
    env = {}
    for setting in TUNING_SETTINGS:
        value = setting.maximum if setting.key != "insight_target_characters" else 200
        env[setting.env] = str(int(value) if setting.integer else value)
    settings = ServerSettings.from_env(env)
    for setting in TUNING_SETTINGS:
        assert getattr(settings.engine, setting.key) == float(env[setting.env]), setting.env


def test_values_are_read() -> None:
    """Non-tuning variables are read too; empty ones fall back to defaults."""
    settings = ServerSettings.from_env(
        {
            "OLLAMA_BASE_URL": "http://10.0.0.5:11434/",
            "OLLAMA_MODEL": "llama3.2:3b",
            "DETECTOR_MODE": "Heuristic",
            "DATABASE_PATH": "/tmp/x.db",
            "PORT": "8080",
            "HOST": "",
            "AUTH_TOKEN_TTL_SECONDS": "60",
            "LOG_LEVEL": "debug",
            "TRANSCRIPT_MAX_ITEMS": "",
        }
    )
    assert settings.engine.ollama_base_url == "http://10.0.0.5:11434"
    assert settings.engine.ollama_model == "llama3.2:3b"
    assert settings.engine.detector_mode == "heuristic"
    assert settings.database_path == Path("/tmp/x.db")
    assert settings.port == 8080
    assert settings.host == "0.0.0.0"
    assert settings.auth_token_ttl_seconds == 60
    assert settings.log_level == "DEBUG"
    assert settings.engine.transcript_max_items == 40


@pytest.mark.parametrize("name", ["AUTH_USERNAME", "AUTH_PASSWORD"])
def test_explicitly_empty_credentials_leave_auth_unconfigured(name: str) -> None:
    """An explicitly empty username or password disables sign-in."""
    assert not ServerSettings.from_env({name: ""}).auth_configured


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DETECTOR_THRESHOLD", "2"),
        ("DETECTOR_THRESHOLD", "high"),
        ("INSIGHT_COOLDOWN_SECONDS", "-1"),
        ("PARTIAL_INSIGHT_DEBOUNCE_MS", "10001"),
        ("PARTIAL_INSIGHT_INTERVAL_MS", "99"),
        ("PARTIAL_INSIGHT_COOLDOWN_SECONDS", "nan"),
        ("INSIGHT_TARGET_CHARACTERS", "39"),
        ("INSIGHT_MAX_CHARACTERS", "2001"),
        ("TRANSCRIPT_WINDOW_SECONDS", "4"),
        ("TRANSCRIPT_MAX_ITEMS", "1.5"),
        ("MEMORY_RESULT_LIMIT", "51"),
        ("OLLAMA_TIMEOUT_SECONDS", "0"),
        ("AUTH_TOKEN_TTL_SECONDS", "59"),
        ("AUTH_TOKEN_TTL_SECONDS", "31536001"),
        ("PORT", "0"),
        ("PORT", "http"),
        ("DETECTOR_MODE", "eager"),
        ("LOG_LEVEL", "LOUD"),
        ("OLLAMA_BASE_URL", "192.168.68.112:11434"),
        ("OLLAMA_BASE_URL", "http://127.0.0.1:11434http://127.0.0.1:11999"),
        ("OLLAMA_BASE_URL", "http://127.0.0.1:99999"),
    ],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    """A bad value is refused with a message naming the variable."""
    with pytest.raises(ConfigError, match=name):
        ServerSettings.from_env({name: value})


def test_a_bad_ollama_address_is_named_without_its_password() -> None:
    """The refusal quotes the address as given, but never the credentials in it."""
    with pytest.raises(ConfigError, match="OLLAMA_BASE_URL") as refused:
        ServerSettings.from_env({"OLLAMA_BASE_URL": "http://user:secret@127.0.0.1:99999"})
    assert "secret" not in str(refused.value)
    assert "127.0.0.1:99999" in str(refused.value)


def test_max_characters_below_target_is_refused() -> None:
    """The card ceiling cannot be below the target."""
    with pytest.raises(ConfigError, match="INSIGHT_MAX_CHARACTERS"):
        ServerSettings.from_env({"INSIGHT_TARGET_CHARACTERS": "300"})
