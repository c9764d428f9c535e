"""The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched).

Sections: run facts; the summary table (per group and total); three plots, each a sorted bar chart drawn here
as SVG: speedup per problem over eager and over torch.compile (log scale, a line at 1x), and the fraction of
the speed-of-light floor each problem achieves (log scale, a line at the floor); the table of all problems; the
reasons and error messages of those that failed.
"""
from __future__ import annotations

import html
import math

from .metrics import BASELINES, FAST_P, p_key, best_sample, group_by_problem, is_fast_candidate

CSS = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2em auto; max-width: 1440px;
       color: #1d2330; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 1.8em; }
p.meta { color: #556; margin-top: 0.3em; font-size: 0.9em; }
div.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 3px 8px; border-bottom: 1px solid #dde; text-align: right; white-space: nowrap; }
th { background: #f2f4f8; } td.name, th.name { text-align: left; } td.reasons { text-align: left; white-space: normal; }
tr.total td { font-weight: bold; border-top: 2px solid #99a; }
.pass { color: #17803d; } .suspect { color: #b86e00; } .fail { color: #c0262d; }
svg { background: #fff; border: 1px solid #e3e6ee; margin: 0.3em 0; }
svg text { font-size: 11px; fill: #333; } svg .axis { stroke: #888; } svg .grid { stroke: #eceef3; }
svg .ref { stroke: #333; stroke-dasharray: 4 3; }
svg .up { fill: #2e9e5b; } svg .down { fill: #d2544f; } svg .over { fill: #e29a21; } svg .under { fill: #4b7bd1; }
details { margin: 0.3em 0; } pre { background: #f6f7f9; padding: 0.6em; overflow-x: auto; font-size: 0.8em; }
"""


def build_report(records: list[dict], summary: dict, meta: dict) -> str:
    """The whole page. meta: {"title", "time", "device", "torch", "triton", "calibration", "command"}."""
    best = [best_sample(samples) for samples in group_by_problem(records).values()]
    counted = [r for r in best if is_fast_candidate(r)]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(meta.get('title', 'tritonize bench'))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{_e(meta.get('title', 'tritonize bench'))}</h1>",
        f'<p class="meta">{_meta_line(meta)}</p>',
        "<h2>Summary</h2>",
        summary_html(summary),
    ]
    for baseline, title in (("eager", "Speedup over eager PyTorch"), ("compile", "Speedup over torch.compile")):
        items = [(_label(r), r["timing"][f"speedup_{baseline}"]) for r in counted
                 if r.get("timing") and r["timing"].get(f"speedup_{baseline}")]
        parts.append(f"<h2>{title}</h2>")
        parts.append(bar_chart(items, f"speedup-{baseline}", reference=1.0, unit="x",
                               above="up", below="down", from_reference=True))
    items = [(_label(r), r["floor"]["achieved_fraction"]) for r in best
             if r.get("correct") and r.get("floor") and r["floor"].get("achieved_fraction")]
    parts.append("<h2>Fraction of the speed-of-light floor achieved</h2>")
    parts.append('<p class="meta">floor = max(bytes moved / copy bandwidth, FLOPs / peak rate); '
                 "1 is the floor, above it is suspect</p>")
    parts.append(bar_chart(items, "floor-fraction", reference=1.0, unit="", above="over", below="under",
                           from_reference=False))
    parts.append("<h2>Problems</h2>")
    parts.append(problems_html(records))
    parts.append(failures_html(records))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _label(record: dict) -> str:
    return record["problem"] + (f" [{record['sample']}]" if record.get("sample") else "")


def _meta_line(meta: dict) -> str:
    items = []
    for key in ("time", "device", "torch", "triton"):
        if meta.get(key):
            items.append(f"{key}: {_e(meta[key])}")
    calibration = meta.get("calibration") or {}
    if calibration:
        how = "measured" if calibration.get("measured") else "default"
        items.append(f"copy bandwidth ({how}): {calibration['bandwidth'] / 1e12:.2f} TB/s")
        peaks = calibration.get("peak_flops", {})
        items.append("peaks: " + ", ".join(f"{k} {v / 1e12:.0f}" for k, v in peaks.items()) + " TFLOP/s")
    if meta.get("command"):
        items.append(f"command: <code>{_e(meta['command'])}</code>")
    return " &middot; ".join(items)


def _pct(x) -> str:
    return "-" if x is None else f"{x:.0%}"


def _speed(x) -> str:
    return "-" if x is None else f"{x:.2f}x"


def summary_html(summary: dict) -> str:
    head = ["group", "problems", "samples", "correct", "suspect"]
    head += [f"fast<sub>{p_key(p)}</sub>" for p in FAST_P]
    head += ["geomean speedup", "geomean of floor"]
    ks = sorted({k for s in [summary["total"]] + list(summary["groups"].values()) for k in s["pass_at_k"]}, key=int)
    head += [f"pass@{k}" for k in ks]
    rows = []
    entries = list(summary["groups"].items()) + [("total", summary["total"])]
    for index, (name, s) in enumerate(entries):
        cells = [f'<td class="name">{_e(name)}</td>', f"<td>{s['problems']}</td>", f"<td>{s['samples']}</td>",
                 f"<td>{s['correct']} ({_pct(s['correct'] / max(1, s['problems']))})</td>", f"<td>{s['suspect']}</td>"]
        cells += [f"<td>{' / '.join(_pct(s['fast_p'][b][p_key(p)]) for b in BASELINES)}</td>" for p in FAST_P]
        cells.append(f"<td>{' / '.join(_speed(s['geomean_speedup'][b]) for b in BASELINES)}</td>")
        cells.append(f"<td>{_pct(s['geomean_achieved_fraction'])}</td>")
        cells += [f"<td>{_pct(s['pass_at_k'].get(k))}</td>" for k in ks]
        css = ' class="total"' if index == len(entries) - 1 else ""
        rows.append(f"<tr{css}>{''.join(cells)}</tr>")
    header = "".join(f'<th class="name">{h}</th>' if i == 0 else f"<th>{h}</th>" for i, h in enumerate(head))
    note = ('<p class="meta">fast<sub>p</sub>: share of all problems correct and more than p times faster, against '
            "eager / against torch.compile (fast<sub>0</sub>: correct and not suspect); speedups: geometric means "
            "against eager / against torch.compile</p>")
    return (f'<div class="scroll"><table class="summary"><thead><tr>{header}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>{note}')


def problems_html(records: list[dict]) -> str:
    head = ["problem", "status", "ours ms", "eager ms", "vs eager", "compile ms", "vs compile", "compile s",
            "floor ms", "of floor", "max abs diff", "reasons"]
    rows = []
    for r in sorted(records, key=lambda r: (r["problem"], r["sample"])):
        timing, floor, corr = r.get("timing") or {}, r.get("floor") or {}, r.get("correctness") or {}
        css = "pass" if r["status"] == "pass" else "suspect" if r["status"] == "suspect" else "fail"
        diff = corr.get("max_abs_diff")
        cells = [
            f'<td class="name">{_e(_label(r))}</td>',
            f'<td class="name {css}">{_e(r["status"])}</td>',
            f"<td>{_num((timing.get('ours') or {}).get('median_ms'))}</td>",
            f"<td>{_num((timing.get('eager') or {}).get('median_ms'))}</td>",
            f"<td>{_speed(timing.get('speedup_eager'))}</td>",
            f"<td>{_num((timing.get('compile') or {}).get('median_ms'))}</td>",
            f"<td>{_speed(timing.get('speedup_compile'))}</td>",
            f"<td>{_num(timing.get('compile_seconds'))}</td>",
            f"<td>{_num(floor.get('floor_ms'))}</td>",
            f"<td>{_pct(floor.get('achieved_fraction'))}</td>",
            f"<td>{'-' if diff is None else f'{diff:.2e}'}</td>",
            f'<td class="reasons">{_e(", ".join(x for x in r["reasons"] if x != r["status"]))}</td>',
        ]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    header = "".join(f'<th class="name">{h}</th>' if i in (0, 1) else f"<th>{h}</th>" for i, h in enumerate(head))
    return (f'<div class="scroll"><table class="problems"><thead><tr>{header}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _num(x) -> str:
    if x is None:
        return "-"
    return f"{x:.4f}" if x < 1 else f"{x:.3f}" if x < 100 else f"{x:.1f}"


def failures_html(records: list[dict]) -> str:
    failed = [r for r in records if r["status"] != "pass"]
    if not failed:
        return ""
    parts = ["<h2>Failures and flags</h2>"]
    for r in sorted(failed, key=lambda r: (r["problem"], r["sample"])):
        lines = []
        if r.get("error"):
            lines.append(r["error"]["message"])
        for v in (r.get("static") or {}).get("violations", []):
            lines.append(f"line {v['line']}: [{v['rule']}] {v['message']}")
        summary = f"{_e(_label(r))}: {_e(r['status'])} ({_e(', '.join(r['reasons']))})"
        body = f"<pre>{_e(chr(10).join(lines))}</pre>" if lines else ""
        parts.append(f"<details><summary>{summary}</summary>{body}</details>")
    return "\n".join(parts)


# ---- SVG bar chart ------------------------------------------------------------------------------------------


def bar_chart(items: list[tuple[str, float]], chart_id: str, reference: float, unit: str, above: str, below: str,
              from_reference: bool) -> str:
    """Bars sorted high to low on a log axis; a dashed line at `reference`.

    from_reference: bars grow from the reference line (up for above, down for below), as for speedups;
    otherwise from the bottom of the axis, as for fractions of the floor.
    """
    items = sorted(((label, v) for label, v in items if v and v > 0), key=lambda item: -item[1])
    if not items:
        return f'<p id="{chart_id}" class="meta">No timed correct problems.</p>'
    values = [v for _, v in items]
    lo = 10 ** math.floor(math.log10(min(min(values), reference)))
    hi = 10 ** math.ceil(math.log10(max(max(values) * 1.0001, reference)))
    n = len(items)
    labelled = n <= 50
    left, right, top = 58, 12, 14
    bottom = 150 if labelled else 24
    plot_h = 260
    bar_w = max(3.0, min(28.0, 1100.0 / n))
    width = int(left + right + bar_w * n)
    width = max(width, 560)
    height = top + plot_h + bottom

    def y(v: float) -> float:
        return top + plot_h * (1 - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))

    out = [f'<svg id="{chart_id}" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img">']
    for tick in _log_ticks(lo, hi):
        ty = y(tick)
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" text-anchor="end">{_tick_label(tick)}{unit}</text>')
    base_y = y(reference) if from_reference else top + plot_h
    for i, (label, v) in enumerate(items):
        x = left + i * bar_w
        y0, y1 = sorted((base_y, y(v)))
        css = above if v >= reference else below
        out.append(f'<rect class="bar {css}" x="{x + bar_w * 0.1:.1f}" y="{y0:.1f}" width="{bar_w * 0.8:.1f}" '
                   f'height="{max(y1 - y0, 0.5):.1f}"><title>{_e(label)}: {v:.3g}{unit}</title></rect>')
        if labelled:
            lx, ly = x + bar_w / 2, top + plot_h + 8
            out.append(f'<text class="label" x="{lx:.1f}" y="{ly:.1f}" text-anchor="end" '
                       f'transform="rotate(-60 {lx:.1f} {ly:.1f})">{_e(_short(label))}</text>')
    ry = y(reference)
    out.append(f'<line class="ref" x1="{left}" x2="{width - right}" y1="{ry:.1f}" y2="{ry:.1f}"/>')
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}"/>')
    out.append("</svg>")
    return "\n".join(out)


def _log_ticks(lo: float, hi: float) -> list[float]:
    decades = round(math.log10(hi / lo))
    steps = (1, 2, 5) if decades <= 3 else (1,)
    ticks = []
    exponent = round(math.log10(lo))
    while 10 ** exponent <= hi * 1.0001:
        for step in steps:
            t = step * 10 ** exponent
            if lo * 0.9999 <= t <= hi * 1.0001:
                ticks.append(t)
        exponent += 1
    return ticks


def _tick_label(t: float) -> str:
    return f"{t:g}"


def _short(label: str, limit: int = 28) -> str:
    label = label.split("/")[-1]
    return label if len(label) <= limit else label[: limit - 1] + "…"
