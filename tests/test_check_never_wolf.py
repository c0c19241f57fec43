"""`mha check` never cries wolf: documents of our own, every printout made by running its code, in the styles that
put a checker on the wrong track (tests/check_clean/README.md): a second example reusing names, a notebook run
again with new inputs, a >>> session that changes an input in place, printouts of slices, of `.T`, of rounded
values, with `grad_fn` and `dtype=`, truncated with `...`, in scientific notation, inputs built by code.  Each
checks with no finding at all; planted slips in them are still found, so they are not clean for want of checking.

Identity weighs what agrees (claims/identity.evidence): a 0, a ±1, a small integer or a value met before in the
object matches by chance far more often than 0.7517 does.  A given printed again in the other layout is a reading
question (claims/readlayout.py).  Code that changes an input from its old values opens another example
(claims/rebind.self_updates)."""

from pathlib import Path

import numpy as np
import pytest

from mha.check import check_document
from mha.check.claims.identity import AGREE_MIN, WEAK, evidence, identified, identifies
from mha.check.infer.match import Hit
from mha.check.infer.prepare import Obj

CLEAN = Path(__file__).resolve().parent / "check_clean"
FORMAT = {".md": "md", ".ipynb": "ipynb", ".tex": "tex", ".txt": "txt", ".html": "html"}
DOCS = sorted(p for p in CLEAN.iterdir() if p.suffix in FORMAT and p.stem != "README")
# documents that carry rounded values forward on purpose (Q rounded to 2 decimals, the scores computed from that):
# a value that follows from the rounded ones printed before it gets a note, never an error
CARRIED = {"md_zh_rounded_carried_forward.md", "tex_article_rounded_carried_stable_softmax.tex",
           "md_two_heads_outputs_from_rounded_weights_concat.md", "md_rounded_rows_not_summing_to_one.md",
           "md_dk_dv_differ_scale_by_0707.md",
           "tex_align_cdot_softmax_call_rounded.tex", "md_zh_csdn_two_decimals_carried.md",
           "md_zh_rounded_every_step_unprinted.md", "md_zh_one_exp_for_equal_scores.md",
           "md_box_drawn_side_by_side_weights.md", "md_scores_then_values_in_sentence.md",
           "md_causal_qkv_given_real_model_sizes.md", "md_rows_quote_values_rounded_weights.md",
           "md_product_of_printed_rounded_weights.md", "md_side_query_output_named_like_row_one.md",
           "md_zh_exp_sums_of_printed_terms_third_weights.md", "md_equal_rows_then_exps_with_their_arguments.md",
           "md_outputs_from_first_printed_weights.md", "md_one_query_rounded_steps_no_alibi.md",
           "md_open_softmax_call_finished_below.md", "md_weights_from_rounded_exponentials_quoted.md",
           "md_calculator_two_decimals_carried.md"}   # its weights worked from rounded values, then used: notes


def _check(path: Path, find: str | None = None, replace: str | None = None):
    text = path.read_text(encoding="utf-8")
    if find is not None:
        assert text.count(find) == 1, find
        text = text.replace(find, replace)
    return check_document(text, fmt=FORMAT[path.suffix])


def test_the_clean_set_is_there():
    assert len(DOCS) >= 12, DOCS


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_clean_document_has_no_finding(path):
    r = _check(path)
    if path.name in CARRIED:
        assert not r.errors and all(f.severity == "note" for f in r.findings), [f.describe() for f in r.findings]
    else:
        assert not r.findings, [f.describe() for f in r.findings]
    assert r.n_claims >= 2, "nothing was checked: a clean result would be hollow"


