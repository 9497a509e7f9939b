"""The oracle: the ceiling seeker, built from the response tree, asking about each node's uncertainty in turn.

It reads the tree (`needs_tree = True`) but never says a node's text: its questions are phrased from each node's
explanation (the "noticed ..." concern, the question the explanation says the node answers, and at last the choice's
options offered as alternatives). It is adaptive,
as a perfect seeker would be: every turn it asks about the first node of the human path it has not obtained yet
(it knows a node is obtained when a reply carries that node's text), trying that node's next phrasing when the
last one got no answer, and says goodbye once every node is obtained or no phrasing is left. So a question that got
another node than the one it was written for costs a turn, not the dialogue.
"""

from __future__ import annotations

import re

from ..core import prompts
from ..core.tasks import Task
from ..core.transcript import Speaker
from ..data.textmatch import carries_node
from .base import DialogueView
from .baselines import goodbye, opening, seeker_turn_count
from .registry import SeekerConfig, SeekerTask


def oracle_path(task: Task) -> list[str]:
    """Required ids in the order a perfect seeker obtains them: always the first frontier node (numeric order)."""
    frontier, path = task.tree.initial_frontier(), []
    while frontier:
        path.append(frontier[0])
        frontier = task.tree.reveal(frontier, frontier[0])
    return path


NOTICED = {
    "en": re.compile(r"(?:has|have) noticed (?:that )?(.+?)\s*\.?\s*$", re.IGNORECASE),
    "zh": re.compile(r"注意到(.+?)(?:才|时)"),
}
#: Where an explanation has no "noticed ..." clause it usually names the question the node answers.
QUESTION_CLAUSES = {
    "en": (
        re.compile(r"answers the question of (.+?)\.", re.IGNORECASE),
        re.compile(r"addresses the question of (.+?)(?:,|\.)", re.IGNORECASE),
        re.compile(r"did not (?:specify|explain|mention|clarify|indicate) (.+?)\.", re.IGNORECASE),
    ),
    "zh": (
        re.compile(r"关于(.+?)的(?:疑问|不确定性|问题)"),
        re.compile(r"没有(?:明确)?(?:指出|给出|说明|提到|提及|解释|介绍)(.+?)[。，]"),
    ),
}


