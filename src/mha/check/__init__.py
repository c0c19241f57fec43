"""`mha check`: verify the numbers, equations and shapes of a hand-written worked example."""

from .judge import Finding, Report, check_document, main_from_args

__all__ = ["check_document", "Report", "Finding", "main_from_args"]
