"""The Chinese catalogue speaks the glossary (locale/glossary.yaml): for every term, every msgstr whose msgid uses
the English word carries the glossary's Chinese term (strict terms) and none of the renderings it rules out.
The design document's words come from the same catalogue, so it is held to the glossary too."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = [ROOT / "locale/zh_Hans/LC_MESSAGES/django.po", ROOT / "locale/zh_Hans/LC_MESSAGES/djangojs.po"]
GLOSSARY = yaml.safe_load((ROOT / "locale/glossary.yaml").read_text(encoding="utf-8"))["terms"]


def po_entries(path: Path) -> list[dict[str, str]]:
    """(msgctxt, msgid, msgid_plural, msgstr...) of an unwrapped or wrapped .po file, obsolete entries left out."""
    entries, entry, key = [], {}, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if entry.get("msgid"):
                entries.append(entry)
            entry, key = {}, None
            continue
        if line.startswith("#"):
            if line.startswith("#,"):
                entry["flags"] = line
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line)
        if match:
            key = match.group(1)
            entry[key] = ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            entry[key] += ast.literal_eval(line)
    return entries


def translation(entry: dict[str, str]) -> str:
    return " ".join(value for key, value in entry.items() if key.startswith("msgstr"))


def uses(term: dict, entry: dict[str, str]) -> bool:
    if term.get("context") is not None and entry.get("msgctxt") != term["context"]:
        return False
    text = entry["msgid"] + " " + entry.get("msgid_plural", "")
    words = [term["en"], *term.get("forms", [])]
    # %(leaf)s placeholders and dotted keys (leaf.price) are not the word.
    text = re.sub(r"%\(\w+\)\w|\w+\.\w+", " ", text)
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I) for word in words)


ENTRIES = [entry for path in CATALOGUES if path.exists() for entry in po_entries(path)]


def test_the_glossary_names_the_domain_terms_in_both_languages():
    names = {term["en"].lower() for term in GLOSSARY}

    for word in ("fabric", "leaf", "spine", "core switch", "plane", "rail", "scale unit", "pod", "oversubscription",
                 "transceiver", "breakout", "nvlink domain"):
        assert word in names, word
    assert all(term.get("zh") for term in GLOSSARY)


@pytest.mark.parametrize("term", GLOSSARY, ids=[term["en"] for term in GLOSSARY])
def test_the_chinese_catalogue_uses_the_glossary_term(term):
    translated = [entry for entry in ENTRIES if uses(term, entry) and translation(entry).strip()]
    assert translated, f"no msgid uses {term['en']!r}: the glossary entry is stale"

    bad = [(entry["msgid"], translation(entry)) for entry in translated
           if any(wrong in translation(entry) for wrong in term.get("avoid", []))]
    missing = [(entry["msgid"], translation(entry)) for entry in translated
               if term.get("strict") and term["zh"] not in translation(entry)]

    assert bad == [], f"{term['en']} must be {term['zh']}"
    assert missing == [], f"{term['en']} must be {term['zh']}"


def test_the_catalogue_reader_sees_every_entry():
    """The reader itself: plural and context entries are read, so the checks above see them."""
    assert any(entry.get("msgid_plural") for entry in ENTRIES)
    assert any(entry.get("msgctxt") == "training job" for entry in ENTRIES)
