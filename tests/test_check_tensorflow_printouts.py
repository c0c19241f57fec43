"""TensorFlow's printout of a tensor (t216d, a notebook that prints its causal attention with TF): `Scores tf.Tensor(`
over the values, closed by `, shape=(3, 3), dtype=float32)`.  Nothing of it was read and the notebook was refused.
It now reads as `Scores = [[..]]`; the additive causal mask printed with its -1e9 fill is the mask, not a set of
wrong -∞; a slip in the weights is found on its line."""

from check_helpers import code_notebook, error_findings

OUT = """Scores tf.Tensor(
[[ 0.5  -1.25  0.75]
 [ 1.5   0.25 -0.5 ]
 [-0.75  1.    0.25]], shape=(3, 3), dtype=float32)
Causal Mask tf.Tensor(
[[-0.e+00 -1.e+09 -1.e+09]
 [-0.e+00 -0.e+00 -1.e+09]
 [-0.e+00 -0.e+00 -0.e+00]], shape=(3, 3), dtype=float32)
Attention Probs tf.Tensor(
[[1.         0.         0.        ]
 [0.77729986 0.22270014 0.        ]
 [0.10556447 {a32} 0.28695397]], shape=(3, 3), dtype=float32)
"""
CODE = ('scores = tf.constant([[0.5, -1.25, 0.75], [1.5, 0.25, -0.5], [-0.75, 1.0, 0.25]])\n'
        'mask = -1e9 * (1 - tf.linalg.band_part(tf.ones((3, 3)), -1, 0))\n'
        'probs = tf.nn.softmax(scores + mask, axis=-1)\n'
        'print("Scores", scores)\nprint("Causal Mask", mask)\nprint("Attention Probs", probs)')


def test_a_tensorflow_printout_is_read_and_holds():
    from mha.check import check_document
    report = check_document(code_notebook([(CODE, OUT.format(a32="0.60748156"))]), fmt="ipynb")
    assert report.errors == [] and report.n_numbers >= 9


def test_a_slip_in_the_weights_is_found_on_its_line():
    found = error_findings(code_notebook([(CODE, OUT.format(a32="0.60478156"))]), fmt="ipynb")
    assert [(f.cell, f.line, f.printed) for f in found] == [(1, 12, "0.60478156")]