# (document, text of a number, its planted slip, the line the finding must be on)
SLIPS = [
    # "$u = [1, 2, 3, 4]$ (dimension $d = 4$)" after a toy of width 2: the size is the vector's beside it
    # (claims/shape.judge_size), and the toy is still judged
    ("md_toy_then_a_wider_vector_with_its_dimension.md", "0.6698 & 0.3302", "0.6698 & 0.3320", 9),
    # X guessed as the first (unnamed) matrix, borne out by a 5×5 weights printout all but a slip of which matches
    # (claims/guessed.py): a slip in one weight is found as that entry, not set aside with the guess
    ("md_guessed_x_large_weights_printout.md", "0.1667 0.1667 0.2212", "0.1667 0.1667 0.2122", 22),
    # a toy of width 2 in a section that also cites another chapter's d = 512, d_k = 64: those sizes are not the
    # toy's (claims/shape.judge_size: a multiple of 16 and eight times the toy's or more), the toy is still judged
    ("md_toy_sizes_beside_another_models_sizes.md", "0.6698 & 0.3302", "0.6698 & 0.3320", 9),
    # x printed, its softmax printed, then x built again and a column overwritten before another softmax: the second
    # softmax is not of the printed x (claims/printchain._assigned_between); the first is still judged by it
    ("md_torch_softmax_after_overwriting_a_column.md", "[[0.0854, 0.2321,", "[[0.0854, 0.2312,", 18),
    # hand-picked weights mixing named inputs, every projection assumed: the guessed self-attention is borne out by
    # no printout, so its chance one-decimal matches identify nothing (claims/guessed.py); the written sum is judged
    ("md_hand_picked_weights_weighted_average.md", "0.5 × 2.0 = 2.2", "0.5 × 2.0 = 2.4", 22),
    # head outputs written as weighted sums of rounded weights, named o_{head,row}, then concatenated: the name's
    # indices are the author's convention, the weights say the row (vector._row_by_weights); the concat's 1.864 is
    # worked from the printed rows (rounding.from_printed), and slips are still found
    ("md_two_heads_outputs_from_rounded_weights_concat.md", "0.284[2,1] + 0.140[1,1] = [1.284",
     "0.248[2,1] + 0.140[1,1] = [1.284", 18),
    ("md_two_heads_outputs_from_rounded_weights_concat.md", "[1.864,\\ 1.987]", "[1.864,\\ 1.978]", 31),
    ("md_two_heads_outputs_from_rounded_weights_concat.md", "1.576 & 1.284 & 1.864", "1.576 & 1.284 & 1.846", 36),
    # random embeddings shown by torch at two decimals: the digits are roundings of the values the outputs come
    # from (model.display_rounded), and a slip beyond that is still found
    ("md_torch_precision2_random_embeddings.md", "[-0.27,  1.25, -0.13]", "[-0.27,  1.52, -0.13]", 39),
    ("md_torch_precision2_random_embeddings.md", "[-0.33,  1.11,  0.16]", "[-0.33,  1.11, -0.16]", 42),
    # scores of plain embeddings (W = I assumed), then a layer with random projections: the shape of its output is
    # not judged against the assumed width (`context_vecs.shape: torch.Size([2, 4, 2])` was "exact 1×4×3")
    ("md_weightless_scores_then_linear_layers_shape.md", "1.3800, 0.8200]", "1.3800, 0.2800]", 19),
    ("md_weightless_scores_then_linear_layers_shape.md", "0.3237, 0.3173", "0.3273, 0.3173", 24),
    # scores printed beside their weights (`[...] → weights: [...]`) under a heading that says "then scale by √2":
    # the weights are the softmax of the scaled row (the stated scale is tried for "scores" too)
    ("md_scores_arrow_weights_stated_scale.md", "[0.324, 0.464, 0.212]", "[0.324, 0.446, 0.212]", 8),
    # a second example worked over subsections after a first one with the same names and shapes: its weights, which
    # follow from its own scores, are no "rounding" of the first example's (9 notes with the first's exact values)
    ("md_second_example_over_subsections.md", "0.264 & 0.471 & 0.264", "0.264 & 0.471 & 0.246", 31),
    ("md_second_example_over_subsections.md", "0.529 & 0.736 & 0.736", "0.529 & 0.763 & 0.736", 33),
    ("md_second_example_over_subsections.md", "0.577 & 1.155 & 0.577", "0.577 & 1.515 & 0.577", 27),
    # a row of weights with its sum said in a remark ("# sums to 1.0"); a saturated weight written 0.999 for 0.9996
    ("md_code_rows_said_to_sum_to_one.md", "[0.73, 0.20, 0.07],  # sums", "[0.73, 0.02, 0.07],  # sums", 14),
    ("md_code_rows_said_to_sum_to_one.md", "[0.999, 0.0001, 0.0001, 0.0001]", "[0.999, 0.0001, 0.0003, 0.0001]", 23),
    # two sentences, the second table's keys the first's mirrored (another example, no slip), and dot products of
    # written vectors ([0.6, 0.8] · [0.4, 0.7] = 0.80) checked as the arithmetic they are
    ("md_two_sentences_mirrored_key_tables.md", "[0.4, 0.7] = 0.80", "[0.4, 0.7] = 0.82", 40),
    ("md_two_sentences_mirrored_key_tables.md", "[0.9, 0.3] = 0.78", "[0.9, 0.3] = 0.87", 16),
    ("md_two_sentences_mirrored_key_tables.md", "[0.372, 0.318, 0.310]", "[0.372, 0.381, 0.310]", 20),
    ("md_two_sentences_mirrored_key_tables.md", "= [0.689, 0.405]", "= [0.689, 0.450]", 24),
    # Q = K = [1, 0, 1]^\\top: a row written transposed is a column; S_mask is the masked scores (not the mask), its
    # -∞ explained by the causal configuration
    ("tex_column_vectors_transposed_masked_scores.tex", "0.4223 & 0.1554", "0.4223 & 0.1545", 21),
    ("tex_column_vectors_transposed_masked_scores.tex", "1 \\\\ 1.5 \\\\ 2", "1 \\\\ 1.5 \\\\ 3", 26),
    # a weighted sum of bmatrix rows (0.4011 [1 2] + ...): the last term's vector is no result of it; whole tokens
    # counted by a division (24e9 / 131,072 = 183,105) are rounded or cut down, never slips for that
    ("md_weighted_rows_bmatrix_and_cache_counts.md", "0.7967 & 1.2033", "0.7976 & 1.2033", 20),
    ("md_weighted_rows_bmatrix_and_cache_counts.md", "= 183{,}105", "= 193{,}105", 28),
    # a first example whose K has the very rows of a later example's X (and whose Q is that W_Q transposed): the
    # first example's sizes are its own, not slips against the later one; each example keeps its slips
    ("md_two_examples_key_equals_later_input.md", "2 & 0 & 2 \\\\ 1 & 1 & 2", "2 & 0 & 2 \\\\ 1 & 2 & 2", 20),
    ("md_two_examples_key_equals_later_input.md", "0.248 & 0.248 & 0.503", "0.248 & 0.284 & 0.503", 45),
    # vectors in bold (**q = [2, 1]**), and a value followed by the rest of its sentence ("..., so the third ...")
    ("md_bold_vectors_one_query.md", "**[0.284, 0.140, 0.576]**", "**[0.284, 0.410, 0.576]**", 8),
    # a row's dot products written as sums in prose (2×1+1×1=3): arithmetic, not a shape 2×1 of the scores
    ("md_zh_row_dot_products_as_sums.md", "2×0+1×2=2、", "2×0+1×2=3、", 19),
    ("md_zh_row_dot_products_as_sums.md", "0.503、0.248、0.248", "0.503、0.284、0.248", 21),
    # the scale said in words: "the square root of 4, which is 2", "4 的平方根是 2"
    ("md_worded_square_root_scale.md", "square root of 4, which is 2", "square root of 4, which is 4", 13),
    ("md_worded_square_root_scale.md", "4 的平方根是 2", "4 的平方根是 4", 16),
    # `name = computation` with its value written as comments below it (no print), rows with remarks after them
    ("md_code_comments_value_after_assignment.md", "#  [5., 3., 3.],", "#  [5., 3., 5.],", 31),
    ("md_code_comments_value_after_assignment.md", "#  [1., 2.],   # token b", "#  [1., 3.],   # token b", 18),
    ("md_code_comments_value_after_assignment.md", "#  [2.5740, 1.3195],", "#  [2.5740, 1.3915],", 41),
    # nn.Linear weights set with `layer.weight.copy_(torch.tensor(...))` under no_grad: X and weights, Q derived
    ("nb_linear_weights_copied_in.ipynb", "0.2600, -0.2400", "0.2600, -0.2040", 3),
    ("nb_linear_weights_copied_in.ipynb", "0.3198,  0.3179", "0.3198,  0.3197", 7),
    # a causal mask drawn in a box beside a padding mask: one cell wrong in the causal one is still a slip
    ("md_causal_and_padding_masks_drawn_side_by_side.md", "│ 1 1 1 │", "│ 1 0 1 │", 23),
    # two heads, their concatenation under a heading "把兩個 2×2 接回 2×4", W_O printed, tokens' rows O_1, O_2 after it
    ("md_zh_two_heads_token_rows_after_wo.md", "O_2 = [0.6698, 0.3302, 1.0000, 0.3395]", "O_2 = [0.6698, 0.3302, 1.0000, 0.3359]", 45),
    ("md_zh_two_heads_token_rows_after_wo.md", "0.3302 & 0.6698 & 0.6698 & 0.3302", "0.3302 & 0.6698 & 0.6689 & 0.3302", 27),
    # a causal mask drawn under a header of column indices "j=0  j=1 ...", then one row's softmax
    ("md_ascii_mask_under_index_header.md", "[0.223, 0.302, 0.202, 0.273]", "[0.223, 0.320, 0.202, 0.273]", 17),
    # a causal example, then a score row with -∞ and its exponentials (exp(-∞) = 0)
    ("md_masked_score_row_exp_of_minus_infinity.md", "[2.72, 20.09, 0, 1.00]", "[2.72, 20.90, 0, 1.00]", 32),
    ("md_masked_score_row_exp_of_minus_infinity.md", "[0.114, 0.844, 0, 0.042]", "[0.114, 0.884, 0, 0.042]", 34),
    # each head's projections named in code as W1_Q, W1_K, ..., W2_V
    ("md_per_head_weights_named_w1_q_in_code.md", "[1, 2], [1, 1]]", "[1, 2], [1, 2]]", 20),
    ("md_per_head_weights_named_w1_q_in_code.md", "0.497, 0.503", "0.479, 0.503", 41),
    ("md_per_head_weights_named_w1_q_in_code.md", "[0.401, 0.198, 0.401], [0.248", "[0.401, 0.189, 0.401], [0.248", 38),
    # words' embeddings listed beside X, then the chain starts from given scores and V
    ("md_ko_embeddings_listed_then_scores_given.md", "0.298 & 0.375", "0.298 & 0.357", 38),
    ("md_ko_embeddings_listed_then_scores_given.md", "0.215 & 0.132", "0.215 & 0.123", 49),
    # two equal score rows, then the third row's exponentials written with their arguments ("exp(0.90) = 2.460")
    ("md_equal_rows_then_exps_with_their_arguments.md", "softmax = [0.262, 0.262, 0.477]", "softmax = [0.262, 0.262, 0.447]", 17),
    # Portuguese decimal commas with thousands points (131.328), "16$ milhões", an XOR network's X, then an exercise
    ("md_pt_decimal_commas_xor_then_attention_exercise.md", "131.328", "131.382", 7),
    ("md_pt_decimal_commas_xor_then_attention_exercise.md", "0{,}401]$$", "0{,}410]$$", 37),
    ("md_pt_decimal_commas_xor_then_attention_exercise.md", "1{,}203]", "1{,}230]", 39),
    # scores given; a row's exponentials as one vector and their printed sum; weights of exactly 1/3 and "≈ 0.600"
    ("md_zh_exp_sums_of_printed_terms_third_weights.md", "和 = 4.172", "和 = 4.127", 26),
    ("md_zh_exp_sums_of_printed_terms_third_weights.md", "0.240, 0.437", "0.240, 0.473", 27),
    # tokens' vectors in a table of words ('"ran"  Q3 = [1, 1]  K3 = ...'), dot products of 0/1 vectors, unscaled
    ("md_token_vectors_dot_products_of_ones.md", "1 * 1 + 1 * 1 = 2", "1 * 1 + 1 * 1 = 3", 15),
    ("md_token_vectors_dot_products_of_ones.md", "= [0.212, 0.576, 0.212]", "= [0.212, 0.567, 0.212]", 20),
    ("md_token_vectors_dot_products_of_ones.md", "[0.636, 0.788]", "[0.636, 0.878]", 21),
    # matrices in $...$ over several lines (`$X = \begin{bmatrix} ... \end{bmatrix}$`), `Q = K = V = X W_Q`
    ("md_inline_math_matrices_over_lines_qkv_chained.md", "0.074 & 0.306", "0.074 & 0.360", 49),
    ("md_inline_math_matrices_over_lines_qkv_chained.md", "1.851 & 0.769", "1.815 & 0.769", 57),
    ("md_inline_math_matrices_over_lines_qkv_chained.md", "0 & 4 & 4 \\\\", "0 & 4 & 3 \\\\", 40),
    # two heads sharing W_K = W_V = W_Q^{(1)} (one chained label), `q_2^{(1)}=x_2W_Q^{(1)}`, a stacked W_O printed
    ("md_zh_two_heads_shared_weights_chained_stacked_wo.md", "y_2=[1.170", "y_2=[1.107", 41),
    ("md_zh_two_heads_shared_weights_chained_stacked_wo.md", "[1,0] = [0.670,\\ 0.330],", "[1,0] = [0.670,\\ 0.303],", 31),
    # one head (Q, K, V given, d_k = 4), then a two-head section with its own Q, K, V, their slices and outputs
    ("md_one_head_then_multihead_new_qkv_percent_by_token.md", "0.19 & 0.31 & 0.51", "0.19 & 0.13 & 0.51", 41),
    ("md_one_head_then_multihead_new_qkv_percent_by_token.md", "1.01 & 0.25", "1.10 & 0.25", 94),
    ("md_one_head_then_multihead_new_qkv_percent_by_token.md", "0.60 & 1.20 \\\\ 0.60", "0.60 & 1.02 \\\\ 0.60", 92),
    # x₁..x₃ printed, then Q₁ K₁ V₁ ... given per token with no weights: the start is Q, K, V given
    ("md_zh_embeddings_then_qkv_given_per_token.md", "[0.401, 0.198, 0.401]", "[0.401, 0.189, 0.401]", 41),
    ("md_zh_embeddings_then_qkv_given_per_token.md", "= [1.000, 0.994]", "= [1.000, 0.949]", 48),
    ("md_zh_embeddings_then_qkv_given_per_token.md", "Q₂ · K₃ = 1×1 + 0×0 = 1", "Q₂ · K₃ = 1×1 + 0×0 = 0", 25),
    # pandas printouts: Q, K, V side by side under "Q1 Q2 K1 K2 V1 V2", rows named "q:el", columns "k:el"
    ("nb_pandas_qkv_side_by_side_token_index.ipynb", "0.304   0.785", "0.304   0.758", 3),
    ("nb_pandas_qkv_side_by_side_token_index.ipynb", "0.219   0.273", "0.219   0.237", 5),
    # per-token projections written term by term (`[2+2, 2+0] = [4, 2]`): a wrong result is found on its line
    ("md_per_token_projection_terms_written.md", "[2+2, 2+0] = [4, 2]", "[2+2, 2+0] = [4, 3]", 30),
    ("md_per_token_projection_terms_written.md", "[0.0529, 0.8943, 0.0529]", "[0.0529, 0.8934, 0.0529]", 44),
    # "weight matrices for Q, K and V (each 4×2)" and a concatenation of the stated two heads (2×4): their shapes hold
    ("md_head_one_worked_weights_each_4x2.md", "[[0.000, 0.707], [0.707, 0.000]]", "[[0.000, 0.770], [0.707, 0.000]]", 24),
    ("md_head_one_worked_weights_each_4x2.md", "(each 4×2)", "(each 4×3)", 12),
    # "output_1 = 0.335·[...] + ..." of a side query is not row 1 of the example by its name alone
    ("md_side_query_output_named_like_row_one.md", "0.198 & 0.401 & 0.401", "0.198 & 0.410 & 0.401", 9),
    # raw scores in a table beside the weights, the scale stated in words (kq_scale = 1/8), the first row masked
    ("md_zh_raw_scores_table_stated_scale.md", "`[0.8991, 0.1009]` |", "`[0.8919, 0.1009]` |", 8),
    # two heads with no projection, then a one-head demo with its own weights that the configuration does not take
    ("md_two_heads_identity_then_own_weights_demo.md", "0.599 \\\\ 0.599 & 0.802", "0.599 \\\\ 0.599 & 0.820", 14),
    # a softmax result written in scientific notation (6.14\times10^{-6}); a second call's argument is its own input
    ("md_softmax_saturates_scientific.md", "0.99998771,\\ 6.14", "0.99998771,\\ 3.07", 5),
    ("md_softmax_saturates_scientific.md", "(0.9094,\\ 0.0453", "(0.9094,\\ 0.0435", 9),
    # one word vector "输入 [1 x 2]" is a row of X, and "0.4 \sim 0.5" a range; X's own shape is still judged
    ("md_zh_diagram_token_row_and_range.md", "X \\in \\mathbb{R}^{3 \\times 2}", "X \\in \\mathbb{R}^{3 \\times 3}", 10),
    # softmax of scores shown to two places but worked at full precision; an exercise's changed value row
    ("md_quarto_softmax_calls_and_exercise.md", "[0.108, 0.446, 0.446]", "[0.108, 0.464, 0.446]", 18),
    ("md_quarto_softmax_calls_and_exercise.md", "0.663 & 0.892", "0.663 & 0.829", 22),
    # tables with quoted token names over their columns keep the caption above them: the scores are a start
    ("md_quoted_token_header_tables.md", '"day"     0.22    0.50', '"day"     0.22    0.05', 21),
    # a dot product of word vectors given before it (one decimal): the vectors are exact, a slip of 0.04 shows
    ("md_word_vectors_dot_lines_in_code.md", "[0.6, 0.2, 0.8] = 0.52", "[0.6, 0.2, 0.8] = 0.56", 15),
    ("md_word_vectors_dot_lines_in_code.md", "[0.1, 0.5, 0.2] = 0.32", "[0.1, 0.5, 0.2] = 0.23", 17),
    # rows counted from 0 ("Row 1" is the second): a denominator is not judged against another row's sum; M, the
    # masked scores, is judged as the scores
    ("md_zero_based_rows_causal_denominators.md", "1.4142 & 0.7071 & -\\infty", "1.4142 & 0.7701 & -\\infty", 9),
    ("md_zero_based_rows_causal_denominators.md", "[0.4011, 0.4011, 0.1978]", "[0.4011, 0.4101, 0.1978]", 17),
    # a CNN aside and an exercise's own givens are not the example's; the example itself is still judged
    ("md_cnn_aside_then_attention_exercise.md", "0.599 & 0.802 \\\\ 0.752", "0.599 & 0.820 \\\\ 0.752", 35),
    # V given, two of its rows quoted again in worked rows: the output from the rounded weights is a note; a slip is not
    ("md_rows_quote_values_rounded_weights.md", "1.00 & 1.00 \\\\ 0.75 & 1.25", "1.00 & 1.00 \\\\ 0.57 & 1.25", 32),
    # softmax called at the prompt on a written list: its echo is judged against that list
    ("md_repl_softmax_calls.md", "[0.9088, 0.0746, 0.0166]", "[0.9088, 0.0764, 0.0166]", 12),
    ("md_repl_softmax_calls.md", "[0.2119 0.2119 0.5761]", "[0.2119 0.2119 0.5716]", 14),
    ("md_repl_softmax_calls.md", "tensor([0.4502, 0.5498])", "tensor([0.4502, 0.5948])", 22),
    # a dot product of two written rows, the second transposed or both in parentheses: judged by its own terms
    ("md_dot_products_transposed_rows.md", "[1,0,1,0]ᵀ = 1", "[1,0,1,0]ᵀ = 2", 6),
    ("md_dot_products_transposed_rows.md", "(1, 2, 0, 1) = 6", "(1, 2, 0, 1) = 5", 7),
    ("md_dot_products_transposed_rows.md", "[2, 0.4]^T = 1.6", "[2, 0.4]^T = 1.9", 10),
    # a blog's front matter is no arithmetic, a supposed model's sizes no claim; the example's own sizes still are
    ("md_blog_front_matter_other_setup_shapes.md", "and $d_k = 3$;", "and $d_k = 4$;", 18),
    ("md_blog_front_matter_other_setup_shapes.md", "0.529 & 0.736 & 0.736", "0.529 & 0.763 & 0.736", 30),
    # "√d_k ≈ 1.41" as the divisor: 0.84 / 1.41 = 0.60 holds; a slip beside it does not
    ("md_rounded_root_dk_divisor.md", "[[0.60, 0.41], [0.55", "[[0.60, 0.14], [0.55", 20),
    ("md_rounded_root_dk_divisor.md", "[[0.64, 0.66], [0.61", "[[0.64, 0.66], [0.16", 32),
    # a table whose query column holds one token's vector (the others a dash): one query against three keys
    ("md_token_table_one_query_cell.md", "(1.41, 0.71, 2.12)", "(1.41, 0.17, 2.12)", 18),
    ("md_token_table_one_query_cell.md", "\\right) = (0.28, 0.14, 0.58)", "\\right) = (0.28, 0.41, 0.58)", 22),
    # TeX's thousands separator (8{,}192) is no decimal comma; a count that is wrong still shows
    ("md_zh_param_counts_tex_thousands.md", "= 196{,}608$", "= 196{,}680$", 25),
    # a unit just after the closing $ and round numbers under ≈ are read as written; a real slip still shows
    ("md_sizes_after_math_and_round_ratios.md", "[0.140, 0.284, 0.576]", "[0.140, 0.248, 0.576]", 14),
    ("md_sizes_after_math_and_round_ratios.md", "3.35e12 ≈ 300", "3.35e12 ≈ 200", 22),
    # head 2 with weights of its own after shared ones: the three per-head weights are taken together
    ("md_head_two_weights_rearranged.md", "0.892 & 1.000 \\\\ 0.424", "0.892 & 1.000 \\\\ 0.442", 61),
    ("md_head_two_weights_rearranged.md", "K^2 = X W_K^2 = \\begin{bmatrix} 2 & 0 \\\\ 0 & 1",
     "K^2 = X W_K^2 = \\begin{bmatrix} 2 & 0 \\\\ 0 & 2", 49),
    ("txt_repl_reassign.txt", "0.3536", "0.3563", 16),
    ("md_two_examples_reused_names.md", "[0.1425 0.3221", "[0.1425 0.3212", 48),
    ("md_two_examples_reused_names.md", " [0.4682 0.5318]]", " [0.4682 0.5381]]", 100),   # the second example
    ("md_two_examples_reused_names.md", "[ 0.5254 -0.2425]]", "[ 0.5254 -0.2452]]", 102),
    ("tex_integer_toy_onehot.tex", "0 & 2 & 2 \\\\ 2 & 3 & 5", "0 & 2 & 2 \\\\ 2 & 3 & 6", 15),  # whole numbers
    ("txt_repl_row_changed.txt", "[0.4133, 0.3608, 0.3994]", "[0.4133, 0.3680, 0.3994]", 15),  # before the change
    ("md_norm_aside_and_head_shapes.md", "[0.4306 0.1767", "[0.4306 0.1776", 18),
    ("md_zero_product_printout.md", "0.0001, 0.0474, 0.9525", "0.0001, 0.0474, 0.9552", 26),
    # two columns of facts side by side in plain text ("d_k = 64      √64 = 8") are two equations, not 64√64
    ("md_text_columns_side_by_side.md", "√64     = 8", "√64     = 6", 8),
    ("md_text_columns_side_by_side.md", "1/√64   = 0.125", "1/√64   = 0.135", 9),
    # numbers side by side after a label, no brackets ("weights:  0.2689    0.7311"), are a row
    ("md_text_columns_side_by_side.md", "0.2689    0.7311", "0.2689    0.7131", 22),
    ("md_text_columns_side_by_side.md", "0.5       1.5", "0.5       1.6", 21),
    ("md_text_columns_side_by_side.md", "[0.2689, 1.4621]", "[0.2689, 1.4521]", 23),
    # a total worked out in a sentence from exponentials printed to 3 decimals: judged within their rounding
    ("md_prose_sum_of_rounded_exponentials.md", "= 4.628", "= 4.682", 7),
    # "3. 手算题。k1 = [1, 0]…" gives new vectors under an exercise: its own example, the first one still judged
    ("md_zh_exercise_list_rebinds_vectors.md", "0.2446 & 0.4307", "0.2446 & 0.4370", 28),
    ("md_zh_exercise_list_rebinds_vectors.md", "0.8939 & 0.92", "0.8939 & 0.29", 34),
    # "each matrix will be a 4x2 matrix" is said of the three projections, not of the last name before it
    ("md_each_matrix_size_in_prose.md", "0.7679 & 0.0454", "0.7679 & 0.0545", 35),
    # a reading in words under "## Another example" is that example's; the first example's is still judged
    ("md_another_example_in_words.md", "the weight is 0.4647", "the weight is 0.4467", 17),
    # a spread is read as population or sample (÷4 or ÷3, root over the division or not), and no more
    ("md_norm_aside_and_head_shapes.md", "(9-6)²)/4 = 2.58", "(9-6)²)/4 = 2.85", 40),
    ("md_norm_aside_and_head_shapes.md", "(9-6)²)/4 = 5", "(9-6)²)/4 = 6", 41),
    # a total of rounded exponentials is a note only when they give it
    ("md_zh_rounded_carried_forward.md", "总和为 4.914", "总和为 4.941", 53),
    ("md_pe_bias_residual_layernorm.md", "0.6023 & 0.4852", "0.6203 & 0.4852", 48),     # Q with its stated bias
    ("html_blog_tables_tokens.html", "<td>0.282</td>", "<td>0.228</td>", 50),
    ("md_zh_blog_integer_weights.md", "4 & 16 & 12", "4 & 16 & 13", 38),
    ("md_shapes_in_prose_gpt2_sizes.md", "(4 × 2) = 3 × 2:", "(4 × 2) = 3 × 4:", 27),     # a shape product
    ("md_shapes_in_prose_gpt2_sizes.md", " [0.19 0.22]", " [0.19 0.23]", 31),     # under a lone "Q =" line
    ("md_zh_multihead_shapes_prose.md", "注意力矩阵是 3×3", "注意力矩阵是 3×2", 11),       # shapes in Chinese prose
    ("md_zh_multihead_shapes_prose.md", "拼接后是 3×4", "拼接后是 3×2", 113),
    # a dot product laid out down the page (a product per line, a blank line, the products, the sum) is one chain
    ("md_dot_products_down_the_page.md", "= 0.43", "= 0.44", 37),
    ("md_dot_products_down_the_page.md", "+ 0.15", "+ 0.16", 51),
    # sizes glossed by their names in parentheses ([8, 32, 768] (batch, seq_len, d_model)) are a shape, not entries
    ("md_zh_shapes_glossed_by_names.md", "5.553 = 0.269", "5.553 = 0.296", 15),
    # softmax(0.71, 1.41, 0.00) = (0.29, 0.57, 0.14) in TeX: read, and judged against its own argument
    ("tex_align_cdot_softmax_call_rounded.tex", "= (0.29, 0.57, 0.14)", "= (0.29, 0.75, 0.14)", 34),
    # bfloat16 printouts stand for wider intervals than their digits (readers/lowprecision.py); a slip is still found
    ("md_torch_bfloat16_printouts.md", "[0.2598, 0.3398, 0.4004]", "[0.2598, 0.3938, 0.4004]", 40),
    # one column per key, one row per step (| q · k |, | q · k / 2 |, | softmax |): each row its own quantity
    ("md_one_query_keys_as_columns.md", "| 0.625 | 0.500 |", "| 0.625 | 0.050 |", 13),
    ("md_one_query_keys_as_columns.md", "| 0.283 | 0.250 |", "| 0.283 | 0.205 |", 14),
    # "… is 0.283 · (1, 2) + 0.250 · (0, 1) + … = (1.684, 0.816)": a weighted sum of tuples named in words
    ("md_one_query_keys_as_columns.md", "= (1.684, 0.816)", "= (1.684, 0.861)", 18),
    # Octave, Julia and R sessions: each printout named by its REPL (a name over a blank line, a `3×3 Matrix{Float64}:`
    # header under `julia> A = ...`, `> A` over `[,1] [,2]`), readers/sessions.py and statements.py
    ("txt_octave_session.txt", "0.2997   0.3452", "0.2997   0.3542", 42),
    ("md_julia_repl.md", "0.299682  0.345207", "0.299682  0.354207", 33),
    ("md_r_session.md", "0.9822  1.1776", "0.9822  1.1767", 44),
    # "后面的步骤用的是四舍五入后的数" declares rounding carried for the whole document (labels.CARRIED_ROUNDING): a weight
    # from exponentials rounded but not printed is a note, a slip is still an error
    ("md_zh_rounded_every_step_unprinted.md", "0.32 & 0.33 & 0.35", "0.32 & 0.36 & 0.35", 45),
    # f-string printouts, scores rounded to one decimal for display and weights at two: a 2-decimal slip is found
    ("md_numpy_fstring_prints_mixed_precision.md", "[0.25 0.22 0.34 0.19]", "[0.25 0.29 0.34 0.19]", 29),
    ("tex_beamer_course_slides.tex", "0.0879 & 0.7337", "0.0879 & 0.7373", 31),     # under \\only and \\pause
    # a bare "sum" under a column of products is their total (the mean of the inputs), judged against the column
    ("md_prefix_mean_sum_column.md", "  sum = 0.4327", "  sum = 0.4372", 153),
    ("md_prefix_mean_sum_column.md", "  sum = 1.2325", "  sum = 1.2352", 117),
    ("md_prefix_mean_sum_column.md", "* 1.8437 = 0.4609", "* 1.8437 = 0.4690", 138),   # a term: found there only
    # factors printed rounded: a product outside what their rounding allows is still a slip
    ("txt_repl_rounded_factor_products.txt", "2.0000 = 0.9409", "2.0000 = 0.9049", 27),
    ("txt_repl_rounded_factor_products.txt", "0.6923 = 0.3257", "0.6923 = 0.3275", 32),
    # a number times a matrix: the factor is the raw scores, the matrix after it the scaled ones
    ("tex_half_times_score_matrix.tex", r"\\ 1 & 3 & 1 \\ 4 & 2 & 3 \end{bmatrix} =",
     r"\\ 1 & 5 & 1 \\ 4 & 2 & 3 \end{bmatrix} =", 21),
    ("tex_half_times_score_matrix.tex", "0.5 & 1.5 & 0.5", "0.5 & 1.6 & 0.5", 21),
    # a later thought experiment with its own heads (h = 2) and a 3×6 W^O: the first example is still judged
    ("md_later_heads_example_with_wo.md", "1.620 & 1.380", "1.620 & 1.830", 32),
    # encoder states h_1, h_2, h_3 of a later cross-attention aside are not the head outputs their letter suggests
    ("md_cross_attention_states_named_h.md", "0.5989 & 1.0000", "0.5898 & 1.0000", 21),
    # a first example with its own W^K, a second that says Q = K = V = X: each section under its own reading
    ("md_two_examples_assumed_key_weights.md", "\n[0.248, 0.503, 0.248]", "\n[0.248, 0.530, 0.248]", 56),
    ("md_two_examples_assumed_key_weights.md", "\n[0.401, 0.401, 0.198]", "\n[0.401, 0.410, 0.198]", 87),
    # one exponential printed for a score the row holds twice: the total of the printed terms counts it twice
    ("md_zh_one_exp_for_equal_scores.md", "总和=16.66", "总和=16.76", 40),
    ("md_zh_one_exp_for_equal_scores.md", "1.94 & 1.11", "1.94 & 1.17", 47),
    # "Head2: `Q(token2) = [0,1]`": head 2's query of token 2, named under the head's prefix
    ("md_head_prefix_token_queries_premask.md", "Head2: `Q(token2) = [0,1]`", "Head2: `Q(token2) = [0,2]`", 31),
    ("md_head_prefix_token_queries_premask.md", "0.330 & 0.670", "0.330 & 0.760", 67),
    # a notebook's masked_softmax(...) of random inputs: no configuration, but each printed row sums to 1
    ("nb_zh_masked_softmax_random_rows.ipynb", "0.3605, 0.6395", "0.3605, 0.6359", 2),
    ("nb_zh_masked_softmax_random_rows.ipynb", "0.2900, 0.2763", "0.2900, 0.2736", 5),
    # an installer's progress bars (`eta 0:00:10`) and tqdm's line are no claims; the example after them is judged
    ("nb_pip_progress_then_attention.ipynb", "0.4458 0.1084", "0.4458 0.1048", 3),
    # TensorFlow's printouts (tf.Tensor(...)); temp_q bound again in a later code block asks the same keys again
    ("md_zh_tf_tensor_queries_rebound.md", "0.5140184  0.16199388 0.16199388]]", "0.5410184  0.16199388 0.16199388]]",
     30),
    ("md_zh_tf_tensor_queries_rebound.md", " [0.38018423 0.38018423 0.11981579 0.11981579]]",
     " [0.38018423 0.38081423 0.11981579 0.11981579]]", 61),
    ("md_zh_tf_tensor_queries_rebound.md", " [135.9794      1.3179737]]", " [135.9794      1.3719737]]", 66),
    # box-drawn matrices side by side, each named before its top corner (`W_K = ┌`)
    ("md_box_drawn_side_by_side_weights.md", "0.29  0.34  0.07", "0.29  0.43  0.07", 30),
    ("md_box_drawn_side_by_side_weights.md", "0.28  0.24 -0.10", "0.28  0.42 -0.10", 30),
    ("md_box_drawn_side_by_side_weights.md", "0.3296  0.1558", "0.3296  0.1585", 40),
    ("md_box_drawn_side_by_side_weights.md", "0.218  0.308  0.305", "0.218  0.380  0.305", 65),
    # "scores: [...] weights: [...] out: [...]" on one printed line: three vectors, each under its own name
    ("md_named_vectors_one_output_line.md", "0.421 0.34 ", "0.412 0.34 ", 15),
    ("md_named_vectors_one_output_line.md", "out: [1.636 2.364]", "out: [1.636 2.346]", 15),
    ("md_named_vectors_one_output_line.md", "scores: [0.    0.566", "scores: [0.    0.656", 15),
    # sentences that end on a number ("exp(0) = 1. Sum = 3.0281."), bold run-in steps, a comma and words after a
    # result, sizes said of several ("they are all 2x2"), an aside whose symbols were lost ("? = ?5.0 = 2.24")
    ("md_two_tokens_sentences_and_outputs.md", "≈ 0.7071", "≈ 0.7017", 11),
    ("md_two_tokens_sentences_and_outputs.md", "Sum = 3.0281", "Sum = 3.0218", 13),
    ("md_two_tokens_sentences_and_outputs.md", "exp(0.7071) ≈ 2.0281", "exp(0.7071) ≈ 2.0218", 13),
    ("md_two_tokens_sentences_and_outputs.md", "≈ 0.6698 for itself", "≈ 0.6689 for itself", 14),
    # scores given in a sentence, values named in one ("v3 = [1, 1], the output is"), the weighted sum after them
    ("md_scores_then_values_in_sentence.md", "e^1.0 = 2.718", "e^1.0 = 2.781", 5),
    ("md_scores_then_values_in_sentence.md", "[0.659, 0.242, 0.099]", "[0.659, 0.224, 0.099]", 7),
    ("md_scores_then_values_in_sentence.md", "[0.758, 0.341]", "[0.758, 0.314]", 10),
    # a score table whose corner says "query \ key" (no name of Q) under a caption that names it
    ("md_scores_table_axis_corner.md", "| cat | 0.207 | 0.623 | 0.170 |", "| cat | 0.207 | 0.632 | 0.170 |", 16),
    ("md_scores_table_axis_corner.md", "| sat | 0.307 | 0.186 | 0.506 |", "| sat | 0.307 | 0.168 | 0.506 |", 17),
    # "Sum" worked out for row 1 and stated for row 2: a name with no index is no quote of the first
    ("md_row_sums_named_sum_each_row.md", "1.492 \\\\", "1.429 \\\\", 28),
    ("md_row_sums_named_sum_each_row.md", "\\approx 0.401", "\\approx 0.410", 20),
    ("md_row_sums_named_sum_each_row.md", "1.105 = 2.754", "1.105 = 2.745", 15),
    # NumPy pads a short float32 number (4.2354) to its row's width: it carries float32's rounding as its row does
    ("md_float32_padded_short_numbers.md", " [0.9743002 3.2655003 2.5789003]]", " [0.9743002 3.2655003 2.5798003]]", 28),
    # Exercise 1's given vectors h beside Exercise 3's K of one shape; a feed-forward W_1 of 0s and 1s; h = 8 and
    # N = 6 of the paper's model
    ("md_exercises_given_vectors_and_ffn.md", "[0.471, 0.264, 0.264]", "[0.471, 0.246, 0.264]", 37),
    ("md_exercises_given_vectors_and_ffn.md", "[ 0.917,  1.083", "[ 0.917,  1.038", 38),
    # a one-head example, then two heads on the same X under their own heading (h = 2, d_k = 2)
    ("md_zh_one_head_then_two_heads.md", "1.70 & 0.60 & 1.15", "1.70 & 0.66 & 1.15", 24),
    # Q, K, V given with no d_model: a T said of a long context once raised TypeError; "real models use d_h = 64";
    # one exponential for two equal live entries beside a masked one
    ("md_causal_qkv_given_real_model_sizes.md", "0.6667 & 0.6667", "0.6667 & 0.6676", 26),
    ("md_causal_qkv_given_real_model_sizes.md", "Sum $= 8.2264$", "Sum $= 8.2246$", 20),
    # W_Q, W_K, W_V of one head, then "Head 2" with W_Q^2 ...: the unheaded weights are head 1's
    ("md_single_head_then_head_two_weights.md", "0.045 & 0.768", "0.045 & 0.786", 25),
    ("md_single_head_then_head_two_weights.md", "1.414 & 1.414 & 0.707", "1.414 & 1.441 & 0.707", 45),
    # a saturation aside in whole numbers, `e^{12}/(e^{12} + 31) ≈ 0.9998` (0.99981): no rounded terms, no note;
    # `e^{16}/(e^{16} + 63) ≈ 0.9999` for 0.999993: "all but 1" (numbers.nines_below_one), not a rounding slip
    ("md_ja_saturation_aside_nines.md", "0.8044 & 0.1956", "0.8404 & 0.1956", 20),
    ("md_ja_saturation_aside_nines.md", "\\approx 0.9998", "\\approx 0.9989", 32),
    # masked scores printed, then `torch.softmax(masked / keys.shape[-1]**0.5)`: the weights are judged under the
    # whole d their rows give (claims/softmax._masked_root), not set aside as another example's
    ("md_masked_scores_printed_before_the_scale.md", "0.2378, 0.6317", "0.2378, 0.6371", 62),
    ("md_masked_scores_printed_before_the_scale.md", "[0.0035, 0.1377", "[0.0035, 0.1737", 61),
    # `$(3 \\times 2) \\times (2 \\times 3) = 3 \\times 3$`: the sizes of a product (readers/arrays._shape_product), judged
    # as sizes, never as arithmetic
    ("md_shapes_of_a_product_in_math.md", "0.716 & 0.708", "0.716 & 0.780", 26),
    ("md_shapes_of_a_product_in_math.md", "0.576 & 0.140 & 0.284", "0.576 & 0.140 & 0.248", 20),
    ("md_shapes_of_a_product_in_math.md", "= 3 \\times 3$:", "= 3 \\times 2$:", 11),
    # matrices drawn between ASCII bars in a fenced worksheet (readers/boxes.ascii_boxes), side by side, a row's
    # left bar one column off; unmasked scaled scores whose masked cell is a live 0 (claims/premask)
    ("md_ascii_bar_matrices_worksheet.md", "0.8044   0.1956 |", "0.8404   0.1956 |", 28),
    ("md_ascii_bar_matrices_worksheet.md", "1.8044   0.3911", "1.8044   0.3191", 31),
    ("md_ascii_bar_matrices_worksheet.md", "2.82843   0       |", "2.82843   0.5     |", 21),
    ("md_ascii_bar_matrices_worksheet.md", "| 1  1 |              | 0  2", "| 1  1 |              | 0  3", 16),
    # "q = [2, 1]. The keys are ...": a sentence ends after a bracket; "The output is 0.284·v1 + ... = [..]":
    # a weighted sum of named vectors after "is", against the vectors printed under those names
    ("md_weighted_sum_of_named_values_in_prose.md", "= [0.704, 1.144]", "= [0.704, 1.414]", 10),
    ("md_weighted_sum_of_named_values_in_prose.md", "[0.284, 0.140, 0.576]", "[0.284, 0.410, 0.576]", 8),
    # `Row "fox" [2, 3, 1] → [0.24, 0.67, 0.09]` under a softmax heading: a written softmax when most such rows
    # fit, the rows of a model that divides by √2 first tried at that scale
    ("md_rows_of_scores_arrow_weights.md", "[0.24, 0.67, 0.09]", "[0.24, 0.76, 0.09]", 12),
    ("md_rows_of_scores_arrow_weights.md", "[0.09, 0.24, 0.67]", "[0.09, 0.42, 0.67]", 13),
    ("md_rows_of_scores_arrow_weights.md", "[0.673, 0.164, 0.164]", "[0.673, 0.146, 0.164]", 24),
    # print(f"{W_query=}") of nn.Parameters: "W_query=Parameter containing:" names the tensor under it
    ("md_fstring_debug_parameters.md", "[0.3365, 0.7983]", "[0.3356, 0.7983]", 51),
    ("md_fstring_debug_parameters.md", "0.5741", "0.5714", 45),
    # outputs worked from weights rounded as first printed: a slip in a later copy of the weights does not make
    # them wrong (claims/rounding: the first printing is tried too)
    ("md_outputs_from_first_printed_weights.md", "A = [[0.0191, 0.3239", "A = [[0.0191, 0.3293", 30),
    # `K = Q.clone()`: the keys are the queries' numbers under a second name (readers/python._alias_of)
    ("md_zh_keys_cloned_from_queries.md", "[0.3904, 0.3904, 0.2192]", "[0.3904, 0.3904, 0.2912]", 27),
    ("md_zh_keys_cloned_from_queries.md", "[1.0578, 2.6777]", "[1.0758, 2.6777]", 32),
    # prose lines each stating vectors (k1 = [..], k2 = [..] over v1 = [..] ...) are no column headers of the
    # line under them; whole vectors added to a whole result are exact ([0, 4] + [2, 0] + [2, 2] = [4, 6])
    ("md_zh_integer_vectors_summed_in_prose.md", "[2, 2] = [4, 6]", "[2, 2] = [4, 7]", 11),
    ("md_zh_integer_vectors_summed_in_prose.md", "0.40、0.20、0.40", "0.40、0.02、0.40", 9),
    ("md_zh_integer_vectors_summed_in_prose.md", "约为 0.71", "约为 0.17", 7),
    # a masked cell printed as the code's fill, -1e9, where the mask puts -∞ (infer/match.within)
    ("md_zh_causal_mask_fill_labelled_mask.md", "[0.196, 0.804]", "[0.196, 0.840]", 32),
    ("md_zh_causal_mask_fill_labelled_mask.md", "[2.609, 1.609]", "[2.609, 1.690]", 39),
    # K_3 = all three rows of K: a subscript counting decoding steps is no row index (claims/array._judge_layout)
    ("md_kv_cache_versions_by_step.md", "0.3302 & 0.6698", "0.3302 & 0.6968", 14),
    ("md_kv_cache_versions_by_step.md", "2.3395 & 0.6605", "2.3395 & 0.6650", 15),
    # a second question whose query has another width (Query = "fox" = [1, 0] against q = [0, 1, 1]): its scores
    # are its own example's, never the first question's Q Kᵀ (claims/scope._other_width)
    ("md_exam_second_question_new_width.md", "weights = [0.212, 0.212, 0.576]", "weights = [0.212, 0.212, 0.567]", 17),
    ("md_exam_second_question_new_width.md", "[0.42, 0.42, 0.16]", "[0.42, 0.24, 0.16]", 38),
    # a bold result with a remark set in \text after it: `\approx \mathbf{0.3302} \text{ (33\% to "sun")}`
    ("md_bold_results_with_text_remarks.md", "\\approx \\mathbf{0.3302}", "\\approx \\mathbf{0.3032}", 18),
    # TeX thousands separators (98{,}560) in a page that also writes the interval $(0,1]$ (no decimal comma);
    # "identical shape $= 98{,}560$" is the value of its own words, not the next step of the math before it
    ("md_param_counts_thousands_separators.md", "256 = 98{,}560", "256 = 98{,}650", 14),
    ("md_param_counts_thousands_separators.md", "mathbf{196{,}608}", "mathbf{196{,}806}", 16),
    ("md_param_counts_thousands_separators.md", "approx 0.6652", "approx 0.6625", 6),
    # "- exp(0.7071)=2.0281": the argument of a call is no value of its name (readers/prose.py)
    ("md_es_exp_list_per_row.md", "exp(0.3536)=1.4241", "exp(0.3536)=1.4421", 22),
    ("md_es_exp_list_per_row.md", "[0.4555, 0.2246, 0.3199]", "[0.4555, 0.2264, 0.3199]", 24),
    # one query worked with terms rounded to two decimals (1/1.73 = 0.58): no ALiBi unless the text names it (its
    # 1/256 slope passed for rounding on an outside page), and 2/1.73 = 1.15 as the author's 2/√3
    ("md_one_query_rounded_steps_no_alibi.md", "= [0.27, 0.27, 0.47]", "= [0.27, 0.27, 0.74]", 37),
    # a bias per head (b_K^{(1)}, b_K^{(2)}) joined in head order; K_raw is the product before the bias and S_raw the
    # unscaled scores (labels.parse_label): the second head's scores are judged with its own bias
    ("md_per_head_bias_raw_products.md", "1.060660 & 5.303301", "1.060660 & 5.330301", 246),
    ("md_per_head_bias_raw_products.md", "0.419229 & 0.960887", "0.419229 & 0.906887", 288),
    # `softmax([0.64, -0.08, -0.26]) =` left open, finished four lines down by `Approximately: [...]`
    # (readers/softmaxdrawn.tie_open_softmax); "Result:" alone is a weak name (the dot products, not Y)
    ("md_open_softmax_call_finished_below.md", "Approximately: [0.53, 0.26, 0.21]", "Approximately: [0.53, 0.62, 0.21]", 22),
    ("md_open_softmax_call_finished_below.md", "= [0.74, 0.47]", "= [0.74, 0.74]", 33),
    # every value cut after three decimals (2.886 for 2.88675): the document's convention, read from its cells
    # (claims/truncation.py); a value wrong either way is still found
    ("md_digits_cut_off_not_rounded.md", "[0.320, 0.320, 0.179, 0.179]", "[0.320, 0.320, 0.197, 0.179]", 25),
    ("md_digits_cut_off_not_rounded.md", "[0.859, 0.500, 1.140]", "[0.859, 0.500, 1.104]", 34),
    # an unmasked example's weights printed again under a causal mask (A_causal, O_causal): judged against the
    # same chain with the mask (claims/unscaled.py), not set aside
    ("md_same_head_again_under_causal_mask.md", "[0.0759, 0.9241, 0.0000]", "[0.0759, 0.9421, 0.0000]", 33),
    ("md_same_head_again_under_causal_mask.md", "[0.0759, 1.8483,", "[0.0759, 1.8843,", 38),
    # `def softmax(x): x = x - x.max()` is the function's own x, no new input (readers/pyparse.function_lines);
    # a pandas printout whose index holds words longer than nine letters is still one table (readers/drawn.py)
    ("ipynb_local_softmax_pandas_long_index.ipynb", "0.089   0.434", "0.089   0.443", 3),
    ("ipynb_local_softmax_pandas_long_index.ipynb", "Abendstern: [0.481 1.041", "Abendstern: [0.481 1.014", 1),
    ("ipynb_local_softmax_pandas_long_index.ipynb", "1.475   0.358   0.561", "1.475   0.385   0.561", 4),
    # shapes carried through a transpose and a reshape, (4 × 6 × 8) ⟶ (6 × 4 × 8) ⟶ (6 × 32), are no arithmetic
    # (claims/arith.py); a page starting from the heads' outputs still has its own sums checked
    ("md_heads_joined_shape_trace.md", "0.731 + 0.500 = 1.231", "0.731 + 0.500 = 1.321", 50),
    # value vectors as tuples after a thin space, `0.665\,(1,0) + ...`: the weighted sum is read (readers/tokens.py)
    ("md_thin_space_weighted_tuples.md", "=(0.755,0.335)", "=(0.755,0.353)", 3),
    # scores and weights named in Spanish (puntuaciones, pesos): the scores are the start (labels.py)
    ("md_es_scores_and_weights_named_in_spanish.md", "0.5979, 0.2687", "0.5979, 0.2867", 7),
    # matrices named only by the heading above them (`#### $W_Q$`, `#### Query $Q$`), rows broken by a doubled
    # `\\\\` (readers/headings.py): the printed weights are used, not I, and X is X, not "the first matrix"
    ("md_matrices_named_by_headings_doubled_breaks.md", "0.8542 & 0.1458", "0.8452 & 0.1458", 78),
    ("md_matrices_named_by_headings_doubled_breaks.md", "1.00 & 2.50", "1.00 & 2.05", 57),
    # a row of weights [1, 0, 0, 0] and numbers after it that equal e and 1 (a variance of 2.72, 1/d_k) are no list
    # of exponentials: exp(0) = 1 says nothing (claims/exps.py)
    ("md_weights_row_then_variance_ratio.md", "21.8 / 8 = 2.725", "21.8 / 8 = 2.752", 7),
    # `softmax(scores / 0.5)` beside the scores: the temperature the label gives is applied (claims/softmax.py); it
    # drew three false errors against the plain softmax before
    ("md_softmax_under_a_temperature.md", "0.867, 0.117", "0.867, 0.171", 7),
    ("md_softmax_under_a_temperature.md", "0.307, 0.186", "0.307, 0.168", 21),
    # a sentence named S with W_q, W_k, W_v printed after it is their input (infer/candidates._fed_by_weights), and a
    # matrix whose rows end in one backslash (a renderer ate the other) is read row by row (readers/tokens.py)
    ("md_sentence_named_s_single_backslash_rows.md", "0.221 & 0.365", "0.221 & 0.356", 27),
    ("md_sentence_named_s_single_backslash_rows.md", "0.635 & 0.779", "0.635 & 0.797", 35),
    # one query written q_2 beside code whose q is that one row: the subscript is the token's place, so z_2 is the
    # output (two false errors on an outside page read it as row 2 of a one-row O) (judge._rebase)
    ("md_zh_second_token_query_and_code.md", "[1.4160, 2.5840]", "[1.4160, 2.5480]", 17),
    # weights computed some other way beside a softmax (scores / scores.sum(), sigmoid, relu(...) / 4, log_softmax),
    # and the scores given again with other values: none of them is the softmax of the first scores (ten false
    # errors before; claims/softmax.other_normaliser, labels._OTHER_CALL, claims/restated_inputs.given_restated)
    ("md_other_normalisations_beside_softmax.md", "0.665, 0.245", "0.665, 0.254", 7),
    ("md_other_normalisations_beside_softmax.md", "0.867, 0.117", "0.867, 0.171", 42),
    # rows of a plain-text table of weights each followed by a note in parentheses, "(sum: 1.0)" (readers/drawn.py)
    ("md_weight_rows_with_sum_notes.md", "0.2327  0.4686", "0.2327  0.4668", 18),
    # a lesson's other numbers around an attention example: a sum wrapped by the paragraph's line breaks (one
    # statement, readers/continued.py), s(-2.0) = -s(2.0), a step size "a = 0.05", a printout of torch.ones: none is
    # a finding (four false errors before); the example's weights are still judged
    ("md_lesson_with_other_numbers_around_attention.md", "= 2.375", "= 2.735", 9),
    ("md_lesson_with_other_numbers_around_attention.md", "[0.1978, 0.4011, 0.4011]", "[0.1978, 0.4101, 0.4011]", 33),
    # a course page's other numbers: a clock time, a log line's timestamp, a cube root, dot products of two
    # bracketed vectors, exponentials rounded to whole numbers (e^4 = 55): none is a finding (six before)
    ("md_course_clock_roots_dots_rounded_exps.md", "weights = [0.4011, 0.1978", "weights = [0.4011, 0.1987", 25),
    ("md_course_clock_roots_dots_rounded_exps.md", "= 1 + 4 + 4 = 9", "= 1 + 4 + 4 = 8", 8),
    # an exercise's solution works head sizes of a wider practice model (d_k = 8/8 = 1 beside a toy of width 4,
    # claims/shape._other_width): not the toy's size; the toy's own d_k and weights are still judged
    ("md_exercise_head_widths_of_a_wider_model.md", "($T = 3$", "($T = 4$", 3),
    ("md_exercise_head_widths_of_a_wider_model.md", "0.8482 & 0.1017 & 0.0501", "0.8482 & 0.1071 & 0.0501", 18),
    # `**Weight on "sand":** `8.34 / 14.48 = 0.58``: the bold marker left at the edge of the ratio is no operator
    # (readers/statements._strip); before, the ratio was read as a label and a slip in its result went unread
    ("md_bold_bullets_weights_as_code_ratios.md", "8.34 / 14.48 = 0.58", "8.34 / 14.48 = 0.59", 28),
    # "STEP 6 - Output O = AV" over the printed rows: the caption's last word names them whole (readers/drawn.py
    # kept all but its last letter, "A", and the right output was reported as weights holding O's values)
    ("txt_step_captions_end_in_a_product.txt", "[1.278649, 0.573784]", "[1.278649, 0.573874]", 30),
    ("txt_step_captions_end_in_a_product.txt", "[0.426216, 0.147568,", "[0.426216, 0.147586,", 25),
    # `blue.Q = [..]    blue.K = [..]    blue.V = [..]` side by side in a block that is no Python: three statements
    # (readers/columns.column_gap after a bracket), each a token's vector (labels: `sky.Q` is the query of "sky")
    ("md_token_attributes_side_by_side.md", "Softmax weights: [0.396, 0.270,", "Softmax weights: [0.396, 0.207,", 19),
    ("md_token_attributes_side_by_side.md", "0.270, 0.334]", "0.270, 0.343]", 19),
    # a solution inside a MkDocs admonition (`??? success "..."` over lines indented four spaces) is Markdown, not an
    # indented code block (readers/markdown._admonitions)
    ("md_mkdocs_solution_admonition.md", "\\approx 0.5065", "\\approx 0.5056", 11),
    ("md_mkdocs_solution_admonition.md", "\\approx 0.3072", "\\approx 0.3027", 15),
    # a final answer inside \boxed{...}, around the whole `O = AV ≈ [...]` or around the matrix alone: read as if
    # unboxed (readers/tokens: \boxed was a style group, and its matrix went unread without a word)
    ("tex_boxed_final_answer.tex", "2.3395 & 0.6605 \\\\ 2.3395", "2.3395 & 0.6650 \\\\ 2.3395", 19),
    ("tex_boxed_final_answer.tex", "2.3395&0.6605", "2.3359&0.6605", 23),
    # a table of positional encodings beside X = E + PE, each row one entry from X's row, with W_V assumed to be I:
    # V is X itself, and a row that mostly equals one of its rows is not identified as a slip in it
    # (claims/assumed.copy_of_an_input); the scores and weights are still judged
    ("md_positional_table_beside_its_sum.md", "[1.65, 2.09, 0.50]", "[1.65, 2.90, 0.50]", 24),
    ("md_positional_table_beside_its_sum.md", "[0.35, 0.43, 0.21]", "[0.35, 0.43, 0.12]", 30),
    # a weight worked from rounded exponentials (1.120/3.702 = 0.303, exact 0.3025) and quoted into the weighted
    # sum: the quote is a note (claims/vector._weight_worked_before); a slip in the sum's own weights is still found
    ("md_weights_from_rounded_exponentials_quoted.md", "1.236/3.702 = 0.334", "1.236/3.702 = 0.343", 32),
    ("md_weights_from_rounded_exponentials_quoted.md", "e^0.212 = 1.236", "e^0.212 = 1.263", 27),
    # a rounded result (12.96, from 12.963) carried into a quotient worked from its unrounded value: a term with as
    # many significant digits as the result keeps its rounding (numbers.exact_below); slips around it still found
    ("txt_rounded_result_carried_into_a_quotient.txt", "94.54 = 0.926", "94.54 = 0.962", 9),
    ("txt_rounded_result_carried_into_a_quotient.txt", "e^5.797 = 329.4", "e^5.797 = 392.4", 15),
    # "≈ [0.7881, 0.7881] approximately" in plain text: the closing word is no part of the result
    # (readers/statements._strip), which is judged against its terms
    ("txt_weighted_sum_ends_in_a_word.txt", "≈ [0.7881, 0.7881]", "≈ [0.7881, 0.7811]", 19),
    ("txt_weighted_sum_ends_in_a_word.txt", "7.389 / 12.826 = 0.5761", "7.389 / 12.826 = 0.5716", 15),
    # weights worked one line each, then listed: the list quotes the lines in their order (claims/gathered.py),
    # with no configuration to judge it by; a copy slip in the list, and a slip in a worked line, are found
    ("md_weights_worked_then_listed.md", "[0.420, 0.219, 0.361]", "[0.420, 0.291, 0.361]", 20),
    ("md_weights_worked_then_listed.md", "1.105 / 3.059 = 0.361", "1.105 / 3.059 = 0.316", 18),
    # exponentials worked one line each, then the probabilities listed in a block of their own: each is its
    # exponential over their sum (claims/gathered._normalised); the exponentials' own slips are found too
    ("md_exponentials_then_probabilities.md", "[0.65, 0.23, 0.12]", "[0.65, 0.23, 0.21]", 28),
    ("md_exponentials_then_probabilities.md", "exp(0.354)  ≈ 1.425", "exp(0.354)  ≈ 1.452", 21),
    # per-token rows times a named weight matrix printed above (`v = [0, 1] × W_V = [1, 2]`): each line is judged
    # as x·W (claims/rowproduct.py), and a later copy that holds the right value is a note, not a second error
    # (claims/requoted.right_copies): the slip was blamed on the correct copy in the weighted sum
    ("md_token_rows_times_named_weights.md", "× W_V = [1, 2]", "× W_V = [1, 3]", 37),
    ("md_token_rows_times_named_weights.md", "k_hot = [0, 1] × W_K = [1, 0]", "k_hot = [0, 1] × W_K = [1, 1]", 16),
    # a sum of vector terms that the line before gives exactly (0.50 × [1, 2] = [0.50, 1.00]): no rounding in the
    # terms, only the weights' own, times the values they weigh (claims/vector._weights_rounding); a slip of two
    # units in the last digit was inside the room allowed for three rounded terms
    ("md_zh_outputs_from_exact_terms.md", "= [0.75, 1.50]", "= [0.77, 1.50]", 15),
    ("md_zh_outputs_from_exact_terms.md", "+ [0.50, 1.00]", "+ [0.50, 1.10]", 14),
    # an inline formula that starts with a relation after words of its own ("fator de compressão $= 0.25$", "fosse
    # $\sim 0$"): its value is those words', not a continuation of the formula before (readers/latex.worded): three
    # false findings on a Portuguese problem sheet; the worked softmax between them is still judged
    ("tex_values_named_by_words_between_formulas.tex", "1.649/4.367 \\approx 0.378", "1.649/4.367 \\approx 0.387", 15),
    ("tex_values_named_by_words_between_formulas.tex", "e^{0.5} \\approx 1.649$,", "e^{0.5} \\approx 1.694$,", 14),
    # a matrix of dot products written out cell by cell (`0.5x0.3 + 0.2x0.6`), then the matrix of their values:
    # each value against the arithmetic in its place (claims/cellwise.py); the page had no other check of them
    ("txt_matrix_of_written_products.txt", "[0.51,  0.39]", "[0.51,  0.93]", 15),
    ("txt_matrix_of_written_products.txt", "[[0.27,  0.43]", "[[0.27,  0.34]", 14),
    # math copied from a rendered page, each formula twice, flattened then its TeX (`e2=7.389e^{2}=7.389`): the
    # flattened copy is dropped (`51.414` for 5/1.414 was an arithmetic slip) and the TeX read as math
    # (readers/katexcopy.py); a slip in the TeX is found
    ("md_zh_math_copied_from_rendered_page.md", "\\approx 3.54", "\\approx 3.45", 12),
    ("md_zh_math_copied_from_rendered_page.md", "e^{2}=7.389", "e^{2}=7.398", 20),
    # the weights of one row listed one per line, then "Total: 1.00": the total of shares that add up to 1 is 1
    # (claims/linesum._shares); a slip in it was read as nothing
    ("txt_weights_listed_with_a_total.txt", "Total: 1.00", "Total: 1.10", 12),
    # exercises on one page; a later one's unnamed [[-1, 0], [0, 1]] matched an earlier one's scores [[1, 0], [0, 1]]
    # on its three 0s and 1s, and the -1 was a "dropped sign": matches of 0, ±1 alone do not name an unnamed object
    # (claims/array._one_mistake); a slip in the exercise's weights is still found
    ("md_zh_exercises_sign_matrix_later.md", "第一行 → [0.73, 0.27]", "第一行 → [0.75, 0.27]", 8),
]


