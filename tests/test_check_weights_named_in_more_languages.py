r"""A row of attention weights named in Russian, Ukrainian, Polish, Indonesian, Italian or Turkish (`Веса:`, `Wagi:`,
`Bobot:`, `Pesi:`), as outside trials' pages name it (t245c).  Without a name the checker knew, a row of three
weights with one slip was an unlabelled object matching nothing, so the slip was lost.  My own numbers: one query
against three keys, scaled by √2."""

import numpy as np
import pytest
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

NAMES = ["Веса", "Ваги", "Wagi", "Bobot", "Pesi", "Ağırlıklar"]


def _page(name, second=None):
    s = np.array([1.0, 0.0, 1.0]) / np.sqrt(2)
    w = [f"{x:.3f}" for x in softmax(s)]
    w[1] = second or w[1]
    return "\n".join([
        "## Example", "",
        "q = [1, 0]", "k1 = [1, 0]", "k2 = [0, 1]", "k3 = [1, 1]", "v1 = [1, 2]", "v2 = [3, 0]", "v3 = [0, 1]", "",
        "q·k1 = 1, q·k2 = 0, q·k3 = 1, then divide by √2.", "",
        f"{name}: [{', '.join(w)}]", ""])


@pytest.mark.parametrize("name", NAMES)
def test_the_named_row_holds(name):
    report = check_document(_page(name), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_slip_in_the_named_row_is_found(name):
    page = _page(name, "0.300")
    assert error_places(page, fmt="md") == [(line_of(page, "0.300"), "0.300")]
