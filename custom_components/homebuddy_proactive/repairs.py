"""Repairs with a fix: the "no model chosen" repair lets the user pick one of the chat models.

An entry set up "without the model" (Ollama could not be reached) raises that repair; its Fix
lists the chat models of the entry's Ollama server, as the setup does (``model_choice``), writes
the one picked into the entry and reloads it, which takes the repair away. The Ollama server's
address stays; Reconfigure changes it.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import RepairsFlow
from homeassistant.const import CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResult

from .const import CONF_MODEL, ISSUE_NO_MODEL
from .model_choice import async_chat_models, model_schema


class ChooseModelFlow(RepairsFlow):
    """Pick the model of an entry set up without one."""

    def __init__(self, entry_id: str) -> None:
        """Fix the entry ``entry_id``."""
        self.entry_id = entry_id
        self._models: list[str] = []

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> FlowResult:
        """List the server's chat models; while it has none to offer, say why (submit: again)."""
        entry = self.hass.config_entries.async_get_entry(self.entry_id)
        if entry is None:
            return self.async_abort(reason="entry_gone")
        url = entry.data[CONF_URL]
        self._models, errors = await async_chat_models(url)
        if not errors:
            return await self.async_step_model()
        return self.async_show_form(
            step_id="init", errors=errors, description_placeholders={"url": url}
        )

    async def async_step_model(self, user_input: dict[str, Any] | None = None) -> FlowResult:
        """Write the model picked into the entry and reload it."""
        entry = self.hass.config_entries.async_get_entry(self.entry_id)
        if entry is None:
            return self.async_abort(reason="entry_gone")
        if user_input is not None:
            self.hass.config_entries.async_update_entry(
                entry, data={**entry.data, CONF_MODEL: user_input[CONF_MODEL]}
            )
            self.hass.config_entries.async_schedule_reload(entry.entry_id)
            return self.async_create_entry(data={})
        return self.async_show_form(step_id="model", data_schema=model_schema(self._models, None))


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """The fix of a fixable repair of this integration (only "no model chosen" has one)."""
    if issue_id != ISSUE_NO_MODEL or data is None or not isinstance(data.get("entry_id"), str):
        raise ValueError(f"no fix for the repair {issue_id}")
    return ChooseModelFlow(str(data["entry_id"]))