@pytest.mark.parametrize("name,find,replace,line", SLIPS)
def test_planted_slip_is_still_found(name, find, replace, line):
    r = _check(CLEAN / name, find, replace)
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_a_printout_of_zeros_decides_no_choice_of_the_configuration():
    """A zero vector is a row of the causal mask and of many other views: it must not tip the mask (or the scale)
    when nothing else tells the choices apart (infer/score.py)."""
    text = (CLEAN / "md_zero_product_printout.md").read_text(encoding="utf-8")
    upto_scores = text[:text.index(">>> weights =")] + "```\n"
    r = check_document(upto_scores, fmt="md")
    assert r.configuration["mask"].startswith("no mask"), r.configuration["mask"]


def test_evidence_weighs_small_integers_and_repeats_less():
    assert evidence(np.array([0.7517, 0.2483]), np.array([True, True])) == 2.0
    # 1, 0, 1: two whole numbers below ten and a repeat
    assert evidence(np.array([1.0, 0.0, 1.0, 0.0]), np.array([True, True, True, False])) == pytest.approx(3 * WEAK)
    # a repeated informative value counts once in full
    assert evidence(np.array([0.25, 0.25, 0.5]), np.array([True, True, True])) == pytest.approx(2 + WEAK)
    assert evidence(np.array([12.0, 16.0]), np.array([True, True])) == 2.0        # larger integers are informative


