"""Playing the benchmark: one dialogue (dialogue.py), a run of many (runner.py) with its identity (run_identity.py:
the one place a config is stamped) and circuit breaker (breaker.py); the runs on disk (runs_index.py: `clarq runs`,
the identical-run warning) and the cost of a run before it starts (estimate.py: `clarq run --dry-run`).

Imports the agents (seekers, provider), llm, data and core; it does not score (api.py scores a finished run with
scoring.sources.score_run) and owns no file layout (core.run_folder does). Nothing imports play except fidelity,
clarify, api and cli.
"""
