"""What Assist says about alarms and reminders: set, list and cancel alarms; set a timed
reminder (or remember one without a time); stop or snooze what rings; and a reminder said to the
glasses, kept to come back. The agent (``assist_agent.py``) routes a turn here; the alarm clock
(``alarm_clock.py``) keeps them and rings them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from homeassistant.util import dt as dt_util

from .alarm_clock import AlarmClock
from .const import LOGGER
from .engine.assist import (
    KIND_REMINDER,
    AlarmCommand,
    AlarmError,
    AlarmExistsError,
    AlarmRecord,
    AlarmTime,
    PendingAnswers,
    ReminderRequest,
    RingAnswer,
    join_names,
    matching_alarms,
    reminder_when,
    say,
    spoken_language,
    spoken_time,
)
from .engine.assist.alarms import keep_spoken_reminder
from .engine.memory import MemoryEngine
from .engine.memory import MemoryError as MemoryRequestError
from .engine.memory.card_person import address_user
from .ringing import parse_speakers

if TYPE_CHECKING:
    from .assist_agent import AssistTurn, PendingQuestion


@dataclass(frozen=True)
class AskAlarmTime:
    """Waiting for the time of an alarm."""


@dataclass(frozen=True)
class ChooseAlarmToCancel:
    """Waiting for which alarm to cancel."""

    alarm_ids: tuple[int, ...]


def speakers_option(text: str) -> dict[str, str]:
    """Each person's speaker, from the options (the options flow refuses lines that do not
    read; a value stored before is ignored with a warning rather than failing the entry)."""
    try:
        return parse_speakers(text)
    except ValueError as err:
        LOGGER.warning("Speakers of each person ignored until corrected in the options: %s", err)
        return {}


class AlarmTalk:
    """The agent's alarm and reminder turns (a part of :class:`HomeBuddyAssistant`)."""

    alarms: AlarmClock
    memory: MemoryEngine
    pending: PendingAnswers[PendingQuestion]

    def _client(self, turn: AssistTurn) -> str:
        raise NotImplementedError

    async def _alarm(self, command: AlarmCommand, turn: AssistTurn) -> str:
        lang = turn.language
        if command.action == "set":
            if command.when is None:
                self.pending.put(turn.conversation_id, AskAlarmTime())
                return say("alarm_ask_time", lang)
            return await self._set_alarm(command.when, turn, command.label)
        pending = await self.alarms.async_pending(self._client(turn))
        if command.action == "list":
            if not pending:
                return say("alarm_none", lang)
            times = join_names([spoken_time(a.hour, a.minute, lang) for a in pending], lang)
            key = "alarm_list_one" if len(pending) == 1 else "alarm_list_many"
            return say(key, lang, count=len(pending), times=times)
        return await self._cancel_alarms(pending, command, turn)

    async def _set_alarm(self, when: AlarmTime, turn: AssistTurn, label: str = "") -> str:
        try:
            alarm = await self.alarms.async_add(
                when,
                client_id=self._client(turn),
                label=label,
                language=turn.language,
                device_id=turn.device_id,
            )
        except AlarmExistsError as err:
            # "Alarm : 07:30" said again: one alarm, and the user hears it is already there.
            existing = err.existing
            return say(
                "alarm_exists",
                turn.language,
                time=spoken_time(existing.hour, existing.minute, turn.language),
            )
        except AlarmError as err:
            LOGGER.warning("Alarm not saved: %s", err)
            return say("alarm_failed", turn.language)
        spoken = spoken_time(alarm.hour, alarm.minute, turn.language)
        # Never promise a ring it cannot give: say where it will ring, or that nothing can.
        speaker = self.alarms.ringer.target_name(turn.device_id, self._client(turn))
        if speaker is None:
            return say("alarm_set_nowhere", turn.language, time=spoken)
        return say("alarm_set_where", turn.language, time=spoken, speaker=speaker)

    async def _reminder(self, request: ReminderRequest, turn: AssistTurn) -> str:
        """A timed reminder is set to ring (and reach the glasses) at its time; one without a
        time is remembered. The answer says when, what, and where it will be said."""
        lang = turn.language
        what = address_user(request.what, spoken_language(lang))
        if request.when is None:
            try:
                await self.memory.remember(
                    self._client(turn), "reminder", request.what, importance=0.7, source="assist"
                )
            except MemoryRequestError as err:
                LOGGER.warning("Reminder not saved: %s", err)
                return say("memory_failed", lang)
            self.alarms.notify()  # the to-do list shows it at once
            return say("reminder_saved", lang, what=what)
        try:
            reminder = await self.alarms.async_add(
                request.when,
                client_id=self._client(turn),
                language=lang,
                label=request.what,
                device_id=turn.device_id,
                kind=KIND_REMINDER,
                repeat=request.repeat,
            )
        except AlarmExistsError as err:
            reminder = err.existing  # said twice: one reminder, confirmed again
        except AlarmError as err:
            LOGGER.warning("Reminder not saved: %s", err)
            return say("memory_failed", lang)
        when = reminder_when(
            dt_util.as_local(reminder.fire_at),
            dt_util.now(),
            request.repeat,
            lang,
            lambda hour, minute: spoken_time(hour, minute, lang),
        )
        speaker = self.alarms.ringer.target_name(turn.device_id, self._client(turn))
        if speaker is None:
            return say("reminder_set_nowhere", lang, when=when, what=what)
        return say("reminder_set_where", lang, when=when, what=what, speaker=speaker)

    async def async_schedule_from_glasses(
        self, client_id: str, text: str, language: str
    ) -> str | None:
        """A reminder said to the glasses: when it names a time, set it to come back (said on
        the options' speaker, shown on the glasses) and return the card saying when."""

        async def keep(request: ReminderRequest, when: AlarmTime) -> AlarmRecord:
            return await self.alarms.async_add(
                when,
                client_id=client_id,
                language=language,
                label=request.what,
                kind=KIND_REMINDER,
                repeat=request.repeat,
            )

        return await keep_spoken_reminder(text, language, dt_util.now(), keep)

    async def _ring_answer(self, answer: RingAnswer, turn: AssistTurn) -> str:
        """Stop what rings; on a snooze, set each stopped alarm or reminder again that many
        minutes on."""
        stopped = self.alarms.ringer.async_stop()
        if answer.snooze_minutes is None:
            return say("ring_stopped", turn.language)
        later = AlarmTime(delay=timedelta(minutes=answer.snooze_minutes))
        for ring in stopped:
            # Said again later, once (a repeated reminder keeps its own next time).
            with contextlib.suppress(AlarmError):
                await self.alarms.async_add(
                    later,
                    client_id=ring.client_id,
                    language=ring.language,
                    label=str(ring.data.get("label", "")),
                    device_id=ring.device_id,
                    kind=ring.kind,
                )
        return say("ring_snoozed", turn.language, minutes=answer.snooze_minutes)

    async def _cancel_alarms(
        self, pending: Sequence[AlarmRecord], command: AlarmCommand, turn: AssistTurn
    ) -> str:
        lang = turn.language
        if not pending:
            return say("alarm_none", lang)
        targets = list(pending) if command.every else matching_alarms(pending, command.when)
        if command.when is None and not command.every and len(targets) > 1:
            self.pending.put(
                turn.conversation_id, ChooseAlarmToCancel(tuple(a.id for a in targets))
            )
            times = join_names([spoken_time(a.hour, a.minute, lang) for a in targets], lang)
            return say("alarm_which", lang, count=len(targets), times=times)
        if not targets:
            assert command.when is not None
            when = command.when.next_after(dt_util.now())
            return say("alarm_not_found", lang, time=spoken_time(when.hour, when.minute, lang))
        cancelled = await self.alarms.async_cancel(targets)
        if not cancelled:
            return say("alarm_none", lang)
        times = join_names([spoken_time(a.hour, a.minute, lang) for a in cancelled], lang)
        return say("alarm_cancelled", lang, times=times)

    # -- memory ------------------------------------------------------------------------------