def _obj(vals):
    v = np.array([vals], dtype=float)
    return Obj(a=None, ref=None, lo=v, hi=v, val=v)


def _hit(ok):
    ok = np.array([ok], dtype=bool)
    return Hit(view=None, how="row", index=0, ok=ok, exact=np.zeros(ok.shape))


def test_a_binary_vector_three_quarters_like_a_binary_row_is_not_identified():
    # the counts alone identify it (3 of the 3 other cells); the evidence does not (three chance-prone matches)
    assert identified(3, 4)
    assert not identifies(_obj([1, 0, 1, 0]), _hit([True, True, True, False]))
    assert not identifies(_obj([1, 0, 0]), _hit([True, True, False]))      # a one-hot in prose against scores


def test_informative_and_long_binary_objects_are_still_identified():
    assert identifies(_obj([0.7517, 0.2483, 0.9]), _hit([True, True, False]))
    # eleven of twelve cells of a 0/1 matrix: a chance match of one in two thousand
    cells = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0]
    assert identifies(_obj(cells), _hit([True] * 11 + [False]))
    assert evidence(np.array(cells, dtype=float), np.array([True] * 11 + [False])) >= AGREE_MIN


def test_masked_cells_are_no_evidence():
    # 0.6 and three zeros (1 + 3 × 1/3) identify it; when the zeros are where a causal mask put them, one cell is left
    o, h = _obj([0.6, 0.0, 0.0, 0.0, 0.3]), _hit([True, True, True, True, False])
    assert identifies(o, h)
    assert not identifies(o, h, skip=np.array([[False, True, True, True, False]]))


