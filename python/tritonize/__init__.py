"""tritonize's Python side: the harness that verifies and times generated files.

python3 -m tritonize.check REF.py GEN.py   one problem (check.py)
python3 -m tritonize.bench PATHS...        many problems, with a report (bench.py)

Modules: problem (files on disk), static_check, protocol (correctness), timing, floor and calibrate (the
speed-of-light floor), worker (one job in its own process), runner (isolation, GPUs), schema (the JSON record),
metrics, report_text and report_html. Importing the package imports no torch.
"""

__version__ = "0.1.0"
