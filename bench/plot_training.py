"""One figure of several training runs: win rate against the default bot (greedy) against training time.

    python bench/plot_training.py docs/figures/train-strength.png train-out/rank-4p train-out/kqp-6p ...

Each folder is a ``courtcards train --out`` folder; its ``metrics.csv`` (one row per evaluation) and its
``network.npz`` metadata (game and players, for the legend) are read. The shaded band is the 95% Wilson
interval of each evaluation; the dashed line of the same colour is the fair share (1 / players).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from courtcards.analysis.stats import wilson
from courtcards.nn import load_network


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("runs", nargs="+", type=Path)
    args = ap.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, run in enumerate(args.runs):
        with (run / "metrics.csv").open() as f:
            rows = [r for r in csv.DictReader(f) if r["eval_games"] and int(r["eval_games"])]
        meta = load_network(run / "network.npz").meta
        xs = [float(r["seconds"]) / 60 for r in rows]
        ys = [float(r["win_rate"]) for r in rows]
        bands = [wilson(int(r["eval_wins"]), int(r["eval_games"])) for r in rows]
        colour = f"C{i}"
        label = f"{meta['game']} {meta['players']}p ({rows[-1]['eval_games']} games an evaluation)"
        ax.plot(xs, ys, marker="o", color=colour, label=label)
        ax.fill_between(xs, [b[0] for b in bands], [b[1] for b in bands], color=colour, alpha=0.12)
        ax.axhline(float(rows[-1]["fair_share"]), color=colour, linestyle="--", linewidth=0.8)
    ax.set_xlabel("training time (minutes, evaluations not counted)")
    ax.set_ylabel("win rate against greedy")
    ax.set_ylim(0, 1)
    ax.set_title("courtcards train: nn in one seat vs greedy (dashed: fair share)", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