def test_a_weight_printed_again_transposed_is_a_reading_question():
    r = _check(CLEAN / "md_weight_both_layouts.md")
    why = [n.reason for n in r.not_checked if n.line == 50]
    assert why and "other layout" in why[0], [n.reason for n in r.not_checked]


@pytest.mark.parametrize("name,cell,line", [("txt_repl_row_changed.txt", None, 20),
                                            ("txt_repl_row_updated_in_place.txt", None, 14),
                                            ("txt_repl_reassign.txt", None, 41),
                                            ("nb_swapped_tokens.ipynb", 6, 1)])
def test_what_follows_an_input_changed_in_code_is_another_example(name, cell, line):
    """X[2] = [...], X[2] += 0.5, X = 2 * X, Q = X_swapped @ W_q after X_swapped = X[[0, 1, 2, 3, 5, 4]]: the
    printouts after them mostly agree with the first example (the unchanged rows), and used to be judged against
    it, one finding per changed cell."""
    r = _check(CLEAN / name)
    assert not r.findings, [f.describe() for f in r.findings]
    why = [n.reason for n in r.not_checked if (n.cell, n.line) == (cell, line)]
    assert why and "given other values in code" in why[0], [(n.cell, n.line, n.reason) for n in r.not_checked]


def test_one_informative_match_is_enough_and_chance_prone_ones_must_add_up():
    assert identifies(_obj([0.9997, 0.0, 0.3]), _hit([True, True, False]))        # 0.9997 is a rare coincidence
    assert not identifies(_obj([1, 0, 0, 0.3]), _hit([True, True, True, False]))   # 1, 0 and a repeated 0
    assert identifies(_obj([1, 0, 1, 0, 1, 0, 1]), _hit([True] * 6 + [False]))    # six of them: 1 in 64


def test_a_stated_projection_bias_is_part_of_the_configuration():
    """b_Q = (0.1, 0) in the text: Q = X W_Q + b_Q.  Without it every entry of Q's first column, and all after, was
    a finding."""
    r = _check(CLEAN / "md_pe_bias_residual_layernorm.md")
    said = "; ".join(r.configuration.values())
    assert "b_Q printed at line 27" in said and "b_K printed at line 27" in said, said


def test_html_subscripts_are_glued_to_their_base():
    """W<sub>V</sub> (2&times;2) is the shape of W_V, not a shape of V (which is 3×2)."""
    r = _check(CLEAN / "html_blog_tables_tokens.html")
    assert not [f for f in r.findings if "shape" in f.describe()]


def test_sizes_said_of_products_and_of_other_models_are_no_shape_of_a_name():
    """"X W_Q is (3 × 4)(4 × 2) = 3 × 2" is a product of shapes (X's and W_Q's), not two shapes of W_Q; the size after
    "Q Kᵀ / √2 is" or "X W_V (also ...)" is the product's, not its last factor's; "in GPT-2 it would be 1024 × 1024
    per head" is another model's.  Each was a shape finding on a correct document."""
    from mha.check.objects import ShapePart, ShapeProduct
    from mha.check.readers import read_document
    doc = read_document("Q = X W_Q is (3 × 4)(4 × 2) = 3 × 2\n\nThe score matrix Q Kᵀ / √2 is 3 × 3.\n\n"
                        "In GPT-2 it would be 1024 × 1024 per head.\n\nV = X W_V (also 3 × 2).\n\n"
                        "Here the key matrix K is 3 × 2, like Q.\n", fmt="md")
    shapes = [(c.parts[0].text, p.dims) for c in doc.chains for p in c.parts if isinstance(p, ShapePart)]
    assert shapes == [("K", [3, 2])]                      # a shape said of a name is still read
    products = [(p.left, p.right, p.result) for c in doc.chains for p in c.parts if isinstance(p, ShapeProduct)]
    assert products == [([3, 4], [4, 2], [3, 2])]


def test_a_name_on_its_own_line_names_the_printout_under_it():
    """"X =" then the printout on the next lines (a plain output block): X, read as the input, not a guess."""
    r = _check(CLEAN / "md_shapes_in_prose_gpt2_sizes.md")
    said = "; ".join(r.configuration.values())
    assert "X from line 7" in said and "W_Q printed at line 11" in said, said


def test_the_shape_of_a_real_model_beside_a_toy_is_not_the_toys():
    """"批量 32、序列 128、8 个头时，注意力张量是 32×8×128×128" after a 3-token example: another model's size."""
    from mha.check.claims.shapewords import another_model
    assert another_model([32, 8, 128, 128], {1, 2, 3, 4})
    assert not another_model([3, 5], {1, 2, 3, 4})                  # a slipped size of the example itself
    assert not another_model([512, 64], {1, 8, 64, 512, 10})        # a real-size example


def test_a_tuple_that_ends_a_sentence_is_read_once():
    """"… and k_3 = (0.2, 0.4)." : the full stop ends the sentence (it was taken for arithmetic going on), and a
    tuple the prose reader has is not read a second time from the statement (k_2 came twice)."""
    from mha.check.readers import read_document
    doc = read_document("The query is q_1 = (1.0, 0.5).  The keys are k_1 = (0.6, 0.8), k_2 = (1.0, -0.2) and "
                        "k_3 = (0.2, 0.4).\n", fmt="md")
    assert [a.label for a in doc.arrays] == ["q_1", "k_1", "k_2", "k_3"]
    r = _check(CLEAN / "html_sub_sup_one_query_exponentials.html")
    assert r.n_claims >= 10 and "Q at line 3" in "; ".join(r.configuration.values())


def test_a_value_after_an_arrow_keeps_its_own_name():
    """"W<sub>K</sub> = [[...]] → k = [0.35, 1.05]": the vector is k, not W_K (the chain's first name stands for a
    value only when the value has no simple name of its own, as in "Y = Concat(O^(1), O^(2)) ≈ [...]")."""
    from mha.check.readers import read_document
    doc = read_document("<p>W<sub>K</sub> = [[0.1, 0.9], [0.5, 0.3]] → <span>k</span> = [0.35, 1.05]</p>\n"
                        "<p>Y = Concat(O^(1), O^(2)) ≈ [0.25, 0.75]</p>\n", fmt="html")
    assert [(a.label, a.n_rows) for a in doc.arrays] == [("W_K", 2), ("k", 1), ("Y", 1)]


def test_a_product_factor_is_told_by_the_name_before_it_only():
    """The factor test looks at what stands before the whole name (`v1` in back-quotes is not the "1" of a "v" x
    "1" product), and only for a Latin symbol (加权求和 after "值向量 V" is a word, not a factor of V)."""
    from mha.check.readers.prose import _nearest_label
    assert _nearest_label('- Weight for `v1` ("The"): ', None) == "v1"
    assert _nearest_label("值向量 V 加权求和：", None) == "加权求和"
    assert _nearest_label("so X W_Q is ", None) is None


# styles not read yet (tests/check_clean/README.md lists them): they may check little or nothing, never wrongly
UNREAD = sorted(p for p in (CLEAN / "unread").iterdir() if p.suffix in FORMAT)


@pytest.mark.parametrize("path", UNREAD, ids=[p.name for p in UNREAD])
def test_a_style_not_read_yet_gives_no_error(path):
    from mha.check.command import NothingToCheck
    try:
        r = _check(path)
    except NothingToCheck:
        return
    assert not r.errors, [f.describe() for f in r.errors]


def test_tokens_kept_as_columns_make_a_transposed_printout_a_layout():
    """K Qᵀ with a column per query, the softmax down each column: A printed 3×2 for two queries is the document's
    layout, not a transposed slip (it was an error finding)."""
    r = _check(CLEAN / "md_column_form_kqt.md")
    why = [n.reason for n in r.not_checked if n.line == 12]
    assert why and "tokens as columns" in why[0], [n.reason for n in r.not_checked]


@pytest.mark.parametrize("text,fmt,want", [
    ("w = 0,3390, 0,3769 und 0,2841; s = 6,4210; q = (1,0; 0,5)\n", "md",
     "w = 0.3390, 0.3769 und 0.2841; s = 6.4210; q = (1.0, 0.5)\n"),
    ("$$ A = \\begin{pmatrix} 0{,}25 & 0{,}75 \\end{pmatrix} $$ 0,5 und 0,25 und 0,75\n", "md",
     "$$ A = \\begin{pmatrix} 0.25   & 0.75   \\end{pmatrix} $$ 0.5 und 0.25 und 0.75\n"),
    # lists, indices and shapes keep their commas: [0,1,2], A[0,1], (3,4), x_{1,2}; code keeps its points
    ("0,12 0,5 0,25 and [0,1,2], A[0,1], (3,4), x_{1,2}\n```\nprint(w[0,1])\n```\n", "md",
     "0.12 0.5 0.25 and [0,1,2], A[0,1], (3,4), x_{1,2}\n```\nprint(w[0,1])\n```\n"),
    # one or two commas, or many decimal points beside them: not a document of decimal commas
    ("the weights 0.34, 0.38, 0.28 and 0.40, 0.24, 0.36; see [0,5] and 0,5\n", "md",
     "the weights 0.34, 0.38, 0.28 and 0.40, 0.24, 0.36; see [0,5] and 0,5\n"),
    # TeX's thousands separators are no decimal commas, however many: they are taken out (columns kept)
    ("$3 \\times 32{,}768 = 98{,}304$, $1{,}048{,}576$ and $0.5$\n", "md",
     "$3 \\times 32768    = 98304   $, $1048576      $ and $0.5$\n"),
    # a document that writes decimal commas keeps reading 1{,}414 as 1.414
    ("$1{,}414$ und $0{,}707$ und $0{,}5$ und $0{,}25$\n", "md", "$1.414  $ und $0.707  $ und $0.5  $ und $0.25  $\n"),
    ("$1{,}414$ und $0{,}707$\n", "md", "$1{,}414$ und $0{,}707$\n"),
])
def test_decimal_commas_are_read_as_points_only_in_a_document_that_writes_them(text, fmt, want):
    from mha.check.readers.decimalcomma import decimal_points
    assert decimal_points(text, fmt) == want


def test_octave_prompts_are_code_so_their_semicolons_are_row_breaks():
    """`>> Q = [1,0;0,1;1,1];` in an Octave session: the commas separate entries and the semicolons rows; read as
    prose, the semicolons looked like the separators of decimal-comma tuples and Q became [1.0, 0.1, 1.1]."""
    from mha.check.readers.decimalcomma import decimal_points
    text = (CLEAN / "txt_octave_semicolon_literals.txt").read_text(encoding="utf-8")
    assert decimal_points(text, "txt") == text


