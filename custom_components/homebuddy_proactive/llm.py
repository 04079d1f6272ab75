"""The memory tools on Home Assistant's Assist API: our ``llm`` platform.

Home Assistant 2026.7 and later asks every loaded integration that has an ``llm.py`` for its
tools (``async_get_tools(hass, llm_context, api_id) -> LLMTools | None``, a callback, for each
request of an agent) and offers them through its own Assist API, so every conversation agent
that uses Assist has ours, named ``homebuddy_proactive__recall_memories``,
``homebuddy_proactive__remember_fact`` and ``homebuddy_proactive__list_reminders``, with a short
prompt naming them. They are the tools of :mod:`.llm_api`, scoped to the speaker the same way.
The "HomeBuddy memory" API is then not registered (:data:`.llm_api.LLM_TOOLS_PLATFORM`); an
older Home Assistant never calls this module, which imports there all the same.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import llm

from .const import DOMAIN
from .llm_api import LLM_TOOLS, memory_prompt, memory_tools


@callback
def async_get_tools(hass: HomeAssistant, llm_context: llm.LLMContext, api_id: str) -> Any:
    """Our tools and prompt for the Assist API, in the language of the request.

    None for another API (as Home Assistant's own platforms answer) and while no entry is
    loaded. The integration allows one config entry; were several loaded all the same, the
    tools use the first loaded one, its memories and its speaker links.
    """
    if LLM_TOOLS is None or api_id != llm.LLM_API_ASSIST:
        return None
    entries = hass.config_entries.async_loaded_entries(DOMAIN)
    if not entries:
        return None
    return LLM_TOOLS(
        tools=memory_tools(entries[0], prefixed=True),
        prompt=memory_prompt(llm_context.language, prefixed=True),
    )
