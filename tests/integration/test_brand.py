"""The integration's own brand images (``brand/``), as Home Assistant 2026.3+ serves them."""

from __future__ import annotations

import importlib.util
from http import HTTPStatus
from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.loader import async_get_integration
from homeassistant.setup import async_setup_component
from PIL import Image
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import DOMAIN

BRAND = Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN / "brand"
ICON_SIDE = 256  # the brands rules: icon.png 256×256, icon@2x.png 512×512
LOGO_SHORT_SIDE = (128, 256)  # logo.png: landscape, shortest side 128-256; @2x twice that
IMAGES = frozenset(
    f"{dark}{kind}{scale}.png"
    for dark in ("", "dark_")
    for kind in ("icon", "logo")
    for scale in ("", "@2x")
)
HAS_BRANDS = importlib.util.find_spec("homeassistant.components.brands") is not None


def test_every_brand_image_and_nothing_else() -> None:
    """The eight images, light and dark, and no other file."""
    assert {path.name for path in BRAND.iterdir()} == IMAGES


@pytest.mark.parametrize("dark", ["", "dark_"])
def test_icon_sizes(dark: str) -> None:
    """Square icons of 256 and 512 pixels, RGBA, transparent corners, the mark filling them."""
    for scale, side in (("", ICON_SIDE), ("@2x", 2 * ICON_SIDE)):
        with Image.open(BRAND / f"{dark}icon{scale}.png") as image:
            assert image.format == "PNG"
            assert image.size == (side, side)
            assert image.mode == "RGBA"
            assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]
            left, top, right, bottom = image.getbbox() or (0, 0, 0, 0)
            # Trimmed: the mark reaches at least two opposite edges.
            assert (left <= 1 and right >= side - 1) or (top <= 1 and bottom >= side - 1)


@pytest.mark.parametrize("dark", ["", "dark_"])
def test_logo_sizes(dark: str) -> None:
    """Landscape logos, shortest side within the rules, @2x twice the size, trimmed."""
    with (
        Image.open(BRAND / f"{dark}logo.png") as logo,
        Image.open(BRAND / f"{dark}logo@2x.png") as logo_2x,
    ):
        for image in (logo, logo_2x):
            assert image.format == "PNG"
            assert image.mode == "RGBA"
            assert image.width > image.height
            assert image.getbbox() == (0, 0, image.width, image.height)
        low, high = LOGO_SHORT_SIDE
        assert low <= logo.height <= high
        assert 2 * low <= logo_2x.height <= 2 * high
        assert logo_2x.size == (2 * logo.width, 2 * logo.height)


async def test_brand_through_the_loader(hass: HomeAssistant) -> None:
    """The loader sees the brand folder (HA versions that read it)."""
    integration = await async_get_integration(hass, DOMAIN)
    if hasattr(integration, "has_branding"):
        assert integration.has_branding is True
    else:
        assert not HAS_BRANDS


async def test_brands_serves_our_images(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """HA's brands view (HA 2026.3 and later) serves each image from our folder, byte for
    byte, offline; an older HA has no such view and does not look for the folder."""
    if not HAS_BRANDS:
        assert not hasattr(await async_get_integration(hass, DOMAIN), "has_branding")
        return
    from homeassistant.components.brands.const import ALLOWED_IMAGES  # type: ignore[import-not-found]

    assert set(ALLOWED_IMAGES) == IMAGES
    assert await async_setup_component(hass, "brands", {})
    client = await hass_client()
    for name in sorted(IMAGES):
        response = await client.get(f"/api/brands/integration/{DOMAIN}/{name}")
        assert response.status == HTTPStatus.OK, name
        assert response.content_type == "image/png"
        assert await response.read() == (BRAND / name).read_bytes(), name
