"""HTML of the people page: a name form, one item at a time (the two dialogues side by side, one choice per
criterion), and a done page. Styled by the leaderboard's stylesheet (read, not copied) plus people.css; every piece
of dialogue text is escaped, and the page carries no script at all.
"""

from __future__ import annotations

from urllib.parse import quote

from ..core import prompts
from ..leaderboard.pages import esc
from .items import ItemSet, PairItem

CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'"
LABELS = {"A": "A is better", "B": "B is better", "both_good": "both equally good", "both_bad": "both equally bad"}
OPTION_KEYS = {2: ("A", "B"), 4: ("A", "B", "both_good", "both_bad")}


def document(title: str, body: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<link rel="stylesheet" href="/assets/style.css"><link rel="stylesheet" href="/assets/people.css">
</head><body>
<header class="site"><a href="/">clarq pairwise judging</a><span class="tag">which seeker asked better?</span></header>
<main>
{body}
</main>
</body></html>
"""


def name_page(problem: str = "") -> str:
    note = f'<p class="problem" id="problem">{esc(problem)}</p>' if problem else ""
    return document(
        "clarq pairwise judging",
        f"""<h1>Compare two seekers</h1>
<p class="lead">You will see two dialogues on the same task, side by side. In each, a seeker asks clarification
questions of a person who knows what the task leaves open. For each question below the dialogues, pick the option
that fits. Your answers are saved as you give them; come back with the same name to continue.</p>{note}
<form method="get" action="/judge" class="people-name"><label>Your name <input type="text" name="name" id="name"
maxlength="60" required></label> <button type="submit" id="start">Start</button></form>""",
    )


def _dialogue(turns: list[tuple[str, str]], label: str) -> str:
    body = "".join(
        f'<div class="turn {esc(speaker)}"><span class="who">{"Seeker" if speaker == "seeker" else "Person"}'
        f"</span>{esc(text)}</div>"
        for speaker, text in turns
    )
    return f'<section class="side" id="dialogue-{label.lower()}"><h2>Dialogue {label}</h2>{body}</section>'


def _criterion_text(criterion: str, language: str) -> str:
    return prompts.render(f"pairwise/criterion_{criterion}", language, key=criterion).lstrip("- ").strip()


def item_page(items: ItemSet, item: PairItem, name: str, number: int, problem: str = "") -> str:
    first, second = item.sides[item.shown_a - 1], item.sides[2 - item.shown_a]
    groups = []
    for criterion in items.criteria:
        options = "".join(
            f'<label><input type="radio" name="{esc(criterion)}" value="{key}" required> {esc(LABELS[key])}</label>'
            for key in OPTION_KEYS[items.design]
        )
        groups.append(
            f'<fieldset class="criterion" data-criterion="{esc(criterion)}"><legend>'
            f"{esc(_criterion_text(criterion, item.language))}</legend>{options}</fieldset>"
        )
    note = f'<p class="problem" id="problem">{esc(problem)}</p>' if problem else ""
    return document(
        f"Item {number} of {len(items.items)}",
        f"""<h1>Item {number} of {len(items.items)}</h1>
<p class="muted">Judging as <b id="who">{esc(name)}</b> · task <span id="item-id">{esc(item.id)}</span></p>{note}
<details><summary class="muted">task background</summary><p class="brief">{esc(item.brief)}</p></details>
<div class="pair">{_dialogue(first.turns, "A")}{_dialogue(second.turns, "B")}</div>
<form method="post" action="/answer" class="people-answer"><input type="hidden" name="name" value="{esc(name)}">
<input type="hidden" name="item" value="{esc(item.id)}">{"".join(groups)}
<button type="submit" id="save">Save and next</button></form>""",
    )


def done_page(name: str, total: int) -> str:
    return document(
        "All done",
        f"""<h1 id="done">All done</h1><p>Thank you, {esc(name)}: you judged all {total}
items. Your answers are saved. <a href="/judge?name={esc(quote(name))}">Check again</a></p>""",
    )
