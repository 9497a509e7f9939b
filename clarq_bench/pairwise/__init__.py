"""Pairwise judging of two seekers: the dialogues of two runs side by side, judged by model panels and people, and
aggregated by majority vote and by PCC-H (judges weighted by reliability, items by the entropy of their answers).

items (the pairs and their seeded positions) -> judges (model calls) / people (a local page) -> answers (JSONL) ->
pcch (the method) -> aggregate (figures, position bias, agreement with success and AQD) -> report (tables, files,
the leaderboard's pairwise row). session puts them in a folder. Layer: beside fidelity; imports scoring, llm,
leaderboard (the row schema, its stylesheet and `esc`), data and core; api and cli import it.
"""
