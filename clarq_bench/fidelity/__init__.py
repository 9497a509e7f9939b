"""How faithful the simulated provider is: agreement with the released provider decisions (provider_eval.py) and
the red-team audit of its gameability (audit.py).

Sits above runner (the audit plays dialogues) and scoring; imports no cli and no api. It writes no run folder and
decides no provider name itself (provider/registry.py does); model-call options arrive as llm.options.
"""
