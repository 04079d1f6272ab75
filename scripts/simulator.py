#!/usr/bin/env python3
"""HomeBuddy conversation simulator: acts like HomeBuddy forwarding Soniox transcripts.

``file`` mode (the default) plays a text file and checks its expectations; ``scenario`` mode
runs a built-in protocol smoke test (ready, ping/pong, a final, a question answered by an
insight, feedback). Without ``--token`` it signs in with the configured credentials, uses the
issued token on the WebSocket upgrade and signs out at the end, even after a failure.

It works against the Home Assistant view too: ``--url ws://HA:8123/api/homebuddy_proactive/ws
--token <long-lived token>``. Only aiohttp is needed.

File syntax, one item per line (blank lines and ``#`` comments are ignored)::

    text  or  FINAL: text     send a finalized transcript
    PARTIAL: text             send interim text
    WAIT: seconds             pause (0-300 seconds)
    EXPECT_INSIGHT:           the preceding transcript must produce an insight
    EXPECT_INSIGHT: phrase    ... whose text contains phrase (case-insensitive)
    EXPECT_NO_INSIGHT:        the preceding transcript must produce no insight

Exit status: 0 when every expectation held, 1 when one failed, 2 for usage, file, sign-in or
connection errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import aiohttp
from yarl import URL

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2

DEFAULT_URL: Final = "ws://127.0.0.1:18743/v1/ws"
DEFAULT_FILE: Final = Path(__file__).resolve().parent.parent / "simulator-input" / "default.txt"
DEFAULT_TIMEOUT: Final = 60.0
DEFAULT_GRACE: Final = 1.5
MAX_WAIT_SECONDS: Final = 300.0

_DIRECTIVE_RE: Final = re.compile(r"^(FINAL|PARTIAL|WAIT|EXPECT_INSIGHT|EXPECT_NO_INSIGHT):(.*)$")


class SimulatorError(Exception):
    """A usage, file, sign-in or connection problem (exit status 2)."""


# -- the text file -----------------------------------------------------------------------------


@dataclass
class Send:
    """Send one transcript."""

    line: int
    text: str
    is_final: bool
    event_id: str = ""


@dataclass(frozen=True)
class Wait:
    """Pause."""

    line: int
    seconds: float


@dataclass(frozen=True)
class Expect:
    """An expectation about the preceding transcript."""

    line: int
    insight: bool
    phrase: str | None
    target: Send

    @property
    def label(self) -> str:
        """How the file spelled it."""
        if not self.insight:
            return "EXPECT_NO_INSIGHT"
        return f"EXPECT_INSIGHT: {self.phrase}" if self.phrase else "EXPECT_INSIGHT"


Step = Send | Wait | Expect


def parse_script(text: str, source: str = "<input>") -> list[Step]:
    """Parse a conversation file; raise SimulatorError naming the line of a mistake."""
    steps: list[Step] = []
    last: Send | None = None
    run = uuid.uuid4().hex[:8]
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def fail(message: str, number: int = number) -> SimulatorError:
            return SimulatorError(f"{source}:{number}: {message}")

        match = _DIRECTIVE_RE.match(line)
        directive, rest = (match.group(1), match.group(2).strip()) if match else ("FINAL", line)
        if directive in ("FINAL", "PARTIAL"):
            if not rest:
                raise fail(f"{directive}: needs the transcript text")
            last = Send(
                line=number,
                text=rest,
                is_final=directive == "FINAL",
                event_id=f"sim-{run}-{number}",
            )
            steps.append(last)
        elif directive == "WAIT":
            try:
                seconds = float(rest)
            except ValueError:
                seconds = math.nan
            if not 0 <= seconds <= MAX_WAIT_SECONDS:  # also rejects nan and inf
                raise fail(f"WAIT: needs a number of seconds from 0 to 300, got {rest!r}")
            steps.append(Wait(line=number, seconds=seconds))
        else:
            if last is None:
                raise fail(f"{directive}: comes before any transcript it could refer to")
            if directive == "EXPECT_NO_INSIGHT" and rest:
                raise fail("EXPECT_NO_INSIGHT: takes no phrase")
            steps.append(
                Expect(
                    line=number,
                    insight=directive == "EXPECT_INSIGHT",
                    phrase=rest or None,
                    target=last,
                )
            )
    if not any(isinstance(step, Send) for step in steps):
        raise SimulatorError(f"{source}: contains no transcript")
    return steps


# -- the connection ----------------------------------------------------------------------------


def auth_url(ws_url: str, action: str) -> str:
    """The HTTP sign-in/sign-out URL beside a WebSocket URL (``…/v1/ws`` → ``…/v1/auth/…``)."""
    url = URL(ws_url)
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    path = url.path
    prefix = path[: -len("/ws")] if path.endswith("/ws") else path.rstrip("/")
    return str(url.with_scheme(scheme).with_path(f"{prefix}/auth/{action}").with_query(None))


def short(text: str, limit: int = 100) -> str:
    """One line of at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Inbox:
    """Every frame the server sent, indexed by event_id, with a way to wait for one."""

    out: Callable[[str], None]
    labels: dict[str, str] = field(default_factory=dict)
    frames: list[dict[str, Any]] = field(default_factory=list)
    acks: dict[str, dict[str, Any]] = field(default_factory=dict)
    insights: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    errors: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    closed: str | None = None
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Record frames until the socket closes."""
        while True:
            message = await ws.receive()
            if message.type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSING,
                aiohttp.WSMsgType.CLOSED,
                aiohttp.WSMsgType.ERROR,
            ):
                break
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            try:
                frame = json.loads(message.data)
            except ValueError:
                self.out(f"  <- unreadable frame: {short(str(message.data))}")
                continue
            if isinstance(frame, dict):
                self._record(frame)
            async with self.changed:
                self.changed.notify_all()
        reason = f"code {ws.close_code}"
        if message.type == aiohttp.WSMsgType.CLOSE and message.extra:
            reason += f": {message.extra}"
        self.closed = reason
        async with self.changed:
            self.changed.notify_all()

    def _record(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        kind = frame.get("type")
        event_id = str(frame.get("event_id") or "")
        where = self.labels.get(event_id, event_id or "-")
        if kind == "ack":
            self.acks.setdefault(event_id, frame)
            if frame.get("processed") is False:
                return  # partial acks would drown the report
            self.out(
                f"  <- ack {where}: triggered={str(frame.get('triggered')).lower()}"
                f" reason={frame.get('reason')}"
            )
        elif kind == "insight":
            self.insights.setdefault(event_id, []).append(frame)
            self.out(
                f"  <- insight {where} [{frame.get('intent')}, {frame.get('source')}]: "
                f"{short(str(frame.get('text', '')), 160)}"
            )
        elif kind == "error":
            self.errors.setdefault(event_id, []).append(frame)
            self.out(f"  <- error {where}: {frame.get('code')}: {frame.get('message')}")

    async def wait_until(self, condition: Callable[[], bool], seconds: float) -> bool:
        """Wait until ``condition`` holds or the socket closed or ``seconds`` passed."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds), self.changed:
                await self.changed.wait_for(lambda: condition() or self.closed is not None)
        return condition()

    def first(self, kind: str) -> dict[str, Any] | None:
        """The first frame of a type."""
        return next((f for f in self.frames if f.get("type") == kind), None)


