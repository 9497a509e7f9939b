"""`clarq view`: the leaderboard's dialogue viewer for one run folder or released results file, with no submission.

Why: reading a run's dialogues should not need `submit` and `leaderboard build`. The dialogues are judged with the
deterministic judge (no model call) and rendered by the same `dialogue_html` as the site, so the page escapes every
transcript text exactly as the site does; filters (outcome, type, language, end reason) are plain <select>s that
assets/leaderboard.js reads. Static files only: index.html (one page per results file when a folder holds several)
and assets/, openable from file://.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ..core.errors import ClarqError
from ..core.redact import redact
from ..core.tasks import Task
from ..core.transcript import Transcript
from ..scoring.judge import Verdict, judge_deterministic
from .pages import LANGUAGE_NAMES, dialogue_html, esc, page
from .site import copy_assets

HEADER = "clarq view"


def _select(ident: str, attribute: str, label: str, options: list[tuple[str, str]]) -> str:
    items = "".join(f'<option value="{esc(value)}">{esc(text)}</option>' for value, text in options)
    return (
        f'<label>{esc(label)} <select id="{esc(ident)}" data-filter="{esc(attribute)}">'
        f'<option value="">all</option>{items}</select></label>'
    )


def viewer_page(title: str, pairs: list[tuple[Transcript, Task]], verdicts: list[Verdict], facts: list[str]) -> str:
    """One page: a line of facts, the filters and every dialogue (collapsed)."""
    blocks = [dialogue_html(t, v, task) for (t, task), v in zip(pairs, verdicts)]
    wins = sum(v.success for v in verdicts)
    types = sorted({task.type_number: task.type_name for _, task in pairs}.items())
    ends = Counter(t.end_reason.value for t, _ in pairs)
    languages = sorted({t.language for t, _ in pairs})
    controls = (
        '<div class="controls">'
        + "".join(
            [
                _select(
                    "outcome-filter",
                    "data-success",
                    "outcome",
                    [("1", f"success ({wins})"), ("0", f"failure ({len(verdicts) - wins})")],
                ),
                _select("type-filter", "data-type", "type", [(str(n), f"{n} {name}") for n, name in types]),
                '<label>language <select id="language-filter"><option value="">all</option>'
                + "".join(
                    f'<option value="{esc(lang)}">{esc(LANGUAGE_NAMES.get(lang, lang))}</option>' for lang in languages
                )
                + "</select></label>",
                _select("end-filter", "data-end", "end reason", [(e, f"{e} ({n})") for e, n in sorted(ends.items())]),
                '<label>search <input type="search" id="dialogue-search" placeholder="task id or words"></label>',
                '<label>sort <select id="dialogue-sort"><option value="">as played</option>'
                '<option value="outcome">failures first</option><option value="type">type</option>'
                '<option value="turns">most seeker turns</option></select></label>',
                f'<span class="muted">showing <span id="shown-count">{len(blocks)}</span> of {len(blocks)}</span>',
            ]
        )
        + "</div>"
    )
    rate = f"{wins / len(verdicts):.1%}" if verdicts else "-"
    facts_html = "".join(f"<li>{esc(fact)}</li>" for fact in facts)
    body = (
        f'<h1>{esc(title)}</h1><ul class="facts-list">{facts_html}<li>{len(verdicts)} dialogues, success '
        f'{esc(rate)} (deterministic judge)</li></ul><p class="muted">Highlighted: the provider\'s words that '
        "carry a required node; badges give the provider's reading of the seeker's intent and the node ids "
        f"revealed. Click a dialogue to open it.</p>{controls}"
        f'<div id="dialogue-list">{"".join(blocks)}</div>'
    )
    return page(title, body, header=HEADER)


def _facts(name: str, pairs: list[tuple[Transcript, Task]], run_dir: Path | None) -> list[str]:
    first = pairs[0][0]
    seeker = first.seeker.name + (f" ({first.seeker.model})" if first.seeker.model else "")
    provider = first.provider.name + (f" ({first.provider.model})" if first.provider.model else "")
    facts = [f"seeker: {seeker}", f"provider: {provider}"]
    facts.append(f"run folder: {run_dir}" if run_dir is not None else f"released file: {name}")
    return facts


def file_stem(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "dialogues"


def build_view(path: str | Path, out: str | Path, *, data: str | None = None) -> Path:
    """Write the viewer for a run folder / transcripts.jsonl / released file (or folder of them) into `out`;
    returns the index.html to open."""
    from ..scoring.sources import load_sources

    sources = load_sources(path, "auto", data)  # a bad path fails here, before any folder is made
    out = Path(out)
    try:
        return _write_view(sources, out)
    except OSError as exc:  # a read-only run folder, a full disk
        raise ClarqError(
            f"{out}: cannot write the viewer ({exc.strerror or exc})",
            "free some space, or write it elsewhere with -o DIR",
        ) from None


def check_run_view(out: Path) -> None:
    """ClarqError when a run's viewer folder, or anything in it, is a link or not what it should be: writing would
    go through it to wherever it leads, and --serve would serve that folder."""
    entries = [out, out / "assets", out / "index.html"]
    if (out / "assets").is_dir() and not (out / "assets").is_symlink():
        entries += list((out / "assets").iterdir())
    for entry in entries:
        if entry.is_symlink():
            raise ClarqError(
                f"{entry} is a link (to {entry.resolve()}): the viewer is not written through it",
                "remove it, or write the viewer elsewhere with -o DIR",
            )
    if out.exists() and not out.is_dir():
        raise ClarqError(f"{out} is not a folder", "remove it, or write the viewer elsewhere with -o DIR")


def _write_view(sources: list, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    written: list[tuple[str, str, int]] = []
    index = out / "index.html"
    for source in sources:  # one source: its page is the index itself (written once, not copied)
        verdicts = [judge_deterministic(t, task) for t, task in source.pairs]
        title = f"Dialogues: {source.name}"
        html = viewer_page(title, source.pairs, verdicts, _facts(source.name, source.pairs, source.run_dir))
        name = "index.html" if len(sources) == 1 else f"{file_stem(Path(source.name).stem)}.html"
        (out / name).write_text(redact(html), encoding="utf-8")
        written.append((name, source.name, len(verdicts)))
    if len(written) > 1:
        items = "".join(
            f'<li><a href="{esc(file)}">{esc(name)}</a> ({count} dialogues)</li>' for file, name, count in written
        )
        index.write_text(
            redact(page("clarq view", f"<h1>Results files</h1><ul>{items}</ul>", header=HEADER)), encoding="utf-8"
        )
    return index
