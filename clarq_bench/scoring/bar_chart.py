"""Bar charts of success rates as PNG files, drawn with Pillow: the plots of a run's report.

Why not matplotlib: importing it and laying out two small charts cost about 1.2 s of every `clarq run` and
`clarq score`, more than the rest of scoring together; these charts need bars, whiskers, ticks and a few labels,
which Pillow (already installed with matplotlib) draws in milliseconds. Rates are drawn on a fixed 0-1 axis, so a
bar's length is the rate. Text is set in DejaVu Sans, the font matplotlib ships, found without importing it; where
it is missing, Pillow's own font.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

DPI = 120  # pixels per inch: figure sizes are given in inches, as they were with matplotlib
TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
BAR = "#4C72B0"
INK = "#000000"


def _px(points: float) -> int:
    return max(1, round(points * DPI / 72))


@lru_cache(maxsize=16)
def font(points: float) -> Any:
    """DejaVu Sans at `points` (matplotlib's bundled copy), else Pillow's default font at that size."""
    from PIL import ImageFont

    spec = importlib.util.find_spec("matplotlib")
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        path = Path(folder) / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
        if path.is_file():
            try:
                return ImageFont.truetype(str(path), _px(points))
            except OSError:
                break
    return ImageFont.load_default(_px(points))


def _size(text: str, points: float) -> tuple[int, int]:
    """Width and height in pixels of (possibly multi-line) `text`."""
    lines = text.split("\n")
    face = font(points)
    width = max(round(face.getlength(line)) for line in lines)
    return width, len(lines) * _line(points)


def _line(points: float) -> int:
    ascent, descent = font(points).getmetrics()
    return ascent + descent


@dataclass
class Bar:
    """One bar: where it sits on the category axis (slot units), its rate, and optional whisker ends."""

    at: float
    value: float
    color: str = BAR
    low: float | None = None
    high: float | None = None
    note: str = ""  # written just past the bar's end (horizontal charts)


@dataclass
class Chart:
    """A bar chart with a 0-1 rate axis: vertical bars (`horizontal` False) or horizontal ones."""

    size: tuple[float, float]  # inches
    title: str
    rate_label: str
    category_label: str = ""
    horizontal: bool = False
    bars: list[Bar] = field(default_factory=list)
    categories: list[tuple[float, str]] = field(default_factory=list)  # (position, label)
    span: tuple[float, float] = (0.0, 1.0)  # the category axis, in slot units
    value_range: tuple[float, float] = (0.0, 1.0)
    thickness: float = 0.8  # a bar's width in slot units
    category_points: float = 10
    note_points: float = 7
    legend: list[tuple[str, str]] = field(default_factory=list)  # (color, label), drawn lower right

    def draw(self) -> Any:
        from PIL import Image, ImageDraw

        width, height = round(self.size[0] * DPI), round(self.size[1] * DPI)
        image = Image.new("RGB", (width, height), "white")
        pen = ImageDraw.Draw(image)
        pad, tick = _px(4), _px(3.5)
        tick_text = [f"{t:.1f}" for t in TICKS]
        title_h = _line(12)
        top = pad + title_h + pad
        if self.horizontal:
            names = max((_size(label, self.category_points)[0] for _, label in self.categories), default=0)
            left = pad + names + tick + pad
            bottom = height - (pad + _line(10) + pad + _line(10) + tick)
            right = width - max(pad, _size(tick_text[-1], 10)[0] // 2 + pad)
        else:
            numbers = max(_size(text, 10)[0] for text in tick_text)
            left = pad + _line(10) + pad + numbers + tick + pad
            lines = max((_size(label, 10)[1] for _, label in self.categories), default=_line(10))
            bottom = height - (pad + _line(10) + pad + lines + tick)
            right = width - pad * 3
        box = (left, top, right, bottom)
        low_v, high_v = self.value_range
        low_c, high_c = self.span

        def rate_px(value: float) -> float:
            share = (min(max(value, low_v), high_v) - low_v) / (high_v - low_v)
            return left + share * (right - left) if self.horizontal else bottom - share * (bottom - top)

        def slot_px(position: float) -> float:
            share = (position - low_c) / (high_c - low_c)
            return top + share * (bottom - top) if self.horizontal else left + share * (right - left)

        half = self.thickness / 2
        for bar in self.bars:
            a, b = sorted((slot_px(bar.at - half), slot_px(bar.at + half)))
            zero, end = sorted((rate_px(low_v), rate_px(bar.value)))
            if self.horizontal:
                pen.rectangle((round(zero), round(a), round(end), round(b) - 1), fill=bar.color)
            else:
                pen.rectangle((round(a), round(zero), round(b) - 1, round(end)), fill=bar.color)
            if bar.note and self.horizontal:
                x = rate_px(min(bar.value, 0.9) + 0.01)
                pen.text((x, (a + b) / 2), bar.note, fill=INK, font=font(self.note_points), anchor="lm")
        for bar in self.bars:  # whiskers over every bar
            if bar.low is None or bar.high is None or self.horizontal:
                continue
            x, cap = round(slot_px(bar.at)), _px(3)
            y1, y2 = round(rate_px(bar.low)), round(rate_px(bar.high))
            pen.line((x, y1, x, y2), fill=INK, width=2)
            pen.line((x - cap, y1, x + cap, y1), fill=INK, width=2)
            pen.line((x - cap, y2, x + cap, y2), fill=INK, width=2)
        pen.rectangle(box, outline=INK, width=1)
        self._axes_text(pen, box, rate_px, slot_px, tick, pad)
        title = font(12)
        pen.text(((left + right) / 2, pad + title_h / 2), self.title, fill=INK, font=title, anchor="mm")
        if self.legend:
            self._legend(pen, box, pad)
        if not self.horizontal and self.rate_label:
            _vertical_text(image, self.rate_label, pad, (top + bottom) / 2)
        return image

    def _axes_text(
        self, pen: Any, box: tuple[int, int, int, int], rate_px: Any, slot_px: Any, tick: int, pad: int
    ) -> None:
        left, _, right, bottom = box
        numbers = font(10)
        for value in TICKS:
            at = round(rate_px(value))
            if self.horizontal:
                pen.line((at, bottom, at, bottom + tick), fill=INK)
                pen.text((at, bottom + tick + pad // 2), f"{value:.1f}", fill=INK, font=numbers, anchor="ma")
            else:
                pen.line((left - tick, at, left, at), fill=INK)
                pen.text((left - tick - pad // 2, at), f"{value:.1f}", fill=INK, font=numbers, anchor="rm")
        names = font(self.category_points)
        for position, label in self.categories:
            at = round(slot_px(position))
            if self.horizontal:
                pen.line((left - tick, at, left, at), fill=INK)
                pen.text((left - tick - pad // 2, at), label, fill=INK, font=names, anchor="rm")
            else:
                pen.line((at, bottom, at, bottom + tick), fill=INK)
                pen.multiline_text(
                    (at, bottom + tick + pad // 2), label, fill=INK, font=names, anchor="ma", align="center", spacing=2
                )
        under = bottom + tick + pad // 2 + (self._category_lines() if not self.horizontal else _line(10)) + pad
        label = self.rate_label if self.horizontal else self.category_label
        if label:
            pen.text(((left + right) / 2, under), label, fill=INK, font=numbers, anchor="ma")

    def _category_lines(self) -> int:
        return max((_size(label, self.category_points)[1] for _, label in self.categories), default=_line(10))

    def _legend(self, pen: Any, box: tuple[int, int, int, int], pad: int) -> None:
        _, _, right, bottom = box
        face, swatch = font(8), _px(14)
        row = _line(8) + pad // 2
        width = swatch + pad + max(round(face.getlength(label)) for _, label in self.legend) + 2 * pad
        height = row * len(self.legend) + pad
        x0, y0 = right - pad - width, bottom - pad - height
        pen.rectangle((x0, y0, x0 + width, y0 + height), fill="white", outline="#cccccc")
        for i, (color, label) in enumerate(self.legend):
            y = y0 + pad // 2 + i * row + row / 2
            pen.rectangle((x0 + pad, round(y - _px(3.5)), x0 + pad + swatch, round(y + _px(3.5))), fill=color)
            pen.text((x0 + pad + swatch + pad, y), label, fill=INK, font=face, anchor="lm")

    def save(self, path: Path) -> None:
        """Write the chart as PNG; a failed write (a full disk) leaves no partial file behind."""
        try:
            self.draw().save(path, format="PNG")
        except OSError:
            path.unlink(missing_ok=True)
            raise


def _vertical_text(image: Any, text: str, x: int, middle: float) -> None:
    """`text` turned a quarter left (an axis label), its top edge at `x`, centred on `middle`."""
    from PIL import Image, ImageDraw

    face = font(10)
    width, height = round(face.getlength(text)) + 2, _line(10)
    strip = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(strip).text((1, 0), text, fill=INK, font=face)
    turned = strip.rotate(90, expand=True)
    image.paste(turned, (x, round(middle - turned.height / 2)))
