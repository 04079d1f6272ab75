"""Per-session conversation state: the rolling transcript buffer, recent cards, cooldowns,
people heard, and the live partial speech stream of a socket.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final, NamedTuple

from ..text.normalize import fold
from ..text.similarity import same_question, similarity

MAX_RECENT_CARDS: Final = 20
MAX_PEOPLE: Final = 50
OBSERVATIONS_PER_PERSON: Final = 3
MAX_STREAM_CHARACTERS: Final = 16000


class Utterance(NamedTuple):
    """One final utterance held in the rolling buffer (a tuple: one is made per final, and a
    frozen dataclass takes about three times as long to build)."""

    event_id: str
    text: str
    speaker: str | None
    language: str | None
    timestamp: datetime
    received_at: datetime


@dataclass(frozen=True, kw_only=True)
class AskedQuestion:
    """The newest question final of a session, kept so its answer can be recognised."""

    text: str
    event_id: str
    speaker: str | None
    language: str
    sequence: int
    at: datetime


class TranscriptBuffer:
    """Rolling, time- and count-bounded context of recent final utterances.

    Besides the utterances, how many of them have each (event id, text) pair, changed by the
    only two ways in and out (:meth:`append`, :meth:`_drop_oldest`): a replay is recognised
    in one look-up, and the count cannot drift from what the buffer holds.
    """

    def __init__(self, window_seconds: float, max_items: int) -> None:
        """Bound the buffer by age and by count (at least one utterance)."""
        if max_items < 1:
            raise ValueError("a transcript buffer holds at least one utterance")
        self.window = timedelta(seconds=window_seconds)
        self._max_items = max_items
        self._items: deque[Utterance] = deque()
        self._held: dict[tuple[str, str], int] = {}

    def append(self, utterance: Utterance) -> None:
        """Add the newest utterance (the oldest falls out past the count limit)."""
        if len(self._items) >= self._max_items:
            self._drop_oldest()
        self._items.append(utterance)
        key = (utterance.event_id, utterance.text)
        self._held[key] = self._held.get(key, 0) + 1

    def items(self, now: datetime) -> list[Utterance]:
        """Return the utterances still inside the window, oldest first."""
        self._prune(now)
        return list(self._items)

    def holds(self, event_id: str, text: str, now: datetime) -> bool:
        """Whether an utterance still inside the window has this event_id and text."""
        self._prune(now)
        return (event_id, text) in self._held

    def _prune(self, now: datetime) -> None:
        cutoff = now - self.window
        items = self._items
        while items and items[0].received_at < cutoff:
            self._drop_oldest()

    def _drop_oldest(self) -> None:
        oldest = self._items.popleft()
        key = (oldest.event_id, oldest.text)
        left = self._held[key] - 1
        if left:
            self._held[key] = left
        else:
            del self._held[key]

    def __len__(self) -> int:
        """Return how many utterances are held (expired ones included until pruned)."""
        return len(self._items)


def speech_line(speaker: str | None, text: str) -> str:
    """One utterance as a prompt's conversation shows it (the same before and after its final):
    its words, after the speaker's name when the glasses gave one."""
    return f"{speaker}: {text}" if speaker else text


@dataclass(frozen=True, kw_only=True)
class ContextLine:
    """One utterance of the conversation as a prompt shows it (``text``), and who said what
    (``speaker``, ``words``: empty for a card), by which a learning task cites it."""

    event_id: str
    text: str
    at: datetime
    speaker: str | None = None
    words: str = ""


