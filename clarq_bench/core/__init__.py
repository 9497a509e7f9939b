"""The shared model at the bottom of the house: tasks and their response trees, transcripts, the goodbye rule,
prompt templates, the Registry, user errors, JSONL files, secret redaction, reading a person's line at the
terminal (terminal.py), the run config (run_config.py) and the run folder (run_folder.py: RunDir, its only reader
and writer).

Everything else may import it; it imports nothing of clarq_bench outside core (the standard library and pydantic). It loads no task folder, calls no model and plays nothing.
"""
