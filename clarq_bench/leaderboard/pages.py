"""HTML for the leaderboard site: the index tables, a page per submission and its dialogue viewer.

Every piece of text that came from a submission (names, notes, model names, dialogue turns, problems) goes through
`esc` (html.escape with quotes) before it is placed in markup, including attribute values; highlighting splits a
turn into escaped pieces and wraps only our own <mark> tags around them. No submission data is placed inside a
<script>; the only script is assets/leaderboard.js, and a Content-Security-Policy forbids any other.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from ..core.tasks import Task, node_sort_key
from ..core.transcript import Intent, Speaker, Transcript
from ..data.loader import strip_speaker
from ..data.task_sets import BENCHMARK, describe, kind_of
from ..data.textmatch import TRAILING_PUNCTUATION
from ..scoring.judge import OBTAINED, Verdict
from .boards import boards, reading_of
from .entry import Entry

CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"
LANGUAGE_NAMES = {"en": "English", "zh": "Chinese"}
INTENT_NAMES = {
    Intent.confirm_task: "confirms task",
    Intent.answerable: "answerable",
    Intent.unanswerable: "unanswerable",
    Intent.repeat: "repeat",
    Intent.unrelated: "unrelated",
    Intent.vague: "vague",
}


#: The efficiency column's heading; the title says what the figure is (our own text, not from a submission).
EFFICIENCY_HEADING = (
    '<abbr title="success weighted by what the seeker said: S x H / max(H, C), C the largest of '
    "its turns, its asks + 1 and its tokens over a human turn's\">Efficiency</abbr>"
)


def esc(value: Any) -> str:
    """Escape untrusted text for HTML content and attribute values."""
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, *, prefix: str = "", header: str = "clarq leaderboard") -> str:
    """A whole HTML document; `prefix` is the path back to the site root ("" or "../")."""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<link rel="stylesheet" href="{prefix}assets/style.css">
</head><body>
<header class="site"><a href="{prefix}index.html">{esc(header)}</a><span class="tag">how well do agents ask clarification questions?</span></header>
<main>
{body}
<footer>Built by clarq. Dialogue figures are recomputed from the transcripts by <code>clarq leaderboard verify</code> (offline-track and pairwise tables say how they were checked); intervals are seeded task-level bootstrap 95% CIs.</footer>
</main>
<script src="{prefix}assets/leaderboard.js"></script>
</body></html>
"""


def num(value: Any, digits: int = 3, signed: bool = False) -> str:
    if not isinstance(value, (int, float)):
        return "–"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def figure_cell(fig: dict[str, Any] | None, digits: int = 3, signed: bool = False) -> str:
    """A numeric <td> with the value sortable and its CI shown small."""
    fig = fig or {}
    value = fig.get("value")
    ci = ""
    if isinstance(fig.get("low"), (int, float)) and isinstance(fig.get("high"), (int, float)):
        ci = f' <span class="ci">[{num(fig["low"], digits, signed)}, {num(fig["high"], digits, signed)}]</span>'
    data = esc(value) if isinstance(value, (int, float)) else ""
    return f'<td class="num" data-value="{data}">{num(value, digits, signed)}{ci}</td>'


def label_badge(label: str) -> str:
    return f'<span class="badge {esc(label)}">{esc(label)}</span>'


def status_badge(entry: Entry) -> str:
    css = "ok" if entry.status in ("verified", "reference") else "bad"
    return f'<span class="badge {css}">{esc(entry.status)}</span>'


def _th(text: str, *, numeric: bool = False, nosort: bool = False, first: str | None = None) -> str:
    attrs = ' class="num" data-type="number"' if numeric else ' data-type="text"'
    attrs += " data-nosort" if nosort else ""
    attrs += f' data-first="{first}"' if first else ""
    return f"<th{attrs}>{text}</th>"


def provenance_badge(entry: Entry) -> str:
    css = "ok" if entry.provenance == "replayed" else ""
    title = (
        "every provider reply replayed through the installed deterministic provider"
        if css
        else "provider replies as recorded: checked against the tree and the provider rules, not replayed"
    )
    return f'<span class="badge {css}" title="{esc(title)}">{esc(entry.provenance)}</span>'


