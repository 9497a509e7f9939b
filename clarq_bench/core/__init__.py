"""The shared model at the bottom of the house: tasks and their response trees, transcripts, the goodbye rule,
prompt templates, the Registry, user errors, JSONL files, secret redaction and reading a person's line at the
terminal (terminal.py).

Everything else may import it; it imports nothing of clarq_bench outside core (the standard library and pydantic).
"""
