"""scripts/simulator.py against the real server: every included conversation, the scenario,
failures, file errors and token handling."""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from pathlib import Path
from types import ModuleType

import aiohttp
import pytest

from .conftest import (
    PASSWORD,
    REPO_ROOT,
    USERNAME,
    ServerFactory,
    ServerProcess,
    bearer,
    free_port,
    run_simulator,
    sign_in,
)

INPUT_DIR = REPO_ROOT / "simulator-input"
LANGUAGES = {
    "real-test-regression-greek.txt": "el",
    "french-older-person-day.txt": "fr",
    "spanish-family-phone-call.txt": "es",
    "german-doctor-visit.txt": "de",
    "greek-english-tech-support.txt": "el",
}
CREDENTIALS = {"AUTH_USERNAME": USERNAME, "AUTH_PASSWORD": PASSWORD}


def expectation_count(path: Path) -> int:
    """How many EXPECT lines a conversation file has."""
    return sum(
        1
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("EXPECT_")
    )


def signed_in_tokens(server: ServerProcess) -> int:
    """How many issued tokens the server's database still holds."""
    with sqlite3.connect(server.env["DATABASE_PATH"]) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM auth_sessions").fetchone()
    return int(count)


def test_every_seed_conversation_is_included() -> None:
    """The four conversations exist and each checks something."""
    names = {p.name for p in INPUT_DIR.glob("*.txt")}
    assert {
        "default.txt",
        "real-test-regression-greek.txt",
        "technical-terms.txt",
        "french-older-person-day.txt",
    } <= names
    for name in names:
        assert expectation_count(INPUT_DIR / name) >= 2, name


@pytest.mark.parametrize("path", sorted(INPUT_DIR.glob("*.txt")), ids=lambda p: p.name)
async def test_conversation_files_pass(server: ServerProcess, path: Path) -> None:
    """Each included conversation passes against the server, and the token is revoked."""
    tokens_before = signed_in_tokens(server)
    language = LANGUAGES.get(path.name)
    code, output = await run_simulator(
        "file",
        "--file",
        str(path),
        "--url",
        server.ws_url,
        "--timeout",
        "10",
        *(("--language", language) if language else ()),
        env=CREDENTIALS,
    )
    assert code == 0, output
    assert output.count("PASS line") == expectation_count(path), output
    assert "FAIL" not in output
    assert "signed out (token revoked)" in output
    assert signed_in_tokens(server) == tokens_before


async def test_default_file_in_conversate_mode(start_server: ServerFactory) -> None:
    """The default file, from SIMULATOR_TEXT_FILE, also holds in the default detector mode."""
    server = await start_server(DETECTOR_MODE="conversate")
    code, output = await run_simulator(
        "--url",
        server.ws_url,
        "--timeout",
        "10",
        env={**CREDENTIALS, "SIMULATOR_TEXT_FILE": str(INPUT_DIR / "default.txt")},
    )
    assert code == 0, output
    assert "detector_mode=conversate" in output


async def test_scenario(server: ServerProcess) -> None:
    """The built-in smoke test: ready, ping/pong, a final, a question, feedback."""
    code, output = await run_simulator(
        "scenario", "--url", server.ws_url, "--timeout", "10", env=CREDENTIALS
    )
    assert code == 0, output
    for check in ("ready", "ping/pong", "final acknowledged", "question answered", "feedback"):
        assert f"PASS {check}" in output, output


async def test_a_card_the_server_could_not_make_is_named_as_such(
    start_server: ServerFactory, tmp_path: Path
) -> None:
    """With the model down, a question expected to get no card fails with the server's error."""
    server = await start_server(OLLAMA_BASE_URL=f"http://127.0.0.1:{free_port()}")
    script = tmp_path / "down.txt"
    script.write_text("FINAL: Where is the station?\nEXPECT_NO_INSIGHT:\n", encoding="utf-8")
    code, output = await run_simulator(
        "--file", str(script), "--url", server.ws_url, "--timeout", "10", env=CREDENTIALS
    )
    assert code == 1, output
    assert "FAIL line 2 EXPECT_NO_INSIGHT (for line 1)" in output, output
    assert "no card was expected, but the server tried to make one (error llm_unavailable" in (
        output
    ), output


async def test_failed_expectation_exits_1_with_line_numbers(
    server: ServerProcess, tmp_path: Path
) -> None:
    """A failed expectation is reported with its line and what arrived; exit status 1."""
    tokens_before = signed_in_tokens(server)
    script = tmp_path / "fail.txt"
    script.write_text(
        "# heuristic mode never turns a plain statement into a card\n"
        "FINAL: The weather is lovely today.\n"
        "EXPECT_INSIGHT:\n"
        "FINAL: Where is the station?\n"
        "EXPECT_INSIGHT: no such phrase anywhere\n"
        "EXPECT_INSIGHT: fake model answer\n",
        encoding="utf-8",
    )
    code, output = await run_simulator(
        "--file", str(script), "--url", server.ws_url, "--timeout", "5", env=CREDENTIALS
    )
    assert code == 1, output
    assert "FAIL line 3 EXPECT_INSIGHT (for line 2)" in output
    assert "triggered=false" in output
    assert "FAIL line 5 EXPECT_INSIGHT: no such phrase anywhere (for line 4)" in output
    assert "PASS line 6 EXPECT_INSIGHT: fake model answer (for line 4)" in output
    assert "3 expectations: 1 passed, 2 failed" in output
    assert "signed out (token revoked)" in output
    assert signed_in_tokens(server) == tokens_before


