"""Reading a document's pages as its reader sees them: page images (poppler's pdftoppm), the words on a page
with their boxes (pdftotext -bbox), and the pictures redrawn with every text on top, to find covered labels.

A label is covered when a shape drawn after it paints over it. `texts_on_top` redraws an SVG with all its
shapes first and all its texts after them (each keeping its own order, transforms and styles); where nothing
covers a text, the two drawings are the same pixels, so any difference between the pages of the document and of
its texts-on-top twin is a covered label.
"""
from __future__ import annotations

import copy
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

SVG = "{http://www.w3.org/2000/svg}"
SHAPES = {"rect", "line", "path", "polyline", "polygon", "circle", "ellipse", "image", "use"}


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def area(self) -> float:
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)

    def overlap(self, other: Word) -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return max(0.0, w) * max(0.0, h)


def page_count(pdf: Path) -> int:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def words(pdf: Path) -> list[Word]:
    """Every word of the file with its box in points, from poppler's pdftotext."""
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", xml)
    root = ET.fromstring(xml)
    out = []
    for number, page in enumerate(root.iter("{http://www.w3.org/1999/xhtml}page"), start=1):
        for word in page.iter("{http://www.w3.org/1999/xhtml}word"):
            out.append(Word(number, word.text or "", float(word.get("xMin")), float(word.get("yMin")),
                            float(word.get("xMax")), float(word.get("yMax"))))
    return out


def overlapping_words(pdf: Path, share: float = 0.3) -> list[tuple[Word, Word]]:
    """Pairs of words on one page whose boxes share more than `share` of the smaller box: text over text."""
    pairs = []
    by_page: dict[int, list[Word]] = {}
    for word in words(pdf):
        if word.area > 0 and word.text.strip():
            by_page.setdefault(word.page, []).append(word)
    for page_words in by_page.values():
        page_words.sort(key=lambda w: w.x0)
        for i, a in enumerate(page_words):
            for b in page_words[i + 1:]:
                if b.x0 >= a.x1:
                    break
                if a.overlap(b) > share * min(a.area, b.area):
                    pairs.append((a, b))
    return pairs


def page_images(pdf: Path, out_dir: Path, dpi: int = 60) -> list[np.ndarray]:
    """Every page as a grey-level array (0 black, 255 white)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = out_dir / "page"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf), str(prefix)], check=True)
    files = sorted(out_dir.glob("page-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
    return [np.asarray(Image.open(p).convert("L"), dtype=np.int16) for p in files]


def texts_on_top(svg: str) -> str:
    """The same picture with every shape drawn first and every text after them."""
    ET.register_namespace("", SVG[1:-1])
    root = ET.fromstring(svg)
    shapes_only, texts_only = copy.deepcopy(root), copy.deepcopy(root)

    def prune(element: ET.Element, keep_text: bool) -> None:
        for child in list(element):
            tag = child.tag.replace(SVG, "")
            if tag in ("defs", "title", "style"):
                continue
            if tag == "text":
                if not keep_text:
                    element.remove(child)
            elif tag in SHAPES:
                if keep_text:
                    element.remove(child)
            else:
                prune(child, keep_text)

    prune(shapes_only, keep_text=False)
    prune(texts_only, keep_text=True)
    group = ET.SubElement(shapes_only, f"{SVG}g")
    group.extend(child for child in list(texts_only) if child.tag.replace(SVG, "") not in ("defs", "title"))
    return ET.tostring(shapes_only, encoding="unicode")


def covered_regions(pages: list[np.ndarray], twins: list[np.ndarray], threshold: int = 48) -> list[tuple[int, tuple]]:
    """(page number, (x0, y0, x1, y1) in pixels) of every page where the document and its twin differ."""
    assert len(pages) == len(twins), "the twin document must paginate like the document"
    out = []
    for number, (page, twin) in enumerate(zip(pages, twins), start=1):
        diff = np.abs(page - twin) > threshold
        if diff.sum() > 3:
            ys, xs = np.nonzero(diff)
            out.append((number, (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))))
    return out


def body_fill(page: np.ndarray, top: float = 0.1, bottom: float = 0.9) -> float:
    """How far down the page's body (between header and footer) ink reaches, from 0 (empty) to 1 (full)."""
    height = page.shape[0]
    body = page[int(height * top): int(height * bottom)]
    rows = np.nonzero((body < 200).any(axis=1))[0]
    return 0.0 if rows.size == 0 else float(rows.max() + 1) / body.shape[0]
