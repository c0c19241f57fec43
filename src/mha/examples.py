"""Built-in configurations: the worked example of the seed document, the named examples, and random ones.

Every named example is small enough to follow by hand (T <= 5, a few
features per head, mostly 0/1 inputs), and each shows one idea.  Their numbers
are computed by `mha.trace` like any other input; the tests check them against
torch and against independent float64 code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .inputs import random_weights

# The document's configuration: T = 3 tokens, d_model = 4, H = 2 heads of d_head = 2,
# and every weight the 4x4 identity so that Q = K = V = X.
DOCUMENT_EXAMPLE: dict[str, Any] = {
    "X": [[1, 0, 1, 0],
          [0, 1, 0, 1],
          [1, 1, 0, 0]],
    "n_heads": 2,
    "W_Q": "identity", "W_K": "identity", "W_V": "identity", "W_O": "identity",
}

_FLIP = [[0, 1], [1, 0]]          # swaps the two features of a token
_I2 = [[1, 0], [0, 1]]


@dataclass(frozen=True)
class Example:
    """A named configuration with a one-sentence idea in each language."""

    name: str
    idea: dict[str, str]          # lang -> one sentence
    data: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)   # how it is explained: {"devices": 3} adds the ring


def _llama_decode() -> dict[str, Any]:
    """One decoding step of a LLaMA-style layer: 2 query heads share 1 key/value head (MQA, the G = 1 case of
    GQA), RoPE with d_k = 2 (one rotated pair, angle = position in radians), causal, and a cache of 3 tokens.

    The cache holds what the same layer computed for the first three tokens (keys already rotated), so the
    step reproduces the last row of attention over all four tokens.
    """
    from .core import layer
    from .inputs import parse_config

    prefix = {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2, "n_kv_heads": 1,
              "W_Q": "identity", "W_K": [[1, 0], [0, 1], [0, 0], [1, 1]], "W_V": [[1, 0], [0, 0], [0, 1], [1, 0]],
              "W_O": "none", "rope": True, "causal": True}
    steps = layer(parse_config(prefix))
    return {**{k: v for k, v in prefix.items() if k != "X"}, "X": [[0, 1, 1, 0]],
            "cache": {"K": steps.K_all[0].tolist(), "V": steps.V_all[0].tolist()}}


def _kv_cache() -> dict[str, Any]:
    """The worked example's three tokens are in the cache; a fourth token arrives."""
    from .core import layer
    from .inputs import parse_config

    steps = layer(parse_config(dict(DOCUMENT_EXAMPLE, causal=True)))
    return {"X": [[0, 1, 1, 0]], "n_heads": 2, "causal": True,
            "cache": {"K": steps.K_all[0].tolist(), "V": steps.V_all[0].tolist()}}


# X of three tokens shared by several examples
_X3 = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]


def _plain_examples() -> list[Example]:
    return [
        Example("document", {"en": "The worked example this project grew from: 3 tokens, 2 heads, identity weights.",
                             "zh": "本项目所依据的示例：3 个 token、2 个头、单位权重。"}, DOCUMENT_EXAMPLE),
        Example("single-head", {
            "en": "One head whose projections are 4×3, so d_k = 3 is not d_model / H, and no scaling at all.",
            "zh": "单头，投影矩阵是 4×3，所以 d_k = 3 不等于 d_model / H，而且完全不缩放。"},
            {"X": _X3, "n_heads": 1,
             "W_Q": [[1, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 1]],
             "W_K": [[0, 1, 0], [1, 0, 1], [0, 0, 1], [1, 1, 0]],
             "W_V": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]],
             "W_O": "none", "scale": "none"}),
        Example("per-head", {
            "en": "Each head projects the whole token with its own 2×2 matrices; the 4 concatenated columns are "
                  "brought back to 2 by a 4×2 W^O.",
            "zh": "每个头用自己的 2×2 矩阵投影整个 token；拼接后的 4 列由 4×2 的 W^O 变回 2 列。"},
            {"X": [[1, 0], [0, 1], [1, 1]], "n_heads": 2,
             "W_Q": [_I2, _FLIP], "W_K": [_I2, [[1, 0], [0, -1]]], "W_V": [_I2, [[0.5, 0], [0, 2]]],
             "W_O": [[1, 0], [0, 1], [1, 0], [0, 1]]}),
        Example("qkv", {
            "en": "Q, K and V are given directly (no X, no weights), with d_k = 3, so the scores are divided by √3.",
            "zh": "直接给出 Q、K、V（没有 X，也没有权重），d_k = 3，所以分数除以 √3。"},
            {"Q": [[1, 0, 1], [0, 1, 1]], "K": [[1, 1, 0], [0, 1, 1], [1, 0, 1]],
             "V": [[1, 0], [0, 2], [3, 1]], "n_heads": 1}),
        Example("xxt", {
            "en": "The plainest self-attention: Q = K = V = X and softmax(X Xᵀ) X, with no scaling and no W^O.",
            "zh": "最朴素的自注意力：Q = K = V = X，计算 softmax(X Xᵀ) X，不缩放，也没有 W^O。"},
            {"X": [[1, 0], [0, 1], [1, 1]], "n_heads": 1, "scale": "none", "W_O": "none"}),
        Example("batch", {
            "en": "A batch of two sequences that never mix, with two heads and no output projection.",
            "zh": "一个批次里的两条序列互不相干；两个头，没有输出投影。"},
            {"X": [_X3, [[0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 1, 0]]], "n_heads": 2, "W_O": "none"}),
    ]


