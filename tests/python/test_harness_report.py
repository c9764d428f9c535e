"""The HTML report (parsed with html.parser) and the terminal tables."""
import html.parser
import io

import harness_paths  # noqa: F401  (puts python/ on sys.path)
from tritonize import metrics, report_html, report_text


def make_record(problem, status, eager=None, compile=None, fraction=None, group="level1", reasons=()):
    timing = floor = None
    if eager is not None:
        stats = {"median_ms": 1.0, "mean_ms": 1.0, "min_ms": 1.0, "max_ms": 1.0, "std_ms": 0.0, "n": 10}
        timing = {"ours": stats, "eager": dict(stats, median_ms=eager), "compile": dict(stats, median_ms=compile),
                  "speedup_eager": eager, "speedup_compile": compile, "compile_seconds": 3.0}
        floor = {"achieved_fraction": fraction, "floor_ms": fraction}
    return {"problem": problem, "group": group, "sample": "", "status": status,
            "correct": status in ("pass", "suspect"), "reasons": list(reasons), "timing": timing, "floor": floor,
            "correctness": {"max_abs_diff": 1e-6}, "error": None, "static": None}


RECORDS = [
    make_record("level1/1_relu", "pass", 1.5, 0.9, 0.8),
    make_record("level1/2_gelu", "pass", 0.5, 0.4, 0.3),
    make_record("level1/3_matmul", "pass", 3.0, 1.2, 0.6),
    make_record("level2/4_conv", "suspect", 40.0, 30.0, 1.6, group="level2", reasons=["faster_than_floor"]),
    make_record("level2/5_bad<&>", "incorrect", group="level2", reasons=["mismatch"]),
]


class Collector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.svgs = {}          # id -> number of bars
        self.tables = {}        # class -> number of body rows
        self.scripts = 0
        self.external = []
        self.current_svg = None
        self.current_table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.current_svg = a.get("id")
            self.svgs[self.current_svg] = 0
        elif tag == "rect" and self.current_svg and "bar" in a.get("class", "").split():
            self.svgs[self.current_svg] += 1
        elif tag == "table":
            self.current_table = a.get("class")
            self.tables[self.current_table] = 0
        elif tag == "tr" and self.current_table and "tbody" in self.stack:
            self.tables[self.current_table] += 1
        elif tag == "script":
            self.scripts += 1
        for key in ("src", "href"):
            if key in a:
                self.external.append(a[key])
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current_svg = None
        if tag == "table":
            self.current_table = None
        while self.stack and self.stack.pop() != tag:
            pass


def build():
    summary = metrics.summarize(RECORDS)
    page = report_html.build_report(RECORDS, summary, {"title": "test run", "device": "NVIDIA H200",
                                                       "calibration": {"measured": True, "bandwidth": 4.3e12,
                                                                       "peak_flops": {"tf32": 4e14}}})
    parser = Collector()
    parser.feed(page)
    return page, parser


def test_report_has_plots_and_tables():
    page, parser = build()
    assert page.startswith("<!DOCTYPE html>")
    # bars: the three pass records in the speedup plots (suspect speed is not counted); the fraction plot shows
    # every correct problem, the suspect one above the floor included
    assert parser.svgs == {"speedup-eager": 3, "speedup-compile": 3, "floor-fraction": 4}
    assert parser.tables["summary"] == 3       # level1, level2, total
    assert parser.tables["problems"] == len(RECORDS)


def test_report_is_self_contained_and_escaped():
    page, parser = build()
    assert parser.scripts == 0
    assert parser.external == []
    assert "5_bad&lt;&amp;&gt;" in page and "5_bad<&>" not in page


def test_bars_are_sorted_and_log_scaled():
    svg = report_html.bar_chart([("a", 0.5), ("b", 4.0), ("c", 1.5)], "x", reference=1.0, unit="x",
                                above="up", below="down", from_reference=True)
    titles = [line.split("<title>")[1].split(":")[0] for line in svg.splitlines() if "<title>" in line]
    assert titles == ["b", "c", "a"]
    assert 'class="bar up"' in svg and 'class="bar down"' in svg
    assert ">0.1x<" in svg and ">10x<" in svg  # log axis ticks around the data


def test_empty_chart_says_so():
    assert "No timed correct problems" in report_html.bar_chart([], "x", 1.0, "x", "up", "down", True)


def test_terminal_tables():
    table = report_text.results_table(RECORDS)
    assert "level1/3_matmul" in table and "3.00x" in table and "mismatch" in table
    summary = report_text.summary_table(metrics.summarize(RECORDS))
    assert summary.splitlines()[-1].startswith("TOTAL")


def test_progress_lines_when_not_a_terminal():
    stream = io.StringIO()
    progress = report_text.Progress(2, stream=stream)
    progress.update(RECORDS[0])
    progress.update(RECORDS[4])
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert "1/2" in lines[0] and "ETA" in lines[0] and "level1/1_relu: pass (1.50x eager)" in lines[0]
    assert "2/2" in lines[1] and "incorrect mismatch" in lines[1]
