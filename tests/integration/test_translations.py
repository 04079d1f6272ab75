"""The English, French and Greek translations: same strings, same placeholders, loaded by HA.

Home Assistant falls back to English for a missing key, so a gap in fr.json or el.json shows no
error, only an English label in the middle of a French or Greek screen. These tests catch that,
and apply the value rules of hassfest's translation schema (hassfest itself is not installed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.translation import async_get_translations

from custom_components.homebuddy_proactive.const import DOMAIN

INTEGRATION = Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN
TRANSLATIONS = INTEGRATION / "translations"
LANGUAGES = ("en", "fr", "el")
TRANSLATED = ("fr", "el")

PLACEHOLDER_RE = re.compile(r"\{(\w+)\}")
# hassfest: a placeholder must not be single-quoted, and strings must not combine references.
QUOTED_PLACEHOLDER_RE = re.compile(r"'\{\w+\}'")
COMBINED_REFERENCE_RE = re.compile(r"(.+\[%)|(%\]+.)")
REFERENCE_RE = re.compile(r"\[%key:[^%]+%\]")
URL_RE = re.compile(r"https?://[^\s,)]*[^\s,).]")
CODE_RE = re.compile(r"`[^`]+`")
GREEK_RE = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
# Product, protocol and format names kept as they are in every language.
NAMES = ("HomeBuddy Proactive", "HomeBuddy", "Home Assistant", "Ollama", "Assist", "RSS", "Atom")
# Greek strings that rightly have no Greek letter: they equal the English string.
GREEK_AS_ENGLISH = {"entity.binary_sensor.ollama.name", "entity.sensor.llm_status.state.ok"}


@cache
def strings(language: str) -> dict[str, Any]:
    """Return one translation file, parsed."""
    return json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))


def leaves(tree: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Yield the dotted path and value of every leaf of a translation tree."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from leaves(value, f"{prefix}.{key}" if prefix else key)
    else:
        yield prefix, tree


def flat(language: str) -> dict[str, Any]:
    """Return a translation file as {dotted path: string}."""
    return dict(leaves(strings(language)))


def test_every_language_is_shipped() -> None:
    """English, French and Greek are there, and no other language the tests would not check."""
    assert {path.stem for path in TRANSLATIONS.glob("*.json")} == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_file_is_valid_json_object(language: str) -> None:
    """Each file is UTF-8 JSON whose top level is an object of sections."""
    raw = (TRANSLATIONS / f"{language}.json").read_bytes()
    parsed = json.loads(raw.decode("utf-8"))
    assert isinstance(parsed, dict)
    assert parsed


@pytest.mark.parametrize("language", TRANSLATED)
def test_same_keys_as_english(language: str) -> None:
    """Each translation carries exactly the English keys, so nothing falls back to English."""
    english, translated = set(flat("en")), set(flat(language))
    assert translated - english == set(), "keys English does not have"
    assert english - translated == set(), "English keys left untranslated"


@pytest.mark.parametrize("language", LANGUAGES)
def test_strings_follow_hassfest_rules(language: str) -> None:
    """Every leaf is a non-empty string, without HTML, edge spaces or quoted placeholders."""
    for path, value in flat(language).items():
        assert isinstance(value, str), path
        assert value.strip(), path
        cv.string_with_no_html(value)
        assert value == value.strip(" "), path
        assert not QUOTED_PLACEHOLDER_RE.search(value), path
        assert not COMBINED_REFERENCE_RE.search(value), path
        assert value.count("{") == value.count("}"), path


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_match_english(language: str) -> None:
    """Each string has the English placeholders, references, addresses and commands."""
    english, translated = flat("en"), flat(language)
    for path, source in english.items():
        target = translated[path]
        assert sorted(PLACEHOLDER_RE.findall(target)) == sorted(PLACEHOLDER_RE.findall(source)), (
            path
        )
        assert REFERENCE_RE.findall(target) == REFERENCE_RE.findall(source), path
        assert sorted(URL_RE.findall(target)) == sorted(URL_RE.findall(source)), path
        assert CODE_RE.findall(target) == CODE_RE.findall(source), path


@pytest.mark.parametrize("language", TRANSLATED)
def test_product_names_are_kept(language: str) -> None:
    """HomeBuddy Proactive, Ollama, Assist, RSS… appear untranslated wherever English has them."""
    english, translated = flat("en"), flat(language)
    for path, source in english.items():
        for name in NAMES:
            word = re.compile(rf"\b{re.escape(name)}\b")
            if word.search(source):
                assert word.search(translated[path]), (path, name)


def test_greek_is_greek() -> None:
    """Every Greek string is written in Greek, apart from names that stay as they are."""
    english, greek = flat("en"), flat("el")
    untranslated = {path for path, value in greek.items() if not GREEK_RE.search(value)}
    assert untranslated == GREEK_AS_ENGLISH
    for path in GREEK_AS_ENGLISH:
        assert greek[path] == english[path]
    # Greek asks questions with ";" — an English "?" would read oddly.
    assert not [path for path, value in greek.items() if "?" in URL_RE.sub("", value)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_services_and_icons_are_described(language: str) -> None:
    """Each action and field of services.yaml, and each entity and state of icons.json, has text.

    Selector options used by services.yaml have a label too.
    """
    services = yaml.safe_load((INTEGRATION / "services.yaml").read_text(encoding="utf-8"))
    icons = json.loads((INTEGRATION / "icons.json").read_text(encoding="utf-8"))
    texts = strings(language)
    assert set(texts["services"]) == set(services) == set(icons["services"])
    for service, spec in services.items():
        described = texts["services"][service]
        assert described["name"], (service,)
        assert described["description"], (service,)
        fields = (spec or {}).get("fields", {})
        assert set(described.get("fields", {})) == set(fields), service
        for field, field_spec in fields.items():
            assert described["fields"][field]["name"], (service, field)
            assert described["fields"][field]["description"], (service, field)
            select = field_spec.get("selector", {}).get("select")
            if select and "translation_key" in select:
                options = texts["selector"][select["translation_key"]]["options"]
                assert set(select["options"]) <= set(options), (service, field)
    for platform, entities in icons["entity"].items():
        for key, entity_icons in entities.items():
            entity = texts["entity"][platform][key]
            assert entity["name"], (platform, key)
            # A binary sensor's on/off labels come from Home Assistant itself.
            own_states = set(entity_icons.get("state", {}))
            if platform == "binary_sensor":
                own_states -= {"on", "off"}
            assert own_states <= set(entity.get("state", {})), (platform, key)
            for attribute, attribute_icons in entity_icons.get("state_attributes", {}).items():
                labels = entity["state_attributes"][attribute]["state"]
                assert set(attribute_icons.get("state", {})) <= set(labels), (key, attribute)


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Connect to Ollama"), ("fr", "Connexion à Ollama"), ("el", "Σύνδεση με το Ollama")],
)
async def test_home_assistant_loads_the_language(
    hass: HomeAssistant, language: str, title: str
) -> None:
    """HA's own translation loader serves each language from the integration's files."""
    prefix = f"component.{DOMAIN}"
    config = await async_get_translations(hass, language, "config", [DOMAIN])
    assert config[f"{prefix}.config.step.user.title"] == title
    expected = flat(language)
    # Every config string is this language's, not English filled in by the fallback.
    for path, value in expected.items():
        if path.startswith("config."):
            assert config[f"{prefix}.{path}"] == value, path
    for category in ("options", "entity", "services", "selector", "exceptions"):
        loaded = await async_get_translations(hass, language, category, [DOMAIN])
        wanted = {f"{prefix}.{p}": v for p, v in expected.items() if p.startswith(f"{category}.")}
        assert wanted
        assert {key: loaded.get(key) for key in wanted} == wanted, category


async def test_greek_repair_issue_is_rendered(hass: HomeAssistant) -> None:
    """The Greek "Ollama unreachable" repair takes its placeholder, as HA renders it."""
    loaded = await async_get_translations(hass, "el", "issues", [DOMAIN])
    message = loaded[f"component.{DOMAIN}.issues.ollama_unreachable.description"]
    rendered = message.format(url="http://192.168.1.20:11434")
    assert rendered.startswith("Το HomeBuddy Proactive δεν μπορεί να συνδεθεί με τον διακομιστή")
    assert "http://192.168.1.20:11434" in rendered


@pytest.mark.parametrize("language", LANGUAGES)
def test_form_errors_are_plain_text(language: str) -> None:
    """HA shows a form's error as plain text: markdown (backticks) would show as typed."""
    marked = [
        path
        for path, value in flat(language).items()
        if ".error." in f".{path}." and isinstance(value, str) and "`" in value
    ]
    assert marked == []
