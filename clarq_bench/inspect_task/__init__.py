"""clarq inside inspect_ai (the optional extra clarq-bench[inspect]): the task `clarq_bench/clarq` and the
conversion of its eval logs back into clarq run folders (`clarq import-inspect`).

Layer: beside fidelity, clarify and pairwise (tests/test_layers.py): it plays dialogues with runner's dialogue loop,
clarq's provider and the seekers' prompt, scores with scoring's judge and writes run folders with core.run_folder; api
and cli
sit above it. Nothing here imports inspect_ai at import time except registry.py (inspect's entry point).
"""
