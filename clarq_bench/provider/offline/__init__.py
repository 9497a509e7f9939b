"""The offline provider (`offline`, `offline-e5`): plays the human from the response tree with rules and a small
linear model, no language model, no key, no network.

provider.py is the provider (one seeker turn -> one reply); linear_model.py decides which frontier nodes a turn asks
about, over the features of ../lexical.py (the text matcher) and context.py, with the coefficients of weights.py
(generated); embeddings.py adds sentence embeddings for offline-e5. It shares the turn screen, the focus rule,
answering, intents and the reply templates with the LLM provider (they stay one level up).

Imports core, data and its parent package only. No registry dependency (provider/registry.py names it), no config
parsing, no side effects at import: nothing here knows a run, a run folder or a command.
"""
