"""The offline clarification track on ClarQ-LLM states (after ClariQ and MIMICS-Duo), and those two on their own data.

states (need-labelled points of each task's human path), bank (question bank built from the released dialogues,
checked against bank_manifest.json, cached), pool (a state's candidates), metrics (question-ranking MRR, P@1, nDCG,
Recall@k, LAR, OLAR, need P/R/F1/MSE), random_baseline (chance by 1,000 permutations), bm25, rankers (baselines and
BM25), llm_ranker, seeker_ranker (any seeker, or its optional `select_questions`), rank_states (every state through
one ranker, each scored) and summary, report, track (`clarq select`: options in, the track run, files out);
online_offline with its report (`clarq select-correlate`: offline vs online, an analogue of MIMICS-Duo's question)
and coefficients (Pearson, Spearman, Kendall).
On their own data: clariq_data, clariq_score (the official tool's conventions), clariq_bm25, clariq_llm, clariq_docs,
clariq_track (`clarq clariq`); mimics_duo, mimics_duo_readings and mimics_duo_report (`clarq mimics-duo`: Tables 7,
10, 11 from the released labels). Layer: beside fidelity; it reads seekers, llm, scoring, runner (open_client: the one door to a
checked client) and data. It plays no dialogue and writes no run folder: online_offline reads `clarq run` folders
through core.run_folder.
"""
