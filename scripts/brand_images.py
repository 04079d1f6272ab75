#!/usr/bin/env python3
"""Draw the integration's brand images into ``custom_components/homebuddy_proactive/brand/``.

Home Assistant (2026.3 and later, its ``brands`` integration) serves a custom integration's own
``brand/`` folder at ``/api/brands/integration/<domain>/<image>``: ``icon.png`` (256×256),
``icon@2x.png`` (512×512), ``logo.png`` (landscape, shortest side 128-256), ``logo@2x.png``
and the ``dark_`` variant of each. The mark: a warm speech bubble holding a small house;
the logo: the mark and the name. Transparent background, trimmed, drawn four times larger
and scaled down for smooth edges. Needs Pillow (in ``.venv``) and DejaVu Sans Bold.

    .venv/bin/python scripts/brand_images.py
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

BRAND_DIR: Final = (
    Path(__file__).resolve().parents[1] / "custom_components" / "homebuddy_proactive" / "brand"
)
FONT: Final = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
UNIT: Final = 2048  # the mark is drawn on a UNIT×UNIT canvas, then scaled down
ICON_SIZE: Final = 256
LOGO_HEIGHT: Final = 256  # logo.png; logo@2x.png is twice as tall

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The colours of one theme."""

    bubble_top: RGB
    bubble_bottom: RGB
    house: RGB
    home_word: RGB
    buddy_word: RGB


LIGHT: Final = Palette(
    bubble_top=(248, 164, 76),
    bubble_bottom=(226, 104, 44),
    house=(255, 250, 242),
    home_word=(58, 46, 40),
    buddy_word=(222, 100, 40),
)
DARK: Final = Palette(
    bubble_top=(252, 180, 96),
    bubble_bottom=(236, 122, 58),
    house=(255, 250, 242),
    home_word=(245, 238, 230),
    buddy_word=(250, 160, 84),
)


def scaled(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points given on a 1000-unit grid, on the UNIT canvas."""
    return [(x * UNIT / 1000, y * UNIT / 1000) for x, y in points]


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A box given on a 1000-unit grid, on the UNIT canvas."""
    k = UNIT / 1000
    return (x0 * k, y0 * k, x1 * k, y1 * k)


def mark(palette: Palette) -> Image.Image:
    """The speech bubble with the house, on a transparent UNIT×UNIT canvas, trimmed."""
    k = UNIT / 1000
    # The bubble's shape as a mask, filled with a vertical gradient.
    shape = Image.new("L", (UNIT, UNIT), 0)
    draw = ImageDraw.Draw(shape)
    draw.rounded_rectangle(box(40, 40, 960, 800), radius=230 * k, fill=255)
    draw.polygon(scaled([(270, 780), (470, 780), (170, 975)]), fill=255)  # the tail
    gradient = Image.new("RGB", (1, UNIT))
    for y in range(UNIT):
        t = y / (UNIT - 1)
        gradient.putpixel(
            (0, y),
            tuple(
                round(a + (b - a) * t)
                for a, b in zip(palette.bubble_top, palette.bubble_bottom, strict=True)
            ),
        )
    image = Image.new("RGBA", (UNIT, UNIT), (0, 0, 0, 0))
    image.paste(gradient.resize((UNIT, UNIT)), (0, 0), shape)

    # The house: a roof, a body, a door cut through to the bubble.
    draw = ImageDraw.Draw(image)
    house = (*palette.house, 255)
    draw.polygon(scaled([(500, 150), (210, 420), (790, 420)]), fill=house)
    draw.rounded_rectangle(box(290, 380, 710, 660), radius=40 * k, fill=house)
    door_fill = (*palette.bubble_bottom, 255)
    draw.rounded_rectangle(box(445, 480, 555, 660), radius=55 * k, fill=door_fill)
    draw.rectangle(box(445, 560, 555, 660), fill=door_fill)
    return image.crop(image.getbbox())


def icon(palette: Palette, size: int) -> Image.Image:
    """The mark centred on a square, scaled to ``size``."""
    trimmed = mark(palette)
    side = max(trimmed.size)
    square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    square.paste(trimmed, ((side - trimmed.width) // 2, (side - trimmed.height) // 2))
    return square.resize((size, size), Image.Resampling.LANCZOS)


def logo(palette: Palette, height: int) -> Image.Image:
    """The mark and the name side by side, trimmed, ``height`` tall."""
    trimmed = mark(palette)
    font = ImageFont.truetype(str(FONT), round(trimmed.height * 0.5))
    gap = round(trimmed.height * 0.14)
    home, buddy = "Home", "Buddy"
    words = ImageDraw.Draw(Image.new("L", (1, 1)))
    width = round(words.textlength(home + buddy, font=font))
    canvas = Image.new("RGBA", (trimmed.width + gap + width + gap, trimmed.height), (0, 0, 0, 0))
    canvas.paste(trimmed, (0, 0))
    draw = ImageDraw.Draw(canvas)
    # The words' middle on the middle of the bubble (the part above the tail).
    y = trimmed.height * 0.41
    x = trimmed.width + gap
    draw.text((x, y), home, font=font, fill=(*palette.home_word, 255), anchor="lm")
    x += words.textlength(home, font=font)
    draw.text((x, y), buddy, font=font, fill=(*palette.buddy_word, 255), anchor="lm")
    canvas = canvas.crop(canvas.getbbox())
    width = 2 * round(canvas.width * height / canvas.height / 2)  # even: halves exactly
    return canvas.resize((width, height), Image.Resampling.LANCZOS)


def main() -> None:
    """Write the eight images."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BRAND_DIR, help="the folder to write to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for prefix, palette in (("", LIGHT), ("dark_", DARK)):
        images = {
            "icon.png": icon(palette, ICON_SIZE),
            "icon@2x.png": icon(palette, 2 * ICON_SIZE),
            "logo@2x.png": (big := logo(palette, 2 * LOGO_HEIGHT)),
            "logo.png": big.resize((big.width // 2, LOGO_HEIGHT), Image.Resampling.LANCZOS),
        }
        for name, image in images.items():
            path = args.out / f"{prefix}{name}"
            image.save(path, optimize=True)
            print(f"{path}: {image.width}×{image.height}")


if __name__ == "__main__":
    main()
