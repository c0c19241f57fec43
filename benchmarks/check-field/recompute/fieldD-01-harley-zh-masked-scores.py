"""fieldD-01: harleyszhang/llm_note, masked-attention 算法详解 (Chinese Markdown).  Starts from printed scores.

Three printed examples, each a score matrix printed as a torch tensor (the givens), then masked copies:
  1. qkt (4x4, torch.randn, printed) -> masked_fill with a tril 0/1 mask -> qkt1 (lower triangle kept, rest -inf);
  2. scores (4x4, printed) + triu(-inf) mask -> masked scores;
  3. the MHA unit test: raw scores of 2 heads (printed, already divided by sqrt(head_dim) inside the module),
     the tril 0/1 mask, the masked scores and their row softmax.  The module's final output (6 columns) comes from
     nn.Linear weights that are never printed: it cannot be recomputed and is left out of the truth.
The two timing lines (seconds) are not attention numbers.  The author makes no arithmetic error."""
import numpy as np
from _truth import Truth

qkt = np.array([[0.0697, 0.7932, -0.1177, 0.0812], [0.3271, -1.1111, -0.8723, 1.2537],
                [1.7847, -0.2803, 1.3621, -1.1000], [0.5083, 0.5289, 1.9308, -0.0894]])
scores = np.array([[-0.6861, -0.4718, 0.1760, 1.3923], [-1.2248, 0.4526, -0.5432, -0.7217],
                   [0.4861, -0.9307, 2.0020, 0.5808], [0.7300, -0.1123, 1.0948, 1.0201]])
S = np.array([[[0.5530, 0.6123, 0.3896, -0.0834], [0.0271, 0.2272, 0.1394, -0.1029],
               [0.4198, 0.2406, 0.1581, 0.0425], [0.4801, 0.2925, 0.1978, 0.0919]],
              [[-0.4385, -0.1696, -0.2063, -0.5110], [-0.3161, -0.0823, -0.0555, -0.2165],
               [-0.1579, 0.0111, 0.0187, -0.1701], [0.0276, 0.0543, 0.0457, -0.0404]]])
tril = np.tril(np.ones((4, 4)))


def masked_softmax(s):
    z = np.where(tril == 1, s, -np.inf)
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


A = np.stack([masked_softmax(S[h]) for h in range(2)])
print("A head 1\n", A[0].round(4), "\nA head 2\n", A[1].round(4))

T = Truth("fieldD-01-harley-zh-masked-scores")
# example 1
first = T.find("tensor([[ 0.0697,  0.7932")[1]
for i in range(4):
    T.row(qkt[i], f"qkt[{i + 1},:]", (None, first + i, False), role="input")


def after(prompt):
    """the line after the one that is exactly `prompt` (a REPL echo such as '>>> masked')"""
    return [k[1] for k in T.lines if T.lines[k].strip() == prompt][0] + 1


m0 = after(">>> masked")
for i in range(4):
    T.row(tril[i], f"tril mask[{i + 1},:]", (None, m0 + i, False))
q1 = T.find("tensor([[ 0.0697,    -inf")[1]
for i in range(4):
    T.row(qkt[i, :i + 1], f"qkt1[{i + 1},:{i + 1}] (masked)", (None, q1 + i, False))
# example 2
s0 = T.find("tensor([[-0.6861, -0.4718")[1]
for i in range(4):
    T.row(scores[i], f"scores[{i + 1},:]", (None, s0 + i, False), role="input")
for name in ("mask1", "mask2"):
    r0 = after(f">>> {name}")
    for i in range(4):
        T.row(np.zeros(i + 1), f"{name}[{i + 1},:{i + 1}] (zeros kept by triu)", (None, r0 + i, False))
m2 = T.find("tensor([[-0.6861,    -inf")[1]
for i in range(4):
    T.row(scores[i, :i + 1], f"(scores + mask2)[{i + 1},:{i + 1}]", (None, m2 + i, False))
# example 3 (the MHA unit test's printout)
mk = T.find(" tensor([[1., 0., 0., 0.],")[1]
for i in range(4):
    T.row(tril[i], f"causal mask[{i + 1},:]", (None, mk + i, False))
r0 = T.find(" tensor([[[ 0.5530,  0.6123")[1]
m0 = T.find(" tensor([[[ 0.5530,    -inf")[1]
a0 = T.find(" tensor([[[1.0000, 0.0000")[1]
for h in range(2):
    off = 5 * h
    for i in range(4):
        T.row(S[h, i], f"scores head {h + 1}[{i + 1},:]", (None, r0 + off + i, False), role="input")
        T.row(S[h, i, :i + 1], f"masked scores head {h + 1}[{i + 1},:{i + 1}]", (None, m0 + off + i, False))
        T.row(A[h, i], f"A head {h + 1}[{i + 1},:]", (None, a0 + off + i, False))
T.slip("[0.3838, 0.3208, 0.2954, 0.0000]", "[0.3838, 0.3280, 0.2954, 0.0000]", "swapped digits in head 1 A[3,2]")
T.slip("[0.2961, 0.3506, 0.3533, 0.0000]", "[0.2961, 0.3605, 0.3533, 0.0000]", "swapped digits in head 2 A[3,2]")
T.slip("[0.4418, 0.5582, 0.0000", "[0.4418, 0.5482, 0.0000", "one digit off in head 2 A[2,2]")
T.slip("[ 0.4861, -0.9307,  2.0020,    -inf]", "[ 0.4861,  0.9307,  2.0020,    -inf]", "dropped sign in a masked score")
T.mark_own_errors()
T.write()