@dataclass(frozen=True)
class Outcome:
    """The verdict on one expectation or check."""

    label: str
    passed: bool
    detail: str


class Simulator:
    """One run: sign in (maybe), connect, play, report, sign out (maybe)."""

    def __init__(self, args: argparse.Namespace, out: Callable[[str], None] = print) -> None:
        """Keep the parsed command-line options."""
        self.args = args
        self.out = out
        self.inbox = Inbox(out)
        self.outcomes: list[Outcome] = []

    async def run(self, steps: Sequence[Step] | None) -> int:
        """Run the file steps (or the scenario when None); return the exit status."""
        args = self.args
        timeout = aiohttp.ClientTimeout(total=None, connect=min(args.timeout, 30.0))
        async with aiohttp.ClientSession(timeout=timeout) as http:
            token, signed_in = await self._token(http)
            try:
                return await self._connected(http, token, steps)
            finally:
                if signed_in:
                    await self._signout(http, token)

    async def _token(self, http: aiohttp.ClientSession) -> tuple[str, bool]:
        if self.args.token:
            return self.args.token, False
        url = auth_url(self.args.url, "signin")
        try:
            async with http.post(
                url,
                json={"username": self.args.username, "password": self.args.password},
                timeout=aiohttp.ClientTimeout(total=self.args.timeout),
            ) as response:
                body = await response.text()
                if response.status != 200:
                    hint = ""
                    if response.status == 404:
                        hint = " (Home Assistant has no sign-in endpoint: pass --token)"
                    raise SimulatorError(
                        f"sign-in at {url} failed: HTTP {response.status}: {short(body)}{hint}"
                    )
                data = json.loads(body)
                token = data.get("access_token") if isinstance(data, dict) else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            raise SimulatorError(f"sign-in at {url} failed: {err or type(err).__name__}") from err
        if not isinstance(token, str) or not token:
            raise SimulatorError(f"sign-in at {url} returned no access_token")
        self.out(f"signed in at {url}")
        return token, True

    async def _signout(self, http: aiohttp.ClientSession, token: str) -> None:
        url = auth_url(self.args.url, "signout")
        try:
            async with http.post(
                url,
                headers={"Authorization": f"Bearer {token}"},
                timeout=aiohttp.ClientTimeout(total=min(self.args.timeout, 15.0)),
            ) as response:
                if response.status == 200:
                    self.out("signed out (token revoked)")
                else:
                    self.out(f"warning: sign-out returned HTTP {response.status}")
        except (aiohttp.ClientError, TimeoutError) as err:
            self.out(f"warning: sign-out failed: {err or type(err).__name__}")

    async def _connected(
        self, http: aiohttp.ClientSession, token: str, steps: Sequence[Step] | None
    ) -> int:
        args = self.args
        url = URL(args.url).update_query(client_id=args.client_id, session_id=args.session_id)
        try:
            ws = await http.ws_connect(
                url,
                headers={"Authorization": f"Bearer {token}"},
                timeout=aiohttp.ClientWSTimeout(ws_close=5.0),
                max_msg_size=4 * 1024 * 1024,
            )
        except aiohttp.WSServerHandshakeError as err:
            raise SimulatorError(
                f"WebSocket upgrade at {args.url} refused: HTTP {err.status} {err.message}"
            ) from err
        except (aiohttp.ClientError, TimeoutError) as err:
            raise SimulatorError(
                f"cannot connect to {args.url}: {err or type(err).__name__}"
            ) from err
        reader = asyncio.create_task(self.inbox.read(ws))
        try:
            if not await self.inbox.wait_until(
                lambda: self.inbox.first("ready") is not None, args.timeout
            ):
                raise SimulatorError(self._no_ready())
            ready = self.inbox.first("ready") or {}
            self.out(
                f"connected: client_id={ready.get('client_id')} "
                f"session_id={ready.get('session_id')} model={ready.get('model')} "
                f"detector_mode={ready.get('detector_mode')}"
            )
            if steps is None:
                await self._scenario(ws, ready)
            else:
                await self._play(ws, steps)
        finally:
            if not ws.closed:
                await ws.close()
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        return self._report()

    def _no_ready(self) -> str:
        if self.inbox.closed:
            return f"the server closed the socket before 'ready' ({self.inbox.closed})"
        return f"no 'ready' frame within {self.args.timeout:g} s"

    # -- file mode ---------------------------------------------------------------------------

    async def _send(self, ws: aiohttp.ClientWebSocketResponse, step: Send) -> None:
        frame: dict[str, Any] = {
            "type": "transcript",
            "event_id": step.event_id,
            "text": step.text,
            "is_final": step.is_final,
        }
        if self.args.language:
            frame["language"] = self.args.language
        label = f"line {step.line}"
        self.inbox.labels[step.event_id] = label
        kind = "FINAL" if step.is_final else "PARTIAL"
        self.out(f"-> {label} {kind}: {short(step.text)}")
        if self.inbox.closed is not None:
            raise SimulatorError(f"the server closed the socket ({self.inbox.closed})")
        try:
            await ws.send_json(frame)
        except (aiohttp.ClientError, ConnectionError, RuntimeError) as err:
            raise SimulatorError(f"sending failed: {err or type(err).__name__}") from err
        # Waiting for each acknowledgement keeps the conversation in order and paced.
        if not await self.inbox.wait_until(
            lambda: step.event_id in self.inbox.acks, self.args.timeout
        ):
            if self.inbox.closed is not None:
                raise SimulatorError(f"the server closed the socket ({self.inbox.closed})")
            self.out(f"  warning: no acknowledgement for {label} within {self.args.timeout:g} s")

    async def _play(self, ws: aiohttp.ClientWebSocketResponse, steps: Sequence[Step]) -> None:
        for step in steps:
            if isinstance(step, Send):
                await self._send(ws, step)
            elif isinstance(step, Wait):
                self.out(f"   line {step.line} WAIT {step.seconds:g} s")
                await asyncio.sleep(step.seconds)
            else:
                outcome = await self._check(step)
                self.outcomes.append(outcome)
                verdict = "PASS" if outcome.passed else "FAIL"
                self.out(f"{verdict} {outcome.label} — {outcome.detail}")

    async def _check(self, expect: Expect) -> Outcome:
        inbox, timeout = self.inbox, self.args.timeout
        event_id = expect.target.event_id
        label = f"line {expect.line} {expect.label} (for line {expect.target.line})"
        if not await inbox.wait_until(lambda: event_id in inbox.acks, timeout):
            why = f"socket closed ({inbox.closed})" if inbox.closed else f"within {timeout:g} s"
            return Outcome(label, False, f"no acknowledgement: {why}")
        ack = inbox.acks[event_id]
        triggered = ack.get("triggered") is True
        may_follow = (
            triggered
            or ack.get("evaluation_queued") is True
            or ack.get("insight_may_follow") is True
        )
        ack_text = f"ack triggered={str(ack.get('triggered')).lower()} reason={ack.get('reason')}"

        def insights() -> list[dict[str, Any]]:
            return inbox.insights.get(event_id, [])

        def describe(frames: list[dict[str, Any]]) -> str:
            return "; ".join(
                f"insight ({f.get('intent')}, {f.get('source')}): {short(str(f.get('text')), 160)}"
                for f in frames
            )

        if expect.insight:
            phrase = (expect.phrase or "").casefold()

            def matching() -> list[dict[str, Any]]:
                return [i for i in insights() if phrase in str(i.get("text", "")).casefold()]

            if not insights() and may_follow:
                # One transcript gets one card: the first insight (or error) decides.
                await inbox.wait_until(
                    lambda: bool(insights()) or event_id in inbox.errors, timeout
                )
            if found := matching():
                return Outcome(label, True, describe(found[:1]))
            if event_id in inbox.errors:
                error = inbox.errors[event_id][0]
                return Outcome(
                    label,
                    False,
                    f"{ack_text}, then error {error.get('code')}: {error.get('message')}",
                )
            if insights():
                return Outcome(
                    label,
                    False,
                    f"no insight contains {expect.phrase!r}; got {describe(insights())}",
                )
            if not may_follow:
                return Outcome(label, False, f"{ack_text}: no insight may follow")
            if inbox.closed:
                return Outcome(label, False, f"{ack_text}; socket closed ({inbox.closed})")
            return Outcome(label, False, f"{ack_text}; no insight within {timeout:g} s")

        if may_follow and not insights():
            # An evaluation may still be running: give it time to prove us wrong.
            wait = timeout if triggered else self.args.grace
            await inbox.wait_until(lambda: bool(insights()) or event_id in inbox.errors, wait)
        if insights():
            return Outcome(label, False, f"{ack_text}; {describe(insights())}")
        if triggered:
            if event_id in inbox.errors:
                # No card came because the server could not make one (the model is down, say):
                # the script expected none, but the server wanted to show one.
                error = inbox.errors[event_id][0]
                return Outcome(
                    label,
                    False,
                    f"{ack_text}: no card was expected, but the server tried to make one"
                    f" (error {error.get('code')}: {error.get('message')})",
                )
            return Outcome(label, False, f"{ack_text}: no card was expected, but one was promised")
        return Outcome(label, True, f"{ack_text}, no insight")

    # -- scenario mode -----------------------------------------------------------------------

    async def _scenario(self, ws: aiohttp.ClientWebSocketResponse, ready: dict[str, Any]) -> None:
        args, inbox = self.args, self.inbox

        def record(label: str, passed: bool, detail: str) -> None:
            self.outcomes.append(Outcome(label, passed, detail))
            self.out(f"{'PASS' if passed else 'FAIL'} {label} — {detail}")

        expected = (args.client_id, args.session_id)
        got = (ready.get("client_id"), ready.get("session_id"))
        record("ready", got == expected, f"client_id={got[0]} session_id={got[1]}")

        self.out("-> ping")
        pongs = sum(1 for f in inbox.frames if f.get("type") == "pong")
        await ws.send_json({"type": "ping"})
        ok = await inbox.wait_until(
            lambda: sum(1 for f in inbox.frames if f.get("type") == "pong") > pongs, args.timeout
        )
        record("ping/pong", ok, "pong received" if ok else f"no pong within {args.timeout:g} s")

        statement = Send(
            line=0,
            text="We should probably leave for the airport at seven.",
            is_final=True,
            event_id=f"sim-scenario-{uuid.uuid4().hex[:8]}-final",
        )
        await self._send(ws, statement)
        ack = inbox.acks.get(statement.event_id)
        record(
            "final acknowledged",
            ack is not None and ack.get("processed") is True,
            f"reason={ack.get('reason')}" if ack else "no acknowledgement",
        )

        question = Send(
            line=0,
            text="What time should we arrive at the airport?",
            is_final=True,
            event_id=f"sim-scenario-{uuid.uuid4().hex[:8]}-question",
        )
        await self._send(ws, question)
        outcome = await self._check(Expect(line=0, insight=True, phrase=None, target=question))
        record("question answered by an insight", outcome.passed, outcome.detail)
        cards = inbox.insights.get(question.event_id, [])
        if not cards:
            record("feedback saved", False, "no insight to give feedback on")
            return
        insight_id = cards[0].get("insight_id")
        self.out("-> feedback useful=true")
        await ws.send_json({"type": "feedback", "insight_id": insight_id, "useful": True})
        ok = await inbox.wait_until(
            lambda: any(
                f.get("type") == "feedback_saved" and f.get("insight_id") == insight_id
                for f in inbox.frames
            ),
            args.timeout,
        )
        record("feedback saved", ok, f"insight_id={insight_id}")

    # -- report ------------------------------------------------------------------------------

    def _report(self) -> int:
        passed = sum(1 for o in self.outcomes if o.passed)
        failed = len(self.outcomes) - passed
        cards = sum(len(v) for v in self.inbox.insights.values())
        self.out("")
        self.out(
            f"{len(self.outcomes)} expectations: {passed} passed, {failed} failed; "
            f"{cards} insights received"
        )
        for outcome in self.outcomes:
            if not outcome.passed:
                self.out(f"  FAIL {outcome.label} — {outcome.detail}")
        return EXIT_OK if failed == 0 else EXIT_FAILED


