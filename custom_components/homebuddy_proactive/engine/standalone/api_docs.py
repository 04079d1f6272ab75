"""The standalone server's HTTP documentation: ``/openapi.json`` and a readable ``/docs`` page.

One OpenAPI document is the source and the ``/docs`` page is rendered from it, self-contained
(no script or CDN: the server often runs on a LAN without internet).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Final

from ..const import MAX_ID_CHARACTERS, MAX_SPEAKER_CHARACTERS, MAX_TEXT_CHARACTERS, MEMORY_KINDS

_BEARER: Final[list[dict[str, list[str]]]] = [{"bearer": []}]
_ERROR: Final = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _object(*required: str, **properties: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    reasons = {
        400: "invalid request",
        401: "missing, invalid, revoked or expired token (or bad credentials)",
        404: "no such memory (or no summary for the session yet)",
        429: "too many sign-in attempts (see Retry-After)",
        503: "authentication is not configured",
    }
    return {str(code): _json(_ERROR, reasons[code]) for code in codes}


_CLIENT_ID: Final = {"name": "client_id", "in": "query", "schema": {"type": "string"}}
_MEMORY_QUERY: Final = [
    {**_CLIENT_ID, "required": False, "description": "only if it is this client's"},
    {
        "name": "store",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "default": "factual"},
        "description": "factual, episodic, procedural, affective or short_term",
    },
]
_MEMORY_ID: Final = {
    "name": "memory_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


_SESSION_SUMMARY: Final = _object(
    "session_id",
    "summary",
    "moments",
    "missed_insights",
    "episodes",
    session_id={"type": "string"},
    client_id={"type": "string"},
    summary={"type": "string"},
    source={"enum": ["extractive", "model", "user"]},
    topics={"type": "array", "items": {"type": "string"}},
    moments={
        "type": "array",
        "items": _object("text", text={"type": "string"}, significance={"type": "string"}),
    },
    missed_insights={
        "type": "array",
        "items": _object(
            "intent",
            "card",
            intent={"type": "string"},
            card={"type": "string"},
            reason={"type": "string"},
        ),
    },
    episodes={"type": "array", "items": {"type": "object"}},
)


def package_version() -> str:
    """The integration's version, from the manifest next to the engine."""
    try:
        manifest = json.loads((Path(__file__).parents[2] / "manifest.json").read_text())
        return str(manifest["version"])
    except (OSError, ValueError, KeyError):
        return "unknown"