def leaderboard_table(
    entries: list[Entry], language: str, *, numbered: bool = True, ident: str = "", kind: str = ""
) -> str:
    """One language's table, rows ordered by success (highest first), partial submissions after complete ones;
    unranked (oracle-class) tables show no positions."""
    rows = []
    ranked = [(e, g) for e in entries if (g := e.language_group(language)) is not None]
    ranked.sort(key=lambda pair: (pair[0].manifest.partial, -((pair[1].get("success") or {}).get("value") or 0.0)))
    for position, (entry, group) in enumerate(ranked, start=1):
        m = entry.manifest
        cost = (m.metrics.get("cost") or {}).get("by_language", {}).get(language)
        cost_cell = (
            f'<td class="num" data-value="{esc(cost)}">${cost:.2f}</td>'
            if isinstance(cost, (int, float)) and cost
            else '<td class="num" data-value="">–</td>'
        )
        models = ", ".join(m.seeker_models) or (m.seeker.model or "")
        rows.append(
            "<tr>"
            + (f'<td class="rank num">{position}</td>' if numbered else '<td class="num unranked">–</td>')
            + f'<td><a href="s/{esc(entry.slug)}.html">{esc(entry.title)}</a>'
            + (f'<span class="org">{esc(m.submitter.org)}</span>' if m.submitter.org else "")
            + "</td>"
            f'<td data-value="{esc(m.seeker.name)}">{esc(m.seeker.name)}'
            + (f'<span class="org">{esc(models)}</span>' if models else "")
            + "</td>"
            f"<td>{esc(m.provider.model or m.provider.name)}</td>"
            f'<td data-value="{esc(m.label.value)}">{label_badge(m.label.value)}</td>'
            + figure_cell(group.get("success"))
            + figure_cell(group.get("aqd"), 2, signed=True)
            + figure_cell(group.get("aql"), 1)
            + figure_cell(group.get("aql_tokens"), 1)
            + figure_cell(group.get("efficiency"))
            + f'<td class="num" data-value="{esc(group.get("dialogues"))}">{esc(group.get("dialogues"))}'
            + ('<span class="org">partial</span>' if m.partial else "")
            + "</td>"
            + cost_cell
            + f'<td data-value="{esc(entry.status)}">{status_badge(entry)}</td>'
            + f'<td data-value="{esc(entry.provenance)}">{provenance_badge(entry)}</td>'
            "</tr>"
        )
    head = "".join(
        [
            _th("#", numeric=True, nosort=True),
            _th("Submission"),
            _th("Seeker"),
            _th("Provider"),
            _th("Setting"),
            _th("Success", numeric=True),
            _th("AQD", numeric=True, first="ascending"),
            _th("AQL", numeric=True, first="ascending"),
            _th("AQL (tokens)", numeric=True, first="ascending"),
            _th(EFFICIENCY_HEADING, numeric=True),
            _th("Dialogues", numeric=True),
            _th("Cost", numeric=True, first="ascending"),
            _th("Status"),
            _th("Provider replies"),
        ]
    )
    lang = esc(ident or language) + ("" if numbered else "-oracle")
    return (
        f'<div class="wide" data-kind="{esc(kind)}"><table class="sortable leaderboard" id="board-{lang}">'
        f"<thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def index_page(entries: list[Entry], skipped: list[tuple[str, list[str]]], extra: str = "") -> str:
    """The index; `extra` is already-escaped HTML placed after the tables (pairwise results, the offline track)."""
    languages = sorted({lang for e in entries for lang in e.languages})
    parts = [
        "<h1>Leaderboard</h1>",
        '<p class="lead">Success = the seeker obtained every piece of required information; AQD = questions asked '
        "minus questions needed (positive: over-asking); AQL = mean length of the seeker's turns (released units: "
        "spaces in English, characters in Chinese; tokens are comparable across languages); efficiency = success "
        "weighted by what the seeker said, per dialogue S &times; H / max(H, C) with H the queries of the human path "
        "(one thing asked a turn) and C what the seeker's turns cost in such queries: the largest of its turns, the "
        "things it asks + 1 and its tokens over a human seeker's turn (a success that cost more than the human path "
        "counts H/C, a failure 0; asking about everything in one turn is charged for every ask and every word). Rows are ordered by success; "
        "click a column to sort. "
        "Rows are ranked only against rows of the same setting: the same tasks, split, provider (and its mode) and turn "
        "cap; each setting has its own table. <b>standard</b>: the released test tasks with the GPT-4o provider in "
        "single-info mode and a 12-turn cap; <b>reference</b> rows "
        "are the released ClarQ-LLM GPT-4o dialogues, rescored. <b>replayed</b>: every provider reply was replayed "
        "through the installed offline provider; <b>self-reported</b>: an LLM provider's replies as recorded, checked "
        "against the tree and the provider rules only. Providers answer questions, not words: a node goes only to a "
        "question that asks the uncertainty it resolves (a choice by its kind or its options, a detail by its thing "
        "and the right question word), so a script naming every name of the brief wins about one task in ten at "
        "most (README, What a provider reveals).</p>",
    ]
    for language in languages:
        parts.append(f"<h2>{esc(LANGUAGE_NAMES.get(language, language))}</h2>")
        for number, board in enumerate(boards(entries, language)):
            ident = language if number == 0 else f"{language}-{number + 1}"
            kind = board.setting.kind
            parts.append(f'<h3 class="board {esc(kind)}">{esc(board.setting.title())}</h3>')
            kind = "people" if board.setting.people else kind
            if kind != BENCHMARK:
                parts.append(
                    '<p class="warn">These rows were played on other tasks than the released benchmark: '
                    "their figures say nothing about it and are ranked only against each other.</p>"
                )
            ranked = [e for e in board.entries if not e.oracle_class]
            if ranked:
                parts.append(leaderboard_table(ranked, language, ident=ident, kind=kind))
            oracles = [e for e in board.entries if e.oracle_class]
            if oracles:
                parts.append("<h4>Oracle-class (the seeker read the response tree: an upper bound, not ranked)</h4>")
                parts.append(leaderboard_table(oracles, language, numbered=False, ident=ident, kind=kind))
    if extra:
        parts.append(extra)
    if skipped:
        items = "".join(
            f"<li>{esc(name)}: {esc(problems[0])}"
            + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else "")
            + "</li>"
            for name, problems in skipped
        )
        parts.append(f'<h2>Rejected files</h2><ul class="problems">{items}</ul>')
    return page("clarq leaderboard", "\n".join(parts))


