"""The Assist router and its deterministic pieces, without Home Assistant.

The router is tested against the fake Ollama (a real HTTP server); the alarm book against a real
SQLite file; the news reader against a real local feed server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp
import pytest
from aiohttp import web

from custom_components.homebuddy_proactive.engine.assist import (
    ALARM_CANCELLED,
    ALARM_FIRED,
    PHRASES,
    ROUTER_SCHEMA,
    SPOKEN_LANGUAGES,
    ActionRateLimiter,
    AlarmBook,
    AlarmCommand,
    AlarmError,
    AlarmExistsError,
    AlarmTime,
    AssistRouter,
    DayForecast,
    NewsReader,
    NewsUnavailableError,
    PendingAnswers,
    RepeatTracker,
    RouterCommand,
    RouterContext,
    RouterFailure,
    RouterOutputError,
    SignalCounter,
    answer_is_replayable,
    build_router_messages,
    clean_title,
    confirmation_answer,
    describe_weather,
    detect_affect,
    join_names,
    match_memory_recall,
    match_memory_save,
    matching_alarms,
    mentions_the_moment,
    names_a_device,
    parse_alarm_command,
    parse_alarm_time,
    parse_feed,
    question_key,
    replay_scope,
    said_back,
    same_alarm,
    say,
    spoken_time,
    validate_router_output,
)
from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from custom_components.homebuddy_proactive.engine.storage import ProactiveStore
from tests.fake_ollama import FakeOllama, FakeReply

PARIS = ZoneInfo("Europe/Paris")


@dataclass
class FakeClock:
    """A clock the test moves by hand."""

    now: datetime = field(default_factory=lambda: datetime(2026, 3, 2, 6, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


# ---------------------------------------------------------------------------------------------
# Alarm parsing
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The seed's exact prefix.
        ("Alarm : 07:30", AlarmCommand("set", AlarmTime(7, 30))),
        ("Alarm : 7", AlarmCommand("set", AlarmTime(7, 0))),
        ("Alarm : 6h45", AlarmCommand("set", AlarmTime(6, 45))),
        ("Alarm : demain matin", AlarmCommand("set", None)),
        ("Alarm : 25:00", AlarmCommand("set", None)),
        # French.
        ("réveille-moi à 7 heures", AlarmCommand("set", AlarmTime(7, 0))),
        ("Réveille-moi à sept heures et demie", AlarmCommand("set", AlarmTime(7, 30))),
        ("mets une alarme à 7h30", AlarmCommand("set", AlarmTime(7, 30))),
        ("Mets un réveil à 9 heures du soir", AlarmCommand("set", AlarmTime(21, 0))),
        ("réveille-moi à 8 heures moins le quart", AlarmCommand("set", AlarmTime(7, 45))),
        ("réveille-moi à midi", AlarmCommand("set", AlarmTime(12, 0))),
        ("mets une alarme pour le 3 mai à 7h", AlarmCommand("set", AlarmTime(7, 0))),
        (
            "réveille-moi dans 20 minutes",
            AlarmCommand("set", AlarmTime(delay=timedelta(minutes=20))),
        ),
        ("mets une alarme", AlarmCommand("set", None)),
        # English.
        ("set an alarm for 7", AlarmCommand("set", AlarmTime(7, 0))),
        ("wake me up at 6:45 am", AlarmCommand("set", AlarmTime(6, 45))),
        ("Wake me up at seven", AlarmCommand("set", AlarmTime(7, 0))),
        ("set an alarm for 7 pm", AlarmCommand("set", AlarmTime(19, 0))),
        ("set an alarm for 12 am", AlarmCommand("set", AlarmTime(0, 0))),
        ("wake me at half past six", AlarmCommand("set", AlarmTime(6, 30))),
        ("wake me at a quarter to seven", AlarmCommand("set", AlarmTime(6, 45))),
        # Greek.
        ("ξύπνησέ με στις 7", AlarmCommand("set", AlarmTime(7, 0))),
        ("βάλε ξυπνητήρι για τις 7:30", AlarmCommand("set", AlarmTime(7, 30))),
        ("βάλε ξυπνητήρι στις 9 μ.μ.", AlarmCommand("set", AlarmTime(21, 0))),
        # Listing.
        ("quelles alarmes ?", AlarmCommand("list")),
        ("Quelles sont mes alarmes ?", AlarmCommand("list")),
        ("what alarms do I have?", AlarmCommand("list")),
        ("ποια ξυπνητήρια έχω;", AlarmCommand("list")),
        # Cancelling.
        ("annule l'alarme de 7 heures", AlarmCommand("cancel", AlarmTime(7, 0))),
        ("cancel my alarm", AlarmCommand("cancel", None)),
        ("cancel the 7 o'clock alarm", AlarmCommand("cancel", AlarmTime(7, 0))),
        ("annule toutes les alarmes", AlarmCommand("cancel", None, every=True)),
        ("cancel all alarms", AlarmCommand("cancel", None, every=True)),
        ("ακύρωσε το ξυπνητήρι", AlarmCommand("cancel", None)),
        # Not alarms.
        ("allume la lumière du salon", None),
        ("j'ai mal au dos", None),
        ("quelle heure est-il ?", None),
        ("what's the weather like at 7?", None),
    ],
)
def test_alarm_commands_are_parsed_by_code(text: str, expected: AlarmCommand | None) -> None:
    """Alarm phrasings in French, English and Greek, and the seed's prefix, need no model."""
    assert parse_alarm_command(text) == expected