TOKENS_AS_COLUMNS = r"""# Tokens as columns

Here each token is a column: $X \in \mathbb{R}^{d \times T}$ with $T = 3$ tokens of width $d = 4$, and every
projection acts from the left, $q_i = W_Q x_i$.

$$
X = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 0 \\ 0 & 0 & 1 \end{bmatrix}, \quad
W_Q = \begin{bmatrix} 1 & 0 & 1 & 0 \\ 0 & 1 & 0 & 1 \end{bmatrix}, \quad
W_K = \begin{bmatrix} 0 & 1 & 1 & 0 \\ 1 & 0 & 0 & 1 \end{bmatrix}, \quad
W_V = \begin{bmatrix} 1 & 1 & 0 & 0 \\ 0 & 0 & 1 & 1 \end{bmatrix}
$$

The projected tokens are again columns:

$$
Q = W_Q X = \begin{bmatrix} 2 & 1 & 1 \\ 0 & 1 & 2 \end{bmatrix}, \quad
K = W_K X = \begin{bmatrix} 1 & 2 & 1 \\ 1 & 0 & 2 \end{bmatrix}, \quad
V = W_V X = \begin{bmatrix} 1 & 1 & 2 \\ 1 & 1 & 1 \end{bmatrix}
$$

The scores compare columns, $S = Q^\top K / \sqrt{2}$, and each row of $A$ is a softmax:

$$
S = \begin{bmatrix} 1.414 & 2.828 & 1.414 \\ 1.414 & 1.414 & 2.121 \\ 2.121 & 1.414 & 3.536 \end{bmatrix}, \quad
A = \begin{bmatrix} 0.164 & 0.673 & 0.164 \\ 0.248 & 0.248 & 0.503 \\ 0.178 & 0.088 & 0.734 \end{bmatrix}
$$

The output keeps the column layout, $O = V A^\top$:

$$
O = \begin{bmatrix} 1.164 & 1.503 & 1.734 \\ 1.000 & 1.000 & 1.000 \end{bmatrix}
$$

(Here $T = 3$ and $d = 4$ again, as in the figure.)
"""


