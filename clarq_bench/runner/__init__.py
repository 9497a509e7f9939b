"""The runner: dialogues played between a seeker and a provider. dialogue.py plays one (knows no names, files or
flags); batch.py plays many into a resumable run folder, concurrently, behind the circuit breaker (breaker.py);
prepare.py turns a run's options into a run ready to play (config, tasks, checked client, run folder);
run_identity.py stamps the config with what the run decided; runs_index.py lists the runs on disk (`clarq runs`,
the identical-run warning); estimate.py prices a run before it starts (`clarq run --dry-run`); web_play.py serves
the page where people play as the seeker (`clarq play --web`).

Imports the agents (seekers, provider), llm, data and core. It does not score (api.py scores a finished run with
scoring.sources.score_run), owns no file layout (core.run_folder does), decides no agent name (seekers/registry.py
and provider/registry.py do) and parses no argv (cli/ does). dialogue.py has no registry dependency, no config
parsing and no side effects: it is handed a task, a seeker and a provider. Nothing imports runner except fidelity, clarify,
inspect_task, api and cli.
"""