def test_seed_prefix_is_exact() -> None:
    """Only "Alarm : " at the very start is the seed's fast path."""
    assert parse_alarm_command("Alarm : 07:30") == AlarmCommand("set", AlarmTime(7, 30))
    assert parse_alarm_command("My alarm : 07:30 was loud") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("07:30", AlarmTime(7, 30)),
        ("19h05", AlarmTime(19, 5)),
        ("7 heures 30", AlarmTime(7, 30)),
        ("une alarme", None),  # "une" is an article, not 1 o'clock
        ("at one", AlarmTime(1, 0)),
        ("à minuit", AlarmTime(0, 0)),
        ("noon", AlarmTime(12, 0)),
        ("in 2 hours", AlarmTime(delay=timedelta(hours=2))),
        ("dans 2000 minutes", None),
        ("24:00", AlarmTime(0, 0)),
        ("7:75", AlarmTime(7, 0)),  # the minutes are unreadable, the hour is not
        ("", None),
    ],
)
def test_alarm_times(text: str, expected: AlarmTime | None) -> None:
    """Times with units, words, marks and delays."""
    assert parse_alarm_time(text) == expected


def test_next_occurrence_is_today_or_tomorrow_in_home_time() -> None:
    """7:30 asked at 6:00 rings today; asked at 8:00 it rings tomorrow; a delay adds up."""
    early = datetime(2026, 3, 2, 6, 0, tzinfo=PARIS)
    late = datetime(2026, 3, 2, 8, 0, tzinfo=PARIS)
    assert AlarmTime(7, 30).next_after(early) == datetime(2026, 3, 2, 7, 30, tzinfo=PARIS)
    assert AlarmTime(7, 30).next_after(late) == datetime(2026, 3, 3, 7, 30, tzinfo=PARIS)
    assert AlarmTime(8, 0).next_after(late) == datetime(2026, 3, 3, 8, 0, tzinfo=PARIS)
    delay = AlarmTime(delay=timedelta(minutes=20))
    assert delay.next_after(late) == late + timedelta(minutes=20)


# ---------------------------------------------------------------------------------------------
# Alarm book (real SQLite)
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[ProactiveStore]:
    """A real store file at the newest schema."""
    opened = await ProactiveStore.open(tmp_path / "assist.db")
    yield opened
    await opened.close()


async def test_alarm_book_survives_reopening(tmp_path: Path) -> None:
    """An alarm written before closing the file is pending after reopening it."""
    path = tmp_path / "alarms.db"
    first = await ProactiveStore.open(path)
    when = datetime(2026, 3, 3, 7, 30, tzinfo=PARIS)
    alarm = await AlarmBook(first).add(
        client_id="assist",
        when=when,
        hour=7,
        minute=30,
        language="fr",
        created_at=datetime(2026, 3, 2, 22, 0, tzinfo=PARIS),
        device_id="satellite-1",
    )
    await first.close()

    second = await ProactiveStore.open(path)
    try:
        pending = await AlarmBook(second).pending()
    finally:
        await second.close()
    assert [a.id for a in pending] == [alarm.id]
    assert pending[0].fire_at == when.astimezone(UTC)
    assert pending[0].as_dict()["time"] == "07:30"
    assert pending[0].device_id == "satellite-1"


