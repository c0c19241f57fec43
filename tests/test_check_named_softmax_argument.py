"""`softmax(sharp_scores) ≈ [...]` under two score vectors: the call names the scores it is of, so its weights are
judged against `sharp_scores`, even where `flat_scores` is printed just before them.  The page is this project's
own."""

from check_helpers import error_lines

PAGE = """# Temperature, by hand

```python
sharp_scores = [4, 1, 2]
flat_scores = [0.4, 0.1, 0.2]

softmax(sharp_scores) ≈ [HOT]
softmax(flat_scores) ≈ [0.3907, 0.2894, 0.3199]
```
"""


def test_weights_named_by_their_argument_are_judged_against_it():
    from mha.check import check_document
    r = check_document(PAGE.replace("HOT", "0.8438, 0.0420, 0.1142"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 6


def test_one_slip_there_is_one_finding_against_the_named_scores():
    found = error_lines(PAGE.replace("HOT", "0.8438, 0.0520, 0.1142"))
    assert list(found) == [7] and len(found[7]) == 1
    f = found[7][0]
    assert f.printed == "0.0520" and abs(f.exact - 0.0420) < 1e-4 and "line 4" in f.claim
