"""Words that qualify a label or a line, with no symbol to parse (helpers of labels.py): a quantity shown
without the scale or the mask, or with a mask; a size or a count named in words; an index run over in a
header; cross-attention; the projection weights named as a whole."""

from __future__ import annotations

import re


# a label that names another reading of a quantity: without the scale (not "scaled" alone, not "before scaling" of
# the raw scores), or without the causal mask (not "masked", not "mask" alone); claims/unscaled.py judges them
UNSCALED = re.compile(r"unscaled|un-scaled|without (?:the )?scal|no scal|not scaled|w/o scal|未缩放|不缩放|没有缩放|无缩放",
                      re.I)
UNMASKED = re.compile(r"unmasked|un-masked|without (?:the |a )?(?:causal )?mask|w/o (?:the )?mask|未掩码|不掩码|无掩码|"
                      r"没有掩码", re.I)


# ... or with a causal mask the example otherwise goes without ("A_causal", "masked weights", 掩码后的权重)
MASKED = re.compile(r"(?<![A-Za-z])(?:causal|masked)(?![A-Za-z])|(?<!un)(?<!un-)masked|掩码后|带掩码|加掩码|因果|"
                    r"마스크를 건|인과", re.I)


def names_variant(text: str) -> bool:
    """Does a label say the quantity is shown without the scale or without the mask (another reading)?"""
    return bool(UNSCALED.search(text) or UNMASKED.search(text))


# a size or a count named in words: d_model, num_heads, "embedding size", "total tokens", 参数量
SIZE_NAME = re.compile(r"\bd_?(?:model|k|v|head|ff)\b|\bnum_?\w+|\bn_(?:heads?|layers?|tokens?)\b|"
                        r"(?:embedding|hidden|model|head|vocab|batch|context|window)[ _]?(?:size|dim(?:ension)?s?)|"
                        r"\btotal\s+(?:tokens?|params?|parameters?|size|length|count|number|memory|bytes|layers?|heads?)|"
                        r"参数量|维度|词表大小")


def index_header(text: str) -> bool:
    """One name given two or more different whole numbers in one statement ("j=0 j=1 j=2", "d_k=0 d_k=1 ... d_k=63",
    "i=0 ... i=1"): an index running over rows or columns, not a size or arithmetic."""
    seen: dict[str, set[str]] = {}
    # (√d_k = 8 beside d_k = 64 is the root of a size, not the name run over)
    for m in re.finditer(r"(?<!\w)(?<!\w\.)(?<!√)([a-zA-Z](?:_\{?\w{1,6}\}?)?)\s*=\s*(\d+)(?![\d.])", text):
        seen.setdefault(m.group(1), set()).add(m.group(2))
    return any(len(v) >= 2 for v in seen.values())


# cross-attention: queries from one sequence, keys and values from another; the configuration is self-attention
CROSS_ATTENTION = re.compile(r"cross[- ]?attention|encoder[- ]decoder attention|交叉注意力|编码器[-–—]?解码器注意力",
                             re.I)

PROJECTION_WEIGHTS = re.compile(r"weights? matri(?:x|ces)|projection weights?|权重矩阵|投影(?:矩阵|权重)|参数矩阵")


# "T = 4, C = 6, H = 3": the notation of channels C and a head's size H (a course's `C x H` weights), where H is no
# head count
_CHANNELS = re.compile(r"(?<![\w.])C\s*=\s*\d")


def h_is_head_size(line_text: str) -> bool:
    """Does a line that states H also state C (the channels), so that H is one head's size, not the heads?"""
    return bool(_CHANNELS.search(line_text))
