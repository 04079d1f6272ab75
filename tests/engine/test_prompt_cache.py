"""Prompts built for the model server's KV cache, bounded by the token budget, num_ctx sent."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from custom_components.homebuddy_proactive.engine.config import EngineConfig
from custom_components.homebuddy_proactive.engine.const import MAX_TEXT_CHARACTERS
from custom_components.homebuddy_proactive.engine.llm import (
    OllamaModel,
    after_prefix,
    estimate_prompt_tokens,
)
from custom_components.homebuddy_proactive.engine.memory.learning import (
    EXTRACTION_RULES,
    extraction_messages,
)
from custom_components.homebuddy_proactive.engine.proactive.prompt import (
    EvaluationRequest,
    build_messages,
    instructions,
    model_context_tokens,
    prefix_messages,
)
from custom_components.homebuddy_proactive.engine.proactive.session import (
    ContextLine,
    PromptWindow,
)
from custom_components.homebuddy_proactive.engine.proactive.verification import (
    verification_task,
)
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.engine.conftest import EngineHarness
from tests.fake_ollama import (
    FakeOllama,
    FakeReply,
    conversation_of,
    last_user_prompt,
    learning_turns,
)

Factory = Callable[..., Any]
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def frame(text: str, event_id: str, *, final: bool = True) -> str:
    """A transcript frame."""
    return json.dumps({"type": "transcript", "event_id": event_id, "text": text, "is_final": final})


def rendered(body: dict[str, Any]) -> str:
    """A recorded chat request as the model reads it: the messages in order."""
    return "".join(f"<{m['role']}>{m['content']}" for m in body["messages"])


def stable_part(prompt: str) -> str:
    """Instructions, earlier cards and conversation but its last line (the newest utterance,
    which may still grow): the part the next call must start with."""
    head, user, content = prompt.partition("<user>")
    start = content.find("Conversation, oldest first:\n")
    if start < 0:
        return head + user
    end = content.find("\n\n", start)
    block = content if end < 0 else content[:end]
    return head + user + block.rsplit("\n", 1)[0] + "\n"


def common_prefix(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share from their start."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def line(number: int, words: int = 12) -> ContextLine:
    """The number-th utterance of a conversation."""
    text = f"speaker: utterance {number} " + " ".join(f"word{number}x{i}" for i in range(words))
    return ContextLine(event_id=f"e{number}", text=text, at=START + timedelta(seconds=number))


async def test_continuous_speech_prompts_share_their_prefix_with_the_previous_call(
    engine_factory: Factory, fake_ollama: FakeOllama
) -> None:
    """Partials and finals interleaving: each prompt starts with the previous one's
    instructions and conversation, so the model server reads only the new end."""
    harness: EngineHarness = await engine_factory(
        partial_insight_debounce_ms=0,
        partial_insight_interval_ms=100,
        memory_learning_turns=3,
    )

    def model(body: dict[str, Any]) -> FakeReply:
        if "facts" in body["format"].get("properties", {}):
            return FakeReply(content={"facts": []})
        return FakeReply(
            content={"intervene": False, "intent": "context", "confidence": 0.0, "card": ""}
        )

    fake_ollama.handler = model
    await harness.engine.memory.remember("c1", "preference", "Marie takes the train to Lyon")
    socket = await harness.connect()
    sentences = [
        "We are planning the trip to Lyon for the spring holidays with the children",
        "The train leaves Paris at eight and arrives before eleven in the morning",
        "My sister wants to visit the old town and the museum of fine arts there",
        "We still have to book a hotel near the station for three nights in April",
        "The children would love the park with the zoo in the middle of the city",
        "Marie said the weather in April can be rainy so we should pack jackets",
    ]
    for number, sentence in enumerate(sentences):
        words = sentence.split()
        for count in range(3, len(words), 3):
            await socket.text(frame(" ".join(words[:count]), f"p{number}", final=False))
            await asyncio.sleep(0.05)  # speech at its pace: partial evaluations in between
        await socket.text(frame(sentence, f"e{number}"))
        await asyncio.sleep(0.15)  # a pause between sentences (the scenario)
    await asyncio.sleep(0.3)  # the last partial and final evaluations run (any count of them)
    await harness.engine.memory.settle()

    calls = [rendered(body) for body in fake_ollama.requests]
    learning = [i for i, body in enumerate(fake_ollama.requests) if "facts" in str(body["format"])]
    prompts = [calls[i] for i in range(len(calls)) if i not in learning]
    sources = "".join(last_user_prompt(body) for body in fake_ollama.requests)
    assert len(prompts) >= len(sentences) + 2
    assert len(learning) >= 2
    assert "NEWEST partial," in sources and "NEWEST final," in sources
    for previous, current in itertools.pairwise(prompts):
        assert current.startswith(stable_part(previous))
    for index in learning:  # learning asks after the same instructions and conversation
        assert calls[index].startswith(stable_part(calls[index - 1]))
        assert "TASK: learn" in calls[index]
        # It cites the turns the conversation shows by their numbers, never quotes them again.
        conversation, _, task = calls[index].rpartition("TASK: learn")
        asked = learning_turns(fake_ollama.requests[index])
        assert len(asked) >= 3 and all(words in conversation for _, words in asked)
        assert all(words not in task for _, words in asked)
        assert ", from lines " in task
    # One system message for every kind of call, each task's rules in it once.
    systems = {body["messages"][0]["content"] for body in fake_ollama.requests}
    assert len(systems) == 1
    assert all(call.count(EXTRACTION_RULES) == 1 for call in calls)
    # After the conversation, a call reads only its short per-call part.
    for call in prompts:
        assert len(call.rpartition("\n\n")[2]) < 200
    # One cache slot: over all calls, most of each prompt is the previous call's prefix.
    shared = sum(common_prefix(a, b) for a, b in itertools.pairwise(calls))
    assert shared / sum(len(call) for call in calls[1:]) >= 0.8
    # The conversation is in append order: the first utterance before the last.
    last = prompts[-1]
    assert last.index("spring holidays") < last.index("arrives before eleven")


def test_trimming_drops_the_oldest_half_at_once_and_keeps_the_prefix_for_many_calls() -> None:
    """Past the budget the oldest half goes in one step; the calls after share the prefix."""
    config = EngineConfig(ollama_model="m").with_tuning({"prompt_token_budget": 3072})
    window = PromptWindow()
    lines = [line(n) for n in range(40)]
    starts: list[str] = []
    previous = ""
    kept = 0
    for number in range(40, 100):
        lines.append(line(number))
        request = EvaluationRequest(
            newest=f"the newest words {number}", language="en", context=lines, window=window
        )
        messages = build_messages(request, config)
        assert estimate_prompt_tokens(messages) <= config.prompt_token_budget
        user = "<user>" + messages[1]["content"]
        first = conversation_of({"messages": messages})[0]
        if not starts or starts[-1] != first:
            starts.append(first)
        elif user.startswith(stable_part(previous)):
            kept += 1
        previous = user
    calls = 60
    assert len(starts) <= calls // 6  # a trim at most every sixth call
    assert kept >= calls - len(starts)  # every call without a trim kept the whole prefix
    assert "utterance 99 " in previous  # the newest context is there, the oldest is not
    assert "utterance 40 " not in previous


def test_the_newest_utterance_is_never_cut_other_parts_give_way() -> None:
    """Memories, earlier cards and the conversation go; the newest words stay whole."""
    config = EngineConfig(ollama_model="m").with_tuning({"prompt_token_budget": 1024})
    newest = "x" * (MAX_TEXT_CHARACTERS - 1) + "!"
    cards = [
        ContextLine(event_id="context", text=f"card number {n}", at=START + timedelta(seconds=n))
        for n in range(5)
    ]
    request = EvaluationRequest(
        newest=newest,
        language="en",
        context=[line(n) for n in range(10, 20)],
        memories=[f"[fact] memory {n}" for n in range(5)],
        recent_cards=cards,
        window=PromptWindow(),
    )
    user = build_messages(request, config)[1]["content"]
    assert newest in user
    assert "memory 0" not in user
    assert "card number" not in user
    assert "utterance 19" not in user


def test_cards_sit_in_the_conversation_and_move_to_the_list_when_trimmed() -> None:
    """A card shown during the conversation is a line of it; trimmed away, it is still listed."""
    config = EngineConfig(ollama_model="m")
    shown_at = line(3).at + timedelta(milliseconds=500)
    card = ContextLine(event_id="definition", text="BM25 ranks by term frequency.", at=shown_at)
    lines = [line(n) for n in range(6)]
    user = build_messages(
        EvaluationRequest(newest="next", language="en", context=lines, recent_cards=[card]),
        config,
    )[1]["content"]
    assert (
        "word3x11\nHomeBuddy card: BM25 ranks by term frequency.\n[5] speaker: utterance 4" in user
    )
    assert "Recent cards" not in user

    small = config.with_tuning({"prompt_token_budget": 2048})
    many = [line(n, words=40) for n in range(30)]
    late = ContextLine(event_id="context", text="An early card.", at=many[1].at)
    user = build_messages(
        EvaluationRequest(
            newest="next", language="en", context=many, recent_cards=[late], window=PromptWindow()
        ),
        small,
    )[1]["content"]
    assert "utterance 1 " not in user
    # Listed before the conversation: the list changes only when the shown part moves.
    assert user.startswith("Recent cards (do not repeat):\n- An early card.\n\nConversation")


async def test_num_ctx_follows_the_budget_and_grows_for_a_prompt_that_needs_more(
    fake_ollama: FakeOllama,
) -> None:
    """Every call sends one num_ctx (the budget plus the answer); a longer one gets more."""
    config = EngineConfig(ollama_model="llama3.2:3b").with_tuning(
        {"prompt_token_budget": 6000, "ollama_keep_alive_minutes": 30}
    )
    model = OllamaModel(
        fake_ollama.url,
        config.ollama_model,
        timeout=5,
        context_tokens=model_context_tokens(config),
        keep_alive=config.ollama_keep_alive,
    )
    fake_ollama.default_reply = FakeReply(content={"ok": True})
    try:
        await model.chat_json([{"role": "user", "content": "short"}], {}, max_tokens=100)
        await model.chat_json([{"role": "user", "content": "é" * 30000}], {}, max_tokens=100)
    finally:
        await model.close()
    short, long = fake_ollama.requests
    assert short["options"]["num_ctx"] == 7168  # 6000 + 800 answer tokens, whole kilotokens
    assert long["options"]["num_ctx"] >= 60000 // 3 + 100
    assert short["keep_alive"] == "30m"


def test_keep_alive_and_budget_come_from_the_environment() -> None:
    """The standalone server reads both; the default keeps the model loaded."""
    default = ServerSettings.from_env({"OLLAMA_MODEL": "m"}).engine
    assert default.ollama_keep_alive == -1
    assert model_context_tokens(default) == 4096
    tuned = ServerSettings.from_env(
        {"OLLAMA_MODEL": "m", "OLLAMA_KEEP_ALIVE_MINUTES": "0", "PROMPT_TOKEN_BUDGET": "8192"}
    ).engine
    assert tuned.ollama_keep_alive == "0m"
    assert model_context_tokens(tuned) == 9216


def test_cards_listed_before_the_conversation_change_only_when_its_start_moves() -> None:
    """A card leaving the session's recent cards (they are bounded) does not change the
    prompt's start: the list made when the shown part began is kept until it moves."""
    config = EngineConfig(ollama_model="m").with_tuning({"prompt_token_budget": 2048})
    window = PromptWindow()
    lines = [line(n, words=40) for n in range(30)]
    cards = [
        ContextLine(event_id="context", text=f"early card {n}", at=lines[n].at) for n in range(3)
    ]

    def user(shown_cards: list[ContextLine]) -> str:
        request = EvaluationRequest(
            newest="next", language="en", context=lines, recent_cards=shown_cards, window=window
        )
        return build_messages(request, config)[1]["content"]

    first = user(cards)
    assert first.startswith("Recent cards (do not repeat):\n- early card 0\n- early card 1")
    again = user(cards[1:])  # the oldest card left the session's bounded list
    assert again.partition("\n\nTASK: ")[0] == first.partition("\n\nTASK: ")[0]


