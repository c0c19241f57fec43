"""`mha check`: verify the numbers, equations and shapes of a worked example written by anyone.

    document ──reader──▶ numeric objects ──inference──▶ configuration + trace ──matching──▶ claims ──judge──▶ findings

readers/ (one reader per format; tokens, statements) · labels.py (vocabulary) ·
infer.py (search over configurations) · model.py (views of a trace) · judge.py (claims and findings) ·
report.py · command.py (the CLI entry point).
"""

from .command import check_document, main_from_args
from .report import Finding, NotChecked, Report

__all__ = ["check_document", "Report", "Finding", "NotChecked", "main_from_args"]