def load_simulator() -> ModuleType:
    """scripts/simulator.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "simulator", REPO_ROOT / "scripts" / "simulator.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["simulator"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("FINAL: hello\nWAIT: 301\n", "f.txt:2: WAIT: needs a number of seconds from 0 to 300"),
        ("FINAL: hello\n\nWAIT: soon\n", "f.txt:3: WAIT: needs a number"),
        ("WAIT: -1\n", "f.txt:1: WAIT: needs"),
        ("WAIT: nan\n", "f.txt:1: WAIT: needs"),
        ("# nothing yet\nEXPECT_INSIGHT:\n", "f.txt:2: EXPECT_INSIGHT: comes before any"),
        ("FINAL:\n", "f.txt:1: FINAL: needs the transcript text"),
        ("PARTIAL:   \n", "f.txt:1: PARTIAL: needs the transcript text"),
        ("hello\nEXPECT_NO_INSIGHT: maybe\n", "f.txt:2: EXPECT_NO_INSIGHT: takes no phrase"),
        ("# only a comment\n\n", "f.txt: contains no transcript"),
    ],
)
def test_file_errors_name_the_line(content: str, message: str) -> None:
    """Mistakes in a conversation file are reported with their line number."""
    simulator = load_simulator()
    with pytest.raises(simulator.SimulatorError) as err:
        simulator.parse_script(content, "f.txt")
    assert str(err.value).startswith(message)


def test_file_syntax() -> None:
    """The seed's syntax: plain text is a final, expectations bind to the last transcript."""
    simulator = load_simulator()
    steps = simulator.parse_script(
        "# comment\nHello there\nPARTIAL: We sh\nFINAL: We should go.\nWAIT: 0.25\n"
        "EXPECT_INSIGHT:  Airport Time \nEXPECT_NO_INSIGHT:\n",
        "f.txt",
    )
    assert [type(step).__name__ for step in steps] == [
        "Send",
        "Send",
        "Send",
        "Wait",
        "Expect",
        "Expect",
    ]
    hello, partial, final, wait, expect, expect_none = steps
    assert (hello.line, hello.text, hello.is_final) == (2, "Hello there", True)
    assert (partial.text, partial.is_final) == ("We sh", False)
    assert wait.seconds == 0.25
    assert (expect.insight, expect.phrase, expect.target) == (True, "Airport Time", final)
    assert (expect_none.insight, expect_none.phrase, expect_none.target) == (False, None, final)
    assert len({hello.event_id, partial.event_id, final.event_id}) == 3


def test_auth_urls_follow_the_websocket_url() -> None:
    """Sign-in and sign-out live beside the WebSocket path, over http or https."""
    simulator = load_simulator()
    assert simulator.auth_url("ws://pi:18743/v1/ws", "signin") == "http://pi:18743/v1/auth/signin"
    assert (
        simulator.auth_url("wss://example.org/homebuddy/v1/ws?x=1", "signout")
        == "https://example.org/homebuddy/v1/auth/signout"
    )


@pytest.mark.e2e  # scripts/simulator.py as a subprocess
async def test_file_error_exits_2(tmp_path: Path, socket_enabled: None) -> None:
    """From the command line: the line is named and nothing connects; exit status 2."""
    script = tmp_path / "bad.txt"
    script.write_text("FINAL: hello\nWAIT: 301\n", encoding="utf-8")
    code, output = await run_simulator(
        "--file", str(script), "--url", f"ws://127.0.0.1:{free_port()}/v1/ws"
    )
    assert code == 2, output
    assert (
        output.strip()
        == f"error: {script}:2: WAIT: needs a number of seconds from 0 to 300, got '301'"
    )


@pytest.mark.e2e  # scripts/simulator.py as a subprocess
async def test_unreachable_server_exits_2(socket_enabled: None) -> None:
    """No server: a clear connection error and exit status 2."""
    url = f"ws://127.0.0.1:{free_port()}/v1/ws"
    code, output = await run_simulator("scenario", "--url", url, "--timeout", "5")
    assert code == 2, output
    assert "sign-in at http://127.0.0.1:" in output
    assert "/v1/auth/signin failed" in output


async def test_wrong_password_exits_2(server: ServerProcess) -> None:
    """A refused sign-in is a usage error, not a failed expectation."""
    code, output = await run_simulator(
        "scenario", "--url", server.ws_url, env={"AUTH_USERNAME": USERNAME, "AUTH_PASSWORD": "x"}
    )
    assert code == 2, output
    assert "HTTP 401" in output


async def test_given_token_is_used_and_not_revoked(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """--token (here ACCESS_TOKEN) skips sign-in and the token stays valid afterwards."""
    token = await sign_in(http, server)
    code, output = await run_simulator(
        "scenario",
        "--url",
        server.ws_url,
        "--timeout",
        "10",
        env={"ACCESS_TOKEN": token, "AUTH_PASSWORD": "wrong-on-purpose"},
    )
    assert code == 0, output
    assert "signed in" not in output
    async with http.get(
        f"{server.url}/v1/memories", params={"client_id": "c"}, headers=bearer(token)
    ) as response:
        assert response.status == 200
