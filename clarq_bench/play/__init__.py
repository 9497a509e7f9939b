"""Playing the benchmark: one dialogue (dialogue.py), a run of many (runner.py) with its config (run_config.py),
identity (run_identity.py) and circuit breaker (breaker.py).

Imports the agents (seekers, provider), scoring (a finished run is scored into summary.json), llm, data and core;
nothing imports play except fidelity, api and cli.
"""
