"""Where tasks come from and how their text is read: the loader (loader.py), task selection by language, split and
type (selection.py), the pinned upstream download with its checksums (download.py, checksums/), the released result
files and their turn-by-turn reference decisions (upstream.py, reference_steps.py), the released rule for "does this
utterance carry a node's text" (textmatch.py), validation (validate.py) and task statistics (task_stats.py).

Imports core only; never a model, a dialogue or a score.
"""
