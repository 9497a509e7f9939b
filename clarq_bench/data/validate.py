"""Validate every task file of a data folder, collecting one problem line per malformed file."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from ..core.errors import DataError
from .loader import LANGUAGE_FOLDERS, load_task_file, parse_file_name


class ValidationReport(BaseModel):
    files: int = 0
    tasks: int = 0
    problems: list[str] = []


def validate_folder(root: Path) -> ValidationReport:
    """Load each `<N>._<Type>.json` file on its own so one bad file does not hide the others."""
    report = ValidationReport()
    for language, folder_name in LANGUAGE_FOLDERS.items():
        folder = Path(root) / folder_name
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            report.files += 1
            try:
                parse_file_name(path)
                report.tasks += len(load_task_file(path, language))  # type: ignore[arg-type]
            except DataError as exc:
                report.problems.append(str(exc))
    if report.files == 0:
        report.problems.append(f"{root}: no English/ or Chinese/ folder with task files")
    return report
