"""Playing the benchmark: one dialogue (dialogue.py), a run of many (runner.py) with its config (run_config.py),
identity (run_identity.py) and circuit breaker (breaker.py); the runs on disk (runs_index.py: `clarq runs`, the
identical-run warning) and the cost of a run before it starts (estimate.py: `clarq run --dry-run`).

Imports the agents (seekers, provider), scoring (a finished run is scored into summary.json), llm, data and core;
nothing imports play except fidelity, api and cli.
"""