# -- command line ------------------------------------------------------------------------------


def _positive_seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= 3600:  # also rejects nan and inf
        raise argparse.ArgumentTypeError(f"must be seconds between 0 and 3600, got {value!r}")
    return seconds


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse the command line; defaults come from the environment like the server's."""
    env = os.environ
    parser = argparse.ArgumentParser(
        prog="simulator.py",
        description="Play a conversation file (or the built-in scenario) against HomeBuddy "
        "Proactive over its WebSocket and check the expectations.",
    )
    parser.add_argument(
        "mode",
        nargs="?",
        choices=("file", "scenario"),
        default="file",
        help="file: play --file (default); scenario: built-in protocol smoke test",
    )
    parser.add_argument(
        "--file",
        type=Path,
        default=Path(env.get("SIMULATOR_TEXT_FILE") or DEFAULT_FILE),
        help="conversation file (env SIMULATOR_TEXT_FILE; default simulator-input/default.txt)",
    )
    parser.add_argument(
        "--url",
        default=env.get("SIMULATOR_WS_URL") or DEFAULT_URL,
        help=f"WebSocket URL (env SIMULATOR_WS_URL; default {DEFAULT_URL})",
    )
    parser.add_argument(
        "--language",
        default=env.get("SIMULATOR_LANGUAGE") or None,
        help="language code sent with every transcript, e.g. en, el, fr (env SIMULATOR_LANGUAGE)",
    )
    parser.add_argument(
        "--client-id",
        default=env.get("SIMULATOR_CLIENT_ID") or "homebuddy-simulator",
        help="client_id (scopes long-term memory)",
    )
    parser.add_argument(
        "--session-id", default=None, help="session_id (default: a fresh one per run)"
    )
    parser.add_argument(
        "--username",
        default=env.get("AUTH_USERNAME", "homebuddy"),
        help="sign-in username (env AUTH_USERNAME; default homebuddy)",
    )
    parser.add_argument(
        "--password",
        default=env.get("AUTH_PASSWORD", "123456"),
        help="sign-in password (env AUTH_PASSWORD; default 123456)",
    )
    parser.add_argument(
        "--token",
        default=env.get("ACCESS_TOKEN") or None,
        help="an already-issued token (env ACCESS_TOKEN); used as is and never revoked",
    )
    parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT,
        help=f"seconds to wait for an acknowledgement or insight (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--grace",
        type=_positive_seconds,
        default=DEFAULT_GRACE,
        help="seconds EXPECT_NO_INSIGHT waits after a queued evaluation "
        f"(default {DEFAULT_GRACE:g})",
    )
    args = parser.parse_args(argv)
    if args.session_id is None:
        args.session_id = f"sim-{uuid.uuid4().hex[:12]}"
    if URL(args.url).scheme not in ("ws", "wss"):
        parser.error(f"--url must be a ws:// or wss:// URL, got {args.url!r}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulator; return the exit status."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace", line_buffering=True)
    args = parse_args(argv)
    try:
        steps: list[Step] | None = None
        if args.mode == "file":
            try:
                content = args.file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as err:
                raise SimulatorError(f"cannot read {args.file}: {err}") from err
            steps = parse_script(content, str(args.file))
            print(f"playing {args.file} ({sum(isinstance(s, Expect) for s in steps)} expectations)")
        return asyncio.run(Simulator(args).run(steps))
    except SimulatorError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
