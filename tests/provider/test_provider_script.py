"""S002 reads the script a turn is written in, the brief's own words aside; S006 hears names offered as alternatives."""

from __future__ import annotations

from clarq_bench.data.loader import SAMPLE_TASKS, load_tasks
from clarq_bench.provider.screen import EntityIndex
from clarq_bench.provider.script import in_other_script, written_in

BRIEF_ZH = "你可以使用：SMD封装的PNP晶体管、SMD封装的NPN晶体管。"


def test_the_script_is_the_judges_count() -> None:
    assert written_in("Which lighthouse went dark?") == "en"
    assert written_in("哪座灯塔熄灭了？") == "zh"
    assert written_in("PNP还是NPN？") == "en"  # (six Latin letters, two CJK characters)


def test_names_the_brief_writes_in_the_other_script_are_not_the_turns_language() -> None:
    assert not in_other_script("PNP还是NPN？", "zh", BRIEF_ZH)
    assert in_other_script("Should I use the PNP or the NPN?", "zh", BRIEF_ZH)  # English words of its own
    assert in_other_script("哪座灯塔熄灭了？", "en", "Harbour lights: the North Lighthouse, the South Lighthouse.")
    assert not in_other_script("", "zh", BRIEF_ZH)


def test_two_names_offered_as_alternatives_are_a_question_of_the_seekers_own() -> None:
    task = next(t for t in load_tasks(SAMPLE_TASKS, ("zh",), split=None) if t.id == "zh/01/0")
    names = EntityIndex.of(task, "zh")
    assert names.offered("北灯塔还是南灯塔？", "zh")
    assert names.offered("灯用煤油还是鲸油？", "zh")
    assert not names.offered("北灯塔怎么走？", "zh")  # one name, no alternative
    assert not names.offered("要走还是要留？", "zh")  # alternatives, but no names
