"""The models an Ollama server offers, for choosing one: its chat models (the setup,
reconfigure and the "no model chosen" repair) and its embedding models (the options).

Ollama says what each model can do (``/api/show`` capabilities); a model of a server too old
to say is offered in both lists.
"""

from __future__ import annotations

import os
from typing import Final

import voluptuous as vol
from homeassistant.helpers.selector import (
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
)
from homeassistant.util.ssl import get_default_context

from .const import CONF_MODEL, CONF_URL, DEFAULT_URL, LOGGER
from .engine.config import ConfigError, http_url
from .engine.llm import ModelUnavailableError, OllamaModel

# Listing models is quick on a healthy server; a longer wait only delays the error for the user.
LIST_MODELS_TIMEOUT: Final = 10
# What a model must be able to do (Ollama's capabilities) to be offered as the chat model and
# as the embedding model: an embedding model cannot answer a chat, nor a chat model embed.
CHAT: Final = "completion"
EMBEDDING: Final = "embedding"
# Where Home Assistant's environment says an Ollama runs (scripts/develop sets it to its dev
# model; a container can set it too). The setup form offers it when it answers.
SUGGESTED_URL_ENV: Final = "HOMEBUDDY_OLLAMA_URL"
# The form waits this long at most for that server before offering Ollama's default instead.
SUGGESTED_URL_TIMEOUT: Final = 3


async def async_list_models(url: str, able: str) -> tuple[list[str], list[str]]:
    """The models of the Ollama server at ``url``, and those of them that can do ``able``
    (``CHAT``: "completion", ``EMBEDDING``: "embedding") or that it says nothing about (older
    servers); the client is always closed."""
    model = OllamaModel(url, "", timeout=LIST_MODELS_TIMEOUT, verify=get_default_context())
    try:
        names = await model.list_models()
        known = await model.capabilities(names) if names else {}
    finally:
        await model.close()
    return names, [name for name in names if able in known.get(name, (able,))]


async def async_suggested_url() -> str:
    """The Ollama URL the setup form offers: ``HOMEBUDDY_OLLAMA_URL`` when it is set and
    lists models, else Ollama's default (``http://127.0.0.1:11434``)."""
    url = os.environ.get(SUGGESTED_URL_ENV, "").strip().rstrip("/")
    if not url or url == DEFAULT_URL:
        return DEFAULT_URL
    try:
        http_url(url)
    except ConfigError:
        return DEFAULT_URL
    model = OllamaModel(url, "", timeout=SUGGESTED_URL_TIMEOUT, verify=get_default_context())
    try:
        await model.list_models()
    except (ModelUnavailableError, ValueError):  # no server, or not an Ollama
        return DEFAULT_URL
    finally:
        await model.close()
    return url


async def async_chat_models(url: str) -> tuple[list[str], dict[str, str]]:
    """The chat models of the Ollama server at ``url``, or the form errors that say why there
    are none (the setup, reconfigure and the "no model" repair ask the same way)."""
    try:
        http_url(url)
    except ConfigError:
        return [], {CONF_URL: "invalid_url"}
    try:
        names, models = await async_list_models(url, CHAT)
    except ModelUnavailableError:
        return [], {"base": "cannot_connect"}
    except Exception:
        # Anything else is a bug or a server that is not Ollama: shown as "unknown" and
        # logged with its traceback, as HA core's flows do.
        LOGGER.exception("Unexpected error while listing the Ollama models")
        return [], {"base": "unknown"}
    if not models:
        return [], {"base": "no_chat_models" if names else "no_models"}
    return models, {}


def model_schema(models: list[str], current: str | None) -> vol.Schema:
    """Return the schema of a dropdown over the server's models."""
    return vol.Schema(
        {
            vol.Required(
                CONF_MODEL, default=current if current in models else models[0]
            ): SelectSelector(
                SelectSelectorConfig(options=models, mode=SelectSelectorMode.DROPDOWN)
            )
        }
    )
