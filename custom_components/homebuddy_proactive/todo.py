"""The to-do list of what is pending: timed reminders, and the reminders and tasks remembered.

A timed reminder ("rappelle-moi … à 20 heures") is an item with its due time; a reminder or
task kept as a memory (said without a time, to the glasses or to Assist) is an item without one.
Completing or deleting an item cancels the timed reminder, or forgets the memory (its history
keeps that it was forgotten); renaming a memory's item corrects the memory (its history keeps
the earlier words); moving a timed reminder sets it again at the new time. An item added here
with a due time becomes a timed reminder; without one, a reminder memory of the household.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime

from homeassistant.components.todo import TodoItem, TodoListEntity
from homeassistant.components.todo.const import TodoItemStatus, TodoListEntityFeature
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.entity import EntityDescription
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.util import dt as dt_util

from .const import ASSIST_CLIENT_ID, DOMAIN
from .engine.assist import (
    KIND_REMINDER,
    AlarmError,
    AlarmRecord,
    AlarmTime,
    reminder_when,
    spoken_time,
)
from .engine.memory import MemoryError as MemoryRequestError
from .entity import HomeBuddyEntity
from .models import HomeBuddyConfigEntry

REMINDERS = EntityDescription(key="reminders", translation_key="reminders")
# Item ids: a timed reminder's ("r" and its id) or a memory's ("m" and its id).
_TIMED = "r"
_MEMORY = "m"
_MEMORY_KINDS = ("reminder", "task")


async def async_setup_entry(
    hass: HomeAssistant,
    entry: HomeBuddyConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the reminders list."""
    async_add_entities([HomeBuddyReminderList(entry, REMINDERS)])