def _variant_examples() -> list[Example]:
    return [
        Example("gqa", {
            "en": "Grouped-query attention: 4 query heads share 2 key/value heads (heads 1–2 read K^(1), V^(1); "
                  "heads 3–4 read K^(2), V^(2)), so the cache is half as large.",
            "zh": "分组查询注意力：4 个查询头共用 2 个键/值头（头 1–2 用 K^(1)、V^(1)，头 3–4 用 K^(2)、V^(2)），"
                  "缓存因此减半。"},
            {"X": _X3, "n_heads": 4, "n_kv_heads": 2,
             "W_Q": [[1, 0, 0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1, 0, 0],
                     [0, 0, 0, 1, 1, 0, 0, 0]],
             "W_K": "identity", "W_V": "identity", "W_O": "none"}),
        Example("rope", {
            "en": "Rotary position embedding: with d_k = 2 each query and key is turned by its position in "
                  "radians, so a score depends only on how far apart the two tokens are.",
            "zh": "旋转位置编码：d_k = 2 时，每个 query 和 key 按其位置（弧度）旋转，"
                  "因此分数只取决于两个 token 相隔多远。"},
            dict(DOCUMENT_EXAMPLE, rope=True)),
        Example("alibi", {
            "en": "ALiBi: each head adds −slope·distance to its scores (Press et al.'s slopes 1/16 and 1/256 for "
                  "two heads), so far-away tokens count for less.",
            "zh": "ALiBi：每个头给分数加上 −斜率·距离（两个头时 Press 等人的斜率为 1/16 和 1/256），"
                  "离得越远的 token 权重越小。"},
            dict(DOCUMENT_EXAMPLE, alibi=True, causal=True)),
        Example("window", {
            "en": "A sliding window of 2 with a causal mask: each token sees itself and the token before it only.",
            "zh": "宽度为 2 的滑动窗口加因果掩码：每个 token 只看见自己和它前面的一个 token。"},
            {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 1]], "n_heads": 2,
             "causal": True, "window": 2}),
        Example("kv-cache", {
            "en": "One decoding step: the three earlier tokens' keys and values come from the cache, and only the "
                  "new token's row of scores is computed.",
            "zh": "一步解码：前三个 token 的键和值来自缓存，只需计算新 token 那一行分数。"},
            _kv_cache()),
        Example("llama-decode", {
            "en": "A LLaMA-style decoding step: two query heads share one key/value head, RoPE turns queries and "
                  "keys by their positions, and the cache holds three tokens.",
            "zh": "LLaMA 式的一步解码：两个查询头共用一个键/值头，RoPE 按位置旋转 query 和 key，缓存里有三个 token。"},
            _llama_decode()),
        Example("backward", {
            "en": "The backward pass of the worked example's layer for L = sum of Y: every gradient from dY back to "
                  "dW_Q and dX, as a number.",
            "zh": "示例那一层的反向传播，损失 L = Y 的所有元素之和：从 dY 一直到 dW_Q 和 dX，每个梯度都是具体的数。"},
            dict(DOCUMENT_EXAMPLE, backward={"loss": "sum"})),
        Example("backward-causal", {
            "en": "The backward pass with a causal mask and L = ½‖Y − X‖²: the masked scores get no gradient at all.",
            "zh": "带因果掩码的反向传播，损失 L = ½‖Y − X‖²：被遮住的分数完全得不到梯度。"},
            dict(DOCUMENT_EXAMPLE, causal=True, backward={"target": DOCUMENT_EXAMPLE["X"]})),
        Example("ring", {
            "en": "Ring attention: the worked example's 3 tokens on 3 devices, one each; the key/value blocks travel "
                  "round the ring and each device merges them with the online softmax.",
            "zh": "环形注意力：示例的 3 个 token 分到 3 个设备上，每个设备一个；键/值块沿环传递，"
                  "每个设备用在线 softmax 把它们合并。"},
            DOCUMENT_EXAMPLE, options={"devices": 3}),
    ]


def _examples() -> dict[str, Example]:
    return {e.name: e for e in _plain_examples() + _variant_examples()}


EXAMPLES: dict[str, Example] = _examples()


def random_example(T: int = 4, d_model: int = 8, n_heads: int = 2, *, B: int | None = None,
                   seed: int = 0, weights: str = "random") -> dict[str, Any]:
    """A reproducible random input mapping (X drawn from N(0, 1), rounded to 2 decimals for reading)."""
    rng = np.random.default_rng(seed)
    shape = (T, d_model) if B is None else (B, T, d_model)
    data: dict[str, Any] = {"X": rng.standard_normal(shape).round(2), "n_heads": n_heads}
    if weights == "random":
        data.update(random_weights(d_model, seed=seed + 1))
    return data