#: Options an explanation lists: "(A, B, C)" or "...: A, B, and C." / "（A、B、C）".
OPTION_LIST = {
    "en": re.compile(r"\(([^()]+,[^()]+)\)|:\s*([^.:]+,[^.:]+)\."),
    "zh": re.compile(r"[（(]([^（）()]+[、，,][^（）()]+)[）)]|[：:]([^。：:]+[、，,][^。：:]+)。"),
}
#: "There are multiple mountains ...": the kind of which there are several.
MULTIPLE_KIND = re.compile(
    r"\b(?:multiple|several|two|three|four|different)\s+(?:types of\s+|kinds of\s+)?([a-z]+)", re.I
)
_LIST_SEPARATOR = {"en": re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+"), "zh": re.compile(r"[、，,]|和|以及|或")}


def listed_choice(task: Task, explanation: str) -> list[str]:
    """The options of the choice an explanation describes: the ones it lists ("(A, B, C)", ": A, B and C."), else
    the brief's names carrying the kind it says there are several of ("multiple mountains": every brief name ending
    in "mountain"; en only)."""
    language = task.language
    listed = OPTION_LIST[language].search(explanation)
    if listed:
        text = listed.group(1) or listed.group(2)
        return [o.strip(" .。") for o in _LIST_SEPARATOR[language].split(text) if o.strip(" .。")]
    several = MULTIPLE_KIND.search(explanation) if language == "en" else None
    if not several:
        return []
    kind = several.group(1).lower().rstrip("s")
    brief = task.brief
    names = [re.sub(r"\s*\(.*?\)", "", entry).strip() for entry in (*brief.items, *brief.skills, *brief.scenes)]
    return [name for name in dict.fromkeys(names) if name.lower().rstrip("s").endswith(kind)]


def oracle_candidates(task: Task, node_id: str, *, choice: bool = False) -> list[str]:
    """Questions about the uncertainty a node resolves, best first, phrased from its explanation: the "noticed ..."
    concern, then the question the explanation says the node answers, then (`choice`, the adaptive oracle's last
    resort) the options of the choice offered as alternatives. Never the node's own text. The fixed script
    (oracle_script, the question bank's source) keeps to the first two."""
    node, language = task.tree[node_id], task.language
    explanation = node.explanation or ""
    found = []
    match = NOTICED[language].search(explanation)
    if match:
        concern = match.group(1).strip().rstrip("。.")
        found.append(prompts.render("seeker/oracle", language, concern=concern))
    for pattern in QUESTION_CLAUSES[language]:
        match = pattern.search(explanation)
        if match:
            found.append(prompts.render("seeker/oracle_question", language, question=match.group(1).strip()))
    options = listed_choice(task, explanation) if choice else []
    if len(options) >= 2:  # the options, offered as a choice ("Which of these should I pick: A, B or C?")
        joiner, last = (", ", " or ") if language == "en" else ("、", "还是")
        found.append(
            prompts.render("seeker/oracle_choice", language, options=joiner.join(options[:-1]) + last + options[-1])
        )
    return [q for q in dict.fromkeys(found) if not carries_node(q, node.text, language)]


#: The explanation's condition: "only if the other party [has noticed (that) X and] asks Y [, or asks Z]".
CONDITION = {
    "en": re.compile(r"only if the other party (.+?)\.?\s*$", re.IGNORECASE),
    "zh": re.compile(r"仅当对方(.+?)时"),
}
_CONTEXT = {
    "en": re.compile(
        r"^(has noticed (?:that )?|already knows (?:to )?|knows (?:that )?)(.+?)(?:,)?\s+(?:and|or)\s+"
        r"(?=asks|is unsure|wonders)",
        re.IGNORECASE,
    ),
    "zh": re.compile(r"^(已经知道要?|注意到)(.+?)[、，,]\s*(?:并|或者)?(?=询问|不确定|问)"),
}
_ASK = {
    "en": re.compile(
        r"(?:asks|is unsure|wonders)\s+(?:about\s+)?(.+?)(?=,?\s+or\s+(?:asks|is unsure)|$)", re.IGNORECASE
    ),
    "zh": re.compile(r"(?:询问|不确定|问到|问)(.+?)(?=[，,、]?\s*或者(?:询问|问)|$)"),
}
_ALTERNATIVE_WH = {
    "en": re.compile(r"\s+or\s+(?=(?:which|what|where|how|who|whether)\b)", re.I),
    "zh": re.compile(r"[，,]?(?:或者|或是)"),
}
_TO_INFINITIVE = re.compile(r"^(which|what|where|how|who)((?:\s+(?!to\b)[a-z'-]+){0,2}?)\s+to\s+(.+)$", re.IGNORECASE)
_THIRD_PERSON = (
    (re.compile(r"\bthey\b"), "I"),
    (re.compile(r"\btheir\b"), "my"),
    (re.compile(r"\bthemselves\b"), "myself"),
)
_WH_START = {
    "en": re.compile(r"^(?:which|what|where|how|who|whom|when|why|whether)\b", re.I),
    "zh": re.compile(r"哪|什么|怎|如何|是否|谁|多少|几"),
}


_ONE_OF_TWO = re.compile(r"\b([a-z]+) or [a-z]+\b")


def _first_person(text: str, language: str) -> str:
    if language == "zh":
        return text.replace("自己", "我")
    for pattern, replacement in _THIRD_PERSON:
        text = pattern.sub(replacement, text)
    return text


def _direct(clause: str, language: str) -> str | None:
    """An indirect question as a person asks it: "which one to fit" -> "Which one should I fit?", "where the atlas
    is" -> "Could you tell me where the atlas is?"; None for what asks nothing ("about the lens")."""
    clause = _first_person(clause.strip(" .。，,"), language)
    if not _WH_START[language].search(clause):
        return None
    if language == "zh":
        return prompts.render(
            "seeker/oracle_direct", language, question=("我" + clause) if clause.startswith("该") else clause
        )
    infinitive = _TO_INFINITIVE.match(clause)
    if infinitive:
        wh, kind, rest = infinitive.groups()
        return prompts.render("seeker/oracle_should", language, wh=wh.capitalize(), kind=kind, rest=rest)
    return prompts.render("seeker/oracle_question", language, question=clause)


def asked_questions(task: Task, node_id: str) -> list[str]:
    """The questions an explanation's condition says the node answers, asked as a person would: what they noticed
    first (as a statement), then each asked clause as a direct question ("I noticed there are two wicks. Which one
    should I fit?"). Empty where the explanation states no such condition."""
    language = task.language
    explanation = task.tree[node_id].explanation or ""
    condition = CONDITION[language].search(explanation)
    if not condition:
        return []
    text = condition.group(1)
    context = _CONTEXT[language].search(text)
    lead = ""
    if context:  # what the seeker noticed, or already knows it must do, said first
        template = (
            "seeker/oracle_knows"
            if context.group(1).startswith(("already", "knows", "已经"))
            else "seeker/oracle_context"
        )
        said = _first_person(context.group(2), language)
        if language == "en":  # "no paper or slips" -> "no paper": the thing named once, not offered as alternatives
            said = _ONE_OF_TWO.sub(r"\1", said)
        lead = prompts.render(template, language, context=said)
    found = []
    for ask in _ASK[language].finditer(text[context.end() if context else 0 :]):
        for clause in _ALTERNATIVE_WH[language].split(ask.group(1)):
            question = _direct(clause, language)
            if question:
                found.append(f"{lead} {question}".strip() if language == "en" else lead + question)
    node_text = task.tree[node_id].text
    return [q for q in dict.fromkeys(found) if not carries_node(q, node_text, language)]


def oracle_script(task: Task, source: str = "explanation") -> list[str]:
    """One question per node along the human path, each distinct from the others (an identical second question is
    a repeat to the provider and reveals nothing). `source="text"` quotes the node text instead: a ceiling for the
    offline matcher, not for the task, and only on request."""
    questions: list[str] = []
    for number, node_id in enumerate(oracle_path(task), start=1):
        if source == "text":
            text = task.tree[node_id].text.rstrip(".。!！?？ ")
            questions.append(prompts.render("seeker/oracle_text", task.language, text=text))
            continue
        fresh = [q for q in oracle_candidates(task, node_id) if q not in questions]
        task_name = task.brief.task_name
        questions.append(
            fresh[0]
            if fresh
            else prompts.render("seeker/oracle_generic", task.language, task_name=task_name, number=number)
        )
    return questions


def oracle_question(task: Task, node_id: str, source: str = "explanation") -> str:
    """The oracle's question for one node (see oracle_script)."""
    return oracle_script(task, source)[oracle_path(task).index(node_id)]


class OracleSeeker:
    """Upper bound that reads the answer tree: asks about each needed piece in turn, phrased from its annotation,
    then says goodbye (ranked apart from real seekers). `--seeker-option oracle_source=text` quotes the pieces instead.

    Each turn it asks about the first node of the human path not yet obtained (see the module doc)."""

    needs_tree = True

    def __init__(self, task: Task, config: SeekerConfig | None = None) -> None:
        self.task = task
        self.source = str((config.options if config else {}).get("oracle_source", "explanation"))
        self.opening = opening(SeekerTask.of(task))
        self.path = oracle_path(task)
        script = oracle_script(task)
        # Per node: its phrasings, the script's own first (distinct across nodes), then the others.
        # Where the explanation states the question it answers, that question (asked directly) comes right after the
        # script's phrasing, or first when the script had only its generic fallback.
        self.phrasings = {}
        for node_id, first in zip(self.path, script):
            candidates = oracle_candidates(task, node_id, choice=True)
            asked = asked_questions(task, node_id)
            lead = [] if asked and first not in candidates else [first]
            self.phrasings[node_id] = list(dict.fromkeys([*lead, *asked, *candidates, first]))

    async def respond(self, view: DialogueView) -> str:
        index = seeker_turn_count(view)
        if index == 0:
            return self.opening
        if self.source == "text":
            script = oracle_script(self.task, "text")
            return script[index - 1] if index - 1 < len(script) else goodbye(view.language)
        replies = [turn.text for turn in view.turns if turn.speaker == Speaker.provider]
        asked = {turn.text for turn in view.turns if turn.speaker == Speaker.seeker}
        language = self.task.language
        obtained = {
            node_id
            for node_id in self.path
            if any(carries_node(reply, self.task.tree[node_id].text, language) for reply in replies)
        }
        frontier = self.task.tree.frontier(obtained)
        for node_id in (node_id for node_id in self.path if node_id in frontier):
            fresh = [question for question in self.phrasings[node_id] if question not in asked]
            if fresh:
                return fresh[0]
        return goodbye(view.language)
