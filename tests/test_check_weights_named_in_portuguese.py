r"""Projection weights set in code under Portuguese names, `pesos_consulta = np.zeros((2, 2))`, `pesos_chave = ...`,
`pesos_valor = np.eye(2)` (an outside trial's lab README, t250c).  "pesos" alone named the attention weights, so
the three were read as A (or not at all: a matrix of zeros was taken for a buffer the code fills in), W_Q and W_K
were assumed to be I, and the uniform weights of the page matched nothing: a slipped weight went unreported.
Portuguese and Spanish names of the projections' weights are W_Q, W_K, W_V and W_O; a projection's weight set to
zeros is an input.  My own numbers and words."""

from check_helpers import error_places, line_of

from mha.check import check_document
from mha.check.labels import parse_label


def _page(w21="0.5"):
    return "\n".join([
        "## Pesos fixos", "",
        "A entrada é `X = [[1, 0], [0, 2]]`.", "",
        "```python",
        "camada.pesos_consulta = np.zeros((2, 2))   # Q = 0",
        "camada.pesos_chave = np.zeros((2, 2))      # K = 0",
        "camada.pesos_valor = np.eye(2)             # V = X",
        "```", "",
        "Como todos os escores são iguais, os pesos são uniformes:", "",
        f"`Pesos = [[0.5, 0.5], [{w21}, 0.5]]`", "",
        "e a saída é a média das linhas de X: `Saída = [[0.5, 1.0], [0.5, 1.0]]`.", ""])


def test_the_names_are_the_projections():
    assert parse_label("camada.pesos_consulta").nodes == ("W_Q",)
    assert parse_label("pesos de la clave").nodes == ("W_K",)
    assert parse_label("pesos_valor").nodes == ("W_V",)
    assert parse_label("pesos_saida").nodes == ("W_O",)
    assert parse_label("pesos de atención").nodes == ("A",)


def test_the_clean_page_checks_clean_with_the_zero_weights():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert "printed" in report.configuration["W_Q"] and "printed" in report.configuration["W_K"]


def test_a_slipped_uniform_weight_is_found():
    page = _page(w21="0.6")
    assert error_places(page) == [(line_of(page, "0.6"), "0.6")]
