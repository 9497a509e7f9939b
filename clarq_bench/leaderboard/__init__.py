"""The leaderboard: submission bundles (bundle.py), their verification (verify.py), safe reading of untrusted files
(safety.py), the static site (site.py, pages.py, plots.py, assets/), the viewer of one run or released file with the
site's dialogue pages (view.py: `clarq view`), the pairwise-result file it shows (pairwise_rows.py, written by
clarq_bench.pairwise, which it never imports), the Hugging Face export (hf.py), and the offline clarification
track's summary.json: its schema (track_summary.py, written by clarq_bench.clarify, which it never imports) and its
table on the site (track_rows.py).

Reads run directories (through core.run_folder, by the task ids their config records) and submission files only;
never imports the runner (runner/: dialogues and runs), never runs a model. Imports scoring, the agents (to replay an offline provider), llm, data and core.
"""

from .bundle import build_submission, read_submission, write_submission
from .schema import Label, Manifest, Submission, Submitter
from .verify import Verification, verify_file, verify_submission

__all__ = [
    "Label",
    "Manifest",
    "Submission",
    "Submitter",
    "Verification",
    "build_submission",
    "read_submission",
    "verify_file",
    "verify_submission",
    "write_submission",
]
