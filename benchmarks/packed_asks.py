"""How far do seekers that pack many asks into one turn get against a provider? The held-out packed-ask family.

Usage: python benchmarks/packed_asks.py [--types 14-26] [--provider offline] [--lang all] [--mode both]
       [--references] [--workers N] [--json]
Plays every member of seekers/packed.py (asks joined by "and", commas, semicolons, slashes, new lines, bullet lists,
two scripts, one long sentence, or kept within three sentences of two question words) with the 12-turn cap, in both
provider modes, en and zh (`--references`: with the honest heuristic and the oracle beside them), and prints each
one's success rate per language and mode. Target for a provider: no member above 15% anywhere. Needs the released task data
($CLARQ_DATA or the download cache).
"""

from __future__ import annotations

import argparse
import json
import sys

from clarq_bench.core.defaults import DEFAULT_MAX_TURNS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--types", default="14-26")
    parser.add_argument("--provider", default="offline")
    parser.add_argument("--lang", default="all", choices=["en", "zh", "all"])
    parser.add_argument("--mode", default="both", choices=["single", "multi-info", "both"])
    parser.add_argument("--references", action="store_true", help="also play the heuristic and the oracle")
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the audit rows as JSON")
    args = parser.parse_args(argv)

    from clarq_bench.api import audit_provider
    from clarq_bench.fidelity.audit import PACKED_TARGET
    from clarq_bench.seekers.registry import PACKED

    names = [*PACKED, *(["heuristic", "oracle"] if args.references else [])]
    modes = ["single", "multi-info"] if args.mode == "both" else [args.mode]
    rows: dict[tuple[str, str, str], float] = {}
    dumped = []
    for mode in modes:
        report, _ = audit_provider(
            None,
            lang=args.lang,
            types=args.types,
            provider=args.provider,
            provider_mode=mode,
            strategies=names,
            max_turns=args.max_turns,
            workers=args.workers,
        )
        for row in report.rows:
            rows[row.strategy, row.language, mode] = row.success.value or 0.0
            dumped.append({"mode": mode, **row.model_dump(mode="json")})
    if args.json:
        json.dump(dumped, sys.stdout, indent=2)
        print()
        return 0
    columns = [
        (lang, mode)
        for lang in ("en", "zh")
        for mode in ("single", "multi-info")
        if any((n, lang, mode) in rows for n in names)
    ]
    print(
        f"success on types {args.types}, provider {args.provider}, {args.max_turns}-turn cap "
        f"(target for pack-*: <= {100 * PACKED_TARGET:.0f}%)"
    )
    print(f"{'seeker':<16}" + "".join(f"{lang + ' ' + mode:>16}" for lang, mode in columns))
    worst = 0.0
    for name in names:
        cells = [rows.get((name, lang, mode)) for lang, mode in columns]
        if name in PACKED:
            worst = max([worst, *(c for c in cells if c is not None)])
        flags = ["*" if name in PACKED and c is not None and c > PACKED_TARGET else " " for c in cells]
        print(
            f"{name:<16}" + "".join(f"{'-' if c is None else f'{100 * c:.1f}%':>15}{f}" for c, f in zip(cells, flags))
        )
    print(f"highest pack-* success: {100 * worst:.1f}% (* above the target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
