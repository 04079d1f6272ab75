"""Alarms and reminders are heard: said on a speaker, again and again, until the person stops.

Where a ring is said, in this order:

1. the Assist satellite it was set from, when that satellite can announce
   (``assist_satellite.announce``, with its chime);
2. the speaker chosen in the options for that person ("Speakers of each person": lines
   ``glasses client id = speaker``), else the home's ("Alarm and reminder speaker"): an Assist
   satellite (announced as above) or a media player (``tts.speak`` through the first
   text-to-speech entity, as an announcement).

It is said again every ``repeat_seconds`` up to ``rings`` times, until the person says stop
(:meth:`Ringer.async_stop`) or snoozes. When it cannot be said anywhere (no speaker, or every
call failed) a persistent notification and the event ``homebuddy_proactive_alarm_failed`` say
so: an alarm is never silently dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from homeassistant.components import persistent_notification
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.event import async_call_later

from .const import EVENT_ALARM_FAILED, LOGGER
from .engine.assist import say

SATELLITE: Final = "assist_satellite"
MEDIA_PLAYER: Final = "media_player"
# assist_satellite.AssistSatelliteEntityFeature.ANNOUNCE (kept as a number: the satellite
# integration need not be loaded for an alarm to ring on a media player).
_ANNOUNCE_FEATURE: Final = 1
DEFAULT_RING_REPEAT_SECONDS: Final = 60
DEFAULT_RINGS: Final = 5


@dataclass(frozen=True, kw_only=True)
class Ring:
    """Something to say when it is due: an alarm or a reminder."""

    kind: str  # "alarm" or "reminder"
    item_id: int
    client_id: str
    message: str
    language: str
    device_id: str | None = None  # the satellite it was set from
    data: dict[str, Any] = field(default_factory=dict)  # what the events carry besides


@dataclass
class _Ringing:
    ring: Ring
    target: str
    said: int = 0
    timer: CALLBACK_TYPE | None = None


def satellite_of_device(hass: HomeAssistant, device_id: str | None) -> str | None:
    """The Assist satellite entity of ``device_id`` that can announce, if any."""
    if not device_id:
        return None
    registry = er.async_get(hass)
    for entry in er.async_entries_for_device(registry, device_id):
        if entry.domain == SATELLITE and _can_announce(hass, entry.entity_id):
            return entry.entity_id
    return None


def _can_announce(hass: HomeAssistant, entity_id: str) -> bool:
    state = hass.states.get(entity_id)
    return state is not None and bool(
        int(state.attributes.get("supported_features", 0)) & _ANNOUNCE_FEATURE
    )


class Ringer:
    """Says due alarms and reminders on a speaker, repeated until stopped; reports failures."""

    def __init__(
        self,
        hass: HomeAssistant,
        *,
        speaker: str | None,
        repeat_seconds: float = DEFAULT_RING_REPEAT_SECONDS,
        rings: int = DEFAULT_RINGS,
        speakers: Mapping[str, str] | None = None,
    ) -> None:
        """Bind Home Assistant and the options' speakers: the home's (an entity id, or None)
        and each person's (by glasses client id)."""
        self.hass = hass
        self.speaker = speaker or None
        self.speakers = dict(speakers or {})
        self.repeat = timedelta(seconds=repeat_seconds)
        self.rings = max(1, rings)
        self._ringing: dict[tuple[str, int], _Ringing] = {}

    def target(self, device_id: str | None, client_id: str | None = None) -> str | None:
        """Where a ring set from ``device_id`` for ``client_id`` would be said (an entity
        id), or None."""
        if satellite := satellite_of_device(self.hass, device_id):
            return satellite
        for speaker in (self.speakers.get(client_id or ""), self.speaker):
            if speaker and self._can_say(speaker):
                return speaker
        return None

    def _can_say(self, entity_id: str) -> bool:
        if self.hass.states.get(entity_id) is None:
            return False
        return not entity_id.startswith(f"{SATELLITE}.") or _can_announce(self.hass, entity_id)

    def target_name(self, device_id: str | None, client_id: str | None = None) -> str | None:
        """The name the person knows the target by ("Cuisine"), or None without one."""
        entity_id = self.target(device_id, client_id)
        return None if entity_id is None else self._name(entity_id)

    @property
    def ringing(self) -> list[Ring]:
        """What is ringing now, oldest first."""
        return [ringing.ring for ringing in self._ringing.values()]

    async def async_ring(self, ring: Ring) -> bool:
        """Say ``ring`` now and again until stopped; False (and reported) when it cannot be."""
        target = self.target(ring.device_id, ring.client_id)
        if target is None:
            self._report(ring, "no_speaker")
            return False
        key = (ring.kind, ring.item_id)
        self._cancel(key)
        ringing = _Ringing(ring, target)
        self._ringing[key] = ringing
        return await self._async_say(key, ringing)

    @callback
    def async_stop(self, client_id: str | None = None) -> list[Ring]:
        """Stop what rings (for ``client_id`` only when given); return what was stopped."""
        stopped = []
        for key, ringing in list(self._ringing.items()):
            if client_id is None or ringing.ring.client_id in (client_id, None):
                self._cancel(key)
                stopped.append(ringing.ring)
        return stopped

    @callback
    def async_shutdown(self) -> None:
        """Stop every repeat (the entry unloads)."""
        for key in list(self._ringing):
            self._cancel(key)

    def _cancel(self, key: tuple[str, int]) -> None:
        ringing = self._ringing.pop(key, None)
        if ringing is not None and ringing.timer is not None:
            ringing.timer()

    async def _async_say(self, key: tuple[str, int], ringing: _Ringing) -> bool:
        """Say the ring once; plan the next time, or end after the last one."""
        ringing.timer = None
        ring = ringing.ring
        try:
            await self._async_announce(ringing.target, ring)
        except (HomeAssistantError, ValueError) as err:
            LOGGER.warning(
                "Could not say %s %s on %s: %s", ring.kind, ring.item_id, ringing.target, err
            )
            if ringing.said == 0:
                self._ringing.pop(key, None)
                self._report(ring, "speaker_failed", target=ringing.target, error=str(err))
                return False
        ringing.said += 1
        if self._ringing.get(key) is not ringing:
            return True  # stopped while it was being said
        if ringing.said >= self.rings:
            self._ringing.pop(key, None)
            return True

        @callback
        def again(_now: datetime) -> None:
            if self._ringing.get(key) is ringing:
                self.hass.async_create_task(
                    self._async_say(key, ringing), f"homebuddy_proactive ring {key}"
                )

        ringing.timer = async_call_later(self.hass, self.repeat, again)
        return True

    async def _async_announce(self, target: str, ring: Ring) -> None:
        if target.startswith(f"{SATELLITE}."):
            await self.hass.services.async_call(
                SATELLITE,
                "announce",
                {"entity_id": target, "message": ring.message, "preannounce": True},
                blocking=True,
            )
            return
        voices = sorted(state.entity_id for state in self.hass.states.async_all("tts"))
        if not voices:
            raise ValueError("no text-to-speech entity to say it with")
        await self.hass.services.async_call(
            "tts",
            "speak",
            {
                "entity_id": voices[0],
                "media_player_entity_id": target,
                "message": ring.message,
                "language": ring.language,
            },
            blocking=True,
        )

    def _report(self, ring: Ring, reason: str, **extra: Any) -> None:
        """Nothing could say ``ring``: a notification the household sees, and an event."""
        LOGGER.warning("%s %s could not be said anywhere (%s)", ring.kind, ring.item_id, reason)
        self.hass.bus.async_fire(
            EVENT_ALARM_FAILED,
            {
                "kind": ring.kind,
                "id": ring.item_id,
                "client_id": ring.client_id,
                "message": ring.message,
                "language": ring.language,
                "device_id": ring.device_id,
                "reason": reason,
                **extra,
                **ring.data,
            },
        )
        language = ring.language
        why = (
            say("ring_failed_no_speaker", language)
            if reason == "no_speaker"
            else say(
                "ring_failed_speaker",
                language,
                speaker=self._name(str(extra.get("target"))),
                error=extra.get("error", ""),
            )
        )
        persistent_notification.async_create(
            self.hass,
            f"{ring.message}\n\n{why}",
            title=say("ring_failed_title", language),
            notification_id=f"homebuddy_proactive_{ring.kind}_{ring.item_id}",
        )

    def _name(self, entity_id: str) -> str:
        state = self.hass.states.get(entity_id)
        return str(state.name) if state is not None else entity_id


def parse_speakers(text: str) -> dict[str, str]:
    """The options' "Speakers of each person": one line each, ``glasses client id = speaker``
    (a media player or an Assist satellite). Raises ``ValueError`` naming the line."""
    speakers: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        who, sep, speaker = (part.strip() for part in line.partition("="))
        domain = speaker.split(".", 1)[0]
        if not sep or not who or " " in who or domain not in (MEDIA_PLAYER, SATELLITE):
            raise ValueError(f"line {number}")
        if "." not in speaker or " " in speaker or who in speakers:
            raise ValueError(f"line {number}")
        speakers[who] = speaker
    return speakers