def openapi_document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 description of every route the standalone server serves."""
    transcript = {
        "type": "object",
        "required": ["type", "text"],
        "properties": {
            "type": {"const": "transcript"},
            "event_id": {"type": "string", "description": "default: a new UUID"},
            "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARACTERS},
            "is_final": {"type": "boolean", "default": True},
            "speaker": {"type": "string", "maxLength": MAX_SPEAKER_CHARACTERS},
            "language": {"type": "string", "description": "a hint such as en, el, fr"},
            "timestamp": {"type": "string", "format": "date-time"},
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "HomeBuddy Proactive (standalone)",
            "version": version,
            "description": (
                "Send speech transcripts over the WebSocket; the server answers with short "
                "insight cards when they would help. Sign in for a bearer token first; tokens "
                "are accepted only in the Authorization header."
            ),
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {
                    "type": "object",
                    "properties": {"error": {"type": "string"}, "detail": {"type": "string"}},
                },
                "Transcript": transcript,
            },
        },
        "paths": {
            "/health": {
                "get": {
                    "summary": "The API process is up",
                    "responses": {"200": _json({"const": {"status": "ok"}}, "up")},
                }
            },
            "/ready": {
                "get": {
                    "summary": "Ollama reachable, model present and authentication configured",
                    "responses": {
                        "200": _json(
                            _object(status={"const": "ready"}, model={"type": "string"}), "ready"
                        ),
                        "503": _json(_ERROR, "not ready, with the reason"),
                    },
                }
            },
            "/v1/auth/signin": {
                "post": {
                    "summary": "Exchange the configured credentials for an access token",
                    "requestBody": _body(
                        _object(
                            "username",
                            "password",
                            username={"type": "string"},
                            password={"type": "string"},
                        )
                    ),
                    "responses": {
                        "200": _json(
                            _object(
                                access_token={"type": "string"},
                                token_type={"const": "bearer"},
                                expires_in={"type": "integer"},
                                expires_at={"type": "string", "format": "date-time"},
                            ),
                            "signed in",
                        ),
                        **_errors(400, 401, 429, 503),
                    },
                }
            },
            "/v1/auth/signout": {
                "post": {
                    "summary": "Revoke the token of the Authorization header",
                    "security": _BEARER,
                    "responses": {
                        "200": _json({"const": {"signed_out": True}}, "revoked"),
                        **_errors(401),
                    },
                }
            },
            "/v1/ws": {
                "get": {
                    "summary": "The transcript WebSocket (upgrade)",
                    "description": (
                        "Frames in: transcript (see the Transcript schema), ping, feedback "
                        "{insight_id, useful}. Frames out: ready, ack, insight, pong, "
                        "feedback_saved, error {code: invalid_message | unsupported_type | "
                        "llm_unavailable | storage_unavailable, retryable}. A revoked or "
                        "expired token closes the socket with 1008."
                    ),
                    "security": _BEARER,
                    "parameters": [
                        {
                            "name": name,
                            "in": "query",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                        for name in ("client_id", "session_id")
                    ],
                    "responses": {
                        "101": {"description": "switching protocols"},
                        **_errors(400, 401),
                    },
                }
            },
            "/v1/memories": {
                "post": {
                    "summary": "Remember something for a client (or 'global')",
                    "security": _BEARER,
                    "requestBody": _body(
                        _object(
                            "client_id",
                            "kind",
                            "content",
                            client_id={"type": "string"},
                            kind={"enum": list(MEMORY_KINDS)},
                            content={"type": "string"},
                            importance={"type": "number", "minimum": 0, "maximum": 1},
                        )
                    ),
                    "responses": {"201": {"description": "the stored memory"}, **_errors(400, 401)},
                },
                "get": {
                    "summary": "List a client's memories of one store",
                    "security": _BEARER,
                    "parameters": [
                        {**_CLIENT_ID, "required": True},
                        _MEMORY_QUERY[1],
                        {
                            "name": "include_superseded",
                            "in": "query",
                            "required": False,
                            "schema": {"enum": ["true", "false"], "default": "false"},
                            "description": "also the facts a newer one superseded",
                        },
                    ],
                    "responses": {"200": {"description": "the memories"}, **_errors(400, 401)},
                },
            },
            "/v1/memories/{memory_id}": {
                "patch": {
                    "summary": "Correct a memory (the fields to change in the body)",
                    "security": _BEARER,
                    "parameters": [_MEMORY_ID, *_MEMORY_QUERY],
                    "responses": {
                        "200": {"description": "the revised memory"},
                        **_errors(400, 401, 404),
                    },
                },
                "delete": {
                    "summary": "Forget a memory",
                    "security": _BEARER,
                    "parameters": [_MEMORY_ID, *_MEMORY_QUERY],
                    "responses": {
                        "200": _json({"const": {"deleted": True}}, "deleted"),
                        **_errors(400, 401, 404),
                    },
                },
            },
            "/v1/memories/{memory_id}/history": {
                "get": {
                    "summary": "A fact as it is now and what changed it (learned, updated,"
                    " superseded, edited, forgotten), oldest first",
                    "security": _BEARER,
                    "parameters": [_MEMORY_ID, _MEMORY_QUERY[0]],
                    "responses": {
                        "200": {"description": "the memory (null once forgotten) and its history"},
                        **_errors(400, 401, 404),
                    },
                },
            },
            "/v1/sessions/{session_id}/summary": {
                "get": {
                    "summary": "A session's summary, significant moments and missed cards",
                    "security": _BEARER,
                    "parameters": [
                        {
                            "name": "session_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "maxLength": MAX_ID_CHARACTERS},
                        }
                    ],
                    "responses": {
                        "200": _json(_SESSION_SUMMARY, "the session summary"),
                        **_errors(400, 401, 404),
                    },
                },
            },
        },
    }


def docs_page(document: dict[str, Any]) -> str:
    """A plain HTML page listing every operation of ``document``."""
    esc = html.escape
    info = document["info"]
    rows: list[str] = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            auth = " 🔒" if operation.get("security") else ""
            params = ", ".join(p["name"] for p in operation.get("parameters", []))
            responses = ", ".join(operation["responses"])
            detail = esc(operation.get("description", ""))
            rows.append(
                f"<tr><td><code>{esc(method.upper())}</code></td><td><code>{esc(path)}</code>"
                f"{auth}</td><td>{esc(operation['summary'])}"
                f"{'<br><small>' + detail + '</small>' if detail else ''}</td>"
                f"<td>{esc(params)}</td><td>{esc(responses)}</td></tr>"
            )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{esc(info['title'])}</title>"
        "<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
        "td,th{border-bottom:1px solid #ddd;padding:.4em;text-align:left;vertical-align:top}"
        "table{border-collapse:collapse}</style></head><body>"
        f"<h1>{esc(info['title'])} <small>{esc(info['version'])}</small></h1>"
        f"<p>{esc(info['description'])}</p>"
        "<p>Machine-readable: <a href=/openapi.json>/openapi.json</a>. 🔒 needs "
        "<code>Authorization: Bearer &lt;token&gt;</code>.</p>"
        "<table><tr><th>Method</th><th>Path</th><th>What</th><th>Parameters</th>"
        f"<th>Responses</th></tr>{''.join(rows)}</table></body></html>"
    )
