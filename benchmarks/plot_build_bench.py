#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Plot the round-trip legs of benchmarks/build_bench.py's JSON, both ways side by side (PNG).

Usage: python benchmarks/plot_build_bench.py [JSON] [-o docs/build_round_trip.png]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LEGS = [
    ("clean build cu13 [s]", "cu13 (clean)"),
    ("clean build cu12 [s]", "cu12 (clean)"),
    ("round trip return leg [s]", "back to cu13"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", type=Path, default=REPO_ROOT / "benchmarks/results/build_bench.json")
    parser.add_argument("-o", "--output", type=Path, default=REPO_ROOT / "docs/build_round_trip.png")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = json.loads(args.json.read_text())["samples"]
    ways = list(samples[LEGS[0][0]])
    width = 0.38
    figure, axes = plt.subplots(figsize=(7, 4), dpi=120)
    for offset, way in enumerate(ways):
        values = [statistics.median(samples[key][way]) for key, _ in LEGS]
        positions = [i + (offset - 0.5) * width for i in range(len(LEGS))]
        bars = axes.bar(positions, values, width, label=way)
        axes.bar_label(bars, labels=[f"{v:.2f} s" for v in values], fontsize=8)
    axes.set_xticks(range(len(LEGS)), [label for _, label in LEGS])
    axes.set_ylabel("wall time, median [s]")
    axes.set_title("cu13 → cu12 → cu13 in one checkout (2 cores)")
    axes.legend()
    figure.tight_layout()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
