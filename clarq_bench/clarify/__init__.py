"""The offline clarification track (ClariQ, MIMICS-Duo): when to ask and what to ask, one decision per state.

states (need-labelled points of each task's human path), bank (question bank built from the released dialogues,
checked against bank_manifest.json, cached), pool (a state's candidates), metrics (MRR, P@1, nDCG, Recall@k, LAR,
OLAR, need P/R/F1/MSE), random_baseline (chance by 1,000 permutations), bm25, rankers (baselines and BM25),
llm_ranker, seeker_ranker (any seeker, or its optional `select_questions`), run and summary (scoring), report,
track (`clarq select`), correlate and correlation (offline vs online, MIMICS-Duo). Layer: beside fidelity; it reads
seekers, llm, scoring, play (open_client: the one door to a checked client) and data. It plays no dialogue and
writes no run folder: correlate reads `clarq run` folders through core.run_folder.
"""
