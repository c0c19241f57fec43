"""A notebook's second example under the same names (t225c, Luong attention: the "dot" score, then the "general"
score through a random matrix that is never printed).  The second example's weights match none of the first's, yet
its context vector got three notes that it "follows from the rounded A and V printed before it; the exact 0.533259
rounds to 0.53325865", the exact value being the first example's.  The context does follow from the weights printed
above it, and a slip in it is still found that way; but those weights are not the configuration's, and the note
now says so instead of calling the first example's value the exact one (claims/rounding.py
`_weights_elsewhere_of`).  My own vectors, computed with plain NumPy."""

import json

import numpy as np

H = np.array([[0.1, 0.4, 0.7], [0.9, 0.2, 0.3], [0.5, 0.5, 0.1], [0.2, 0.8, 0.6]])   # the encoder states
s = np.array([0.3, 0.6, 0.2])                                                       # the decoder state
WA = np.array([[2.0, 0.1, 0.4], [0.2, 1.5, 0.3], [0.6, 0.5, 1.8]])                   # "random", never printed


def _softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def _notebook():
    w1 = _softmax(H @ s)
    w2 = _softmax(H @ (s @ WA))
    fmt = lambda v: "[" + " ".join(f"{x:.8f}" for x in v) + "]"     # noqa: E731

    def cell(src, out=None):
        outs = [{"output_type": "stream", "name": "stdout", "text": out}] if out else []
        return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src, "outputs": outs}
    tail = ("\n# the weights\nattention_weights = np.exp(attention_scores) / np.sum(np.exp(attention_scores))\n"
            "context_vector = np.dot(attention_weights, encoder_hidden_states)\n"
            "print(\"Attention Weights:\", attention_weights)\nprint(\"Context Vector:\", context_vector)\n")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "Global attention with the dot score."},
        cell("import numpy as np\nencoder_hidden_states = np.array([[0.1, 0.4, 0.7],\n [0.9, 0.2, 0.3],\n"
             " [0.5, 0.5, 0.1],\n [0.2, 0.8, 0.6]])\ndecoder_hidden_state = np.array([0.3, 0.6, 0.2])\n"
             "attention_scores = np.dot(decoder_hidden_state, np.transpose(encoder_hidden_states))" + tail,
             f"Attention Weights: {fmt(w1)}\nContext Vector: {fmt(w1 @ H)}\n"),
        {"cell_type": "markdown", "metadata": {}, "source": "The general score, through a matrix Wa drawn at random."},
        cell("Wa = np.random.rand(3, 3)\nattention_scores = np.dot(np.dot(decoder_hidden_state, Wa), "
             "np.transpose(encoder_hidden_states))" + tail,
             f"Attention Weights: {fmt(w2)}\nContext Vector: {fmt(w2 @ H)}\n"),
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_second_examples_weights_are_not_the_firsts():
    w1, w2 = _softmax(H @ s), _softmax(H @ (s @ WA))
    assert np.abs(w1 - w2).min() > 5e-3


def test_the_second_examples_notes_say_its_weights_are_not_the_firsts():
    from mha.check import check_document
    r = check_document(_notebook(), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == []
    notes = [f for f in r.findings if f.cell == 4]
    assert notes and all("not the inferred configuration's" in f.cause and "rounds to" not in f.cause
                         for f in notes), [f.describe() for f in notes]
