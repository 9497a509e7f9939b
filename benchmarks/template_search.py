"""How far does a no-skill template seeker get against the offline provider? The template search, with
the honest heuristic beside it.

Usage: python benchmarks/template_search.py [--points N] [--seed S] [--tune-types 1-13] [--types 14-26]
       [--provider offline] [--workers N] [--json]
Runs `clarq provider-audit --search` in both provider modes (single, multi-info; 12-turn cap; en and zh): every
sampled point of the template family (seekers/templates.py) on the tune types, each family's best point on the
report types, and the known attacks (the named members) as they are; then the heuristic and the oracle on the
report types. Prints the search tables and one line per language and mode: the best held-out template, the best
known attack, the heuristic and the oracle. Needs the released task data ($CLARQ_DATA or the download cache).

Re-run it against a new provider, and against the old one on the same machine, to compare.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=30, help="points per language and mode (1-60, default 30)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tune-types", default="1-13")
    parser.add_argument("--types", default="14-26")
    parser.add_argument("--provider", default="offline")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the search reports and audit rows as JSON")
    args = parser.parse_args(argv)

    from clarq_bench.api import audit_provider, search_provider
    from clarq_bench.cli.search_table import print_search, shown

    out: dict[str, object] = {}
    lines = []
    for mode in ("single", "multi-info"):
        report, _ = search_provider(
            None,
            types=args.types,
            tune_types=args.tune_types,
            provider=args.provider,
            modes=[mode],
            points=args.points,
            seed=args.seed,
            workers=args.workers,
        )
        reference, _ = audit_provider(
            None,
            types=args.types,
            provider=args.provider,
            provider_mode=mode,
            strategies="heuristic,oracle",
            workers=args.workers,
        )
        out[mode] = {"search": report.model_dump(mode="json"), "reference": reference.model_dump(mode="json")}
        if not args.json:
            print_search(report)
        for headline in report.headlines:
            known = [r for r in report.known if r.language == headline.language and r.role == "template"]
            best_known = max(known, key=lambda r: r.success.value or 0.0) if known else None
            heuristic = reference.row("heuristic", headline.language)
            oracle = reference.row("oracle", headline.language)
            lines.append(
                f"{headline.language} {mode:10s} best held-out template "
                f"{shown(headline.success, True) if headline.success else '-'} ({headline.strategy}); "
                f"best known attack {shown(best_known.success, True) if best_known else '-'} "
                f"({best_known.strategy if best_known else '-'}); "
                f"heuristic {shown(heuristic.success, True) if heuristic else '-'}; "
                f"oracle {shown(oracle.success, True) if oracle else '-'}"
            )
    if args.json:
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
