"""How the Assist agent answers a request: by code when it can, else one model call, then code.

Order of a turn:

1. an answer to a question this conversation was asked ("Voulez-vous vraiment … ?" → "oui"),
   or to an alarm that is ringing ("arrête", "encore dix minutes");
2. Home Assistant's own sentences (the time, the date, devices, the weather, lists, timers),
   under our safety rules (:mod:`.home_control`);
3. reminders and alarms, parsed by code ("rappelle-moi à 20 heures de …", "Alarm : 7:30");
4. "souviens-toi que …" / "qu'est-ce que tu sais sur … ?", also by code, memories read back
   to the person ("Votre petite-fille s'appelle Léa.");
5. feelings that matter to a caregiver are stored and announced on the bus, and answered
   kindly by code (a question said with them still goes to the model);
6. the same question asked again within half an hour is counted for caregivers; the model's
   chat answer is given again word for word only to the same device or conversation, in the
   same language, within two minutes, and never when it is of the moment (time, date, weather,
   news, a device's state: :mod:`.engine.assist.freshness`);
7. a request to a kind of device that Home Assistant's sentences recognise only loosely (a room
   without such a device, a name it does not know) gets Home Assistant's own answer ("je n'ai
   pas trouvé de lumières dans cette pièce"), at once and without the model;
8. otherwise the router (one model call) picks a command and a handler does the I/O: devices
   (:mod:`.home_control`), the weather entity and the news feed of the options
   (:mod:`.weather_and_news`), alarms, memories, or the model's chat answer, which is spoken
   while the model writes it; when the model cannot answer, a short sentence says so.

The answer is in the language the request was said in (the pipeline's is only a hint). Nothing
here raises to the user: every failure becomes a short sentence in their language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant, callback
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
    DEFAULT_ACTIONS_PER_MINUTE,
    DEFAULT_ALLOWED_DOMAINS,
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
    answer_is_replayable,
    confirmation_answer,
    detect_affect,
    match_memory_recall,
    match_memory_save,
    parse_alarm_command,
    parse_alarm_time,
    parse_reminder_request,
    question_key,
    replay_scope,
    request_language,
    ring_answer,
    said_back,
    say,
)
from .engine.memory import STORE_EPISODIC, MemoryLinkError, MemoryLinks, told_memories
from .engine.memory import MemoryError as MemoryRequestError
from .engine.memory.card_person import tell_user
from .engine.proactive.engine import ProactiveEngine
from .engine.text import is_question
from .home_control import ConfirmAction, HomeControl
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
    # Home Assistant's request and chat log (Home Assistant's own sentences are tried with them).
    user_input: conversation.ConversationInput | None = None
    chat_log: conversation.ChatLog | None = None


type PendingQuestion = ConfirmAction | AskAlarmTime | ChooseAlarmToCancel


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


class HomeBuddyAssistant(AlarmTalk, HomeControl):
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

    async def async_handle(
        self, turn: AssistTurn, speak: Callable[[str], None] | None = None
    ) -> str:
        """Answer one turn; never raises for anything the user or the model can cause.

        With ``speak``, the model's chat answer is passed to it piece by piece as the model
        writes it; the whole answer is returned either way."""
        try:
            speech = await self._answer(turn, speak)
        except Exception:  # a bug here must still leave the person an answer
            LOGGER.exception("The Assist turn failed; the person was told to say it again")
            speech = say("fallback_invalid", turn.language)
        await self._record_turn(turn, speech)
        return speech

    async def _answer(self, turn: AssistTurn, speak: Callable[[str], None] | None) -> str:
        text = turn.text.strip()
        if (answer := await self._answer_by_code(turn, text)) is not None:
            return answer
        feeling = detect_affect(text, turn.language)
        if feeling is not None:
            await self._wellbeing(feeling, turn)
            if not is_question(text, turn.language):
                return say(f"affect_{feeling.kind}", turn.language)
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
        if (home := await self._home_answer_loosely(turn)) is not None:
            return home
        spoken: list[str] = []

        def speak_and_keep(piece: str) -> None:
            spoken.append(piece)
            if speak is not None:
                speak(piece)

        decision = await self.router.route(text, await self._router_context(turn), speak_and_keep)
        if isinstance(decision, RouterFailure):
            if spoken:  # the answer was heard before the model broke off: it stands
                return "".join(spoken)
            if feeling is not None:
                return say(f"affect_{feeling.kind}", turn.language)
            phrase = "model_unavailable" if decision.reason == "unavailable" else "fallback_invalid"
            return say(phrase, turn.language)
        speech = await self._dispatch(decision, turn)
        if decision.command in QUESTION_COMMANDS and _worth_repeating(text, key, turn.language):
            replayable = answer_is_replayable(decision, text, speech, self._exposed_device_names())
            self.repeats.record(
                key, speech if replayable else None, scope=scope, language=turn.language
            )
        return speech

    async def _answer_by_code(self, turn: AssistTurn, text: str) -> str | None:
        """The answer when code alone makes it (steps 1 to 4 of the order above), else None."""
        pending = self.pending.pop(turn.conversation_id)
        if pending is not None:
            answer = await self._answer_pending(pending, turn)
            if answer is not None:
                return answer
        if self.alarms.ringer.ringing and (reply := ring_answer(text)) is not None:
            return await self._ring_answer(reply, turn)
        if (home := await self._home_intent(turn)) is not None:
            return home
        if (reminder := parse_reminder_request(text)) is not None:
            return await self._reminder(reminder, turn)
        if (alarm := parse_alarm_command(text)) is not None:
            return await self._alarm(alarm, turn)
        if fact := match_memory_save(text):
            return await self._memory_save(fact, turn)
        if subject := match_memory_recall(text):
            return await self._memory_recall(subject, turn)
        return None

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
        facts = [
            tell_user(m.content, request_language(m.content, lang))
            for m in told_memories(memories, RECALL_LIMIT)
        ]
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


def _worth_repeating(text: str, key: str, language: str) -> bool:
    """A real question ("quel jour sommes-nous ?"), not a two-word follow-up ("et demain ?")."""
    return len(key.split()) >= MIN_REPEAT_WORDS and is_question(text, language)


def _session_id(turn: AssistTurn) -> str:
    """One memory session per voice device: Assist starts a new conversation at each wake word."""
    return f"assist:{turn.device_id or turn.satellite_id or 'home'}"