class PromptWindow:
    """Where the conversation a prompt shows begins: moved rarely, and in big steps.

    The model server keeps the prompt it last read (its KV cache) and reads again only what
    follows the part a new prompt shares with it. The conversation is shown oldest first, so
    every new utterance only appends; each move of the beginning makes the model read the whole
    conversation again, so a move keeps only the newest quarter of it at once when the buffer
    let its first line go (the next move is then far off, and little is read again), not one
    line less per utterance; past the token budget, the newest third. The cards listed before
    the conversation are kept with the beginning (:attr:`cards`), so they change only when it
    moves.
    """

    def __init__(self) -> None:
        """Nothing shown yet."""
        self._first: str | None = None
        self._first_at: datetime | None = None
        # The cards listed before the conversation, for the beginning ``cards_start``.
        self.cards: list[str] = []
        self.cards_start: str | None = None
        # How many of them the last prompt listed (None: none built yet, the default).
        self.card_limit: int | None = None

    def select(
        self, lines: Sequence[ContextLine], fits: Callable[[Sequence[ContextLine]], bool]
    ) -> list[ContextLine]:
        """The lines to show, oldest first: from the beginning kept so far, if ``fits``.

        When the buffer let the first shown line go (window or count), or the lines do not
        fit, the oldest two thirds of what would be shown are dropped, as often as needed.
        """
        start = self._start(lines)
        while start < len(lines) and not fits(lines[start:]):
            start += max(1, (len(lines) - start) * 2 // 3)
        if start < len(lines):
            self._first, self._first_at = lines[start].event_id, lines[start].at
        return list(lines[start:])

    def _start(self, lines: Sequence[ContextLine]) -> int:
        if self._first is None or self._first_at is None or not lines:
            return 0
        for index, line in enumerate(lines):
            if line.event_id == self._first:
                return index
        if lines[0].at > self._first_at:
            return len(lines) * 3 // 4  # the first shown line fell out of the buffer
        # The first shown line is the one left out of this prompt (its newest utterance).
        return next((i for i, line in enumerate(lines) if line.at >= self._first_at), len(lines))


@dataclass(frozen=True, kw_only=True)
class RecentCard:
    """A card already shown in this session, kept for de-duplication and cooldowns."""

    text: str
    intent: str
    source: str
    created_at: datetime
    trigger_text: str | None = None


def in_cooldown(cards: Sequence[RecentCard], now: datetime, seconds: float) -> bool:
    """Whether the newest of ``cards`` was shown less than ``seconds`` before ``now``."""
    if not cards:
        return False
    return (now - cards[-1].created_at).total_seconds() < seconds


def answered_recently(
    cards: Iterable[RecentCard], question: str, now: datetime, horizon: timedelta
) -> bool:
    """Whether one of ``cards`` answered the same question (in other words) within horizon."""
    return any(
        card.trigger_text is not None
        and now - card.created_at <= horizon
        and same_question(question, card.trigger_text)
        for card in cards
    )


@dataclass
class PersonNotes:
    """What a session heard about one person, grouped across spellings."""

    display_name: str
    observations: deque[str] = field(default_factory=lambda: deque(maxlen=OBSERVATIONS_PER_PERSON))
    stated: bool = False


class SessionState:
    """Everything one conversation (session_id) remembers while it is live."""

    def __init__(self, session_id: str, client_id: str, window: float, max_items: int) -> None:
        """Create empty state; the engine fills it from the store on first use."""
        self.session_id = session_id
        self.client_id = client_id
        self.buffer = TranscriptBuffer(window, max_items)
        self.recent_cards: deque[RecentCard] = deque(maxlen=MAX_RECENT_CARDS)
        self.people: dict[str, PersonNotes] = {}
        self.prompt_window = PromptWindow()
        self.connections = 0
        self.final_sequence = 0
        # The newest question final: a short reply to it is an answer to verify.
        self.last_question: AskedQuestion | None = None

    def context_lines(self, now: datetime, exclude_event: str | None = None) -> list[ContextLine]:
        """The conversation for a prompt, oldest first, without ``exclude_event``."""
        return [
            ContextLine(
                event_id=u.event_id,
                text=speech_line(u.speaker, u.text),
                at=u.received_at,
                speaker=u.speaker,
                words=u.text,
            )
            for u in self.buffer.items(now)
            if u.event_id != exclude_event
        ]

    def card_lines(self) -> list[ContextLine]:
        """The cards this session was shown, oldest first, for a prompt."""
        return [
            ContextLine(event_id=card.intent, text=card.text, at=card.created_at)
            for card in self.recent_cards
        ]

    def in_cooldown(self, now: datetime, seconds: float) -> bool:
        """Whether a low-priority card shown less than ``seconds`` ago blocks another."""
        return in_cooldown(self.recent_cards, now, seconds)

    def duplicate_card(self, text: str, now: datetime, horizon: timedelta) -> bool:
        """Whether a near-identical card was shown within ``horizon``."""
        return any(
            now - card.created_at <= horizon and similarity(text, card.text) >= 0.8
            for card in self.recent_cards
        )

    def answered_recently(self, question: str, now: datetime, horizon: timedelta) -> bool:
        """Whether the same question (re-asked in other words) was answered within horizon."""
        return answered_recently(self.recent_cards, question, now, horizon)

    def note_person(self, key: str, name: str, observation: str, stated: bool) -> None:
        """Remember an observation about a person (bounded per person and per session)."""
        notes = self.people.get(key)
        if notes is None:
            if len(self.people) >= MAX_PEOPLE:
                self.people.pop(next(iter(self.people)))
            notes = self.people[key] = PersonNotes(display_name=name)
        if observation and (not notes.observations or notes.observations[-1] != observation):
            notes.observations.append(observation)
        notes.stated = notes.stated or stated


@dataclass
class SpeechStream:
    """The live partial speech of one socket, rebuilt from overlapping revisions.

    Soniox may reuse an event_id, issue a new one for each revision, or send only a sliding
    tail of a long utterance; the text itself decides how a revision joins the stream.
    """

    text: str = ""
    event_id: str | None = None
    focus_offset: int = 0

    def update(self, partial: str, event_id: str) -> None:
        """Merge a new partial revision into the stream."""
        self.event_id = event_id
        partial = partial.strip()
        if not self.text:
            self.text = partial
            return
        if _is_revision(self.text, partial):
            self.text = partial
        else:
            start = _tail_overlap_start(self.text, partial)
            if start is None:
                # Unrelated speech: a new utterance began.
                self.text = partial
                self.focus_offset = 0
            else:
                self.text = self.text[:start] + partial
        if len(self.text) > MAX_STREAM_CHARACTERS:
            cut = len(self.text) - MAX_STREAM_CHARACTERS
            self.text = self.text[cut:]
            self.focus_offset = max(0, self.focus_offset - cut)
        self.focus_offset = min(self.focus_offset, len(self.text))

    def focus(self) -> str:
        """Speech appended since the last card (the whole stream when there was none)."""
        return self.text[self.focus_offset :].strip()

    def mark_card(self) -> None:
        """Later evaluations look only at speech after this point."""
        self.focus_offset = len(self.text)

    def reset(self) -> None:
        """Forget the stream (its utterance became final)."""
        self.text = ""
        self.event_id = None
        self.focus_offset = 0


def _is_revision(current: str, new: str) -> bool:
    """A revision shares its beginning with the current stream."""
    a, b = fold(current), fold(new)
    shorter = min(len(a), len(b))
    if shorter == 0:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(1, int(shorter * 0.6))


def _tail_overlap_start(current: str, new: str) -> int | None:
    """Where a sliding-tail revision ``new`` starts inside ``current``, if it overlaps."""
    a, b = current, new
    minimum = min(12, len(b))
    for start in range(len(a)):
        overlap = len(a) - start
        if overlap < minimum:
            return None
        if b.startswith(a[start:]) or a[start:].startswith(b):
            return start
    return None