async def test_alarm_book_statuses(store: ProactiveStore) -> None:
    """Fired and cancelled alarms leave the pending list; a closed alarm cannot close again."""
    book = AlarmBook(store)
    now = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)
    early = await book.add(
        client_id="assist",
        when=now + timedelta(hours=1),
        hour=8,
        minute=0,
        language="en",
        created_at=now,
    )
    later = await book.add(
        client_id="assist",
        when=now + timedelta(hours=2),
        hour=9,
        minute=0,
        language="en",
        created_at=now,
    )
    assert [a.id for a in await book.pending()] == [early.id, later.id]
    assert await book.close_alarm(early.id, ALARM_FIRED, now)
    assert not await book.close_alarm(early.id, ALARM_CANCELLED, now)
    assert await book.close_alarm(later.id, ALARM_CANCELLED, now)
    assert await book.pending() == []
    stored = await book.get(early.id)
    assert stored is not None and stored.status == ALARM_FIRED
    assert await book.get(999) is None
    with pytest.raises(AlarmError):
        await book.close_alarm(later.id, "pending", now)


async def test_alarm_book_refuses_bad_input(store: ProactiveStore) -> None:
    """Naive times and very long labels are refused."""
    book = AlarmBook(store)
    naive = datetime(2026, 3, 2, 7, 0)
    aware = naive.replace(tzinfo=UTC)
    with pytest.raises(AlarmError):
        await book.add(client_id="a", when=naive, hour=7, minute=0, language="en", created_at=aware)
    with pytest.raises(AlarmError):
        await book.add(
            client_id="a",
            when=aware,
            hour=7,
            minute=0,
            language="en",
            created_at=aware,
            label="x" * 200,
        )


async def test_alarm_book_keeps_one_alarm_per_moment_and_purpose(store: ProactiveStore) -> None:
    """The same minute of the same day with the same label (or none) is not stored twice."""
    book = AlarmBook(store)
    now = datetime(2026, 3, 2, 5, 0, tzinfo=UTC)
    seven_thirty = datetime(2026, 3, 2, 7, 30, tzinfo=PARIS)

    async def add(when: datetime, label: str = "") -> int:
        alarm = await book.add(
            client_id="a",
            when=when,
            hour=when.hour,
            minute=when.minute,
            language="fr",
            created_at=now,
            label=label,
        )
        return alarm.id

    plain = await add(seven_thirty)
    for when in (seven_thirty, seven_thirty.astimezone(UTC), seven_thirty + timedelta(seconds=20)):
        with pytest.raises(AlarmExistsError) as caught:
            await add(when)
        assert caught.value.existing.id == plain
        assert isinstance(caught.value, AlarmError)
    # Another day, another minute, or a purpose the plain alarm does not say: new alarms.
    await add(seven_thirty + timedelta(days=1))
    await add(seven_thirty + timedelta(minutes=1))
    pills = await add(seven_thirty, "mes médicaments")
    with pytest.raises(AlarmExistsError) as caught:
        await add(seven_thirty, "Mes Medicaments")
    assert caught.value.existing.id == pills
    # Nothing to add to a labelled alarm: a plain one at its moment is the same alarm.
    assert same_alarm(await book.pending(), seven_thirty) is not None
    assert len(await book.pending()) == 4
    # Once cancelled, the moment is free again.
    for alarm in await book.pending():
        await book.close_alarm(alarm.id, ALARM_CANCELLED, now)
    await add(seven_thirty)


async def test_matching_alarms_by_spoken_time(store: ProactiveStore) -> None:
    """ "L'alarme de 7 heures" designates 7:00 and 7:30 when no 7:00 exists; 7:30 is exact."""
    book = AlarmBook(store)
    now = datetime(2026, 3, 2, 5, 0, tzinfo=UTC)
    made = [
        await book.add(
            client_id="a",
            when=now + timedelta(hours=i + 1),
            hour=h,
            minute=m,
            language="fr",
            created_at=now,
        )
        for i, (h, m) in enumerate([(7, 30), (7, 45), (9, 0)])
    ]
    pending = await book.pending()
    assert [a.id for a in matching_alarms(pending, AlarmTime(7, 0))] == [made[0].id, made[1].id]
    assert [a.id for a in matching_alarms(pending, AlarmTime(7, 45))] == [made[1].id]
    assert matching_alarms(pending, AlarmTime(8, 15)) == []
    assert len(matching_alarms(pending, None)) == 3


