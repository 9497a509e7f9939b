"""From transcripts to numbers: the judge (judge.py, judge_llm.py), lengths and text matching, metrics with their
statistics, comparisons, reports, and reading run folders and released files to score (sources.py, score_import.py).

Reads transcripts and tasks: imports core, data and llm (the optional LLM judge) only; never plays a dialogue,
never builds a seeker or a provider.
"""
