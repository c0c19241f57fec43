"""The words and letters that name attention's quantities, in the languages the checker reads (labels.py)."""

from __future__ import annotations

import re

# "Weight matrix - Queries", "weight matrix for the keys": the projection whose output the word names
_WEIGHTS_OF = r"weights?[_ ]?matri(?:x|ces)[_ ]?(?:[-–—:][_ ]?|(?:for|of)[_ ]?(?:the[_ ]?)?)?"
# Portuguese and Spanish names of a projection's weights: pesos_consulta, pesos de la clave, pesos_valor
_PESOS = r"pesos[_ ]?(?:d[aeo]s?[_ ]?(?:la[_ ]?)?)?"

WORDS: list[tuple[str, tuple[str, ...]]] = [
    # longest phrases first
    # weights before the softmax: attention_weights_raw, raw_weights, unnormalized weights (the scores)
    (r"(attention[_ ]?|attn[_ ]?)?weights?[_ ]?raw|raw[_ ]?(attention[_ ]?|attn[_ ]?)?weights?|"
     r"unnormali[sz]ed[_ ]?(attention[_ ]?)?weights?", ("QKt", "S")),
    (r"attention[_ ]?weights?|attn[_ ]?weights?|attention[_ ]?probs?|attn[_ ]?probs?|p[_ ]?attn|attention[_ ]?"
     r"matrix|attention[_ ]?distribution|注意力权重|注意力矩阵|注意力分布|注意力概率|softmax[_ ]?out(put)?|"
     r"normali[sz]ed[_ ]?scores?|probabilit(?:y|ies)|probs?|"
     # "divide by sum: [0.66, 0.24, 0.10]": each exponential divided by their sum, the weights (not the sum)
     r"(?:divid(?:e|ed|ing)|normali[sz]e[ds]?)[_ ]?by[_ ]?(?:the[_ ]?|their[_ ]?)?(?:sum|total)", ("A",)),
    # exp_scores, scores_exp, exponentiated logits: the exponentials of the scores, not the scores
    (r"exp(?:onentiated)?[_ ]?(?:attention[_ ]?|attn[_ ]?)?(?:scores?|logits)|(?:scores?|logits)[_ ]?exps?\b",
     ("E",)),
    # S_mask, S_{\\text{masked}}: the scores with the mask applied, not the mask
    (r"s[_ ]?\{?mask(?:ed)?\}?", ("QKt", "S")),
    (r"scaled[_ ]?(dot[_ ]?product[_ ]?)?(scores?|logits|attention[_ ]?scores?)|scores?[_ ]?scaled|缩放后的?(分数|得分)?|"
     r"缩放分数|缩放点积|scaled", ("S",)),
    (r"raw[_ ]?(attention[_ ]?)?scores?|attention[_ ]?scores?|attn[_ ]?scores?|attention[_ ]?logits|"
     r"(dot[_ ]?products?|similarit(y|ies)|compatibilit(y|ies)|energ(y|ies))([_ ]?scores?)?|"
     r"注意力分数|注意力得分|相似度(分数|矩阵)?|点积|内积|内積|分数|得分|打分|점수|스코어|유사도|スコア|類似度|scores?|logits|qk|puntuaci[oó]n(es)?|"
     r"puntajes?|pontua[cç](ão|ões|ao|oes)|điểm(\s?số)?", ("QKt", "S")),
    (r"exp(onentials?|s|onentiat(?:e|ed|ing|ion))?|指数", ("E",)),
    (r"row[_ ]?sums?|denominators?|分母|行和|(?<!weighted.)sum|summe|suma|soma|somme|сумма|合計|합계|total|normali[sz]er|partition|总和|總和|總計|加總|之和|和为|求和为|的和|"
     r"adds? up to|sums? to", ("row_sum",)),
    (r"row[_ ]?max(ima|imum)?|行最大值", ("row_max",)),
    (r"causal[_ ]?mask|attn[_ ]?mask|attention[_ ]?mask|mask|掩码|遮罩|(?:alibi[_ ]?|position[_ ]?)?bias(?:es)?",
     ("mask",)),                # (an additive bias on the scores, ALiBi's: what a mask adds, its -∞ aside)
    (_WEIGHTS_OF + r"quer(?:y|ies)|(query|q)[_ ]?(weights?|proj(ection)?|matrix[_ ]?w)|w[_ ]?(query|q)|查询权重|"
     + _PESOS + r"consultas?", ("W_Q",)),
    (_WEIGHTS_OF + r"key(?:e?s)?|(key|k)[_ ]?(weights?|proj(ection)?)|w[_ ]?(key|k)|键权重|" + _PESOS + r"(?:chaves?|claves?)",
     ("W_K",)),
    (_WEIGHTS_OF + r"values?|(value|v)[_ ]?(weights?|proj(ection)?)|w[_ ]?(value|v)|值权重|" + _PESOS + r"valor(?:es)?",
     ("W_V",)),
    (r"(out|output|o)[_ ]?(weights?|proj(ection)?|matrix)|w[_ ]?(out|output|o)|输出(投影|权重)(矩阵)?|输出矩阵|"
     + _PESOS + r"(?:sa[ií]da|salida)", ("W_O",)),
    (r"concat(enated|enation)?([_ ]?(heads?|outputs?))?|heads?[_ ]?concat|拼接(后的?)?(结果|输出)?|合并", ("O_concat",)),
    (r"multi[_ ]?head([_ ]?(attention|output|attn))?|mha[_ ]?out(put)?|attn[_ ]?out(put)?|attention[_ ]?output|"
     r"final[_ ]?output|outputs?|out|result|多头(注意力)?输出|最终输出|输出|结果|출력|出力|đầu\s?ra|salida|saída|sortie|ausgabe", ("Y", "O_concat", "O")),
    (r"contextuali[sz]ed[_ ]?embeddings?|contextual[_ ]?(?:embeddings?|vectors?|representations?)|"
     r"embeddings?[_ ]?contextuali[sz]ad[oa]s?|embeddings?[_ ]?contextuais|"
     r"head[_ ]?outputs?|heads?(?![_ ]?\d{0,2}[_ ]*(?:attention[_ ]*|attn[_ ]*)?(?:weights?|probs?))|context([_ ]?vectors?)?|ctx|attention[_ ]?vectors?|attn[_ ]?vec(tor)?s?|weighted[_ ]?(sum|values?)|上下文(向量)?|头(的)?输出|加权(求和|和)|문맥(\s?벡터)?|컨텍스트(\s?벡터)?|文脈ベクトル",
     ("O", "O_concat")),
    (r"quer(y|ies|ys)|q[_ ]?total|查询(向量|矩阵)?|クエリ|쿼리", ("Q",)),
    (r"keys?|keyes|k[_ ]?total|键(向量|矩阵)?|キー|키", ("K",)),      # "Keyes": a tutorial's own spelling
    (r"values?|v[_ ]?total|(?<!的)值(向量|矩阵)?|バリュー|밸류", ("V",)),      # 输入序列的值: "the values of", not V
    (r"inputs?|embeddings?|embeds?|inputs[_ ]?embeds|hidden[_ ]?states?|tokens?[_ ]?(vectors?|embeddings?)|"
     r"输入(矩阵|向量)?|词向量|嵌入(向量)?|入力|입력|đầu\s?vào", ("X",)),
    (r"weights?|注意力|权重|가중치|어텐션|重み|アテンション|attends?|attention|pesos|poids|gewichte|trọng\s?số|"
     r"pesi|wagi|bobot|ağırlıklar|веса|ваги", ("A",)),
]
WORD_RES = [(re.compile(r"(?<![a-z])(?:" + p + r")(?![a-z])", re.I), nodes) for p, nodes in WORDS]

LETTER = {"X": ("X",), "x": ("X",), "ω": ("QKt", "S"), "w": ("A",),
           "Q": ("Q",), "q": ("Q",), "K": ("K",), "k": ("K",), "V": ("V",), "v": ("V",),
           "S": ("S", "QKt"), "s": ("S", "QKt"), "A": ("A",), "a": ("A",), "α": ("A",), "P": ("A",), "p": ("A",),
           "W": ("A",), "O": ("O", "O_concat", "Y"), "o": ("O", "O_concat", "Y"),
           "Z": ("O", "O_concat", "Y", "QKt", "S"),        # Z = softmax(..)V in some texts, Z = QKᵀ in others
           "z": ("O", "O_concat", "Y"), "Y": ("Y", "O_concat"), "y": ("Y", "O_concat"),
           "C": ("O", "O_concat"), "c": ("O", "O_concat"), "M": ("mask", "S"), "e": ("QKt", "S"), "ℓ": ("row_sum",),
           "l": ("row_sum",), "m": ("row_max",), "L": ("QKt", "S")}
