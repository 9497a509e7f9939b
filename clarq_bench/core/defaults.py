"""The defaults every layer shares (the seed, the turn cap, the bootstrap's resamples, the agent-call timeout), in a
module of plain numbers: the command line builds its --help from them without loading the run config's models."""

from __future__ import annotations

#: The seed of every draw clarq makes unless told otherwise (task samples, trials, bootstrap, judges).
DEFAULT_SEED = 8848
#: Seeker turns before a dialogue is cut off (the released setting).
DEFAULT_MAX_TURNS = 12
#: Bootstrap resamples behind every interval clarq reports.
DEFAULT_RESAMPLES = 2000
#: Seconds one agent call (a seeker turn, or a provider reply of several model calls) may take. Generous: a slow real
#: provider makes 5-10 sequential model calls per reply, each retried with backoff on rate limits.
DEFAULT_TURN_TIMEOUT = 600.0
#: Dialogues of a run in flight at once.
DEFAULT_CONCURRENCY = 32
#: Model calls in flight per model (the client's starting cap; llm/limits.py may lower it on rate limits).
DEFAULT_MODEL_CONCURRENCY = 32
