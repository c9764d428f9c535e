"""What the terminal shows: a live progress bar with ETA while jobs run, then a table and the scores."""
from __future__ import annotations

import sys
import time

from .metrics import BASELINES, FAST_P, p_key


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """A bar redrawn on the last line of a terminal (one line per finished job when not a terminal)."""

    def __init__(self, total: int, stream=None, width: int = 28):
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def bar(self) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(round(fraction * self.width))
        elapsed = time.monotonic() - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {fraction:4.0%} "
                f"elapsed {_clock(elapsed)} ETA {_clock(eta) if self.done else '?'}")

    def update(self, record: dict) -> None:
        self.done += 1
        name = record["problem"] + (f" [{record['sample']}]" if record.get("sample") else "")
        line = f"{name}: {record['status']}"
        speed = (record.get("timing") or {}).get("speedup_eager")
        if speed is not None:
            line += f" ({speed:.2f}x eager)"
        if record["reasons"] and record["status"] != "pass":
            line += " " + ",".join(record["reasons"][:4])
        if self.tty:
            self.stream.write("\r\033[K" + line + "\n" + self.bar())
        else:
            self.stream.write(self.bar() + "  " + line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _ms(value) -> str:
    return "-" if value is None else (f"{value:.3f}" if value < 100 else f"{value:.1f}")


def _x(value) -> str:
    return "-" if value is None else f"{value:.2f}x"


def results_table(records: list[dict]) -> str:
    header = ["problem", "status", "ours ms", "eager ms", "vs eager", "compile ms", "vs compile", "floor",
              "max diff", "reasons"]
    rows = []
    for r in sorted(records, key=lambda r: (r["problem"], r["sample"])):
        timing, floor, corr = r.get("timing") or {}, r.get("floor") or {}, r.get("correctness") or {}
        fraction = floor.get("achieved_fraction")
        diff = corr.get("max_abs_diff")
        rows.append([
            r["problem"] + (f" [{r['sample']}]" if r["sample"] else ""),
            r["status"],
            _ms((timing.get("ours") or {}).get("median_ms")),
            _ms((timing.get("eager") or {}).get("median_ms")),
            _x(timing.get("speedup_eager")),
            _ms((timing.get("compile") or {}).get("median_ms")),
            _x(timing.get("speedup_compile")),
            "-" if fraction is None else f"{fraction:.0%}",
            "-" if diff is None else f"{diff:.1e}",
            ",".join(reason for reason in r["reasons"] if reason != r["status"])[:60],
        ])
    return _format(header, rows, right_aligned={2, 3, 4, 5, 6, 7, 8})


def summary_table(summary: dict) -> str:
    header = ["group", "problems", "correct", "suspect"]
    header += [f"fast_{p_key(p)} e/c" for p in FAST_P if p > 0]
    header += ["geomean e", "geomean c", "pass@1"]
    rows = []
    for name, s in list(summary["groups"].items()) + [("TOTAL", summary["total"])]:
        row = [name, str(s["problems"]), f"{s['correct']} ({s['correct'] / max(1, s['problems']):.0%})",
               str(s["suspect"])]
        for p in FAST_P:
            if p > 0:
                e, c = (s["fast_p"][b][p_key(p)] for b in BASELINES)
                row.append(f"{e:.0%}/{c:.0%}")
        row += [_x(s["geomean_speedup"]["eager"]), _x(s["geomean_speedup"]["compile"]),
                "-" if "1" not in s["pass_at_k"] else f"{s['pass_at_k']['1']:.0%}"]
        rows.append(row)
    return _format(header, rows, right_aligned=set(range(1, len(header))))


def _format(header: list[str], rows: list[list[str]], right_aligned: set[int]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)] if rows else [len(h) for h in header]
    lines = []
    for i, row in enumerate([header] + rows):
        cells = [c.rjust(w) if j in right_aligned else c.ljust(w) for j, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
