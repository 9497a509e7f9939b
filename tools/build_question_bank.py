"""Build the clarification track's question bank from the released files and print its counts per origin.

Usage: python tools/build_question_bank.py [--results DIR] [--write-manifest]

The bank text is upstream data and is never committed: this prints the counts and checksums, and with
--write-manifest records them in clarq_bench/clarify/bank_manifest.json (run it after changing the builder or the
oracle's question wording; users' banks are then rebuilt and checked against the new manifest on first use).
`clarq select-bank` does the same for users (build, verify, cache, print counts).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from clarq_bench.clarify.bank import BANK_VERSION, MANIFEST, build_bank, manifest_record, resolve_results_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", help="folder of released results files (default: as clarq resolves it)")
    parser.add_argument("--write-manifest", action="store_true", help="write bank_manifest.json")
    args = parser.parse_args()
    folder = resolve_results_dir(args.results)
    languages: dict[str, Any] = {}
    manifest = {"version": BANK_VERSION, "languages": languages}
    for language in ("en", "zh"):
        languages[language] = manifest_record(build_bank(folder, language))
    print(json.dumps(manifest, indent=1, ensure_ascii=False))
    if args.write_manifest:
        MANIFEST.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {MANIFEST}")


if __name__ == "__main__":
    main()