# ---------------------------------------------------------------------------------------------
# Router output validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"command": "service", "intent": "HassTurnOff", "name": "Lampe du salon"},
            RouterCommand(command="service", intent="HassTurnOff", name="Lampe du salon"),
        ),
        (
            {"command": "service", "intent": "HassLightSet", "area": "Cuisine", "value": 40},
            RouterCommand(command="service", intent="HassLightSet", area="Cuisine", value=40.0),
        ),
        (
            # A value the intent does not take is dropped rather than sent.
            {"command": "service", "intent": "HassTurnOn", "name": "Radio", "value": 3},
            RouterCommand(command="service", intent="HassTurnOn", name="Radio"),
        ),
        ({"command": "weather", "text": ""}, RouterCommand(command="weather")),
        ({"command": "news"}, RouterCommand(command="news")),
        ({"command": "alarm", "time": "07:30"}, RouterCommand(command="alarm", time="07:30")),
        (
            {"command": "memory_save", "fact": "Ma fille s'appelle Claire."},
            RouterCommand(command="memory_save", fact="Ma fille s'appelle Claire."),
        ),
        (
            {"command": "memory_recall", "subject": "Claire"},
            RouterCommand(command="memory_recall", subject="Claire"),
        ),
        (
            {"command": "chat", "text": "  Bonjour Jeanne !  ", "name": None},
            RouterCommand(command="chat", text="Bonjour Jeanne !"),
        ),
    ],
)
def test_valid_router_outputs(data: dict[str, Any], expected: RouterCommand) -> None:
    """Each command with what it needs is accepted and cleaned."""
    assert validate_router_output(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"command": "shell", "text": "rm -rf /"},
        {"command": "service", "intent": "HassTurnOn"},
        {"command": "service", "intent": "HassUnlockEverything", "name": "porte"},
        {"command": "service", "intent": "", "name": "porte"},
        {"command": "service", "intent": "HassLightSet", "name": "Lampe"},
        {"command": "service", "intent": "HassLightSet", "name": "Lampe", "value": 250},
        {"command": "service", "intent": "HassTurnOn", "name": 42},
        {"command": "service", "intent": "HassLightSet", "name": "Lampe", "value": "fort"},
        {"command": "service", "intent": "HassLightSet", "name": "Lampe", "value": float("nan")},
        {"command": "alarm", "time": "bientôt"},
        {"command": "memory_save", "fact": "   "},
        {"command": "chat", "text": ""},
        {"command": "chat"},
    ],
)
def test_invalid_router_outputs(data: dict[str, Any]) -> None:
    """Anything a handler could not act on safely is refused."""
    with pytest.raises(RouterOutputError):
        validate_router_output(data)


def test_describe_leaves_out_the_users_words() -> None:
    """The audit description names the intent and target, not the transcript."""
    command = RouterCommand(
        command="service", intent="HassLightSet", name="Lampe", value=40, text="secret"
    )
    assert command.describe() == "HassLightSet name='Lampe' value=40"


# ---------------------------------------------------------------------------------------------
# The router against the fake Ollama
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def model(fake_ollama: FakeOllama) -> AsyncIterator[OllamaModel]:
    """An Ollama client of the fake server."""
    client = OllamaModel(fake_ollama.url, "llama3.2:3b", timeout=5)
    yield client
    await client.close()


def _context(language: str = "fr", **kwargs: Any) -> RouterContext:
    return RouterContext(language=language, now=datetime(2026, 3, 2, 9, 15, tzinfo=PARIS), **kwargs)


async def test_router_one_call_with_schema_and_context(
    fake_ollama: FakeOllama, model: OllamaModel
) -> None:
    """One chat call, JSON-schema format, French prompt fed with memories and the episode."""
    fake_ollama.queue({"command": "chat", "text": "Bonjour Jeanne, bien dormi ?"})
    router = AssistRouter(model)
    result = await router.route(
        "bonjour",
        _context(
            memories=["Ma fille s'appelle Claire."],
            episode_summary="Jeanne a parlé de son rendez-vous chez le médecin.",
            recent_turns=(("user", "salut"), ("assistant", "Bonjour !"), ("tool", "x")),
            devices=["Lampe du salon"],
        ),
    )
    assert result == RouterCommand(command="chat", text="Bonjour Jeanne, bien dormi ?")
    assert fake_ollama.chat_count == 1
    request = fake_ollama.requests[0]
    assert request["format"] == json.loads(json.dumps(ROUTER_SCHEMA))
    system = request["messages"][0]["content"]
    assert "Réponds en français" in system
    assert "Ma fille s'appelle Claire." in system
    assert "rendez-vous chez le médecin" in system
    assert "Lampe du salon" in system
    roles = [m["role"] for m in request["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert request["messages"][-1]["content"] == "bonjour"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (FakeReply(content={"command": "service", "intent": "HassTurnOn"}), "invalid"),
        (FakeReply(content="not json at all"), "invalid"),
        (FakeReply(content=["a", "list"]), "invalid"),
        (FakeReply(status=500), "unavailable"),
    ],
    ids=["schema_broken", "not_json", "not_object", "server_error"],
)
async def test_router_failures_are_values_not_exceptions(
    fake_ollama: FakeOllama, model: OllamaModel, reply: FakeReply, reason: str
) -> None:
    """Bad or missing answers become a RouterFailure the agent turns into a polite sentence."""
    fake_ollama.queue(reply)
    result = await AssistRouter(model).route("euh", _context())
    assert result == RouterFailure(reason)  # type: ignore[arg-type]
    if reason == "invalid":
        assert model.stats.invalid_outputs == 1


