"""The standalone /v1/memories endpoints over every store, and the server's maintenance task."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.standalone.server import API_KEY, create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.fake_ollama import FakeOllama
from tests.waiting import until

from .conftest import MODEL, PASSWORD, USERNAME, bearer

type Client = TestClient[web.Request, web.Application]
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
async def client(socket_enabled: None, tmp_path: Path) -> AsyncIterator[Client]:
    """The standalone app in process, on a fixed clock."""
    async with FakeOllama(models=[MODEL]) as fake:
        base = ServerSettings.from_env(
            {
                "OLLAMA_BASE_URL": fake.url,
                "OLLAMA_MODEL": MODEL,
                "DETECTOR_MODE": "heuristic",
                "AUTH_PASSWORD": PASSWORD,
            }
        )
        app = create_app(replace(base, database_path=tmp_path / "homebuddy.db"), clock=lambda: NOW)
        async with TestClient(TestServer(app, host="127.0.0.1")) as test_client:
            yield test_client


async def headers(client: Client) -> dict[str, str]:
    """Sign in; return the bearer header."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    return bearer((await response.json())["access_token"])


async def test_every_store_is_listed_and_deletable(client: Client) -> None:
    """Episodes, feelings, procedures and turns are visible and deletable, not only facts."""
    auth = await headers(client)
    memory = client.app[API_KEY].runtime.engine.memory
    fact = {"client_id": "g1", "kind": "fact", "content": "Léa is 7"}
    assert (await client.post("/v1/memories", json=fact, headers=auth)).status == 201
    await memory.remember_feeling("g1", -0.5, "Worried about the hospital")
    await memory.remember_procedure("g1", "Reset the boiler", ["Hold reset"])
    await memory.observe_turn("g1", "s1", "We talked about the garden")
    await memory.close_episode("g1", "s1")

    response = await client.get("/v1/memories", params={"client_id": "g1"}, headers=auth)
    listed = (await response.json())["memories"]
    assert sorted(m["store"] for m in listed) == [
        "affective",
        "episodic",
        "factual",
        "procedural",
        "short_term",
    ]
    response = await client.get(
        "/v1/memories", params={"client_id": "g1", "store": "episodic"}, headers=auth
    )
    [episode] = (await response.json())["memories"]
    assert episode["summary"] == "We talked about the garden."

    for entry in listed:
        response = await client.delete(
            f"/v1/memories/{entry['id']}", params={"store": entry["store"]}, headers=auth
        )
        assert response.status == 200, entry
    response = await client.get("/v1/memories", params={"client_id": "g1"}, headers=auth)
    assert (await response.json())["memories"] == []


async def test_every_long_term_store_can_be_corrected(client: Client) -> None:
    """PATCH with ?store= corrects procedures, feelings and episodes."""
    auth = await headers(client)
    memory = client.app[API_KEY].runtime.engine.memory
    procedure = await memory.remember_procedure("g1", "Reset the boiler", ["Hold reset"])
    feeling = await memory.remember_feeling("g1", -0.5, "Worried about the hospital")
    await memory.observe_turn("g1", "s1", "We talked about the garden")
    await memory.close_episode("g1", "s1")
    [episode] = await memory.overview("g1", "episodic")

    changes = (
        ("procedural", procedure.id, {"steps": ["Open the panel", "Hold reset"]}),
        ("affective", feeling.id, {"content": "Calm about the dentist", "sentiment": 0.2}),
        ("episodic", episode["id"], {"content": "Roses and gloves.", "topics": ["roses"]}),
    )
    for store, memory_id, change in changes:
        response = await client.patch(
            f"/v1/memories/{memory_id}",
            params={"store": store, "client_id": "g1"},
            json=change,
            headers=auth,
        )
        assert response.status == 200, await response.text()
        assert (await response.json())["store"] == store
    listed = {
        m["store"]: m
        for m in (
            await (
                await client.get("/v1/memories", params={"client_id": "g1"}, headers=auth)
            ).json()
        )["memories"]
    }
    assert listed["procedural"]["steps"] == ["Open the panel", "Hold reset"]
    assert (listed["affective"]["context"], listed["affective"]["sentiment"]) == (
        "Calm about the dentist",
        0.2,
    )
    assert (listed["episodic"]["summary"], listed["episodic"]["topics"]) == (
        "Roses and gloves.",
        ["roses"],
    )
    found = await memory.retrieve("g1", "dentist gloves panel", 5)
    assert {r.kind for r in found} == {"procedure", "feeling", "episode"}


async def test_a_facts_history_shows_the_users_edit(client: Client) -> None:
    """GET /v1/memories/{id}/history: added by the API, edited by the user; 404 otherwise."""
    auth = await headers(client)
    fact = {"client_id": "g1", "kind": "person", "content": "My doctor is Dr Dupont"}
    added = await (await client.post("/v1/memories", json=fact, headers=auth)).json()
    response = await client.patch(
        f"/v1/memories/{added['id']}", json={"content": "My doctor is Dr Martin"}, headers=auth
    )
    assert response.status == 200
    response = await client.get(f"/v1/memories/{added['id']}/history", headers=auth)
    assert response.status == 200
    history = await response.json()
    assert history["memory"]["content"] == "My doctor is Dr Martin"
    assert [
        (e["action"], e["source"], e["old_content"], e["new_content"]) for e in history["history"]
    ] == [
        ("added", "api", None, "My doctor is Dr Dupont"),
        ("edited", "user", "My doctor is Dr Dupont", "My doctor is Dr Martin"),
    ]
    for params, status in (({"client_id": "g2"}, 404), ({}, 200)):
        response = await client.get(
            f"/v1/memories/{added['id']}/history", params=params, headers=auth
        )
        assert response.status == status
    assert (await client.get("/v1/memories/999/history", headers=auth)).status == 404
    assert (await client.get("/v1/memories/x/history", headers=auth)).status == 400
    assert (await client.get(f"/v1/memories/{added['id']}/history")).status == 401
    response = await client.get(
        "/v1/memories", params={"client_id": "g1", "include_superseded": "maybe"}, headers=auth
    )
    assert response.status == 400


async def test_an_unknown_store_is_a_bad_request(client: Client) -> None:
    """A store that does not exist is named in a 400."""
    auth = await headers(client)
    response = await client.get(
        "/v1/memories", params={"client_id": "g1", "store": "dreams"}, headers=auth
    )
    assert response.status == 400
    assert "store must be one of" in (await response.json())["detail"]
    response = await client.delete("/v1/memories/1", params={"store": "dreams"}, headers=auth)
    assert response.status == 400


async def test_the_server_runs_a_missed_maintenance_at_start(client: Client) -> None:
    """The server's own task runs the daily maintenance when it is due."""
    memory = client.app[API_KEY].runtime.engine.memory
    # The task starts with the app; its first run takes milliseconds.
    await until(memory.last_maintenance, what="the first maintenance")
    assert await memory.last_maintenance() == NOW
