"""`mha check` on arithmetic a document writes out in full, judged against its own printed terms (issue 18):
documents of our own, each clean and with one planted slip that must be found on its line."""

import pytest

from mha.check import check_document

# an aligned derivation: the row break carries a spacing option (\\[3pt]) and the next row goes on with "&="
ALIGNED = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
The query of the first token, one column of $W_q$ at a time:
\begin{align*}
q_1 = x_1 W_q &= \begin{bmatrix} 3 & 0 & -2 \end{bmatrix}
\begin{bmatrix} 2 & 1 \\ 1 & 0 \\ 0 & 1 \end{bmatrix}
= \begin{bmatrix} 3(2){+}0(1){+}(-2)(0) & \; 3(1){+}0(0){+}(-2)(1) \end{bmatrix} \\[3pt]
&= \begin{bmatrix} 6 & 1 \end{bmatrix}
\end{align*}
\end{document}
"""

# a product drawn in a code block, the factors of different heights; a vector times a matrix; a LaTeX \times;
# and vectors added one under another, ruled off
DRAWN = """# Values by hand

Three tokens, embedded in 3 dimensions, projected onto a 2-dimensional value space:

```
                [1, 0]
[2, 1, 0]       [0, 2]       [2, 2]
[0, 1, 3]   x   [1, 1]   =   [3, 5]
[1, 0, 1]                    [2, 1]
```

One query against the keys, the keys written as columns:

```
          [1, 0, 2]
[3, 1] x  [0, 1, 1] = [3, 1, 7]
```

The same kind of product in LaTeX:

$$\\begin{bmatrix} 1 & 2 \\\\ 0 & 1 \\end{bmatrix} \\times \\begin{bmatrix} 2 & 0 \\\\ 1 & 3 \\end{bmatrix}
= \\begin{bmatrix} 4 & 6 \\\\ 1 & 3 \\end{bmatrix}$$

Adding the weighted values, one under another:

```
  [0.5, 1.0, 0.0]
+ [2.0, 0.5, 1.5]
+ [0.5, 0.5, 0.5]
-----------------
= [3.0, 2.0, 2.0]
```
"""

# masked scores, then their softmax as a matrix: a slipped weight (0.16 printed 0.61) leaves its row not adding
# up to 1, and the rest of that row and the other rows still say these are the weights of those scores
MASKED = r"""\documentclass{beamer}
\begin{document}
\begin{frame}{Causal mask, by hand}
Scores of three tokens after the mask, and their softmax row by row:
\[
\begin{bmatrix} 1 & -\infty & -\infty \\ 2 & 0 & -\infty \\ 0 & 1 & 1 \end{bmatrix}
\xrightarrow{\text{softmax}}
\begin{bmatrix} 1.00 & 0 & 0 \\ 0.88 & 0.12 & 0 \\ 0.16 & 0.42 & 0.42 \end{bmatrix}
\]
\end{frame}
\end{document}
"""

# an interactive page whose script holds the example's data (const Q = [[...]]); the palette is not a quantity
SCRIPTED = """<!doctype html>
<html>
<head><title>Three tokens</title></head>
<body>
<h2>Attention of three tokens, drawn by the page</h2>
<p>The queries, keys and values below are given; each weight is softmax(q k / &radic;2) over the keys.</p>
<div id="viz"></div>
<script>
  // the lesson's numbers, drawn into #viz
  const labels = ['I', 'like', 'tea'];
  const Q = [[1, 0], [0, 1], [1, 1]];
  const K = [[1, 0], [0, 1], [1, 1]];
  const V = [[2, 0], [0, 1], [1, 1]];
  const A = [[0.40, 0.20, 0.40],
             [0.20, 0.40, 0.40],
             [0.25, 0.25, 0.50]];
  const palette = [[255, 0, 0], [0, 0, 255]];
  function draw(m, id) { document.getElementById(id).textContent = JSON.stringify(m); }
  draw(A, 'viz');
</script>
<p>The outputs are the weighted values: [1.20, 0.60], [0.80, 0.80] and [1.00, 0.75].</p>
</body>
</html>
"""

# a product written side by side (x W, no sign), and one whose result sits in a one-row array beside its row names
BESIDE = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section*{Values of two tokens}
The value of the first token, its row times $W_v$:
\[ v_1 = x_1 W_v = \begin{bmatrix} 1 & 2 \end{bmatrix} \begin{bmatrix} 3 & 0 & 1 \\ 1 & 1 & 2 \end{bmatrix} = \begin{bmatrix} 5 & 2 & 5 \end{bmatrix} \]
Weights times values, each output row named beside it:
\[ \begin{bmatrix} 0.50 & 0.50 \\ 0.25 & 0.75 \end{bmatrix} \times \begin{bmatrix} 2 & 0 \\ 0 & 4 \end{bmatrix}
= \begin{array}{cc} \begin{bmatrix} 1.00 & 2.00 \\ 0.50 & 3.00 \end{bmatrix} & \begin{matrix} \leftarrow \text{first token} \\ \leftarrow \text{second token} \end{matrix} \end{array} \]
\end{document}
"""

# per-token vectors and their dot products written out: a row times a row (·), a row times a column, plain text
DOTS = r"""# Scores by hand

The query of the first token is $q_1 = [1, 0, 1]$ and the keys are $k_1 = [1, 1, 0]$, $k_2 = [0, 1, 1]$, $k_3 = [1, 0, 2]$.

$$q_1 \cdot k_1 = \begin{bmatrix} 1 & 0 & 1 \end{bmatrix} \cdot \begin{bmatrix} 1 & 1 & 0 \end{bmatrix} = 1$$

$$q_1 \cdot k_3 = \begin{bmatrix} 1 & 0 & 1 \end{bmatrix} \begin{bmatrix} 1 \\ 0 \\ 2 \end{bmatrix} = 3$$

q1 · k2 = [1, 0, 1] · [0, 1, 1] = 1
"""


def _error_lines(text: str, fmt: str) -> set[int]:
    return {f.line for f in check_document(text, fmt=fmt).errors}


@pytest.mark.parametrize("text, fmt, find, replace, line", [
    (ALIGNED, "tex", r"6 & 1 \end", r"6 & 2 \end", 9),
    (DRAWN, "md", "  [2, 1]", "  [2, 3]", 9),
    (DRAWN, "md", "[3, 5]", "[3, 4]", 8),
    (DRAWN, "md", "[3, 1, 7]", "[3, 1, 6]", 16),
    (DRAWN, "md", "4 & 6", "4 & 7", 22),
    (DRAWN, "md", "= [3.0, 2.0, 2.0]", "= [3.0, 2.5, 2.0]", 31),
    (MASKED, "tex", "0.16 & 0.42", "0.61 & 0.42", 8),
    (SCRIPTED, "html", "[0.25, 0.25, 0.50]", "[0.25, 0.52, 0.50]", 16),
    (BESIDE, "tex", "5 & 2 & 5", "5 & 2 & 6", 6),
    (BESIDE, "tex", "0.50 & 3.00", "0.05 & 3.00", 9),
    (DOTS, "md", "= 1$$", "= 2$$", 5),
    (DOTS, "md", "= 3$$", "= 4$$", 7),
    (DOTS, "md", "[0, 1, 1] = 1", "[0, 1, 1] = 2", 9),
])
def test_written_out_arithmetic_clean_and_slipped(text, fmt, find, replace, line):
    assert _error_lines(text, fmt) == set()
    assert text.count(find) == 1
    assert _error_lines(text.replace(find, replace), fmt) == {line}