@pytest.mark.parametrize(
    ("language", "marker"),
    [("fr", "Réponds en français"), ("en", "Answer in English"), ("el", "Απάντα στα ελληνικά")],
)
def test_prompt_follows_the_users_language(language: str, marker: str) -> None:
    """The system prompt is written in the user's language (the command keys stay code)."""
    messages = build_router_messages("test", _context(language))
    assert marker in messages[0]["content"]
    assert '"memory_recall"' in messages[0]["content"]


# ---------------------------------------------------------------------------------------------
# Deterministic fast paths
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Souviens-toi que ma fille s'appelle Claire.", "ma fille s'appelle Claire"),
        ("souviens toi que le kiné vient le mardi", "le kiné vient le mardi"),
        ("Retiens bien que je prends mon cachet à midi", "je prends mon cachet à midi"),
        ("N'oublie pas que Paul est allergique aux noix", "Paul est allergique aux noix"),
        ("Remember that my son lives in Lyon", "my son lives in Lyon"),
        ("please remember that Claire calls on Sundays!", "Claire calls on Sundays"),
        ("Θυμήσου ότι η κόρη μου λέγεται Ελένη", "η κόρη μου λέγεται Ελένη"),
        ("je me souviens que c'était bien", None),
        ("rappelle-moi d'appeler Claire", None),
        ("remember", None),
    ],
)
def test_memory_save_fast_path(text: str, fact: str | None) -> None:
    """ "Souviens-toi que …" keeps the fact with its original spelling."""
    assert match_memory_save(text) == fact


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Qu'est-ce que tu sais sur Claire ?", "Claire"),
        ("que sais-tu de mon fils ?", "mon fils"),
        ("Tu te souviens de Paul ?", "Paul"),
        ("What do you know about Claire?", "Claire"),
        ("do you remember my doctor", "my doctor"),
        ("Τι ξέρεις για την Ελένη;", "την Ελένη"),
        ("qu'est-ce que tu fais ?", None),
        ("what do you think?", None),
    ],
)
def test_memory_recall_fast_path(text: str, subject: str | None) -> None:
    """ "Qu'est-ce que tu sais sur Claire ?" asks for the memories about Claire."""
    assert match_memory_recall(text) == subject


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Je me sens seule ces jours-ci", "loneliness"),
        ("je me sens si seul", "loneliness"),
        ("I feel lonely", "loneliness"),
        ("personne ne vient me voir", "loneliness"),
        ("j'ai mal au dos", "pain"),
        ("J'ai mal.", "pain"),
        ("my knee hurts", "pain"),
        ("πονάω πολύ", "pain"),
        ("j'ai peur la nuit", "fear"),
        ("I'm scared", "fear"),
        ("φοβάμαι", "fear"),
        ("je suis triste aujourd'hui", "sadness"),
        ("je suis tombée dans la cuisine", "fall"),
        ("I've fallen and I can't get up", "fall"),
        ("j'ai mal compris", None),
        ("j'ai pas mal de choses à faire", None),
        ("je ne me sens pas seule", None),
        ("I'm not scared", None),
        ("allume la lumière", None),
    ],
)
def test_affective_signals(text: str, kind: str | None) -> None:
    """Loneliness, pain, fear, sadness and falls; idioms and negations are not signals."""
    signal = detect_affect(text, "fr-FR")
    assert (signal.kind if signal else None) == kind
    if signal:
        assert signal.language == "fr"
        assert -1 <= signal.sentiment < 0


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("oui", True),
        ("Oui, vas-y", True),
        ("d'accord", True),
        ("bien sûr", True),
        ("yes please", True),
        ("ναι", True),
        ("non", False),
        ("Non merci", False),
        ("surtout pas", False),
        ("no", False),
        ("όχι", False),
        ("allume plutôt la cuisine", None),
        ("", None),
        ("oui mais alors il faudrait aussi penser à fermer la fenêtre", None),
    ],
)
def test_confirmation_answers(text: str, answer: bool | None) -> None:
    """Yes and no in three languages; anything else is a new request."""
    assert confirmation_answer(text) is answer


