"""One row-source of the leaderboard site: a verified (or reference, or unverified) submission ready to render.

Kept apart from the page code so pages read one shape whatever the origin: a submission file that passed (or failed)
verification, or a released upstream dialogue file imported as a reference row.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ..core.tasks import Task
from ..core.transcript import Transcript
from ..scoring.judge import Verdict
from .figures import current_names
from .schema import Manifest

STATUS_VERIFIED, STATUS_UNVERIFIED, STATUS_REFERENCE, STATUS_FAILED = "verified", "not verified", "reference", "failed"
#: How the provider's replies are known: replayed through the installed deterministic provider, or as recorded.
REPLAYED, SELF_REPORTED = "replayed", "self-reported"


@dataclass
class Entry:
    manifest: Manifest
    transcripts: list[Transcript]
    verdicts: list[Verdict]  # what the figures and the viewer use (recomputed when verified)
    tasks: dict[str, Task]  # may be empty: pages then show what the transcripts alone tell
    status: str
    problems: list[str] = field(default_factory=list)
    source: str = ""
    provenance: str = SELF_REPORTED

    @property
    def oracle_class(self) -> bool:
        """The seeker read the response tree: shown apart, never ranked among seekers."""
        return self.manifest.tree_access or self.manifest.label.value == "oracle-class"

    @property
    def title(self) -> str:
        sub = self.manifest.submitter
        return sub.name or f"{self.manifest.seeker.name} vs {self.manifest.provider.name}"

    @property
    def slug(self) -> str:
        """A file-name-safe, unique id: a readable stem plus a digest of the run and task set."""
        stem = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-")[:40] or "submission"
        digest = hashlib.sha256(
            f"{self.manifest.run_id}|{self.manifest.task_set_hash}|{self.source}".encode()
        ).hexdigest()
        return f"{stem}-{digest[:8]}"

    @property
    def summary(self) -> dict[str, Any]:
        return current_names(self.manifest.metrics.get("summary") or {})

    def language_group(self, language: str) -> dict[str, Any] | None:
        for group in self.summary.get("by_language") or []:
            if group.get("key") == f"lang={language}":
                return group
        return None

    @property
    def languages(self) -> list[str]:
        return sorted({t.language for t in self.transcripts})
