"""From transcripts to numbers: the judge (judge.py, judge_llm.py), lengths, metrics with their statistics,
comparisons and the diff of two runs' settings (comparison.py, settings_diff.py), reports, and reading run folders (through
core.run_folder) and released files to score (sources.py: `score_run`, the one way dialogues are scored;
score_import.py).

Reads transcripts and tasks: imports core, data (tasks, and the text-match rule it shares with the oracle seeker
and the provider replay) and llm (the optional LLM judge) only; never plays a dialogue, never builds an agent.
"""
