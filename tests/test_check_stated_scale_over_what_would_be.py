"""Raw scores, their weights with the scale the text states, and the weights they would have without it:

    | Token | Raw Score |          (my scores 6, 2, 0)
    When the scores are scaled by 1/sqrt(4) = 0.5, the weights become about **(0.84, 0.11, 0.04)**.
    Without scaling, the weights would be about **(0.98, 0.02, 0.00)**.

The two readings explain as many numbers, and "Without scaling" was taken as the page saying it does not scale, so
the unscaled reading won and the weights the page works out were left unchecked (an outside trial's page, t238a).
A sentence of what would happen otherwise states no choice of the page (`readers/builder.py`, `_WOULD`), and on a
tie the scale the text states wins over the scores as printed (`infer/starts.py`).  My own scores."""

import numpy as np

from mha.check import check_document


def _fmt(w):
    return "(" + ", ".join(f"{x:.2f}" for x in w) + ")"


def _page():
    s = np.array([6.0, 2.0, 0.0])
    scaled = np.exp(s / 2) / np.exp(s / 2).sum()
    plain = np.exp(s) / np.exp(s).sum()
    return "\n".join(["# Scores of one query", "", "| Token | Raw Score |", "| --- | --- |", "| 1 | 6 |", "| 2 | 2 |",
                      "| 3 | 0 |", "",
                      f"When the scores are scaled by 1/sqrt(4) = 0.5, the weights become about **{_fmt(scaled)}**.",
                      "", f"Without scaling, the weights would be about **{_fmt(plain)}**.", ""])


def test_the_stated_scale_is_the_reading():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert "d_k = 4" in r.configuration["scale"], r.configuration
