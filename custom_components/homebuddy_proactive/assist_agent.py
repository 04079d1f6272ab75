"""How the Assist agent answers a request: by code when it can, else one model call, then code.

Order of a turn (seed 001's dispatch layer, made safe for a home):

1. an answer to a question this conversation was asked ("Voulez-vous vraiment … ?" → "oui");
2. alarms, parsed by code before any model call (the seed's ``"Alarm : "`` prefix and spoken
   French, English and Greek forms);
3. "souviens-toi que …" / "qu'est-ce que tu sais sur … ?", also by code;
4. feelings that matter to a caregiver are stored and announced on the bus (side channel);
5. the same question asked again within half an hour is counted for caregivers; the model's
   chat answer is given again word for word only to the same device or conversation, in the
   same language, within two minutes, and never when it is of the moment (time, date, weather,
   news, a device's state: :mod:`.engine.assist.freshness`);
6. otherwise the router (one model call) picks a command and a handler does the I/O: devices
   through Home Assistant's own intents (exposed entities only, allowed domains only,
   confirmation for locks and doors, rate-limited, audited in the logbook), the weather entity
   and the news feed of the options (:mod:`.weather_and_news`), alarms, memories, or the
   model's chat answer.

Nothing here raises to the user: every failure becomes a short sentence in their language.

A little past 600 lines for a reason: the order above is one method reading top to bottom, and
each step is a few lines over the engine's ``assist`` room and this package's handlers, where the
work is; splitting it would scatter that order over files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.components.logbook import async_log_entry
from homeassistant.core import Context, HomeAssistant, State, callback
from homeassistant.helpers import intent
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.util import dt as dt_util

from .alarm_clock import AlarmClock
from .alarm_talk import AlarmTalk, AskAlarmTime, ChooseAlarmToCancel, speakers_option
from .const import (
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALARM_SPEAKER,
    CONF_ALLOWED_DOMAINS,
    CONF_MEMORY_LINKS,
    CONF_NEWS_URL,
    CONF_RING_REPEAT_SECONDS,
    CONF_RINGS,
    CONF_SPEAKERS,
    CONF_WEATHER_ENTITY,
    CONFIRM_DEVICE_CLASSES,
    CONFIRM_DOMAINS,
    DEFAULT_ACTIONS_PER_MINUTE,
    DEFAULT_ALLOWED_DOMAINS,
    DOMAIN,
    EVENT_WELLBEING,
    LOGGER,
)
from .engine.assist import (
    COMMAND_ALARM,
    COMMAND_CHAT,
    COMMAND_MEMORY_RECALL,
    COMMAND_MEMORY_SAVE,
    COMMAND_NEWS,
    COMMAND_SERVICE,
    COMMAND_WEATHER,
    REPEATED_QUESTION,
    SERVICE_INTENTS,
    ActionRateLimiter,
    AffectSignal,
    AlarmBook,
    AlarmCommand,
    AssistRouter,
    NewsReader,
    PendingAnswers,
    RepeatTracker,
    RouterCommand,
    RouterContext,
    RouterFailure,
    SignalCounter,
    action_verb,
    answer_is_replayable,
    confirmation_answer,
    detect_affect,
    join_names,
    match_memory_recall,
    match_memory_save,
    parse_alarm_command,
    parse_alarm_time,
    parse_reminder_request,
    question_key,
    replay_scope,
    ring_answer,
    said_back,
    say,
    spoken_language,
)
from .engine.memory import STORE_EPISODIC, MemoryLinkError, MemoryLinks, told_memories
from .engine.memory import MemoryError as MemoryRequestError
from .engine.proactive.engine import ProactiveEngine
from .engine.text import detect_language, is_question
from .ringing import DEFAULT_RING_REPEAT_SECONDS, DEFAULT_RINGS, Ringer
from .speakers import speaker_client
from .weather_and_news import async_news_answer, async_weather_answer

CONFIRMATION_TIMEOUT: Final = timedelta(seconds=60)
# A question asked again within this window is counted (the caregiver's signal) …
REPEAT_WINDOW: Final = timedelta(minutes=30)
# … but its answer is given again only within this one, to the same device or conversation.
REPLAY_WINDOW: Final = timedelta(minutes=2)
SIGNAL_WINDOW: Final = timedelta(hours=24)
RECALL_LIMIT: Final = 3
RECENT_TURNS: Final = 6
MIN_REPEAT_WORDS: Final = 3
RECENT_TURNS_WINDOW: Final = timedelta(minutes=30)
AUDIT_NAME: Final = "HomeBuddy Assist"
# Answers to questions, whose asking again is counted; actions are not questions.
QUESTION_COMMANDS: Final = frozenset(
    {COMMAND_CHAT, COMMAND_WEATHER, COMMAND_NEWS, COMMAND_MEMORY_RECALL}
)


@dataclass(frozen=True, kw_only=True)
class AssistTurn:
    """One thing the user said, with where it came from."""

    text: str
    language: str
    conversation_id: str
    context: Context
    device_id: str | None = None
    satellite_id: str | None = None
    agent_id: str | None = None
    recent_turns: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, kw_only=True)
class PlannedAction:
    """A device action the router asked for, with the exposed entities it resolved to."""

    command: RouterCommand
    entity_ids: tuple[str, ...]
    names: tuple[str, ...]
    domains: tuple[str, ...]


@dataclass(frozen=True)
class ConfirmAction:
    """Waiting for "oui" before a sensitive action."""

    action: PlannedAction


type PendingQuestion = ConfirmAction | AskAlarmTime | ChooseAlarmToCancel


def turn_language(requested: str | None, text: str) -> str:
    """Return the spoken language: the pipeline's when it is one we speak, else detected."""
    base = (requested or "").split("-")[0].lower()
    if base in ("fr", "en", "el"):
        return base
    return spoken_language(detect_language(text))