class HomeBuddyReminderList(HomeBuddyEntity, TodoListEntity):
    """What is pending, in Home Assistant's to-do lists.

    It follows the timed reminders as they change, the reminder and task cards of the glasses
    as they are shown, and reads the memories again every scan interval (a reminder remembered
    through Assist or an action).
    """

    _attr_should_poll = True

    _attr_supported_features = (
        TodoListEntityFeature.CREATE_TODO_ITEM
        | TodoListEntityFeature.UPDATE_TODO_ITEM
        | TodoListEntityFeature.DELETE_TODO_ITEM
        | TodoListEntityFeature.SET_DUE_DATETIME_ON_ITEM
    )

    _refreshing: asyncio.Task[None] | None = None

    async def async_added_to_hass(self) -> None:
        """Read the items now and whenever a timed reminder changes."""
        await super().async_added_to_hass()
        runtime = self.entry.runtime_data
        self.async_on_remove(runtime.assist.alarms.add_listener(self._changed))
        self.async_on_remove(
            runtime.engine.add_insight_listener(
                lambda insight: self._changed() if insight.intent in _MEMORY_KINDS else None
            )
        )
        await self._async_refresh()

    async def async_update(self) -> None:
        """Read the items again (polled)."""
        await self._async_refresh()

    async def async_will_remove_from_hass(self) -> None:
        """Stop a refresh in flight: the entry's database closes after its entities go."""
        if self._refreshing is not None:
            self._refreshing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refreshing
        await super().async_will_remove_from_hass()

    @callback
    def _changed(self) -> None:
        if self._refreshing is not None and not self._refreshing.done():
            self._refreshing.cancel()  # the newer refresh reads everything again
        self._refreshing = self.hass.async_create_task(
            self._async_refresh_and_write(), "homebuddy reminders"
        )

    async def _async_refresh_and_write(self) -> None:
        await self._async_refresh()
        self.async_write_ha_state()

    async def _async_refresh(self) -> None:
        runtime = self.entry.runtime_data
        items = [
            TodoItem(
                uid=f"{_TIMED}{alarm.id}",
                summary=alarm.label,
                status=TodoItemStatus.NEEDS_ACTION,
                due=dt_util.as_local(alarm.fire_at),
                description=self._repeats(alarm),
            )
            for alarm in runtime.assist.alarms.pending
            if alarm.kind == KIND_REMINDER
        ]
        for kind in _MEMORY_KINDS:
            for memory in await runtime.engine.memory.overview(None, "factual", kind=kind):
                items.append(
                    TodoItem(
                        uid=f"{_MEMORY}{memory['id']}",
                        summary=str(memory["content"]),
                        status=TodoItemStatus.NEEDS_ACTION,
                    )
                )
        self._attr_todo_items = items

    async def async_create_todo_item(self, item: TodoItem) -> None:
        """A timed reminder when a due time is given, else a reminder memory."""
        runtime = self.entry.runtime_data
        summary = (item.summary or "").strip()
        if isinstance(item.due, datetime):
            local = dt_util.as_local(item.due)
            await self._set(
                AlarmTime(hour=local.hour, minute=local.minute, days=_days_ahead(local)),
                summary,
            )
        else:
            try:
                await runtime.engine.memory.remember(
                    ASSIST_CLIENT_ID, "reminder", summary, importance=0.7, source="user"
                )
            except MemoryRequestError as err:
                raise _invalid(str(err)) from err
        await self._async_refresh_and_write()

    async def async_update_todo_item(self, item: TodoItem) -> None:
        """Done: cancel or forget. Renamed or moved: correct it."""
        runtime = self.entry.runtime_data
        uid = item.uid or ""
        if item.status == TodoItemStatus.COMPLETED:
            await self.async_delete_todo_items([uid])
            return
        if uid.startswith(_TIMED):
            alarm = self._timed(uid)
            due = item.due if isinstance(item.due, datetime) else alarm.fire_at
            local = dt_util.as_local(due)
            await runtime.assist.alarms.async_cancel([alarm])
            await self._set(
                AlarmTime(hour=local.hour, minute=local.minute, days=_days_ahead(local)),
                (item.summary or alarm.label).strip(),
                alarm,
            )
        elif uid.startswith(_MEMORY):
            try:
                await runtime.engine.memory.revise(
                    int(uid[1:]), {"content": (item.summary or "").strip()}
                )
            except MemoryRequestError as err:
                raise _invalid(str(err)) from err
        await self._async_refresh_and_write()

    async def async_delete_todo_items(self, uids: list[str]) -> None:
        """Cancel the timed reminders, forget the memories."""
        runtime = self.entry.runtime_data
        for uid in uids:
            if uid.startswith(_TIMED):
                await runtime.assist.alarms.async_cancel([self._timed(uid)])
            elif uid.startswith(_MEMORY) and uid[1:].isdigit():
                await runtime.engine.memory.forget(int(uid[1:]))
        await self._async_refresh_and_write()

    def _repeats(self, alarm: AlarmRecord) -> str | None:
        """How a repeated reminder comes back, in the home's language ("tous les jours à 8
        heures"); None for one that comes once."""
        if not alarm.repeat:
            return None
        language = self.hass.config.language
        return reminder_when(
            dt_util.as_local(alarm.fire_at),
            dt_util.now(),
            alarm.repeat,
            language,
            lambda hour, minute: spoken_time(hour, minute, language),
        )

    def _timed(self, uid: str) -> AlarmRecord:
        for alarm in self.entry.runtime_data.assist.alarms.pending:
            if f"{_TIMED}{alarm.id}" == uid:
                return alarm
        raise _invalid(f"no pending reminder {uid}")

    async def _set(self, when: AlarmTime, summary: str, was: AlarmRecord | None = None) -> None:
        clock = self.entry.runtime_data.assist.alarms
        try:
            await clock.async_add(
                when,
                client_id=was.client_id if was else ASSIST_CLIENT_ID,
                language=was.language if was else self.hass.config.language,
                label=summary,
                device_id=was.device_id if was else None,
                kind=KIND_REMINDER,
                repeat=was.repeat if was else "",
            )
        except AlarmError as err:
            raise _invalid(str(err)) from err


def _days_ahead(local: datetime) -> int:
    return max((local.date() - dt_util.now().date()).days, 0)


def _invalid(error: str) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN,
        translation_key="invalid_reminder",
        translation_placeholders={"error": error},
    )
