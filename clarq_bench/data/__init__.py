"""Where tasks come from: the loader (loader.py), the pinned upstream download with its checksums (download.py,
checksums/), the released result files (upstream.py), validation (validate.py) and task statistics (task_stats.py).

Imports core only; never a model, a dialogue or a score.
"""