def test_sizes_said_of_tokens_as_columns_are_not_judged_against_rows():
    """X ∈ ℝ^{d×T} with T = 3 and d = 4, printed 4×3, read as 4 tokens of width 3: the stated sizes are the
    transposed reading's, and are said not checked for that reason (in an outside trial they were four false
    "wrong size" findings once the printed Q was taken for the weights and explained a few numbers)."""
    r = check_document(TOKENS_AS_COLUMNS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    swapped = [n for n in r.not_checked if "tokens as columns" in n.reason]
    assert sorted({(n.line, n.what) for n in swapped}) == [(3, "T=3"), (3, "d=4"), (34, "T=3"), (34, "d=4")], \
        [str(n) for n in r.not_checked]


# The author prints W^Q but writes Q as if W^Q were the identity (Q = X; X W^Q would be [[3, 2], [1, 1], [3, 1]]),
# and the rest follows from that Q.  Every number after Q is explained by W_Q = I, so the search assumes it; the
# printed W^Q matches I in three of four entries and was "corrected" against that assumption.
ASSUMED_OVER_PRINTED = r"""# One head, keys and values unprojected

$$
X = \begin{bmatrix} 1 & 2 \\ 0 & 1 \\ 2 & 1 \end{bmatrix}, \quad
W^Q = \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix}, \quad
W^K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
W^V = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}
$$

$$
Q = \begin{bmatrix} 1 & 2 \\ 0 & 1 \\ 2 & 1 \end{bmatrix}, \quad
K = \begin{bmatrix} 1 & 2 \\ 0 & 1 \\ 2 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 1 & 2 \\ 0 & 1 \\ 2 & 1 \end{bmatrix}
$$

$$
\frac{QK^T}{\sqrt{2}} = \begin{bmatrix} 3.5355 & 1.4142 & 2.8284 \\ 1.4142 & 0.7071 & 0.7071 \\ 2.8284 & 0.7071 & 3.5355 \end{bmatrix}
$$

$$
A = \begin{bmatrix} 0.6200 & 0.0743 & 0.3057 \\ 0.5035 & 0.2483 & 0.2483 \\ 0.3177 & 0.0381 & 0.6443 \end{bmatrix}, \quad
O = \begin{bmatrix} 1.2314 & 1.6200 \\ 1.0000 & 1.5035 \\ 1.6062 & 1.3177 \end{bmatrix}
$$
"""


def test_a_printed_weight_is_not_judged_against_an_assumed_identity():
    r = check_document(ASSUMED_OVER_PRINTED, fmt="md")
    w_q = ASSUMED_OVER_PRINTED.splitlines().index(r"W^Q = \begin{bmatrix} 1 & 0 \\ 1 & 1 \end{bmatrix}, \quad") + 1
    assert not [f for f in r.errors if f.line == w_q], [f.describe() for f in r.errors]
    assert any(n.line == w_q and "assumption" in n.reason for n in r.not_checked), [str(n) for n in r.not_checked]
    slipped = check_document(ASSUMED_OVER_PRINTED.replace("0.5035 & 0.2483 & 0.2483", "0.5035 & 0.2843 & 0.2483"),
                             fmt="md")
    assert [f.line for f in slipped.errors] == [w_q + 16], [f.describe() for f in slipped.errors]


# a self-attention example, then cross-attention (queries from another sequence): the cross-attention part is
# another model, its shapes and vectors not the self-attention configuration's; "from 0.4011 up to 0.6698" gives
# the value before the change (unmasked) and after it: only the second is the weight
CROSS = r"""# Masked self-attention, then cross-attention

## Masked self-attention

$$
X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad
W^Q = \begin{bmatrix} 1 & 1 \\ 0 & 1 \end{bmatrix}, \quad
W^K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}, \quad
W^V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \end{bmatrix}
$$

$$
Q = \begin{bmatrix} 1 & 1 \\ 0 & 1 \\ 1 & 2 \end{bmatrix}, \quad
K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \\ 2 & 2 \end{bmatrix}
$$

With the causal mask and the scale $1/\sqrt{2}$:

$$
A = \begin{bmatrix} 1 & 0 & 0 \\ 0.3302 & 0.6698 & 0 \\ 0.1400 & 0.2840 & 0.5760 \end{bmatrix}, \quad
O = \begin{bmatrix} 2.0000 & 0.0000 \\ 0.6605 & 1.3395 \\ 1.4320 & 1.7199 \end{bmatrix}
$$

Masking moves token 2's weight off token 3, which pushes $\alpha_{22}$ from 0.4011 up to 0.6698.

## Cross-attention

Two decoder positions now query three encoder states, whose keys and values are the ones above:

$$
K = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \quad
V = \begin{bmatrix} 2 & 0 \\ 0 & 2 \\ 2 & 2 \end{bmatrix}
$$

The queries are $q_1 = (2, 0)$ and $q_2 = (0, 2)$, so the attention matrix is $2\times3$, one row per query.
The cross-attention step makes a $2\times3$ alpha from a $2\times2$ query and a $3\times2$ key.
"""


def test_cross_attention_and_unmasked_readings_are_not_judged_as_the_self_attention_example():
    r = check_document(CROSS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    moved = CROSS.replace("up to 0.6698", "up to 0.6689")          # the value after the change is still a claim
    line = next(i for i, ln in enumerate(CROSS.splitlines(), 1) if "up to 0.6698" in ln)
    assert [f.line for f in check_document(moved, fmt="md").errors] == [line]
    slipped = check_document(CROSS.replace("0.3302 & 0.6698", "0.3302 & 0.6689"), fmt="md")
    line = next(i for i, ln in enumerate(CROSS.splitlines(), 1) if ln.startswith(r"A = \begin{bmatrix} 1 & 0 & 0"))
    assert [f.line for f in slipped.errors] == [line], [f.describe() for f in slipped.errors]


def test_an_output_row_given_by_its_own_terms_is_not_named_a_quantity_it_does_not_match():
    """`output[2] = 0.281*V[0] + ... = [0.478, ...]` in a side example: the row's written terms give it, which says
    its arithmetic holds but not which quantity of the inferred example it is.  It was taken for Y row 1 (no entry
    of which it matches) and given four notes with Y's "exact" values."""
    r = _check(CLEAN / "md_zh_pipeline_pieces_one_row_by_terms.md")
    assert not [f.describe() for f in r.findings if f.line == 49]
    assert any(n.line == 49 for n in r.not_checked), [n.reason for n in r.not_checked]


def test_an_output_worked_from_weights_printed_one_by_one_follows_from_them():
    """The weights of query 1 printed as three fractions (2.100 / 6.049 = 0.347, ...), then its output
    $$o_1 = (0.853, 1.453, 1.094)$$: 1.094 is 0.347·2 + 0.400·1 from those rounded weights (exact 1.0947). It is a
    note on rounding, not an error; a real slip in the same place is still an error."""
    path = CLEAN / "md_dk_dv_differ_scale_by_0707.md"
    line = "Output of query 1 (3 numbers, since $d_v = 3$): $(0.853, 1.453, 1.094)$."
    shown = "The output of query 1 has 3 numbers, since $d_v = 3$:\n$$o_1 = (0.853, 1.453, 1.094)$$"
    r = _check(path, line, shown)
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(f.line == 31 and "1.094" in f.describe() for f in r.notes), [f.describe() for f in r.notes]
    r = _check(path, line, shown.replace("1.094", "1.049"))
    assert [f.line for f in r.errors] == [31], [f.describe() for f in r.errors]


CARRIED_WITHIN_ROUNDING = """# One row by hand

The scores of the first token are [1, 0, 1].

```
softmax([1, 0, 1]) = [0.422, 0.156, 0.422]
```

Its output, from the values v1 = [1, 0], v2 = [0, 1] and v3 = [1, 1]:

```
0.422 * [1, 0] + 0.156 * [0, 1] + 0.422 * [1, 1]
= [0.844, 0.578]
```
"""


def test_a_carried_weight_whose_right_value_gives_the_same_printed_output_gets_no_note():
    """0.156 is wrong (softmax gives 0.1554); the output's 0.578 = 0.156 + 0.422 carries it, but the right weights
    (0.15536 + 0.42232 = 0.57768) print 0.578 too. Putting the exact value in with the other weight kept at its
    printed 0.422 gave 0.577 and a note saying the line follows from the slip: the other weight's own rounding
    counts as well."""
    r = check_document(CARRIED_WITHIN_ROUNDING, fmt="md")
    assert [f.line for f in r.errors] == [6], [f.describe() for f in r.errors]
    assert not [f.describe() for f in r.notes if f.line >= 12 and "carried" in f.describe()]


FFN_AFTER_ATTENTION = r"""# Attention, then the feed-forward layer

## Attention

$$
X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}
$$

## Example: the feed-forward network by hand

Let

$$
x = \begin{bmatrix} 2 & 0 \\ 1 & 3 \end{bmatrix}, \quad
W_1 = \begin{bmatrix} 1 & -1 \\ 0 & 2 \end{bmatrix}
$$
"""


def test_the_x_of_a_feed_forward_example_is_not_the_attention_input():
    """A lecture's feed-forward section (`FFN(x) = max(0, x W_1 + b_1) W_2`, "Let x = ...") gives an x of its own.
    Taken for X, it became the input of the whole configuration on an outside page (20 false lines): under a
    heading about the feed-forward network and not about attention, x names no attention quantity."""
    from mha.check.infer import prepare
    from mha.check.readers import read_document
    objs = prepare(read_document(FFN_AFTER_ATTENTION, "md"))
    objs = objs[0] if isinstance(objs, tuple) else objs
    by_line = {o.a.line: o for o in objs}
    assert by_line[6].ref is not None and "X" in by_line[6].ref.nodes
    assert by_line[14].ref is None, by_line[14].ref


def test_a_printout_rebound_to_rounded_literals_in_its_own_cell_is_not_called_stale():
    """`weights = softmax(scores)`, `print(weights)`, then "for readability" `weights = [[0.5, 0.0, 0.5], ...]`,
    `weights = torch.tensor(weights)`, `print(weights)` in one cell, and `out = weights @ x` after it: `out` is
    right for the rounded literal. It was named "a stale output (a cell run out of order?)" because the printout of
    its operand was taken as explained (it is not: the configuration cannot name the rounded literal)."""
    import nbformat
    X = np.array([[1.0, 0.0, 1.0], [0.0, 3.0, 0.0], [1.0, 2.0, 1.0]])
    S = X @ X.T
    W = np.exp(S - S.max(1, keepdims=True))
    W /= W.sum(1, keepdims=True)
    shown = np.array([[0.5, 0.0, 0.5], [0.0, 1.0, 0.0], [0.0, 0.5, 0.5]])

    def t(M, f="{:.4f}"):
        return "tensor([" + ",\n        ".join("[" + ", ".join(f.format(x) for x in r) + "]" for r in M) + "])"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\nx = torch.tensor([[1.0, 0.0, 1.0], [0.0, 3.0, 0.0], [1.0, 2.0, 1.0]])"),
        nbformat.v4.new_code_cell("scores = x @ x.T\nprint(scores)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(S, "{:.0f}.") + "\n")]),
        nbformat.v4.new_code_cell(
            "from torch.nn.functional import softmax\n\nweights = softmax(scores, dim=-1)\nprint(weights)\n\n"
            "# For readability, approximate the above as follows\nweights = [\n  [0.5, 0.0, 0.5],\n  [0.0, 1.0, 0.0],\n"
            "  [0.0, 0.5, 0.5]\n]\nweights = torch.tensor(weights)\nprint(weights)",
            outputs=[nbformat.v4.new_output("stream", text=t(W) + "\n" + t(shown) + "\n")]),
        nbformat.v4.new_code_cell("out = weights @ x\nprint(out)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(shown @ X) + "\n")]),
    ]
    r = check_document(nbformat.writes(nb), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not [n.describe() for n in r.not_checked if "stale" in n.reason], [n.describe() for n in r.not_checked]


def test_no_two_judging_mixins_define_the_same_method():
    """Judge is built of mixins, one per claim kind: a helper named the same in two of them shadows the other in
    the MRO (a stale-printout helper `_explained(o, plans)` once hid the rebinding one `_explained(x)`: 50 tests
    failed with a TypeError). Only UnscaledJudging.judge_array overrides on purpose (it is tried first)."""
    import collections
    from mha.check.judge import Judge
    seen = collections.defaultdict(list)
    for c in Judge.__mro__:
        for k, v in vars(c).items():
            if callable(v) and not k.startswith("__"):
                seen[k].append(c.__name__)
    twice = {k: v for k, v in seen.items() if len(v) > 1}
    assert twice == {"judge_array": ["UnscaledJudging", "ArrayJudging"]}, twice


def test_a_code_comment_giving_the_papers_size_in_a_notebook_is_not_a_size_claim():
    """`## d_model = the width per token, note in Attention Is All You Need, d_model=512` in a notebook's class:
    the paper's size, said so by the words before it. It was "d_model=512: printed 512; exact 2" (the check for
    such words read only documents made of text lines, not a notebook's cells)."""
    import nbformat
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    S = X @ X.T / np.sqrt(2)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import numpy as np\n\nclass Attention:\n    def __init__(self, d_model=2):\n"
            "        ## d_model = the number of values per token, note in Attention Is All You Need, d_model=512\n"
            "        self.d_model = d_model\n\nx = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])"),
        nbformat.v4.new_code_cell("scores = x @ x.T / np.sqrt(2)\nprint(scores)", outputs=[nbformat.v4.new_output(
            "stream", text="[" + "\n ".join("[" + " ".join(f"{v:.4f}" for v in r) + "]" for r in S) + "]\n")]),
    ]
    r = check_document(nbformat.writes(nb), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any("other models" in n.reason for n in r.not_checked), [n.describe() for n in r.not_checked]


def test_a_product_worked_from_its_own_printed_rounded_factor_is_a_note():
    """`O = [A rounded to one decimal] [V] = [...]`: 1.6 is 0.7·1 + 0.3·3 from the factor printed on the line (the
    exact weights give 1.66, so 1.7). A note that names those factors; a slip beside it is still an error."""
    path = CLEAN / "md_product_of_printed_rounded_weights.md"
    r = _check(path)
    assert not r.errors and any("factors printed with it" in f.describe() for f in r.notes), \
        [f.describe() for f in r.findings]
    r = _check(path, "1.6 & 1.0 \\end", "1.6 & 1.9 \\end")
    assert [f.line for f in r.errors] == [12], [f.describe() for f in r.errors]


def test_a_weight_written_as_a_rectangular_identity_is_a_choice_of_the_search():
    """`W^V = I_{4×2}` (V keeps X's first two features) beside a printed 4×2 W^Q and W^K: the search now offers
    the first columns of the identity as W_V, and the one-head demo is inferred with it."""
    r = _check(CLEAN / "md_zh_two_heads_stated_one_head_shown.md")
    assert "I_{4×2}" in r.configuration["W_V"], r.configuration
    assert not r.errors and r.n_numbers >= 50


def test_a_printed_triu_mask_of_blocked_positions_is_the_mask_not_a_slip():
    """`mask = torch.triu(torch.ones(6, 6), diagonal=1)`, `print(mask)`, then `masked_fill(mask.bool(), -inf)`: 1
    marks the future keys to block, 0 on and below the diagonal. It was judged as a transposed keep-mask (or, with no
    name, as the weights) and every diagonal 0 became an error on an outside page (12 false lines)."""
    import nbformat
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.0], [0.0, 0.5], [1.0, 0.5]])
    S = X @ X.T / np.sqrt(2)
    M = np.where(np.tril(np.ones((6, 6))) > 0, S, -np.inf)
    W = np.exp(M - M.max(1, keepdims=True))
    W /= W.sum(1, keepdims=True)

    def t(A, f="{:.4f}"):
        cell = lambda v: "-inf" if v == -np.inf else f.format(v)  # noqa: E731
        return "tensor([" + ",\n        ".join("[" + ", ".join(cell(v) for v in r) + "]" for r in A) + "])"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\nx = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.0], [0.0, 0.5], [1.0, 0.5]])"),
        nbformat.v4.new_code_cell("scores = x @ x.T / 2 ** 0.5\nprint(scores)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(S) + "\n")]),
        nbformat.v4.new_code_cell("mask = torch.triu(torch.ones(6, 6), diagonal=1)\nprint(mask)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(np.triu(np.ones((6, 6)), 1),
                                                                                    "{:.0f}.") + "\n")]),
        nbformat.v4.new_code_cell("masked = scores.masked_fill(mask.bool(), -torch.inf)\nprint(masked)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(M) + "\n")]),
        nbformat.v4.new_code_cell("weights = torch.softmax(masked, dim=-1)\nprint(weights)",
                                  outputs=[nbformat.v4.new_output("stream", text=t(W) + "\n")]),
    ]
    r = check_document(nbformat.writes(nb), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    # the mask itself is now a claim that holds (it was set aside as "before or after a causal mask")
    assert not [n.describe() for n in r.not_checked if n.cell == 3], [n.describe() for n in r.not_checked]


def test_a_right_result_after_wrong_terms_is_not_blamed_for_them():
    """`q₃ = [1+0, 0+0] = [1, 1]`: the written terms of the second entry are wrong (0+1 was meant) and the result
    [1, 1] is q₃.  One finding, on the terms; the result agrees with the configuration and is not an arithmetic
    slip against terms that are themselves the slip (an outside page wrote exactly this)."""
    r = _check(CLEAN / "md_per_token_projection_terms_written.md", "q₃ = x₃ · W_Q = [1+0, 0+1]", "q₃ = x₃ · W_Q = [1+0, 0+0]")
    assert [f.line for f in r.errors] == [23], [f.describe() for f in r.errors]
    assert "0+0" in r.errors[0].describe(), r.errors[0].describe()


def test_quantities_printed_side_by_side_under_numbered_column_names_are_each_read():
    """A pandas printout of np.hstack([Q, K, V]) under the columns Q1 Q2 K1 K2 V1 V2 is Q, K and V, not one 4×6
    input X: read as X with identity weights and three heads, the first "head" attended Q against itself and two
    right weights of an outside notebook were called wrong.  The document starts from Q, K, V given."""
    path = CLEAN / "nb_pandas_qkv_side_by_side_token_index.ipynb"
    r = _check(path)
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert r.configuration["mask"] == "causal", r.configuration
    assert r.n_numbers >= 60, r.n_numbers


def test_named_projections_refute_an_assumed_identity_weight():
    """Embeddings x₁..x₃ (4 wide), then `Q₁ = [0, 1]  K₁ = [1, 1]  V₁ = [2, 0]` ... given "after the projection"
    with no weight printed.  Read as X with W = I assumed and two heads, Q₁..Q₃ match head 1's split by chance and
    K, V do not; an outside page got seven false findings so.  A weight nobody states, contradicted by the
    document's own named K and V, loses to the start from Q, K, V given."""
    r = _check(CLEAN / "md_zh_embeddings_then_qkv_given_per_token.md")
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_later_example_giving_the_inputs_again_is_no_evidence_for_the_first():
    """One head with Q, K, V given (d_k = 4), then "Two heads" with a table stating h = 2 and new Q, K, V whose
    head slices agree with the first Q's by chance (0s and 1s).  Counted as evidence for the first example they
    made it two heads scaled by 1/d_k: its right scores got an error and notes.  What follows an input given again
    with other values is another example's (infer/refute.given_again); its percentages named by token ("51% to
    barked, 31% to itself, 19% to a") are not the row's columns in order; `column 3 of $S=2$` is an entry of the
    printed S, not a size."""
    r = _check(CLEAN / "md_one_head_then_multihead_new_qkv_percent_by_token.md")
    assert r.configuration["H"] == "H = 1" and r.configuration["scale"] == "1/√d_k", r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_printed_w_o_is_not_outvoted_by_an_identity_it_partly_resembles():
    """Two heads that share one printed weight (`W_K^{(1)}=W_K^{(2)}=W_V^{(1)}=...=[…]`) and a printed W_O whose
    last row repeats its first.  The heads' concatenation is as wide as H times the shared weight's width, so the
    printed W_O is an option; an assumed W_O = I that agrees with 14 of its 16 entries by chance is no evidence
    (infer/score.py), and `x_2W_Q^{(1)}` is head 1's query of token 2, not a row of X."""
    r = _check(CLEAN / "md_zh_two_heads_shared_weights_chained_stacked_wo.md")
    assert r.configuration["W_O"].startswith("W_O printed at line 38"), r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


CHAINED_CARRIED = [   # Q's row 3 slipped to [2, 2], and everything after it worked from the slipped Q = K = V
    ("2 & 1\n\\end{bmatrix}$\n\n2.", "2 & 2\n\\end{bmatrix}$\n\n2."),
    ("4 & 0 & 2 \\\\\n0 & 4 & 4 \\\\\n2 & 4 & 5", "4 & 0 & 4 \\\\\n0 & 4 & 4 \\\\\n4 & 4 & 8"),
    ("0.768 & 0.045 & 0.187 \\\\\n0.029 & 0.486 & 0.486 \\\\\n0.074 & 0.306 & 0.620",
     "0.486 & 0.029 & 0.486 \\\\\n0.029 & 0.486 & 0.486 \\\\\n0.053 & 0.053 & 0.894"),
    ("0.464 & 1.723 \\\\\n1.943 & 0.543 \\\\\n1.851 & 0.769", "1.029 & 1.943 \\\\\n1.943 & 1.029 \\\\\n1.894 & 1.894"),
]


def test_one_slip_in_a_chained_q_k_v_is_one_finding():
    """`Q = K = V = X W_Q` printed with one wrong entry, and the scores, weights and outputs all worked from that
    printed matrix as K and V as well as Q: one error, on Q; the rest follow from it (notes).  An outside README
    (multi-line `$...$` matrices, which were not read at all before) did exactly this; also, the weights printed
    live above the diagonal keep an unsaid causal mask out of a tie (the text mentions a decoder's mask)."""
    text = (CLEAN / "md_inline_math_matrices_over_lines_qkv_chained.md").read_text(encoding="utf-8")
    for find, replace in CHAINED_CARRIED:
        assert text.count(find) == 1, find
        text = text.replace(find, replace)
    r = check_document(text, fmt="md")
    assert r.configuration["mask"] == "no mask", r.configuration
    assert [f.line for f in r.errors] == [33], [f.describe() for f in r.errors]
    assert len(r.notes) >= 3, [f.describe() for f in r.notes]


MASKED_PAIR = """# Masking the future

Raw scores of four positions:

```
         p1    p2    p3    p4
    p1 [ 0.5   0.2   0.9   0.1 ]
    p2 [ 1.1   0.4   0.3   0.8 ]
    p3 [ 0.2   0.9   0.6   0.5 ]
    p4 [ 0.7   0.3   1.0   0.2 ]
```

After the causal mask:

```
         p1    p2    p3    p4
    p1 [ 0.5   -∞    -∞    -∞  ]
    p2 [ 1.1   0.4   -∞    -∞  ]
    p3 [ 0.2   0.9   0.6   -∞  ]
    p4 [ 0.7   0.3   1.0   0.2 ]
```

After softmax:

```
         p1    p2    p3    p4
    p1 [ 1.00  0.00  0.00  0.00 ]
    p2 [ 0.67  0.33  0.00  0.00 ]
    p3 [ 0.22  0.45  0.33  0.00 ]
    p4 [ 0.28  0.18  0.37  0.17 ]
```
"""


def test_weights_set_aside_beside_their_masked_scores_are_said_not_checked():
    """Weights under masked scores whose rows mostly disagree (two of four rows made up) are not read as those
    scores' softmax, and so not judged (precision); but they are not counted as a claim that holds either: a
    "not checked" line names them (an outside book chapter got "all claims hold" with its two wrong rows)."""
    r = check_document(MASKED_PAIR, fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    wrong = MASKED_PAIR.replace("0.22  0.45  0.33", "0.19  0.50  0.31").replace("0.28  0.18  0.37  0.17",
                                                                              "0.25  0.20  0.35  0.20")
    r = check_document(wrong, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    line = next(i for i, ln in enumerate(wrong.splitlines(), 1) if ln.startswith("         p1") and i > 20)
    assert any(n.line > line and "not the softmax of the scores" in n.reason for n in r.not_checked), \
        [(n.line, n.reason) for n in r.not_checked]


def test_a_dot_product_of_two_small_vectors_is_not_a_product_of_shapes():
    """`[1, 1] · [1, 1] = 1 * 1 + 1 * 1 = 2` multiplies two vectors of 0s and 1s; read as the shapes 1×1 times 1×1 it
    was judged against the scores' shapes (an outside page's false 'wrong shape' once Q1..Q3 became Q's rows)."""
    from mha.check.readers.arrays import _shape_product
    from mha.check.readers.tokens import lex_text
    assert _shape_product(lex_text("[1, 1] * [1, 0]", 0)) is None
    assert _shape_product(lex_text("[3, 4] * [4, 2]", 0)) is not None
    r = _check(CLEAN / "md_token_vectors_dot_products_of_ones.md")
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


STATED_IDENTITY_THEN_CODE = """# Attention with the weights left out

The projections are left out here: $W_Q = W_K = W_V = I$, so $Q = K = V = X$.

$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}$$

$$S = \\frac{XX^\\top}{\\sqrt{2}} = \\begin{bmatrix} 0.707 & 0 & 0.707 \\\\ 0 & 0.707 & 0.707 \\\\ 0.707 & 0.707 & 1.414 \\end{bmatrix}$$

$$A = \\begin{bmatrix} 0.401 & 0.198 & 0.401 \\\\ 0.198 & 0.401 & 0.401 \\\\ 0.248 & 0.248 & 0.503 \\end{bmatrix}$$

$$O = AV = \\begin{bmatrix} 0.802 & 0.599 \\\\ 0.599 & 0.802 \\\\ 0.752 & 0.752 \\end{bmatrix}$$

## The same in code, with weights of its own

```python
w_v = np.array([[1.0, 0.0], [0.5, 1.0]])
```
"""


def test_a_stated_identity_keeps_its_evidence_against_a_later_printed_weight():
    """W = I stated in the text, then a later code example prints its own w_v, which agrees with I in three of its
    four entries.  The all-or-nothing rule for printed weights is for an assumed I only: a stated I keeps the credit,
    and the later w_v does not become the document's W_V (an outside page's exercise then drew a false error)."""
    r = check_document(STATED_IDENTITY_THEN_CODE, fmt="md")
    assert r.configuration["W_V"] == "W_V = I (stated)", r.configuration
    assert not r.errors, [f.describe() for f in r.errors]


def test_sums_of_printed_exponentials_and_weights_of_a_third_are_not_slips():
    """`exp: [1.000, 1.105, 1.221]，和 = 3.326`: the sum of the exponentials printed on its line (exact 3.3266) is a
    note, not an error; `0.5994 ≈ 0.600` for weights of exactly 1/3 rounds the quantity right (exact 0.6); and
    `(3,3) × (3,2) = (3,2)` after `out = weights @ V` is the product's shape, not the weights'.  An outside Chinese
    tutorial got six false errors so."""
    r = _check(CLEAN / "md_zh_exp_sums_of_printed_terms_third_weights.md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert {f.line for f in r.notes} == {18, 22}, [f.describe() for f in r.notes]


def test_a_decimal_comma_document_groups_thousands_with_points_and_says_millions_in_words():
    """`512 × 256 + 256 = 131.328` in a Portuguese lesson is 131328; `$4000^2 = 16$ milhões` is 16 million; the
    XOR network's X under "Exemplo completo: XOR em numpy" is no attention input; and `[0{,}198;\\ 0{,}401]` is a
    vector.  An outside Portuguese course page got six false errors from the first three."""
    r = _check(CLEAN / "md_pt_decimal_commas_xor_then_attention_exercise.md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert r.n_numbers >= 20, r.n_numbers


def test_an_exponential_written_with_its_argument_is_not_paired_with_another_score():
    """`exp(0.30) = 1.350, exp(0.90) = 2.460` under a row of three equal scores [0.30, 0.30, 0.30]: the sum after it
    lists 1.350, 1.350, 2.460, which the listed-exponentials claim paired with that row; the text says 2.460 is
    exp(0.90), another row's score (an outside tutorial page got a false error so)."""
    r = _check(CLEAN / "md_equal_rows_then_exps_with_their_arguments.md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_word_vector_that_restates_a_row_of_x_is_not_judged_as_another_quantity():
    """`"는" → [0.1, 0.1, 0.1, 0.2]` is X's second row written beside its word; when the chain starts from given
    scores and V, that vector was matched to V's second row (three of four digits alike at one decimal) and its
    last entry called wrong (an outside Korean post).  An unnamed vector that is, digit for digit, a row of a
    printed input is that input restated."""
    r = _check(CLEAN / "md_ko_embeddings_listed_then_scores_given.md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.line == 6 and "restated" in n.reason for n in r.not_checked), [n.reason for n in r.not_checked]


def test_head_weights_named_w1_q_in_code_are_the_heads_weights():
    """`W1_Q = [[0, 1], ...]`, `W2_K = ...`: head 1's and head 2's projections as code names them.  Unread, the
    weights were assumed to be I, and an outside chapter's right K1, K2 and V2 drew four false errors."""
    from mha.check import labels as lb
    assert (lb.parse_label("W1_K").nodes, lb.parse_label("W1_K").raw_head) == (("W_K",), 1)
    assert (lb.parse_label("W2_Q").nodes, lb.parse_label("W2_Q").raw_head) == (("W_Q",), 2)
    r = _check(CLEAN / "md_per_head_weights_named_w1_q_in_code.md")
    assert r.configuration["W_Q"].startswith("W_Q per head"), r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_start_from_printed_scores_carries_their_minus_infinity_as_its_mask():
    """`scores = [2, 4, -∞, 1]` given: the start encodes the scores as Q against K = I, writing -∞ as 0, so the mask
    of the printed -∞ must come with the start, not be left to the climb; without it a section read on its own took
    exp(-∞) for exp(0) = 1 and called a right 0 wrong (an outside page)."""
    from mha.check.infer.prepare import prepare
    from mha.check.infer.search import Search
    from mha.check.readers import read_document
    doc = read_document("```\nscores      = [2, 4, -∞, 1]\nexp(scores) = [7.39, 54.60, 0, 2.72]\n```\n", "md")
    objs, _ = prepare(doc)
    modes = [m for m in Search(doc, objs)._scores_modes() if m["mode"].value == "scores"]
    assert modes and all(m.get("mask") is not None for m in modes), [sorted(m) for m in modes]
    assert modes[0]["mask"].value == {"mask": [[True, True, False, True]]}


def test_tokens_output_rows_and_a_heading_that_counts_shapes_are_read_as_such():
    """`O_1 = [...]`, `O_2 = [...]` (one row each, four wide, after W_O) are tokens' rows of the output, not heads 1
    and 2; `3. 拼接：把兩個 2×2 接回 2×4` gives the shape of each of two blocks, not of the concatenation.  With W_O
    only described in words, an outside two-head page got four false errors on the O_i rows and one on the heading."""
    text = (CLEAN / "md_zh_two_heads_token_rows_after_wo.md").read_text(encoding="utf-8")
    a = text.index("$$\nW_O =")
    b = text.index("$$\n", a + 4) + 3
    r = check_document(text[:a] + "輸出投影 W_O 是一個固定的矩陣，這裡不寫出來。\n" + text[b:], fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert {n.line for n in r.not_checked} >= {37, 43}, [(n.line, n.reason) for n in r.not_checked]


def test_a_header_of_column_indices_is_no_arithmetic():
    """`j=0  j=1  j=2  j=3` over a drawn mask gives one letter four values: indices, not "0 = j" to be checked."""
    r = _check(CLEAN / "md_ascii_mask_under_index_header.md")
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_padding_mask_drawn_beside_the_causal_one_is_another_pattern():
    """Two boxes side by side, the causal mask and a padding mask: the padding one agrees with the causal pattern
    in all but two cells, and those were called slips ("rows swapped"; an outside Korean chapter got four false
    errors so).  A mask with two cells or more off the configuration's is another pattern, not judged."""
    r = _check(CLEAN / "md_causal_and_padding_masks_drawn_side_by_side.md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert any("another pattern" in n.reason for n in r.not_checked), [n.reason for n in r.not_checked]


def test_layer_parameters_are_named_by_their_layer():
    """`q_proj.weight` and `to_q.weight` are W_Q, `Q_layers[1].weight` is head 1's W_Q as written (0-based),
    `q_proj.bias` is b_Q (it was taken for W_Q), and `tok_emb.weight` is no attention weight at all."""
    from mha.check.labels import parse_label
    got = {t: (parse_label(t).nodes, parse_label(t).raw_head) if parse_label(t) else None for t in (
        "q_proj.weight", "to_q.weight", "proj_k.weight", "self.wv.weight.data", "out_proj.weight",
        "Q_layers[1].weight", "q_proj.bias", "tok_emb.weight", "fc1.weight")}
    assert got == {"q_proj.weight": (("W_Q",), None), "to_q.weight": (("W_Q",), None),
                   "proj_k.weight": (("W_K",), None), "self.wv.weight.data": (("W_V",), None),
                   "out_proj.weight": (("W_O",), None), "Q_layers[1].weight": (("W_Q",), 1),
                   "q_proj.bias": (("b_Q",), None), "tok_emb.weight": None, "fc1.weight": None}, got


def test_weights_copied_into_linear_layers_are_the_projections():
    """`with torch.no_grad(): proj_q.weight.copy_(torch.tensor([...]))` gives the layer its weight in place; the
    printed Q is then derived from x, and a slip in it is found (before, Q was taken as given: nothing to check)."""
    r = _check(CLEAN / "nb_linear_weights_copied_in.ipynb")
    assert r.configuration["mode"] == "X and weights", r.configuration
    assert r.configuration["W_Q"].startswith("W_Q printed at cell 2, line 11"), r.configuration["W_Q"]
    assert not r.findings, [f.describe() for f in r.findings]


def _every_product_off() -> str:
    """X and three weights; Q, K and V computed as if X[2,1] were -0.3 (it is printed 0.30), and every later step
    (QKᵀ, S, e^S, A, O) off by hand on its own: an author whose every product disagrees."""
    rng = np.random.default_rng(7)
    X = np.array([[0.5, 0.1, 0.4, 0.2], [0.3, 0.6, 0.2, 0.7], [0.8, 0.2, 0.1, 0.5]])
    W = [np.array(w) for w in ([[0.2, 0.4], [0.6, 0.1], [0.3, 0.5], [0.1, 0.2]],
                               [[0.3, 0.2], [0.1, 0.5], [0.4, 0.3], [0.2, 0.6]],
                               [[0.5, 0.1], [0.2, 0.3], [0.1, 0.4], [0.6, 0.2]])]
    Xm = X.copy()
    Xm[1, 0] = -0.3
    Q, K, V = (Xm @ w for w in W)

    def off(M, lo, hi):
        return M + rng.choice([-1, 1], M.shape) * rng.uniform(lo, hi, M.shape)

    S = off(Q @ K.T / np.sqrt(2), 0.05, 0.15)
    A = off(np.exp(S) / np.exp(S).sum(1, keepdims=True), 0.03, 0.08)
    O = off(A @ V, 0.05, 0.1)

    def bm(M):
        return "\\begin{bmatrix} " + " \\\\ ".join(" & ".join(f"{v:.2f}" for v in r) for r in M) + " \\end{bmatrix}"
    return "\n".join([
        "# Attention, every step by hand", "", "$$X = " + bm(X) + "$$", "",
        "$$W_Q = " + bm(W[0]) + ", \\quad W_K = " + bm(W[1]) + ", \\quad W_V = " + bm(W[2]) + "$$", "",
        "$$Q = XW_Q = " + bm(Q) + "$$", "", "$$K = XW_K = " + bm(K) + "$$", "", "$$V = XW_V = " + bm(V) + "$$", "",
        "$$QK^T = " + bm(off(Q @ K.T, 0.1, 0.2)) + "$$", "", "$$S = \\frac{QK^T}{\\sqrt{2}} = " + bm(S) + "$$", "",
        "$$e^S = " + bm(off(np.exp(S), 0.1, 0.2)) + "$$", "", "$$A = " + bm(A) + "$$", "", "$$O = AV = " + bm(O) + "$$",
        ""])


def test_no_input_slip_is_undone_for_a_document_that_then_mostly_disagrees():
    """Undoing one input cell (0.30 read as -0.30) that lets Q, K and V fit while QKᵀ, S, e^S, A and O still
    disagree is chance among an author's wrong products, not "every later number follows from -0.30" (an outside
    wiki page got that false line on its X).  The repair needs the document then to mostly fit."""
    r = check_document(_every_product_off(), fmt="md")
    assert not [f for f in r.errors if f.line == 3], [f.describe() for f in r.errors]
    assert not any("follows from -0.3" in (f.cause or "") for f in r.findings), [f.describe() for f in r.findings]
    assert {f.line for f in r.errors} >= {7, 9, 11}, [f.describe() for f in r.errors]


def test_a_row_said_to_sum_to_one_is_judged_by_adding_it_up():
    """Weights made up by hand (no softmax of the printed scores gives them, so they are not identified), each row
    with the remark "# sums to 1.0": the remark is the author's own claim, and a row adding up to 1.12 breaks it (an
    outside Q&A answer had one).  The row that does add up to 1 is no finding."""
    text = (CLEAN / "md_code_rows_said_to_sum_to_one.md").read_text(encoding="utf-8")
    text = text.replace("[0.73, 0.20, 0.07],  # sums", "[0.50, 0.30, 0.20],  # sums").replace(
        "[0.23, 0.51, 0.26],  # sums", "[0.30, 0.62, 0.20],  # sums")
    r = check_document(text, fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(15, "0.30 + 0.62 + 0.20 = 1.12")], \
        [f.describe() for f in r.errors]


def test_code_that_never_scales_its_scores_says_unscaled():
    """`scores = q @ k.T` then `softmax(scores)`, and no square root or scale anywhere in the code: the attention is
    unscaled, a hint that decides a tie between the scaled and the unscaled readings (an outside notebook of the
    Illustrated-Attention kind was read scaled, and its rounding notes named exact values it never computes)."""
    from mha.check.objects import Place
    from mha.check.readers.builder import unscaled_in_code
    at = Place(3, None, "code")
    plain = [("import numpy as np\nscores = q @ k.T\nweights = softmax(scores)\n", at)]
    assert unscaled_in_code(plain) == at
    for scaled in ("scores = q @ k.T / np.sqrt(d_k)\nweights = softmax(scores)\n",
                   "scores = torch.matmul(q, k.transpose(-2, -1))\nscores = scores / 8\nw = F.softmax(scores, -1)\n",
                   "scores = q @ k.T\nscores *= scale\nweights = softmax(scores)\n",
                   "scores = q @ k.T\nweights = softmax(scores / temperature)\n",
                   "scores = q @ k.T\n"):
        assert unscaled_in_code([(scaled, at)]) is None, scaled


def test_two_softmax_statements_on_one_line_stay_apart():
    """`softmax([2, 1, 0]) = [...]`, then ", yet with scores ten times larger" and a second `softmax(...) = [...]`
    on the same line: the first value is followed by words and a new statement, so it is no middle term of one
    chain (the second value was judged as the softmax of the first argument on an outside page)."""
    text = ("# Why scale\n\nWhen the keys are long, dot products grow and the softmax gets more extreme. For example, "
            "`softmax([2, 1, 0]) = [0.665, 0.245, 0.090]`, but with larger values `softmax([20, 10, 0]) = "
            "[9.99954600e-01, 4.53978686e-05, 2.06106005e-09]`. That is why the scores are scaled.\n")
    r = check_document(text, fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    slipped = check_document(text.replace("[0.665, 0.245, 0.090]", "[0.665, 0.254, 0.090]"), fmt="md")
    assert [f.line for f in slipped.errors] == [3], [f.describe() for f in slipped.errors]


def test_sizes_named_with_total_are_no_row_sums():
    """`d_model (total embedding size): 8` printed by a notebook is a size, not the sum of a row of weights (it was
    judged against one: "row sum: printed 8; exact 4.69"); a bare "total" still is a sum."""
    from mha.check.labels import parse_label
    for size in ("d_model (total embedding size)", "total tokens", "num_heads (total)", "hidden size", "d_k"):
        assert parse_label(size) is None, size
    assert parse_label("total").nodes == ("row_sum",)
    assert parse_label("the total").nodes == ("row_sum",)



def test_a_second_example_is_no_rounding_of_the_first():
    """The second example's weights follow from its own printed scores; the first example's weights are far from
    them (0.471 against 0.657).  A rounding note says the printed predecessors are the example's own values rounded,
    so it needs them near the exact values; here the second example has no note at all."""
    r = _check(CLEAN / "md_second_example_over_subsections.md")
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_section_with_subsections_is_one_scope_when_read_again():
    """`## 9. A full example` over `### 9.1` ... `### 9.4`: an example worked over subsections is read again as the
    whole section (each subsection alone lacks the inputs another gives); a section without subsections is not."""
    from mha.check.scoped import _parent_sections
    text = "# Notes\n\n## 1. Idea\n\ntext\n\n## 2. Example\n\n### 2.1 Input\n\nX\n\n### 2.2 Scores\n\nS\n\n" \
           "### 2.3 Output\n\nO\n\n## 3. Summary\n\nend\n"
    assert _parent_sections(text) == [(1, 23, "Notes"), (7, 20, "2. Example")]


def test_a_wrong_weight_written_again_into_its_weighted_sum_is_one_slip():
    """A row of weights found wrong, then the same numbers as the coefficients of the weighted sum three lines on
    (`z₁ = 0.45·[..] + 0.21·[..] + 0.34·[..]`): one slip, so the sum's coefficients are notes pointing to the row
    (an outside Spanish page got each wrong weight reported twice).  A remark after an arrow ("p = 0.5 → an even
    split (50/50)") is no arithmetic to check."""
    text = (CLEAN / "md_scores_arrow_weights_stated_scale.md").read_text(encoding="utf-8")
    text = text.replace("[0.432, 0.219, 0.349]", "[0.45, 0.21, 0.34]") + (
        "\nOutput of token 1, with V = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]:\n```\n"
        "z₁ = 0.45·[1.0, 0.0] + 0.21·[0.0, 1.0] + 0.34·[0.5, 0.5] = [0.62, 0.38]\n```\n\n"
        "A weight of p = 0.5 → an even split (50/50) between two tokens.\n")
    r = check_document(text, fmt="md")
    assert {f.line for f in r.errors} == {7}, [f.describe() for f in r.errors]


def test_an_arrow_between_names_keeps_the_arithmetic_after_it():
    """"cat → dog: = 1.2×1.3 + 0.7×0.9 = 1.56 + 0.63 = 2.19" names a pair with an arrow and then works its score:
    only a remark after a value (`0.5 → an even split (50/50)`) ends the arithmetic, not an arrow between names."""
    text = "# Scores\n\ncat → dog: = 1.2×1.3 + 0.7×0.9 = 1.56 + 0.63 = 2.19\n"
    assert not check_document(text, fmt="md").findings
    slipped = check_document(text.replace("= 2.19", "= 2.91"), fmt="md")
    assert [f.line for f in slipped.errors] == [3], [f.describe() for f in slipped.errors]


def test_a_header_of_indices_named_like_a_size_states_no_size():
    """`d_k=0  d_k=1  ...  d_k=63` over a drawn weight matrix numbers its columns; the size is the one the text
    states (d_k = 64, √d_k = 8).  Read as d_k = 63 it made 50/8 = 6.25 a false finding (an outside page)."""
    text = ("# Scaling\n\n```\nW_Q (512 × 64):\n        d_k=0  d_k=1  ...  d_k=63\nd_m=0  [ 0.01   0.23  ...  -0.15 ]\n"
            "```\n\n```\nd_k = 64\n√d_k = 8\n```\n\n```\nScores: [50, 48, 2]  → after softmax: [0.88, 0.12, 0.00]\n\n"
            "After scaling:\nScores: [6.25, 6.0, 0.25] → after softmax: [0.56, 0.44, 0.00]\n```\n")
    r = check_document(text, fmt="md")
    assert "d_k = 64" in r.configuration.get("scale", ""), r.configuration
    assert not r.findings, [f.describe() for f in r.findings]


def test_a_long_whole_number_cut_down_under_approx_is_about_right():
    """`exp(12) ≈ 162754` for 162754.79: under ≈ a whole number of four digits or more may be cut down instead of
    rounded; one unit or more off it is still a slip."""
    assert not check_document("# Softmax\n\n```\nexp(12) ≈ 162754\nexp(2) ≈ 7.4\n```\n", fmt="md").findings
    r = check_document("# Softmax\n\n```\nexp(12) ≈ 162574\nexp(2) ≈ 7.4\n```\n", fmt="md")
    assert [f.line for f in r.errors] == [4], [f.describe() for f in r.errors]
