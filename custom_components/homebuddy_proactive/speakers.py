"""Who speaks to an Assist agent, as a memory client: the options' speaker links, in HA.

The rule itself is the engine's (:class:`~.engine.memory.MemoryLinks`); this adds what only
Home Assistant knows, the person entities of the speaking user. HomeBuddy's own Assist agent
and the "HomeBuddy memory" LLM API both call :func:`speaker_client`, so they always agree.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant, callback

from .engine.memory import MemoryLinks


@callback
def speaker_client(
    hass: HomeAssistant, links: MemoryLinks, user_id: str | None, device_id: str | None
) -> str:
    """The client whose memories and alarms this user, on this device, reaches."""
    persons = (
        [
            state.entity_id
            for state in hass.states.async_all("person")
            if state.attributes.get("user_id") == user_id
        ]
        if user_id
        else []
    )
    return links.client_for((user_id, *persons, device_id))