def _facts(pairs: Iterable[tuple[str, str]]) -> str:
    return '<dl class="facts">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def _group_table(groups: list[dict[str, Any]], heading: str, names: dict[str, str] | None = None) -> str:
    rows = []
    for group in groups:
        key = str(group.get("key", ""))
        label = key.split("=", 1)[-1]
        name = (names or {}).get(label, "")
        rows.append(
            f'<tr><td data-value="{esc(label.zfill(3))}">{esc(label)}</td><td>{esc(name)}</td>'
            f'<td class="num">{esc(group.get("dialogues"))}</td>'
            + figure_cell(group.get("success"))
            + figure_cell(group.get("aqd"), 2, signed=True)
            + figure_cell(group.get("aql"), 1)
            + figure_cell(group.get("efficiency"))
            + "</tr>"
        )
    head = _th(esc(heading)) + _th("Name") + _th("Dialogues", numeric=True) + _th("Success", numeric=True)
    head += _th("AQD", numeric=True) + _th("AQL", numeric=True) + _th(EFFICIENCY_HEADING, numeric=True)
    return f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def submission_page(entry: Entry, plots: list[str]) -> str:
    m, s = entry.manifest, entry.summary
    type_names = {str(t.type_number): t.type_name for t in entry.tasks.values()}
    facts = [
        ("Submitter", esc(m.submitter.name) + (f" ({esc(m.submitter.org)})" if m.submitter.org else "")),
        ("Notes", esc(m.submitter.notes) or "–"),
        ("Status", status_badge(entry) + " " + provenance_badge(entry)),
        ("Setting", label_badge(m.label.value) + esc("; ".join(m.label_reasons))),
        ("Seeker", esc(m.seeker.name) + (f" · {esc(', '.join(m.seeker_models))}" if m.seeker_models else "")),
        (
            "Provider",
            esc(m.provider.name)
            + (f" · {esc(', '.join(m.provider_models))}" if m.provider_models else "")
            + (f" · {esc(reading_of(entry))} reading" if reading_of(entry) else ""),
        ),
        ("Endpoint", esc(m.seeker.endpoint or m.provider.endpoint or "the providers' default")),
        ("Tree access", "yes: the seeker read the response tree (oracle-class)" if m.tree_access else "no"),
        ("Provider fingerprint", f"<code>{esc(m.provider_fingerprint[:16])}</code>" if m.provider_fingerprint else "–"),
        ("Judge", esc(m.judge.name) + (f" · {esc(m.judge.model)}" if m.judge.model else "")),
        ("Dialogues", f"{len(entry.transcripts)} ({m.trials} trial(s)" + (", partial" if m.partial else "") + ")"),
        ("Turn cap", esc(m.max_turns if m.max_turns is not None else "–")),
        ("Run", esc(m.run_id)),
        (
            "Task set",
            f"{esc(describe(kind_of(m.task_hashes), len(m.task_hashes)))} <code>{esc(m.task_set_hash[:16])}</code>",
        ),
        ("clarq version", esc(m.clarq_version)),
        ("Cost", f"${(m.metrics.get('cost') or {}).get('total_usd', 0):.2f}"),
    ]
    parts = [f"<h1>{esc(entry.title)}</h1>", _facts(facts)]
    if entry.problems:
        parts.append(
            '<h2>Verification problems</h2><ul class="problems">'
            + "".join(f"<li>{esc(p)}</li>" for p in entry.problems)
            + "</ul>"
        )
    parts.append(
        f'<p><a href="{esc(entry.slug)}-dialogues.html">Read the {len(entry.transcripts)} dialogues</a> · '
        f'<a href="{esc(entry.slug)}-dialogues.html#failures">failures only</a></p>'
    )
    overall = [
        {
            "key": "all=all",
            "dialogues": s.get("dialogues"),
            **{k: s.get(k) for k in ("success", "aqd", "aql", "efficiency")},
        }
    ]
    parts.append("<h2>Headline figures</h2>" + _group_table(overall + list(s.get("by_language") or []), "Slice"))
    extra = [
        ("AQL (tokens)", s.get("aql_tokens"), 1),
        ("AQD, successful dialogues", s.get("aqd_successful"), 2),
        ("Elicitation precision", s.get("elicitation_precision"), 3),
        ("Redundancy rate", s.get("redundancy_rate"), 3),
    ]
    parts.append(
        "<table><tbody>"
        + "".join(f"<tr><td>{esc(n)}</td>{figure_cell(f, d)}</tr>" for n, f, d in extra)
        + "</tbody></table>"
    )
    if plots:
        parts.append('<div class="plots">' + "".join(f'<img src="{esc(p)}" alt="{esc(p)}">' for p in plots) + "</div>")
    parts.append("<h2>By task type</h2>" + _group_table(list(s.get("by_type") or []), "Type", type_names))
    parts.append("<h2>By number of required nodes</h2>" + _group_table(list(s.get("by_required") or []), "Nodes"))
    parts.append("<h2>By tree depth</h2>" + _group_table(list(s.get("by_depth") or []), "Depth"))
    labels = s.get("turn_labels") or {}
    parts.append(
        "<h2>What the seeker's turns did</h2><table><tbody>"
        + "".join(f'<tr><td>{esc(k)}</td><td class="num">{esc(v)}</td></tr>' for k, v in labels.items())
        + "</tbody></table>"
    )
    return page(entry.title, "\n".join(parts), prefix="../")


