"""Config and reconfigure flows of HomeBuddy Proactive (the options form is ``options_flow``).

Setting up asks for the Ollama URL, proves it by listing the server's models, then lets the user
pick one of its chat models and the detector mode. When the server cannot be reached the user
may try again or continue without the model (local rules only; a model is chosen later with
Reconfigure).
"""

from __future__ import annotations

from typing import Any, Final

import voluptuous as vol
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
)
from homeassistant.core import callback
from homeassistant.helpers.selector import (
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from .const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    CONF_URL,
    DOMAIN,
)
from .engine.const import DETECTOR_CONVERSATE, DETECTOR_HEURISTIC
from .model_choice import (
    async_chat_models,
    async_suggested_url,
    model_schema,
)
from .options_flow import DETECTOR_MODE_SELECTOR, HomeBuddyOptionsFlow

ENTRY_TITLE: Final = "HomeBuddy Proactive"

URL_SCHEMA: Final = vol.Schema(
    {vol.Required(CONF_URL): TextSelector(TextSelectorConfig(type=TextSelectorType.URL))}
)


class HomeBuddyConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up HomeBuddy Proactive against one Ollama server."""

    VERSION = 1

    def __init__(self) -> None:
        """Start with no server chosen yet."""
        self._url = ""
        self._models: list[str] = []

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> HomeBuddyOptionsFlow:
        """Return the options flow (tuning values and detector mode)."""
        return HomeBuddyOptionsFlow()

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the Ollama URL and check that it lists models."""
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = await self._async_load_models(user_input[CONF_URL])
            if not errors:
                return await self.async_step_model()
            if errors == {"base": "cannot_connect"}:
                return await self.async_step_unreachable()
        return self.async_show_form(
            step_id="user",
            data_schema=self.add_suggested_values_to_schema(
                URL_SCHEMA, user_input or {CONF_URL: self._url or await async_suggested_url()}
            ),
            errors=errors,
        )

    async def async_step_unreachable(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ollama cannot be reached: try another address or again, or go on without it."""
        return self.async_show_menu(
            step_id="unreachable",
            menu_options=["user", "without_model"],
            description_placeholders={"url": self._url},
        )

    async def async_step_without_model(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Create the entry with local rules only: no model, the heuristic detector.

        Alarms, memories, reminder and task cards and Assist's fast paths work; questions are
        answered once Ollama is up and a model is chosen with Reconfigure.
        """
        return self.async_create_entry(
            title=ENTRY_TITLE,
            data={CONF_URL: self._url, CONF_MODEL: "", CONF_DETECTOR_MODE: DETECTOR_HEURISTIC},
        )

    async def async_step_model(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Let the user pick one of the server's models and the detector mode."""
        if user_input is not None:
            return self.async_create_entry(
                title=ENTRY_TITLE,
                data={
                    CONF_URL: self._url,
                    CONF_MODEL: user_input[CONF_MODEL],
                    CONF_DETECTOR_MODE: user_input[CONF_DETECTOR_MODE],
                },
            )
        schema = model_schema(self._models, None).extend(
            {vol.Required(CONF_DETECTOR_MODE, default=DETECTOR_CONVERSATE): DETECTOR_MODE_SELECTOR}
        )
        return self.async_show_form(step_id="model", data_schema=schema)

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for a new Ollama URL, checked like at setup."""
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = await self._async_load_models(user_input[CONF_URL])
            if not errors:
                return await self.async_step_reconfigure_model()
        entry = self._get_reconfigure_entry()
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=self.add_suggested_values_to_schema(
                URL_SCHEMA, user_input or {CONF_URL: entry.data[CONF_URL]}
            ),
            errors=errors,
        )

    async def async_step_reconfigure_model(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Pick a model of the new server; the detector mode is kept."""
        entry = self._get_reconfigure_entry()
        if user_input is not None:
            return self.async_update_reload_and_abort(
                entry, data_updates={CONF_URL: self._url, CONF_MODEL: user_input[CONF_MODEL]}
            )
        return self.async_show_form(
            step_id="reconfigure_model",
            data_schema=model_schema(self._models, entry.data.get(CONF_MODEL)),
        )

    async def _async_load_models(self, url: str) -> dict[str, str]:
        """Remember ``url`` and its models; return the form errors (empty on success)."""
        self._url = url.strip()
        self._models, errors = await async_chat_models(self._url)
        return errors