def test_question_key_ignores_case_accents_and_punctuation() -> None:
    """The same question said twice is recognised despite punctuation and accents."""
    assert question_key("Quel jour sommes-nous ?") == question_key("quel jour sommes nous")
    assert question_key("Où est Claire ?") == question_key("ou est claire")


# ---------------------------------------------------------------------------------------------
# Stateful helpers
# ---------------------------------------------------------------------------------------------


def test_rate_limiter_slides_over_a_minute() -> None:
    """N actions pass, the next is refused, and the oldest leaves the window after a minute."""
    clock = FakeClock()
    limiter = ActionRateLimiter(3, clock)
    assert [limiter.try_acquire() for _ in range(4)] == [True, True, True, False]
    clock.advance(seconds=59)
    assert not limiter.try_acquire()
    clock.advance(seconds=1)
    assert [limiter.try_acquire() for _ in range(4)] == [True, True, True, False]


def test_pending_answers_expire_and_are_per_conversation() -> None:
    """A question waits for its own conversation only, and not forever."""
    clock = FakeClock()
    pending: PendingAnswers[str] = PendingAnswers(timedelta(seconds=60), clock)
    pending.put("a", "unlock door")
    pending.put("b", "open garage")
    assert pending.pop("c") is None
    assert pending.pop("a") == "unlock door"
    assert pending.pop("a") is None
    clock.advance(seconds=61)
    assert len(pending) == 0
    assert pending.pop("b") is None


def test_repeat_tracker_counts_home_wide_and_replays_narrowly() -> None:
    """Asking again is counted for half an hour; the answer comes back only where and when."""
    clock = FakeClock()
    tracker = RepeatTracker(
        timedelta(minutes=30), clock, replay_window=timedelta(minutes=2), max_entries=2
    )
    key = question_key("Qui a écrit Les Misérables ?")
    kitchen = replay_scope("conv-1", "satellite-kitchen")
    assert tracker.repeat(key) is None
    tracker.record(key, "Victor Hugo.", scope=kitchen, language="fr")
    clock.advance(seconds=65)
    hit = tracker.repeat(key)
    assert hit is not None and hit.count == 2
    # Same device (a new conversation at each wake word), same language, within two minutes.
    same_device = replay_scope("conv-2", "satellite-kitchen")
    assert tracker.replay(key, scope=same_device, language="fr") == "Victor Hugo."
    assert tracker.replay(key, scope=same_device, language="en") is None
    assert tracker.replay(key, scope=replay_scope("conv-1", "salon"), language="fr") is None
    assert tracker.replay(key, scope=replay_scope("conv-1"), language="fr") is None
    clock.advance(seconds=56)
    assert tracker.replay(key, scope=kitchen, language="fr") is None  # 2 min 1 s
    # Answered anew: the count goes on, the new answer is the one replayed.
    tracker.record(key, "Victor Hugo, en 1862.", scope=kitchen, language="fr")
    hit = tracker.repeat(key)
    assert hit is not None and hit.count == 3
    assert tracker.replay(key, scope=kitchen, language="fr") == "Victor Hugo, en 1862."
    # An answer of the moment is counted but never replayed.
    now_key = question_key("Quelle heure est-il ?")
    tracker.record(now_key, None, scope=kitchen, language="fr")
    hit = tracker.repeat(now_key)
    assert hit is not None and hit.count == 2
    assert tracker.replay(now_key, scope=kitchen, language="fr") is None
    clock.advance(minutes=31)
    assert tracker.repeat(key) is None
    assert tracker.repeat("") is None
    # The oldest question is forgotten when the tracker is full.
    tracker.record("a", "A")
    tracker.record("b", "B")
    tracker.record("c", "C")
    assert tracker.repeat("a") is None
    assert tracker.repeat("c") is not None


@pytest.mark.parametrize(
    "text",
    [
        "il est quelle heure à Paris ?",
        "Quel jour sommes-nous ?",
        "on est le combien aujourd'hui ?",
        "il fait quel temps ?",
        "la lampe du salon est allumée ?",
        "What time is it in London?",
        "what's the date today",
        "is the front door locked?",
        "any news?",
        "Τι ώρα είναι;",
        "Τι μέρα είναι σήμερα;",
        "Πώς είναι ο καιρός;",
        "Nous sommes lundi 2 mars.",
        "Il est 08:36:01.",
        "Il est 7h30.",
        "It's 2026-03-02.",
    ],
)
def test_words_of_the_moment(text: str) -> None:
    """Time, date, weather, news and device states, in fr/en/el, in questions and answers."""
    assert mentions_the_moment(text)


