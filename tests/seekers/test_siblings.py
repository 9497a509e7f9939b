"""Things said together (seekers/siblings.py), and the heuristic's question about each of them once Jax settles a
choice for one: "Garlic is only sold at ABC" after "the garlic and onion" -> "And which supermarket for the onion?"."""

from __future__ import annotations

import pytest
from runner_helpers import make_task
from test_heuristic_listens import dialogue

from clarq_bench.seekers.phrasing import skill_kind
from clarq_bench.seekers.siblings import a_thing, coordinated

ROOT = {
    "en": "Cook the garlic and onion in a pan, then put the curry seasoning packet and potatoes in.",
    "zh": "先把大蒜和洋葱放进锅里炒，再把咖喱调料包、土豆放进去。",
}


@pytest.mark.parametrize(
    ("language", "term", "expected"),
    [
        ("en", "garlic", ["onion"]),
        ("en", "onion", ["garlic"]),
        ("en", "potatoe", ["curry seasoning packet"]),
        ("en", "pan", []),  # in no list
        ("zh", "大蒜", ["洋葱"]),
        ("zh", "土豆", ["咖喱调料包"]),
        ("zh", "锅里", []),
    ],
)
def test_the_things_of_a_list_with_the_term(language: str, term: str, expected: list[str]) -> None:
    assert coordinated(ROOT[language], term, language) == expected


def test_a_list_of_three_with_commas_and_an_article_after_and() -> None:
    text = "You can dig at the West Mine, North Mine and the South Mine."
    assert coordinated(text, "west", "en") == ["North Mine", "South Mine"]


def test_clauses_joined_by_and_are_no_list_of_things() -> None:
    text = "Buy the seeds at the shop, and then plant them in the field."
    assert coordinated(text, "seed", "en") == []


def supermarket_task(language: str):
    task = make_task(language=language)
    names = ("ABC Supermarket", "XYZ Supermarket") if language == "en" else ("ABC超市", "XYZ超市")
    brief = task.brief.model_copy(update={"scenes": names, "items": (), "skills": ()})
    return task.model_copy(update={"brief": brief})


SETTLED = {"en": "Garlic is only sold at the ABC Supermarket.", "zh": "大蒜只有ABC超市有卖。"}
ASKED = {"en": "And which supermarket for the onion?", "zh": "那洋葱呢，选哪个超市？"}


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_a_choice_settled_for_one_thing_is_asked_for_the_things_said_with_it(language: str) -> None:
    pairs = await dialogue(supermarket_task(language), [ROOT[language], SETTLED[language]])
    asked = [line for line, _ in pairs]
    assert ASKED[language] in asked
    assert asked.index(ASKED[language]) == 1  # right after the reply that settled it for the garlic
    assert asked.count(ASKED[language]) == 1


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_nothing_is_asked_for_things_never_said_with_the_settled_one(language: str) -> None:
    settled = "The ABC Supermarket sells it." if language == "en" else "ABC超市有卖。"
    pairs = await dialogue(supermarket_task(language), [ROOT[language], settled])
    assert not any(("for the " in line and "supermarket" in line) or line.startswith("那") for line, _ in pairs)


@pytest.mark.parametrize(
    ("group", "kind"),
    [
        (["Cast fire magic", "Cast earth magic"], "magic"),
        (["Simmer over high heat", "Simmer over low heat"], "heat"),
        (["Shoot photos in Aperture Priority mode", "Shoot photos in Night Scene mode"], "mode"),
        (["Use an axe to chop wood", "Use an electric chainsaw to process wood"], None),  # the tool is the choice
        (["Play the Sound of Spring with the Flute", "Play the Song of Summer with the Flute"], None),
        (["Planting watermelons", "Fertilizing watermelons"], None),  # two actions, not two kinds of one thing
        (["Summon the excavator to dig", "Summon the small shovel to dig"], None),  # a verb is no kind
    ],
)
def test_a_skill_group_has_a_kind_only_where_its_names_choose_between_kinds_of_one_thing(group, kind) -> None:
    assert skill_kind(group, "en") == kind
    assert skill_kind(["释放火魔法", "释放水魔法"], "zh") is None  # no word breaks to read it by


async def test_the_heuristic_names_a_skill_choice_by_its_kind() -> None:
    task = make_task()
    brief = task.brief.model_copy(update={"skills": ("Cast fire magic", "Cast earth magic"), "items": (), "scenes": ()})
    pairs = await dialogue(task.model_copy(update={"brief": brief}), ["Defeat the golem with magic."])
    assert pairs[0][0] == "Which magic do you mean: fire or earth?"  # (Jax spoke of magic first)


def test_a_step_or_a_person_is_no_thing_said_with_another() -> None:
    """ "Fry garlic and add curry powder": the runs open with the brief's skill verbs, so they are steps, and no
    supermarket is asked for them; "hand him" names a person."""
    verbs = frozenset({"fry", "add"})
    assert not a_thing("fry garlic", verbs, "en") and not a_thing("add curry powder", verbs, "en")
    assert not a_thing("hand him", verbs, "en")
    assert a_thing("onion", verbs, "en") and a_thing("curry powder", verbs, "en")
    assert a_thing("洋葱", verbs, "zh")
