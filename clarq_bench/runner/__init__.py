"""The runner: dialogues played between a seeker and a provider. dialogue.py plays one (knows no names, files or
flags); batch.py plays many into a resumable run folder, concurrently, behind the circuit breaker (breaker.py);
prepare.py turns a run's options into a run ready to play (prepared.py's PreparedRun: config, tasks, checked
client, run folder, and the seeker and provider resolved once, at the door); run_identity.py stamps the config with
what the run decided, once; runs_index.py lists the runs on disk (`clarq runs`, the identical-run warning);
estimate.py prices a run before it starts (`clarq run --dry-run`); person.py plays one dialogue with a person at the
terminal (`clarq play`) and web_play.py serves the page where people play as the seeker (`clarq play --web`).

Imports the agents (seekers, provider), llm, data and core. It does not score (api.py scores a finished run with
scoring.sources.score_run), owns no file layout (core.run_folder does), decides no agent name (seekers/registry.py
and provider/registry.py do) and parses no argv (cli/ does). dialogue.py has no registry dependency, no config
parsing and no side effects: it is handed a task, a seeker and a provider; batch.py builds each dialogue's agents
from the two specs it is handed and resolves no name (run_dialogues, for callers holding a bare config, makes the
run ready first, as prepare does). Nothing imports runner except fidelity, clarify, inspect_task, api and cli.
"""
