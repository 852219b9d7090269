"""User text in generated files: comment_text / shell_quote, and the server scripts under hostile design names."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.plan import plan
from apps.engine.roce import RoceSettings, roce_configs
from apps.engine.safe_text import comment_text, has_control_characters, shell_quote

from .test_roce import make_spec

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")

ISSUE_NAME = "nl test\ntouch /tmp/x\n#"
HOSTILE = ["\n", "\r", "\r\n", "\x00", "\x1b[2J", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\u202e", "\ufeff",
           "'", '"', "`id`", "$(touch /tmp/pwned)", "${IFS}", ";", "&&", "|", "#", "\\", "*", "~", "!", " ", "\t",
           "touch /tmp/x", "rm -rf /", "EOF", "<<", ">"]


def test_comment_text_keeps_one_line_of_printable_text():
    assert comment_text(ISSUE_NAME) == "nl test touch /tmp/x #"
    assert comment_text("Fabric A / 算力集群 v2") == "Fabric A / 算力集群 v2"
    assert comment_text("a\u2028b\u2029c\x85d\re\x00f\u202eg") == "a b c d e f g"
    assert comment_text(None) == ""


def test_shell_quote_is_one_literal_word():
    assert shell_quote("dscp") == "dscp"
    assert shell_quote(26) == "26"
    assert shell_quote("a b") == "'a b'"
    assert shell_quote("$(id)") == "'$(id)'"
    assert shell_quote("it's") == "'it'\"'\"'s'"
    assert "\n" not in shell_quote("a\nb")


@pytest.mark.parametrize("text,unsafe", [("plain", False), ("中文 名称", False), ("a\nb", True), ("a\tb", True),
                                         ("a\u2028b", True), ("a\u202eb", True), ("\x7f", True), ("\x85", True)])
def test_has_control_characters(text, unsafe):
    assert has_control_characters(text) is unsafe


@needs_bash
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
@settings(max_examples=60, deadline=None)
def test_shell_quote_round_trips_through_bash(text):
    out = subprocess.run(["bash", "-c", f"printf %s {shell_quote(text)}"], capture_output=True, check=True)
    assert out.stdout.decode("utf-8") == comment_text(text)


# --- server scripts under hostile design names ------------------------------------------------------------

_QUOTED = re.compile(r"'[^']*'")


def _skeleton(line: str) -> str:
    """What bash executes of a line, with single-quoted values and comment lines masked."""
    if line.lstrip().startswith("#"):
        return "#"
    return _QUOTED.sub("'…'", line)


@pytest.fixture(scope="module")
def small_plan():
    return plan(make_spec(64))


def _scripts(p, name: str) -> dict[str, str]:
    named = dataclasses.replace(p, spec=dataclasses.replace(p.spec, name=name))
    return dict(roce_configs(named, RoceSettings(sonic_fragment=True)))  # the inline switch: a fragment


def _bash_ok(script: str) -> None:
    result = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    assert result.returncode == 0, result.stderr


@needs_bash
def test_issue_21_name_is_a_comment_not_a_command(small_plan):
    for file_name, text in _scripts(small_plan, ISSUE_NAME).items():
        if file_name.endswith(".sh"):
            _bash_ok(text)
            assert not any(line.startswith("touch") for line in text.splitlines())
            assert text.splitlines()[1].startswith("# Backend ports of ")
            assert "nl test touch /tmp/x #" in text.splitlines()[1]
        else:
            json.loads(text)


hostile_names = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6),
                                   st.characters(codec="utf-8").map(str)), max_size=10).map("".join)


@needs_bash
@given(name=hostile_names)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_design_name_leaves_every_script_line_the_generator_wrote(small_plan, name):
    plain = _scripts(small_plan, "plain")
    hostile = _scripts(small_plan, name)
    assert hostile.keys() == plain.keys()
    for file_name, text in hostile.items():
        if not file_name.endswith(".sh"):
            assert json.loads(text) == json.loads(plain[file_name])
            continue
        _bash_ok(text)
        lines, expected = text.splitlines(), plain[file_name].splitlines()
        assert len(lines) == len(expected)
        assert [_skeleton(line) for line in lines] == [_skeleton(line) for line in expected]
