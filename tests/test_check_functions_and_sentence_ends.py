"""Arithmetic lines the trials t175a and t175d misread (all false findings before, on pages of my own here):

- "The width is d = 2.  sqrt(2) = 1.4142": the "2." that ends the sentence was multiplied into sqrt(2) (2√2);
- `y = sigmoid(0.2 + 0.3) = 0.622`: a function the arithmetic does not know was dropped and its argument (0.5)
  compared with the value; now such a line states nothing checkable;
- `h1 = tanh(0.6(1) + 0.5(0)) = 0.537`: tanh is worked out (a slip in its value is found)."""

import math

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError


def _errors(text):
    try:
        return check_document(text, fmt="md").errors
    except MHAInputError:
        return []


def test_a_number_ending_its_sentence_multiplies_nothing():
    text = ("# Scale\n\n```text\nThe width is d = 2.  sqrt(2) = 1.4142,  1 / sqrt(2) = 0.7071.\n"
            "exp(0.7071) = 2.0281\n```\n")
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 3, ([f.describe() for f in r.findings], r.n_numbers)


@pytest.mark.parametrize("line", ["y = sigmoid(0.2 + 0.3) = 0.622", "z = relu(-0.5 + 0.2) = 0",
                                  "u = gelu(0.2 + 0.3) = 0.346", "v = softplus(0.2 + 0.3) = 0.974"])
def test_an_unknown_function_of_a_sum_is_no_slip(line):
    assert not _errors(f"# Activations\n\n```text\n{line}\n```\n")


def test_tanh_is_worked_out():
    right = f"{math.tanh(0.6 * 1 + 0.5 * 0):.3f}"
    text = f"# A recurrent step\n\n```text\nh1 = tanh(0.6(1) + 0.5(0)) = {right}\n```\n"
    assert not _errors(text)
    wrong = f"{float(right) + 0.01:.3f}"
    assert [f.printed for f in _errors(text.replace(right, wrong))] == [wrong]
