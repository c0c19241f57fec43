"""fieldD-05: Kush-Singh-26/blogs, content/NLP-transformer.md (English blog post, Markdown with $$ math).  Starts from
a printed scaled score matrix S (4x4): adds the causal -inf mask, writes S', the softmax of row 1 to 4 decimals and
the weights A to 3 decimals; the whole example block appears twice (a copy-paste), so every line has a twin.

Row 1 is softmax([0.3, 2.0]) = [0.15447, 0.84553]: the post prints [0.1544, 0.8456] (last digit off in both: the
first is truncated, the second is too high), 0.845 in A (0.846) and "84%" in the prose (85%).  Rows 2 and 3 of A are
right.  Two shape sums elsewhere (2 * 4 = 8, 8 * 64 = 512) are right."""
import numpy as np
from _truth import Truth

S = np.array([[1.2, 0.5, -1.0, 0.0], [0.3, 2.0, 0.1, -0.5], [-0.8, 0.7, 1.5, 0.2], [1.0, -1.2, 0.3, 0.8]])
A = np.zeros((4, 4))
for i in range(4):
    e = np.exp(S[i, :i + 1] - S[i, :i + 1].max())
    A[i, :i + 1] = e / e.sum()
print(A.round(5))

T = Truth("fieldD-05-kush-en-masked-softmax")
T.num("8", 8, "batch 2 x 4 heads", T.find("it will see 2 * 4 = 8"))
T.num("512", 512, "8 heads x 64", T.find("(8 * 64 = 512)"))
for block in range(2):
    s0 = T.find(" S' = \\begin{pmatrix}", nth=block)[1] + 1
    for i in range(4):
        T.row(S[i, :i + 1], f"S'[{i + 1},:{i + 1}] (block {block + 1})", (None, s0 + i, False), last=False)
    at = T.find("> - For row 0 : $ softmax([1.2", nth=block)
    T.row(A[0], f"softmax row 0 (block {block + 1})", at)
    at = T.find("> - For row 1 : $ softmax([0.3, 2.0", nth=block)
    T.nums(["0.1544", "0.8456", "0", "0"], A[1], f"softmax row 1 (block {block + 1})", at)
    a0 = T.find(" A = \\begin{pmatrix}", nth=block)[1] + 1
    for i in range(4):
        T.row(A[i], f"A[{i + 1},:] (block {block + 1})", (None, a0 + i, False))
    at = T.find("it can attend 15% to token 0, 84% to itself", nth=block)
    T.nums(["15", "84"], 100 * A[1, :2], f"row 1 in percent (block {block + 1})", at)
tail1 = ("(token 1), it can attend 15% to token 0, 84% to itself and cannot attend to other tokens.\n> ***Example***")
tail2 = ("(token 1), it can attend 15% to token 0, 84% to itself and cannot attend to other tokens.\n    \n### 4.")
mid = (" \\end{pmatrix}\n $$\n>\n> - This can be interpreted as :\n>     - In Row 0 (token 0), it can only attend to itself.\n"
       ">     - In Row 1 ")
T.slip(" 0.065 & 0.290 & 0.645 & 0.000 \\\\\n 0.412 & 0.046 & 0.205 & 0.337\n" + mid + tail1,
       " 0.065 & 0.290 & 0.654 & 0.000 \\\\\n 0.412 & 0.046 & 0.205 & 0.337\n" + mid + tail1, "swapped digits in A[3,3] (block 1)")
T.slip(" 0.412 & 0.046 & 0.205 & 0.337\n" + mid + tail2,
       " 0.412 & 0.046 & 0.250 & 0.337\n" + mid + tail2, "swapped digits in A[4,3] (block 2)")
T.slip(" 0.065 & 0.290 & 0.645 & 0.000 \\\\\n 0.412 & 0.046 & 0.205 & 0.337\n" + mid + tail2,
       " 0.065 & 0.209 & 0.645 & 0.000 \\\\\n 0.412 & 0.046 & 0.205 & 0.337\n" + mid + tail2, "swapped digits in A[3,2] (block 2)")
T.mark_own_errors({
    583: "softmax([0.3, 2.0]) = [0.15447, 0.84553]: printed [0.1544, 0.8456] (last digit off in both)",
    632: "same as line 583 (copy of the block)",
    590: "A[2,2] = 0.84553 rounds to 0.846, printed 0.845", 639: "same as line 590 (copy)",
    598: "84.55% rounds to 85%, printed 84%", 647: "same as line 598 (copy)",
})
T.write()
