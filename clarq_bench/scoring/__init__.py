"""From transcripts to numbers: the judge (judge.py, judge_llm.py), lengths, metrics with their statistics,
comparisons and the settings compared (comparison.py, settings.py), reports, and reading run folders and released
files to score (sources.py, score_import.py).

Reads transcripts and tasks: imports core, data (tasks, and the text-match rule it shares with the oracle seeker
and the provider replay) and llm (the optional LLM judge) only; never plays a dialogue, never builds an agent.
"""