@pytest.mark.parametrize(
    "text",
    [
        "Qui a écrit Les Misérables ?",
        "Victor Hugo, en 1862.",
        "C'est quoi la capitale de l'Australie ?",
        "Who wrote Hamlet?",
        "Ποιος έγραψε την Οδύσσεια;",
        "Bonjour, comment vas-tu ?",
    ],
)
def test_words_not_of_the_moment(text: str) -> None:
    """Questions whose answer stays true are not taken for questions about now."""
    assert not mentions_the_moment(text)


def test_only_timeless_chat_answers_are_replayable() -> None:
    """The router's command first, then the words of the question and the answer, and devices."""
    chat = RouterCommand(command="chat", text="Victor Hugo.")
    assert answer_is_replayable(chat, "Qui a écrit Les Misérables ?", "Victor Hugo.")
    assert not answer_is_replayable(chat, "il est quelle heure à Paris ?", "Il est 8 h 36.")
    assert not answer_is_replayable(chat, "tu peux me dire ça encore ?", "Il est 08:36:01.")
    for command in ("weather", "news", "memory_recall", "service", "alarm"):
        assert not answer_is_replayable(RouterCommand(command=command), "et alors ?", "Bien.")
    devices = ["Lampe salon", "Volet cuisine"]
    assert names_a_device("la lampe salon, elle fait quoi ?", devices)
    assert not answer_is_replayable(chat, "la Lampe Salon, elle fait quoi ?", "Rien.", devices)
    assert answer_is_replayable(chat, "qui a écrit les misérables ?", "Victor Hugo.", devices)


def test_signal_counter_window() -> None:
    """Signals of a kind are counted within the window only."""
    clock = FakeClock()
    counter = SignalCounter(timedelta(hours=24), clock)
    assert counter.add("loneliness") == 1
    clock.advance(hours=2)
    assert counter.add("loneliness") == 2
    assert counter.add("pain") == 1
    clock.advance(hours=23)
    assert counter.add("loneliness") == 2


# ---------------------------------------------------------------------------------------------
# Phrases
# ---------------------------------------------------------------------------------------------


def test_every_phrase_is_in_every_spoken_language() -> None:
    """No sentence falls back to English for a French or Greek speaker."""
    for key, translations in PHRASES.items():
        assert set(translations) == set(SPOKEN_LANGUAGES), key
        assert all(text.strip() for text in translations.values()), key


@pytest.mark.parametrize(
    ("hour", "minute", "language", "spoken"),
    [
        (7, 30, "fr", "7 heures 30"),
        (7, 0, "fr", "7 heures"),
        (1, 5, "fr", "1 heure 05"),
        (12, 0, "fr", "midi"),
        (0, 0, "fr", "minuit"),
        (7, 30, "en", "7:30 AM"),
        (19, 0, "en", "7 PM"),
        (0, 15, "en", "12:15 AM"),
        (21, 5, "el", "21:05"),
        (7, 0, "de", "7 AM"),
    ],
)
def test_spoken_times(hour: int, minute: int, language: str, spoken: str) -> None:
    """Times are written the way TTS engines read them well."""
    assert spoken_time(hour, minute, language) == spoken


def test_names_and_weather_sentences() -> None:
    """Lists are joined with the language's "and"; weather speaks conditions and ranges."""
    assert join_names(["A", "B", "C"], "fr") == "A, B et C"
    assert join_names(["A"], "en") == "A"
    text = describe_weather(
        language="fr",
        condition="partlycloudy",
        temperature=12.6,
        today=DayForecast(condition="rainy", high=14.2, low=6),
        tomorrow=DayForecast(condition="sunny", high=17, low=8),
    )
    assert text == (
        "En ce moment : partiellement nuageux, 13 degrés. Aujourd'hui, entre 6 et 14 degrés. "
        "Demain : ensoleillé, entre 8 et 17 degrés."
    )
    short = describe_weather(
        language="el",
        condition="snowy",
        temperature=None,
        today=None,
        tomorrow=DayForecast(condition="a-new-condition"),
    )
    assert short == "Αυτή τη στιγμή: χιόνι. Αύριο: a new condition."
    empty = describe_weather(
        language="en", condition=None, temperature=None, today=None, tomorrow=None
    )
    assert empty == say("weather_unavailable", "en")


# ---------------------------------------------------------------------------------------------
# News
# ---------------------------------------------------------------------------------------------

