r"""A Korean page that states its vectors in code spans inside sentences (an outside trial's page, t243c, had the
checker stop with "configuration could not be inferred").  Three readings were missing: a symbol after Korean words
in the same sentence (`값은 v₁ = ...`) is the symbol; a Korean sentence ends at its period, so the vector after
it is not the one before it; and two values joined by a particle, `가중치 [..]과 출력 [..]` ("weights [..] and
output [..]"), are two statements, not one value and a remark.  My own sentences and numbers."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document


def _page(out="[2.009, 1.981]"):
    q, K, V = np.array([1.0, 0.0]), np.eye(2), np.array([[3.0, 0.0], [0.0, 6.0]])
    w = softmax(K @ q / np.sqrt(2))
    assert np.allclose(w, [0.66976, 0.33024], atol=1e-5) and np.allclose(w @ V, [2.00928, 1.98144], atol=1e-5)
    return "\n".join([
        "# 숫자로 보는 어텐션", "",
        "예를 들어 `q = [1, 0]`, `k₁ = [1, 0]`, `k₂ = [0, 1]`로 둡니다. "
        "값 벡터는 `v₁ = [3, 0]`, `v₂ = [0, 6]`입니다.", "",
        "점수를 √2로 나누고 softmax를 적용합니다.", "",
        f"그 결과 가중치 약 `[{w[0]:.3f}, {w[1]:.3f}]`과 출력 약 `{out}`을 얻습니다.", ""])


def test_the_vectors_in_korean_sentences_are_read_and_hold():
    report = check_document(_page(), fmt="md")
    assert "k_i vectors" in report.configuration["mode"] and "v_i vectors" in report.configuration["mode"]
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 4, report.n_numbers          # the weights and the output


def test_a_slip_in_the_output_after_the_particle_is_found():
    page = _page("[2.009, 1.918]")
    assert error_places(page) == [(line_of(page, "1.918"), "1.918")]