# --- the dialogue viewer ----------------------------------------------------------------------------------------


def _spans(text: str, needles: list[str], language: str) -> list[tuple[int, int]]:
    """Where each node text sits in a turn (case-insensitive for English), merged."""
    hay = text.lower() if language == "en" else text
    if len(hay) != len(text):
        return [(0, len(text))] if needles else []
    found = []
    for needle in needles:
        core = strip_speaker(needle)
        core = (core.lower() if language == "en" else core).rstrip(TRAILING_PUNCTUATION).strip()
        start = hay.find(core) if core else -1
        if start >= 0:
            found.append((start, start + len(core)))
    found.sort()
    merged: list[tuple[int, int]] = []
    for start, end in found:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def highlight(text: str, needles: list[str], language: str) -> str:
    """The escaped text with each node's words wrapped in <mark class="node">."""
    out, position = [], 0
    for start, end in _spans(text, needles, language):
        out.append(esc(text[position:start]))
        out.append(f'<mark class="node">{esc(text[start:end])}</mark>')
        position = end
    out.append(esc(text[position:]))
    return "".join(out)


def dialogue_html(transcript: Transcript, verdict: Verdict | None, task: Task | None) -> str:
    success = bool(verdict and verdict.success)
    obtained = sum(n.status in OBTAINED for n in verdict.nodes) if verdict else 0
    required = verdict.required_count if verdict else 0
    first_carrier: dict[int, list[str]] = {}
    for node in verdict.nodes if verdict else []:
        if node.turn is not None:
            first_carrier.setdefault(node.turn, []).append(node.node_id)
    labels = {t.index: t.label.value for t in (verdict.seeker_turns if verdict else [])}
    anchor = f"d-{transcript.task_id.replace('/', '-')}-t{transcript.trial}"
    turns = []
    for index, turn in enumerate(transcript.turns):
        meta = []
        if turn.speaker == Speaker.provider:
            ids = sorted((set(turn.revealed) | set(first_carrier.get(index, []))) - {"0"}, key=node_sort_key)
            if turn.kind:
                meta.append(f'<span class="badge">{esc(turn.kind.value)}</span>')
            if turn.intent is not None:
                meta.append(
                    f'<span class="badge intent">intent {int(turn.intent)} · {esc(INTENT_NAMES.get(turn.intent, ""))}</span>'
                )
            meta += [f'<span class="badge node">node {esc(i)}</span>' for i in ids]
            if task is not None:
                texts = [task.tree[i].text for i in ids if i in task.tree]
                body = highlight(turn.text, texts, transcript.language)
            else:
                body = f'<mark class="node">{esc(turn.text)}</mark>' if ids else esc(turn.text)
            who = "Provider"
        else:
            if index in labels:
                meta.append(f'<span class="badge">{esc(labels[index])}</span>')
            body, who = esc(turn.text), "Seeker"
        meta_html = f'<span class="meta">{"".join(meta)}</span>' if meta else ""
        turns.append(
            f'<div class="turn {turn.speaker.value}" data-turn="{index}"><span class="who">{who}</span>{body}{meta_html}</div>'
        )
    nodes = ""
    if verdict:
        nodes = (
            "<p>"
            + "".join(
                f'<span class="badge node {"ok" if n.status in OBTAINED else "bad"}" title="{esc(task.tree[n.node_id].text if task and n.node_id in task.tree else "")}">'
                f"{esc(n.node_id)}: {esc(n.status.value)}</span>"
                for n in verdict.nodes
            )
            + "</p>"
        )
        missed = [
            (n.node_id, task.tree[n.node_id].text)
            for n in verdict.nodes
            if task is not None and n.status not in OBTAINED and n.node_id in task.tree
        ]
        if missed:
            nodes += (
                '<ul class="missed"><li class="muted">never obtained:</li>'
                + "".join(f"<li><b>{esc(i)}</b> {esc(text)}</li>" for i, text in missed)
                + "</ul>"
            )
    brief = (
        f'<details><summary class="muted">task brief</summary><p class="brief">{esc(task.brief.background)}</p></details>'
        if task
        else ""
    )
    name = f" · {esc(task.type_name)}" if task else ""
    mark = '<span class="badge ok">success</span>' if success else '<span class="badge bad">failure</span>'
    return (
        f'<details class="dialogue" id="{esc(anchor)}" data-success="{int(success)}" data-lang="{esc(transcript.language)}"'
        f' data-type="{esc(task.type_number if task else "")}" data-end="{esc(transcript.end_reason.value)}"'
        f' data-id="{esc(transcript.task_id)}" data-turns="{len(transcript.seeker_turns)}">'
        f"<summary>{mark} <b>{esc(transcript.task_id)}</b>{name} · trial {transcript.trial} · "
        f"{obtained}/{required} nodes · {len(transcript.seeker_turns)} seeker turns · {esc(transcript.end_reason.value)}</summary>"
        f'<div class="dialogue-body">{brief}{nodes}{"".join(turns)}</div></details>'
    )


def dialogues_page(entry: Entry) -> str:
    verdicts = {(v.task_id, v.trial): v for v in entry.verdicts}
    blocks = [dialogue_html(t, verdicts.get(t.key), entry.tasks.get(t.task_id)) for t in entry.transcripts]
    options = "".join(
        f'<option value="{esc(lang)}">{esc(LANGUAGE_NAMES.get(lang, lang))}</option>' for lang in entry.languages
    )
    controls = (
        '<div class="controls"><label><input type="checkbox" id="only-failures"> failures only</label>'
        f'<label>language <select id="language-filter"><option value="">all</option>{options}</select></label>'
        f'<span class="muted">showing <span id="shown-count">{len(blocks)}</span> of {len(blocks)}</span></div>'
    )
    body = (
        f'<h1>Dialogues: {esc(entry.title)}</h1><p><a href="{esc(entry.slug)}.html">back to the submission</a>. '
        "Highlighted: the provider's words that carry a required node; badges give the provider's reading of "
        f"the seeker's intent and the node ids revealed.</p>{controls}" + "\n".join(blocks)
    )
    return page(f"Dialogues: {entry.title}", body, prefix="../")
