"""The standalone server's HTTP API, exercised over real HTTP against the subprocess."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from custom_components.homebuddy_proactive.engine.standalone.server import create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, PASSWORD, USERNAME, ServerFactory, ServerProcess, bearer, sign_in


async def test_health_and_ready(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """/health says the process is up; /ready names the model once Ollama has it."""
    async with http.get(f"{server.url}/health") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ok"}
    async with http.get(f"{server.url}/ready") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ready", "model": MODEL}


async def test_ready_follows_ollama(
    http: aiohttp.ClientSession, start_server: ServerFactory, fake_ollama: FakeOllama
) -> None:
    """/ready is 503 with a reason while Ollama fails, lacks the model or is down."""
    server = await start_server()

    async def ready() -> tuple[int, dict[str, str]]:
        async with http.get(f"{server.url}/ready") as response:
            return response.status, await response.json()

    assert await ready() == (200, {"status": "ready", "model": MODEL})
    fake_ollama.tags_status = 500
    status, body = await ready()
    assert status == 503
    assert body["status"] == "not_ready"
    assert body["model"] == MODEL
    assert body["reason"] == "Ollama is unreachable: HTTP 500"
    fake_ollama.tags_status = 200
    fake_ollama.models = ["mistral:7b"]
    status, body = await ready()
    assert status == 503
    assert body["reason"] == f"model {MODEL!r} is not available on the Ollama server"
    fake_ollama.models = [f"{MODEL}", "mistral:7b"]
    assert (await ready())[0] == 200
    await fake_ollama.stop()
    status, body = await ready()
    assert status == 503
    assert body["reason"] == "Ollama is unreachable: cannot connect"
    async with http.get(f"{server.url}/health") as response:
        assert response.status == 200


async def test_auth_unconfigured(http: aiohttp.ClientSession, start_server: ServerFactory) -> None:
    """An explicitly empty password: /ready 503, sign-in 503, protected endpoints 503."""
    server = await start_server(AUTH_PASSWORD="")
    async with http.get(f"{server.url}/health") as response:
        assert response.status == 200
    async with http.get(f"{server.url}/ready") as response:
        assert response.status == 503
        body = await response.json()
    assert body["status"] == "not_ready"
    assert "authentication is not configured" in body["reason"]
    async with http.post(
        f"{server.url}/v1/auth/signin", json={"username": USERNAME, "password": ""}
    ) as response:
        assert response.status == 503
    async with http.get(
        f"{server.url}/v1/memories", params={"client_id": "c"}, headers=bearer("x")
    ) as response:
        assert response.status == 503


async def test_signin_and_signout(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """Sign-in issues independent expiring tokens; sign-out revokes only its own."""
    before = datetime.now(UTC)
    async with http.post(
        f"{server.url}/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    ) as response:
        assert response.status == 200
        body = await response.json()
    assert set(body) == {"access_token", "token_type", "expires_in", "expires_at"}
    assert body["token_type"] == "bearer"
    assert body["expires_in"] == 86400
    assert len(body["access_token"]) >= 43
    expires_at = datetime.fromisoformat(body["expires_at"])
    assert before + timedelta(seconds=86398) <= expires_at <= before + timedelta(seconds=86402)
    first = body["access_token"]
    with sqlite3.connect(server.env["DATABASE_PATH"]) as db:
        stored = {row[0] for row in db.execute("SELECT token_hash FROM auth_sessions")}
    assert hashlib.sha256(first.encode()).hexdigest() in stored
    assert first not in stored
    second = await sign_in(http, server)
    assert second != first

    list_url = f"{server.url}/v1/memories?client_id=glasses-1"
    async with http.get(list_url, headers=bearer(first)) as response:
        assert response.status == 200
    async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(first)) as response:
        assert response.status == 200
        assert await response.json() == {"signed_out": True}
    async with http.get(list_url, headers=bearer(first)) as response:
        assert response.status == 401
    async with http.post(f"{server.url}/v1/auth/signout", headers=bearer(first)) as response:
        assert response.status == 401
    async with http.get(list_url, headers=bearer(second)) as response:
        assert response.status == 200


async def test_signin_errors_and_rate_limit(
    http: aiohttp.ClientSession, start_server: ServerFactory
) -> None:
    """Malformed bodies get 400, wrong credentials 401; five failures block the address."""
    server = await start_server()
    url = f"{server.url}/v1/auth/signin"
    for body in (
        {"username": USERNAME},
        {"username": USERNAME, "password": 123456},
        ["homebuddy", "123456"],
        "not json",
        {"username": USERNAME, "password": "x" * 2000},
    ):
        kwargs: dict[str, Any] = {"data": body} if isinstance(body, str) else {"json": body}
        async with http.post(url, **kwargs) as response:
            assert response.status == 400, body
            assert (await response.json())["error"] == "bad_request"
    async with http.post(url, json={"username": USERNAME, "password": "x" * 70_000}) as response:
        assert response.status == 413
        assert (await response.json())["error"] == "content_too_large"
    for body in (
        {"username": USERNAME, "password": "wrong"},
        {"username": "admin", "password": PASSWORD},
        {"username": USERNAME.upper(), "password": PASSWORD},
        {"username": USERNAME, "password": PASSWORD + " "},
        {"username": "", "password": ""},
    ):
        async with http.post(url, json=body) as response:
            assert response.status == 401, body
            error = await response.json()
            assert error == {"error": "unauthorized", "detail": "invalid username or password"}
    async with http.post(url, json={"username": USERNAME, "password": PASSWORD}) as response:
        assert response.status == 429
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        assert "try again in" in (await response.json())["detail"]


async def test_protected_endpoints_need_a_valid_bearer_token(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """No header, another scheme, an empty or unknown token: 401 on every protected endpoint."""
    token = await sign_in(http, server)
    for method, path in (
        ("POST", "/v1/auth/signout"),
        ("GET", "/v1/memories?client_id=c"),
        ("POST", "/v1/memories"),
        ("PATCH", "/v1/memories/1"),
        ("DELETE", "/v1/memories/1"),
        ("GET", "/v1/ws?client_id=c&session_id=s"),
    ):
        for headers in (
            {},
            {"Authorization": f"Basic {token}"},
            {"Authorization": "Bearer "},
            {"Authorization": token},
            bearer("not-a-token"),
        ):
            async with http.request(method, f"{server.url}{path}", headers=headers) as response:
                assert response.status == 401, (method, path, headers)
                assert response.headers["WWW-Authenticate"].startswith("Bearer")
                assert (await response.json())["error"] == "unauthorized"


async def test_token_is_never_accepted_in_the_url(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """A token in the query string is refused, even alongside a valid header."""
    token = await sign_in(http, server)
    for parameter in ("access_token", "token", "authorization", "auth"):
        for headers in ({}, bearer(token)):
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await http.ws_connect(
                    f"{server.ws_url}?client_id=c&session_id=s&{parameter}={token}",
                    headers=headers,
                )
            assert err.value.status == 401
            async with http.get(
                f"{server.url}/v1/memories?client_id=c&{parameter}={token}", headers=headers
            ) as response:
                assert response.status == 401
                assert "not accepted in the URL" in (await response.json())["detail"]


async def test_unknown_path_is_a_json_404(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """Unknown routes answer JSON like every other error."""
    async with http.get(f"{server.url}/swagger") as response:
        assert response.status == 404
        assert (await response.json())["error"] == "not_found"
    async with http.put(f"{server.url}/v1/memories") as response:
        assert response.status == 405


async def test_docs_describe_every_route(
    http: aiohttp.ClientSession, server: ServerProcess
) -> None:
    """/docs (as the seed's service had) and /openapi.json list every route, without a token."""
    async with http.get(f"{server.url}/openapi.json") as response:
        assert response.status == 200
        document = await response.json()
    assert document["openapi"].startswith("3.")
    manifest = json.loads(
        (
            Path(__file__).parents[2] / "custom_components/homebuddy_proactive/manifest.json"
        ).read_text()
    )
    assert document["info"]["version"] == manifest["version"]
    served = {
        (method, path) for path, operations in document["paths"].items() for method in operations
    }
    routes = {
        (route.method.lower(), route.resource.canonical)
        for route in create_app(ServerSettings.from_env({})).router.routes()
        if route.method != "HEAD" and route.resource is not None
    }
    assert served == routes - {("get", "/docs"), ("get", "/openapi.json")}
    assert ("post", "/v1/auth/signin") in served
    async with http.get(f"{server.url}/docs") as response:
        assert response.status == 200
        assert response.content_type == "text/html"
        page = await response.text()
    assert "/v1/auth/signin" in page and "/openapi.json" in page
    assert page.count("<tr>") == len(served) + 1


async def test_memories(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """Add, list (scoped by client), delete (optionally scoped) and 404 on a missing one."""
    headers = bearer(await sign_in(http, server))
    url = f"{server.url}/v1/memories"
    async with http.post(
        url,
        json={"client_id": "memories-test", "kind": "preference", "content": "Alex likes tea"},
        headers=headers,
    ) as response:
        assert response.status == 201
        first = await response.json()
    assert first["client_id"] == "memories-test"
    assert first["kind"] == "preference"
    assert first["content"] == "Alex likes tea"
    assert first["importance"] == 0.5
    assert isinstance(first["id"], int)
    async with http.post(
        url,
        json={
            "client_id": "memories-test",
            "kind": "fact",
            "content": "Léa is 7",
            "importance": 0.9,
        },
        headers=headers,
    ) as response:
        assert response.status == 201
        second = await response.json()
    assert second["importance"] == 0.9
    async with http.post(
        url, json={"client_id": "other", "kind": "fact", "content": "secret"}, headers=headers
    ) as response:
        assert response.status == 201

    async with http.get(url, params={"client_id": "memories-test"}, headers=headers) as response:
        assert response.status == 200
        listed = await response.json()
    assert listed["client_id"] == "memories-test"
    assert [m["content"] for m in listed["memories"]] == ["Léa is 7", "Alex likes tea"]

    delete_url = f"{url}/{first['id']}"
    async with http.delete(delete_url, params={"client_id": "other"}, headers=headers) as response:
        assert response.status == 404
    async with http.delete(delete_url, params={"client_id": "memories-test"}, headers=headers) as r:
        assert r.status == 200
        assert await r.json() == {"deleted": True, "id": first["id"]}
    async with http.delete(delete_url, headers=headers) as response:
        assert response.status == 404
        assert "does not exist" in (await response.json())["detail"]
    async with http.get(url, params={"client_id": "memories-test"}, headers=headers) as response:
        assert [m["content"] for m in (await response.json())["memories"]] == ["Léa is 7"]


async def test_memory_corrections(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """PATCH corrects a memory (scoped by client when asked); 404 unknown, 400 invalid."""
    headers = bearer(await sign_in(http, server))
    url = f"{server.url}/v1/memories"
    async with http.post(
        url,
        json={"client_id": "corrections-test", "kind": "fact", "content": "The plumber is Jean"},
        headers=headers,
    ) as response:
        added = await response.json()
    memory_url = f"{url}/{added['id']}"
    change = {"content": "The electrician is Marcel", "kind": "person", "importance": 0.8}
    async with http.patch(
        memory_url, params={"client_id": "corrections-test"}, json=change, headers=headers
    ) as response:
        assert response.status == 200, await response.text()
        corrected = await response.json()
    assert corrected == {"store": "factual", **added, **change}
    async with http.get(url, params={"client_id": "corrections-test"}, headers=headers) as r:
        assert (await r.json())["memories"] == [corrected]

    not_found: tuple[tuple[str, dict[str, str]], ...] = (
        (memory_url, {"client_id": "someone-else"}),
        (memory_url, {"store": "affective"}),
        (f"{url}/987654321", {}),
    )
    for target, params in not_found:
        async with http.patch(
            target, params=params, json={"content": "x"}, headers=headers
        ) as response:
            assert response.status == 404, (target, params)
            assert (await response.json())["error"] == "not_found"
    bad: tuple[tuple[object, dict[str, str], str], ...] = (
        ({"content": "  "}, {}, "content must not be empty"),
        ({"importance": "high"}, {}, "importance must be between 0 and 1"),
        ({"client_id": "other"}, {}, "no editable field 'client_id'"),
        ({}, {}, "nothing to change"),
        (["content"], {}, "JSON object"),
        ({"content": "x"}, {"store": "short_term"}, "only forgotten"),
        ({"content": "x"}, {"store": "dreams"}, "store must be one of"),
        ({"content": "x"}, {"client_id": "x" * 200}, "at most 128"),
    )
    for body, params, message in bad:
        async with http.patch(memory_url, params=params, json=body, headers=headers) as response:
            assert response.status == 400, body
            error = await response.json()
        assert error["error"] == "bad_request"
        assert message in error["detail"], (body, error)
    async with http.patch(memory_url, data="{not json", headers=headers) as response:
        assert response.status == 400
    for bad_id in ("abc", "0", "-1"):
        async with http.patch(f"{url}/{bad_id}", json={"content": "x"}, headers=headers) as r:
            assert r.status == 400, bad_id
    async with http.get(url, params={"client_id": "corrections-test"}, headers=headers) as r:
        assert (await r.json())["memories"] == [corrected]


MEMORY_BAD_INPUT: tuple[tuple[object, str], ...] = (
    ({"kind": "fact", "content": "x"}, "client_id is required"),
    ({"client_id": "c", "content": "x"}, "kind and content"),
    ({"client_id": "c", "kind": "opinion", "content": "x"}, "kind must be one of"),
    ({"client_id": "c", "kind": "fact", "content": "  "}, "content must not be empty"),
    ({"client_id": "c", "kind": "fact", "content": "x" * 2001}, "at most"),
    ({"client_id": "c", "kind": "fact", "content": "x", "importance": 2}, "importance"),
    ({"client_id": "c", "kind": "fact", "content": "x", "importance": "hi"}, "importance"),
    ({"client_id": "c", "kind": "fact", "content": "x", "importance": True}, "importance"),
    ({"client_id": 7, "kind": "fact", "content": "x"}, "client_id must be a string"),
    ({"client_id": "x" * 200, "kind": "fact", "content": "x"}, "at most 128"),
    (["fact"], "JSON object"),
)


async def test_memory_bad_input(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """Bad memory requests get 400 with a message saying what is wrong."""
    headers = bearer(await sign_in(http, server))
    for body, message in MEMORY_BAD_INPUT:
        async with http.post(f"{server.url}/v1/memories", json=body, headers=headers) as response:
            assert response.status == 400, body
            error = await response.json()
        assert error["error"] == "bad_request"
        assert message in error["detail"], (body, error)


async def test_memory_bad_queries(http: aiohttp.ClientSession, server: ServerProcess) -> None:
    """A list without client_id, a non-numeric id, or a non-JSON body: 400."""
    headers = bearer(await sign_in(http, server))
    async with http.get(f"{server.url}/v1/memories", headers=headers) as response:
        assert response.status == 400
        assert "client_id is required" in (await response.json())["detail"]
    for bad in ("abc", "0", "-1", "1.5"):
        async with http.delete(f"{server.url}/v1/memories/{bad}", headers=headers) as response:
            assert response.status == 400, bad
    async with http.post(
        f"{server.url}/v1/memories", data="{not json", headers=headers
    ) as response:
        assert response.status == 400
        assert (await response.json())["detail"] == "the body must be JSON"


async def test_data_survives_a_restart(
    http: aiohttp.ClientSession, start_server: ServerFactory
) -> None:
    """Memories and issued tokens are in SQLite: both survive a restart."""
    server = await start_server()
    token = await sign_in(http, server)
    for content in ("Takes the train at 8", "Allergic to peanuts"):
        async with http.post(
            f"{server.url}/v1/memories",
            json={"client_id": "glasses-1", "kind": "fact", "content": content},
            headers=bearer(token),
        ) as response:
            assert response.status == 201
    await server.restart()
    async with http.get(
        f"{server.url}/v1/memories", params={"client_id": "glasses-1"}, headers=bearer(token)
    ) as response:
        assert response.status == 200
        memories = (await response.json())["memories"]
    assert [m["content"] for m in memories] == ["Allergic to peanuts", "Takes the train at 8"]