def test_every_task_shares_one_system_message_and_only_its_task_line_differs() -> None:
    """The card decision, the answer check and learning (after the session's prefix) start
    with the same system message and conversation; the system names no call's own words, so
    what follows the conversation tells the calls apart."""
    config = EngineConfig(ollama_model="m")
    window = PromptWindow()
    lines = [line(n) for n in range(5)]
    card = build_messages(
        EvaluationRequest(newest="Is it far?", language="fr", context=lines, window=window),
        config,
    )
    check = build_messages(
        EvaluationRequest(
            newest="Lyon",
            language="fr",
            context=lines,
            window=window,
            task=verification_task("Where is it?", "Lyon", "fr"),
        ),
        config,
    )
    learn = after_prefix(
        prefix_messages(lines, (), window, config).messages,
        extraction_messages([], "fr"),
    )
    system = instructions(config)
    assert card[0]["content"] == check[0]["content"] == learn[0]["content"] == system
    conversation = "Conversation, oldest first:\n" + "\n".join(
        f"[{number}] {item.text}" for number, item in enumerate(lines, start=1)
    )
    for messages in (card, check, learn):
        assert messages[1]["content"].startswith(conversation + "\n")
    assert card[1]["content"].endswith("[6] Is it far?\n\nTASK: card, NEWEST final, French.")
    assert check[1]["content"].endswith(
        "TASK: check, French.\nQUESTION: Where is it?\nANSWER: Lyon"
    )
    assert learn[1]["content"].endswith("\n\nTASK: learn, facts in French.")
    for marker in ("TASK: ", "NEWEST partial", "NEWEST final"):
        assert marker not in system


def test_learning_after_a_tight_card_prompt_lists_the_same_earlier_cards() -> None:
    """When the budget let a card prompt list only some earlier cards, the prefix a learning
    call is asked after lists the same ones, so the model server's cache still holds it."""
    config = EngineConfig(ollama_model="m").with_tuning({"prompt_token_budget": 1600})
    window = PromptWindow()
    lines = [line(n, words=2) for n in range(10, 14)]
    cards = [
        ContextLine(
            event_id="context",
            text=f"card {n} " + "y" * 300,
            at=START - timedelta(hours=1, seconds=-n),
        )
        for n in range(8)
    ]
    request = EvaluationRequest(
        newest="next", language="en", context=lines, recent_cards=cards, window=window
    )
    card = build_messages(request, config)[1]["content"]
    head = card.partition("Conversation, oldest first:")[0]
    assert "card 7 " in head  # the newest earlier cards are still listed
    assert "card 0 " not in head  # the budget left out the oldest ones
    assert "[4] speaker: utterance 13" in card
    learn = prefix_messages(lines, cards, window, config).messages[1]["content"]
    assert learn.startswith(head + "Conversation, oldest first:\n[1] ")
    assert card.startswith(learn)
