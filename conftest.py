"""Doctest collection of src/mha: a module whose optional dependency is missing is not collected.

mha.exact and mha.explanation.closed import sympy at the top (only `--exact` and `--precision` above 12
import them); without the `exact` extra their doctests cannot run, as tests/test_exact*.py skip.
"""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("sympy") else ["src/mha/exact.py", "src/mha/explanation/closed.py"]