RSS = b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Infos</title>
<item><title>Le &lt;b&gt;printemps&lt;/b&gt; arrive en avance</title></item>
<item><title>   La mairie   ouvre un jardin partag\xc3\xa9 </title></item>
<item><title></title></item>
<item><title>Concert au kiosque samedi</title></item>
<item><title>Quatri\xc3\xa8me titre</title></item>
</channel></rss>"""

ATOM = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>
<entry><title>First headline</title><id>1</id><updated>2026-03-02T08:00:00Z</updated></entry>
</feed>"""


def test_feeds_are_parsed_and_cleaned() -> None:
    """RSS and Atom both give clean titles; markup and extra spaces go; empty titles too."""
    assert [h.title for h in parse_feed(RSS)] == [
        "Le printemps arrive en avance",
        "La mairie ouvre un jardin partagé",
        "Concert au kiosque samedi",
        "Quatrième titre",
    ]
    assert [h.title for h in parse_feed(ATOM)] == ["First headline"]
    with pytest.raises(NewsUnavailableError):
        parse_feed(b"<html><body>Not a feed")
    long = clean_title("mot " * 100)
    assert len(long) <= 161 and long.endswith("…")


@dataclass
class FeedServer:
    """A local feed server whose answer the test controls."""

    body: bytes = RSS
    status: int = 200
    delay: float = 0.0
    hits: int = 0
    url: str = ""


@pytest.fixture
async def feed_server(socket_enabled: None) -> AsyncIterator[FeedServer]:
    """Serve a feed on 127.0.0.1."""
    server = FeedServer()

    async def handler(request: web.Request) -> web.Response:
        server.hits += 1
        if server.delay:
            await asyncio.sleep(server.delay)  # a slow feed, as the test scripts it
        return web.Response(
            body=server.body, status=server.status, content_type="application/rss+xml"
        )

    app = web.Application()
    app.router.add_get("/feed.xml", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.url = f"http://127.0.0.1:{port}/feed.xml"
    yield server
    await runner.cleanup()


async def test_news_is_cached_then_refreshed(feed_server: FeedServer) -> None:
    """Headlines are fetched once per cache period."""
    now = [0.0]
    async with aiohttp.ClientSession() as session:
        reader = NewsReader(session, feed_server.url, ttl=900, monotonic=lambda: now[0])
        first = await reader.headlines(3)
        assert [h.title for h in first][:1] == ["Le printemps arrive en avance"]
        assert len(first) == 3
        now[0] = 899
        await reader.headlines(3)
        assert feed_server.hits == 1
        now[0] = 900
        feed_server.body = ATOM
        assert [h.title for h in await reader.headlines(3)] == ["First headline"]
        assert feed_server.hits == 2


@pytest.mark.parametrize(
    "broken",
    [{"status": 503}, {"delay": 0.5}, {"body": b"<html>oops"}],
    ids=["http_error", "timeout", "not_a_feed"],
)
async def test_news_failures_raise_one_error_type(
    feed_server: FeedServer, broken: dict[str, Any]
) -> None:
    """Server errors, timeouts and garbage all become NewsUnavailableError."""
    for key, value in broken.items():
        setattr(feed_server, key, value)
    async with aiohttp.ClientSession() as session:
        reader = NewsReader(session, feed_server.url, timeout=0.2)
        with pytest.raises(NewsUnavailableError):
            await reader.headlines()


async def test_news_refuses_huge_feeds(feed_server: FeedServer) -> None:
    """A feed larger than the limit is refused rather than read into memory."""
    feed_server.body = b"<rss>" + b" " * (3 * 1024 * 1024) + b"</rss>"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NewsUnavailableError):
            await NewsReader(session, feed_server.url).headlines()


async def test_news_unreachable(socket_enabled: None) -> None:
    """Nothing listening is a NewsUnavailableError too."""
    async with aiohttp.ClientSession() as session:
        reader = NewsReader(session, "http://127.0.0.1:9/feed.xml", timeout=2)
        with pytest.raises(NewsUnavailableError):
            await reader.headlines()


@pytest.mark.parametrize(
    ("subject", "language", "expected"),
    [
        ("my sister Lea", "en", "your sister Lea"),
        ("My doctor", "en-GB", "Your doctor"),
        ("the US embassy", "en", "the US embassy"),
        ("the mine near Lea", "en", "the mine near Lea"),
        ("ma fille", "fr", "votre fille"),
        ("Mes petits-enfants", "fr", "Vos petits-enfants"),
        ("την αδελφή μου Λέα", "el", "την αδελφή σας Λέα"),
        ("Claire", "fr", "Claire"),
    ],
)
def test_a_subject_is_said_back_to_the_speaker(subject: str, language: str, expected: str) -> None:
    """The speaker's "my" becomes the reply's "your" (vous, σας); other words stay as said."""
    assert said_back(subject, language) == expected