def speaker_links(text: str) -> MemoryLinks:
    """Whose memories each speaker reaches, from the options.

    The options flow refuses links that do not read, but a value stored by an older version may
    break a rule added since: then no links (every speaker in the household scope), with a
    warning to correct them in the options, rather than an entry that does not load.
    """
    try:
        return MemoryLinks.parse(text)
    except MemoryLinkError as err:
        LOGGER.warning("Speaker links ignored until corrected in the options: %s", err)
        return MemoryLinks.parse("")


class HomeBuddyAssistant(AlarmTalk):
    """Everything the Assist agent of one config entry keeps between turns."""

    def __init__(
        self, hass: HomeAssistant, engine: ProactiveEngine, options: Mapping[str, Any]
    ) -> None:
        """Use the engine's model, memory and store with the entry's Assist options.

        Alarms are armed by :meth:`async_start`.
        """
        self.hass = hass
        self.allowed_domains = frozenset(options.get(CONF_ALLOWED_DOMAINS, DEFAULT_ALLOWED_DOMAINS))
        per_minute = int(options.get(CONF_ACTIONS_PER_MINUTE, DEFAULT_ACTIONS_PER_MINUTE))
        self.rate_limiter = ActionRateLimiter(per_minute, dt_util.utcnow)
        self.pending: PendingAnswers[PendingQuestion] = PendingAnswers(
            CONFIRMATION_TIMEOUT, dt_util.utcnow
        )
        self.repeats = RepeatTracker(REPEAT_WINDOW, dt_util.utcnow, replay_window=REPLAY_WINDOW)
        self.signals = SignalCounter(SIGNAL_WINDOW, dt_util.utcnow)
        self.router = AssistRouter(engine.model)
        self.memory = engine.memory
        self.memory_limit = engine.config.memory_result_limit
        self.alarms = AlarmClock(
            hass,
            AlarmBook(engine.store),
            glasses=engine.deliver_scheduled,
            ringer=Ringer(
                hass,
                speaker=options.get(CONF_ALARM_SPEAKER) or None,
                repeat_seconds=float(
                    options.get(CONF_RING_REPEAT_SECONDS, DEFAULT_RING_REPEAT_SECONDS)
                ),
                rings=int(options.get(CONF_RINGS, DEFAULT_RINGS)),
                speakers=speakers_option(options.get(CONF_SPEAKERS) or ""),
            ),
        )
        self.links = speaker_links(options.get(CONF_MEMORY_LINKS) or "")
        self.weather_entity: str | None = options.get(CONF_WEATHER_ENTITY) or None
        news_url: str = options.get(CONF_NEWS_URL) or ""
        self.news: NewsReader | None = None
        if news_url:
            self.news = NewsReader(
                async_get_clientsession(hass),
                news_url,
                run_in_executor=hass.async_add_executor_job,
            )

    async def async_start(self) -> None:
        """Re-arm the stored alarms."""
        await self.alarms.async_start()

    @callback
    def async_stop(self) -> None:
        """Cancel the alarm timers."""
        self.alarms.async_stop()

    def _client(self, turn: AssistTurn) -> str:
        """Whose memories and alarms the turn reaches (:mod:`.speakers`, as the LLM API)."""
        return speaker_client(self.hass, self.links, turn.context.user_id, turn.device_id)

    # -- a turn ------------------------------------------------------------------------------

    async def async_handle(self, turn: AssistTurn) -> str:
        """Answer one turn; never raises for anything the user or the model can cause."""
        speech = await self._answer(turn)
        await self._record_turn(turn, speech)
        return speech

    async def _answer(self, turn: AssistTurn) -> str:
        text = turn.text.strip()
        pending = self.pending.pop(turn.conversation_id)
        if pending is not None:
            answer = await self._answer_pending(pending, turn)
            if answer is not None:
                return answer
        if self.alarms.ringer.ringing and (reply := ring_answer(text)) is not None:
            return await self._ring_answer(reply, turn)
        if (reminder := parse_reminder_request(text)) is not None:
            return await self._reminder(reminder, turn)
        if (alarm := parse_alarm_command(text)) is not None:
            return await self._alarm(alarm, turn)
        if fact := match_memory_save(text):
            return await self._memory_save(fact, turn)
        if subject := match_memory_recall(text):
            return await self._memory_recall(subject, turn)
        if signal := detect_affect(text, turn.language):
            await self._wellbeing(signal, turn)
        key = question_key(text)
        scope = replay_scope(turn.conversation_id, turn.device_id)
        if (repeated := self.repeats.repeat(key)) is not None:
            self._fire_wellbeing(
                REPEATED_QUESTION,
                turn,
                count=repeated.count,
                window_minutes=int(REPEAT_WINDOW.total_seconds() // 60),
            )
            replay = self.repeats.replay(key, scope=scope, language=turn.language)
            if replay is not None:
                return replay
        decision = await self.router.route(text, await self._router_context(turn))
        if isinstance(decision, RouterFailure):
            phrase = "model_unavailable" if decision.reason == "unavailable" else "fallback_invalid"
            return say(phrase, turn.language)
        speech = await self._dispatch(decision, turn)
        if decision.command in QUESTION_COMMANDS and _worth_repeating(text, key, turn.language):
            replayable = answer_is_replayable(decision, text, speech, self._exposed_device_names())
            self.repeats.record(
                key, speech if replayable else None, scope=scope, language=turn.language
            )
        return speech

    async def _dispatch(self, decision: RouterCommand, turn: AssistTurn) -> str:
        if decision.command == COMMAND_SERVICE:
            return await self._service(decision, turn)
        if decision.command == COMMAND_WEATHER:
            return await async_weather_answer(
                self.hass, self.weather_entity, turn.language, turn.context
            )
        if decision.command == COMMAND_NEWS:
            return await async_news_answer(self.news, turn.language)
        if decision.command == COMMAND_ALARM:
            return await self._alarm(AlarmCommand("set", parse_alarm_time(decision.time)), turn)
        if decision.command == COMMAND_MEMORY_SAVE:
            return await self._memory_save(decision.fact, turn)
        if decision.command == COMMAND_MEMORY_RECALL:
            return await self._memory_recall(decision.subject, turn)
        return decision.text  # chat: the model's words, as written

    async def _answer_pending(self, pending: PendingQuestion, turn: AssistTurn) -> str | None:
        """Answer what the conversation was asked; None when the user moved on."""
        if isinstance(pending, ConfirmAction):
            answer = confirmation_answer(turn.text)
            if answer is None:
                self._audit(pending.action.command, "not confirmed", pending.action, turn)
                return None
            if not answer:
                self._audit(pending.action.command, "declined", pending.action, turn)
                return say("confirm_declined", turn.language)
            return await self._execute(pending.action, turn)
        if isinstance(pending, AskAlarmTime):
            if (when := parse_alarm_time(turn.text)) is None:
                return None
            return await self._alarm(AlarmCommand("set", when), turn)
        if confirmation_answer(turn.text) is False:
            return say("confirm_declined", turn.language)
        command = parse_alarm_command(turn.text)
        when = command.when if command else parse_alarm_time(turn.text)
        every = command.every if command else False
        if when is None and not every:
            return None
        mine = await self.alarms.async_pending(self._client(turn))
        alarms = [a for a in mine if a.id in pending.alarm_ids]
        return await self._cancel_alarms(alarms, AlarmCommand("cancel", when, every), turn)

    # -- alarms ------------------------------------------------------------------------------

    async def _memory_save(self, fact: str, turn: AssistTurn) -> str:
        try:
            await self.memory.remember(
                self._client(turn), "fact", fact, importance=0.7, source="assist"
            )
        except MemoryRequestError as err:
            LOGGER.warning("Memory not saved: %s", err)
            return say("memory_failed", turn.language)
        return say("memory_saved", turn.language)

    async def _memory_recall(self, subject: str, turn: AssistTurn) -> str:
        lang = turn.language
        memories = await self.memory.retrieve(
            self._client(turn), subject or turn.text, max(self.memory_limit, RECALL_LIMIT)
        )
        facts = [m.content.rstrip(" .") + "." for m in told_memories(memories, RECALL_LIMIT)]
        if not facts:
            if subject:
                return say("memory_nothing", lang, subject=said_back(subject, lang))
            return say("memory_nothing_any", lang)
        if subject:
            return say(
                "memory_recall", lang, subject=said_back(subject, lang), facts=" ".join(facts)
            )
        return say("memory_recall_any", lang, facts=" ".join(facts))

    async def _router_context(self, turn: AssistTurn) -> RouterContext:
        client = self._client(turn)
        memories = await self.memory.retrieve(client, turn.text, self.memory_limit)
        return RouterContext(
            language=turn.language,
            now=dt_util.now(),
            memories=[m.content for m in memories],
            episode_summary=await self._episode_summary(client),
            recent_turns=await self._recent_turns(turn),
            devices=self._exposed_device_names(),
        )

    async def _episode_summary(self, client: str) -> str | None:
        """The summary of the latest episode that has one (the open episode has none yet)."""
        for episode in await self.memory.overview(client, STORE_EPISODIC, limit=3):
            if summary := episode.get("summary"):
                return str(summary)
        return None

    async def _recent_turns(self, turn: AssistTurn) -> tuple[tuple[str, str], ...]:
        """This device's turns of the last half hour (short-term memory), else the chat log's."""
        since = dt_util.utcnow() - RECENT_TURNS_WINDOW
        remembered = await self.memory.recent_turns(_session_id(turn), RECENT_TURNS)
        recent = tuple(
            (record.speaker or "user", record.text)
            for record in remembered
            if record.created_at >= since and record.speaker in ("user", "assistant")
        )
        return recent or turn.recent_turns

    async def _record_turn(self, turn: AssistTurn, speech: str) -> None:
        """Keep both sides of the turn in short-term memory and the device's episode."""
        session = _session_id(turn)
        client = self._client(turn)
        try:
            for speaker, text in (("user", turn.text), ("assistant", speech)):
                await self.memory.observe_turn(
                    client, session, text, speaker=speaker, language=turn.language
                )
        except MemoryRequestError as err:
            LOGGER.warning("Turn not kept in memory: %s", err)

    # -- wellbeing ---------------------------------------------------------------------------

    async def _wellbeing(self, signal: AffectSignal, turn: AssistTurn) -> None:
        try:
            # The user's own words stay in their affective memory (visible and deletable);
            # the bus event below carries none of them.
            await self.memory.remember_feeling(
                self._client(turn),
                signal.sentiment,
                turn.text,
                emotions=signal.emotions,
                triggers=(signal.kind,),
                importance=0.8,
                source="assist",
            )
        except MemoryRequestError as err:
            LOGGER.warning("Feeling not kept in memory: %s", err)
        self._fire_wellbeing(
            signal.kind,
            turn,
            count=self.signals.add(signal.kind),
            window_hours=int(SIGNAL_WINDOW.total_seconds() // 3600),
            sentiment=signal.sentiment,
            emotions=list(signal.emotions),
        )

    def _fire_wellbeing(self, kind: str, turn: AssistTurn, **extra: Any) -> None:
        """Tell caregiver automations; the transcript itself stays out of the event."""
        self.hass.bus.async_fire(
            EVENT_WELLBEING,
            {
                "kind": kind,
                "language": turn.language,
                "conversation_id": turn.conversation_id,
                "device_id": turn.device_id,
                "satellite_id": turn.satellite_id,
                **extra,
            },
            context=turn.context,
        )

    # -- devices -----------------------------------------------------------------------------

    def _exposed_device_names(self) -> list[str]:
        """Names of the entities the agent could control (exposed and in allowed domains)."""
        names: list[str] = []
        for state in self.hass.states.async_all(self.allowed_domains):
            if async_should_expose(self.hass, conversation.DOMAIN, state.entity_id):
                names.append(state.name)
        return sorted(names)

    async def _service(self, command: RouterCommand, turn: AssistTurn) -> str:
        lang = turn.language
        spec = SERVICE_INTENTS[command.intent]
        match = intent.async_match_targets(
            self.hass,
            intent.MatchTargetsConstraints(
                name=command.name or None,
                area_name=command.area or None,
                domains=spec.domains,
                assistant=conversation.DOMAIN,
            ),
        )
        if not match.is_match:
            self._audit(command, "refused: no exposed entity matches", None, turn)
            return say("service_not_found", lang, name=command.name or command.area)
        states = match.states
        names = tuple(state.name for state in states)
        forbidden = [s for s in states if s.domain not in self.allowed_domains]
        if forbidden:
            self._audit(command, "refused: domain not allowed", None, turn)
            return say(
                "service_not_allowed", lang, names=join_names([s.name for s in forbidden], lang)
            )
        action = PlannedAction(
            command=command,
            entity_ids=tuple(state.entity_id for state in states),
            names=names,
            domains=tuple(sorted({state.domain for state in states})),
        )
        sensitive = [s for s in states if _needs_confirmation(s)]
        if sensitive:
            self.pending.put(turn.conversation_id, ConfirmAction(action))
            self._audit(command, "waiting for confirmation", action, turn)
            verb = action_verb(sensitive[0].domain, spec.turning_on, lang)
            return say("confirm_question", lang, action=verb, names=join_names(list(names), lang))
        return await self._execute(action, turn)

    async def _execute(self, action: PlannedAction, turn: AssistTurn) -> str:
        """Run the action through Home Assistant's intent handlers, under the assistant."""
        lang = turn.language
        command = action.command
        names = join_names(list(action.names), lang)
        if not self.rate_limiter.try_acquire():
            self._audit(command, "refused: too many actions this minute", action, turn)
            return say("service_rate_limited", lang)
        spec = SERVICE_INTENTS[command.intent]
        slots: dict[str, Any] = {"domain": {"value": list(action.domains)}}
        if command.name:
            slots["name"] = {"value": command.name}
        if command.area:
            slots["area"] = {"value": command.area}
        if spec.slot is not None and command.value is not None:
            value: float | int = command.value
            if spec.slot != "temperature":
                value = round(command.value)
            slots[spec.slot] = {"value": value}
        try:
            response = await intent.async_handle(
                self.hass,
                DOMAIN,
                command.intent,
                slots,
                context=turn.context,
                language=lang,
                assistant=conversation.DOMAIN,
                device_id=turn.device_id,
                satellite_id=turn.satellite_id,
                conversation_agent_id=turn.agent_id,
            )
        except intent.IntentError as err:
            self._audit(command, f"failed: {type(err).__name__}", action, turn)
            return say("service_failed", lang, names=names)
        done = [
            target
            for target in response.success_results
            if target.type is intent.IntentResponseTargetType.ENTITY
        ]
        if response.response_type is intent.IntentResponseType.ERROR or not done:
            self._audit(command, "failed", action, turn)
            return say("service_failed", lang, names=names)
        self._audit(command, "done: " + ", ".join(str(t.id) for t in done), action, turn)
        return say("service_done", lang, names=join_names([t.name for t in done], lang))

    def _audit(
        self,
        command: RouterCommand,
        result: str,
        action: PlannedAction | None,
        turn: AssistTurn,
    ) -> None:
        """Write the request (as the router understood it, not the words) and its result."""
        async_log_entry(
            self.hass,
            AUDIT_NAME,
            f"request {command.describe()} → {result}",
            domain=DOMAIN,
            entity_id=action.entity_ids[0] if action and len(action.entity_ids) == 1 else None,
            context=turn.context,
        )


def _worth_repeating(text: str, key: str, language: str) -> bool:
    """A real question ("quel jour sommes-nous ?"), not a two-word follow-up ("et demain ?")."""
    return len(key.split()) >= MIN_REPEAT_WORDS and is_question(text, language)


def _session_id(turn: AssistTurn) -> str:
    """One memory session per voice device: Assist starts a new conversation at each wake word."""
    return f"assist:{turn.device_id or turn.satellite_id or 'home'}"


def _needs_confirmation(state: State) -> bool:
    """Locks, alarm panels, covers, valves and anything that is a door need a spoken yes."""
    return (
        state.domain in CONFIRM_DOMAINS
        or state.attributes.get("device_class") in CONFIRM_DEVICE_CLASSES
    )
