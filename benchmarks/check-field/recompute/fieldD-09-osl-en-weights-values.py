"""fieldD-09: Open-Superintelligence-Lab/Open-Superintelligence-Lab.github.io, learn/attention-mechanism/
applying-attention-weights (English course page, Markdown).  Starts from given attention weights (3x3) and values
V (3x2): the output AV printed in a code comment (4 decimals), its shape, and row 0 worked by hand (products, sum).
Later, a complete attention function on torch.randn inputs: only the shapes and the row sum 1 follow from what is
printed; the "Example: tensor([0.3, 0.1, 0.4, 0.1, 0.1])" weights and their percentages are illustrative (random
inputs) and are not in the truth.  No arithmetic error in this version (an older copy of the page printed a wrong AV)."""
import numpy as np
from _truth import Truth

A = np.array([[0.5, 0.3, 0.2], [0.1, 0.7, 0.2], [0.4, 0.3, 0.3]])
V = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
O = A @ V
print(O)

T = Truth("fieldD-09-osl-en-weights-values")
T.num("1.0", A.sum(1)[0], "row sums of the weights", T.find("Notice each row sums to 1.0!"))
r = T.find("# tensor([[2.4000, 3.4000],")[1]
for i in range(3):
    T.row(O[i], f"AV[{i + 1},:]", (None, r + i, False))
T.row([3, 3, 3, 2, 3, 2], "shapes of A, V and AV", T.find("(3, 3) @ (3, 2) = (3, 2)"))
at = T.find("  = 0.5 × V[0] + 0.3 × V[1] + 0.2 × V[2]")
T.nums(["0.5", "0.3", "0.2"], A[0], "A[1,:] (repeated)", at, role="input")
at = T.find("  = [0.5, 1.0] + [0.9, 1.2] + [1.0, 1.2]")
T.row((A[0][:, None] * V).ravel(), "a_1j v_j", at)
T.row(O[0], "AV[1,:] by hand", T.find("  = [2.4, 3.4]"))
T.row(O[0], "AV[1,:] (prose)", T.find("**PyTorch output:** [2.4, 3.4]"))
# the shapes sit in trailing comments, which T.row does not read
T.nums(["1", "5", "64"], [1, 5, 64], "V shape", T.find('print(f"Input shape: {V.shape}")'))
T.nums(["1", "5", "64"], [1, 5, 64], "output shape", T.find('print(f"Output shape: {output.shape}")'))
T.nums(["1", "5", "5"], [1, 5, 5], "weights shape", T.find('print(f"Weights shape: {weights.shape}")'))
T.num("1.0000", 1.0, "a row sum of softmax weights", T.find("print(weights[0, 0].sum())  # tensor(1.0000)"))
T.slip("#         [3.2000, 4.2000],", "#         [3.2000, 2.4000],", "a neighbour's value in AV[2,2]")
T.slip("  = [0.5, 1.0] + [0.9, 1.2] + [1.0, 1.2]", "  = [0.5, 1.0] + [0.9, 1.2] + [1.0, 2.1]", "swapped digits in a weighted value")
T.slip("#         [2.8000, 3.8000]])", "#         [2.8000, 3.0800]])", "slipped digit in AV[3,2]")
T.mark_own_errors()
T.write()
