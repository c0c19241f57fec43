"""Reading numbers and arrays: nested lists, NumPy arrays and torch tensors into checked ndarrays.

Every number a user hands us passes through `as_array` once: NumPy converts in
C where the input is plain numbers, and a walk over the nested lists names the
first ragged, empty or non-numeric entry where it is not.  Bad input raises
`MHAInputError` naming the field and the shapes involved; nothing is ever
evaluated as code.  The errors and `read_json_file` live here, at the bottom of
the input layer; their public home is `mha.inputs`, which re-exports them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MAX_NESTING = 8          # deeper nested lists cannot be an attention input (the deepest is [B, H, T, S])


class MHAInputError(ValueError):
    """A user's input that cannot describe an attention layer; the message names the field."""

    __module__ = "mha.inputs"          # its public name, as tracebacks and doctests print it


class UsageError(Exception):
    """A bad command line or an unreadable file: the CLI exits 2 with one line."""

    __module__ = "mha.inputs"


def internal_error_line(e: BaseException) -> str:
    """One line for a fault of mha's own (not of the input): what was raised, and how to see the traceback."""
    what = " ".join(str(e).split())[:200]
    return (f"internal error ({type(e).__name__}{': ' + what if what else ''}); this is a bug in mha, "
            "please report it with the input; MHA_DEBUG=1 shows the traceback")


def read_json_file(path: str, parse_float: Any = None) -> Any:
    """Read a JSON file ('-' for stdin); every failure is one UsageError naming the file.
    parse_float as for json.loads (decimal.Decimal keeps each number's text, for mha.exact)."""
    import json
    import sys
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except FileNotFoundError:
        raise UsageError(f"input: no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"input: cannot read {path}: {e.__class__.__name__}: {e}") from None
    if parse_float is None:
        fast = _orjson_loads(text)
        if fast is not _UNREAD:
            return fast
    try:
        return json.loads(text, parse_float=parse_float)
    except json.JSONDecodeError as e:
        raise UsageError(f"input: {path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise UsageError(f"input: {path} nests too deeply to be an attention configuration") from None


_UNREAD = object()


def _orjson_loads(text: str) -> Any:
    """orjson's parse of a JSON text (about 3x faster than json's on a 512 x 768 X, which is most of the input
    time of `mha explain` at that size), or _UNREAD when orjson is missing or refuses the text.  orjson parses
    every float to the same float64 as json; it refuses what json accepts beyond the standard (NaN, Infinity,
    1e400) and malformed text, so json reads those, and its errors name the line and column.  One difference
    stays: an integer beyond 64 bits comes back as the nearest float, not an int.  No field takes such an
    integer: the float fields convert it to that same float, and the integer fields refuse a float as they
    refuse the huge integer, naming the field."""
    try:
        import orjson
    except ImportError:
        return _UNREAD
    try:
        return orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        return _UNREAD


# ---------------------------------------------------------------- nested lists


def _shape_of(value: Any, field: str, path: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Shape of a rectangular nested list, or a clear error for a ragged or empty one."""
    if isinstance(value, (list, tuple)):
        where = f"{field}{''.join(f'[{i}]' for i in path)}"
        if len(path) >= MAX_NESTING:
            raise MHAInputError(f"{field}: nested more than {MAX_NESTING} levels deep; no attention input is")
        if len(value) == 0:
            raise MHAInputError(f"{where}: empty list; matrices need at least one row and one column")
        shapes = [_shape_of(item, field, path + (i,)) for i, item in enumerate(value)]
        first = shapes[0]
        for i, s in enumerate(shapes[1:], start=1):
            if s != first:
                raise MHAInputError(
                    f"{where}: ragged rows: entry 0 has shape {list(first)} "
                    f"but entry {i} has shape {list(s)}")
        return (len(value),) + first
    return ()


def _leaves(value: Any):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _plain_numbers(value: Any, kind: str) -> np.ndarray | None:
    """A nested list as NumPy converts it in C, when that conversion is exactly what the checks below
    would give: rectangular, non-empty, only numbers (or only booleans for a mask).  None otherwise."""
    try:
        arr = np.array(value)
    except (ValueError, TypeError, RecursionError, OverflowError):
        return None
    if arr.size == 0 or arr.ndim > MAX_NESTING:
        return None
    if kind == "bool":
        return arr if arr.dtype == np.bool_ else None
    if arr.dtype.kind not in ("i" if kind == "int" else "if"):
        return None                     # strings, None, ragged rows, huge integers: the checks below decide
    # NumPy turns true and false among numbers into 1 and 0 silently: look at the leaves that are 0 or 1
    suspects = np.flatnonzero((arr == 0) | (arr == 1))
    if suspects.size > 4096:
        return None
    for where in zip(*np.unravel_index(suspects, arr.shape)):
        leaf = value
        for i in where:
            leaf = leaf[i]
        if isinstance(leaf, bool):
            return None
    return arr


def _rectangular_leaves(value: Any) -> tuple[tuple[int, ...], list] | None:
    """(shape, flat leaves) of a rectangular, non-empty nested list, found by NumPy in C, or None for one
    that is not (the Python walk then names the first ragged or empty entry).  The leaves are the list's
    own objects (an object array keeps them), so their types are checked as the walk would check them."""
    try:
        grid = np.array(value, dtype=object)
    except (ValueError, TypeError, RecursionError):
        return None
    if grid.size == 0 or grid.ndim > MAX_NESTING:
        return None
    leaves = grid.ravel().tolist()
    if any(issubclass(t, (list, tuple)) for t in set(map(type, leaves))):
        return None                     # a ragged list: NumPy kept some rows as list objects
    return grid.shape, leaves


def as_array(value: Any, field: str, *, kind: str = "float", ndims: tuple[int, ...] = (2,),
             dtype: Any = np.float64, allow_neg_inf: bool = False) -> np.ndarray:
    """Turn nested lists or an array into a checked ndarray.

    kind is "float", "bool" or "int".  For "float" with allow_neg_inf, a JSON
    null stands for -inf (a masked entry), mirroring how traces are written.

    >>> as_array([[1, 2], [3, 4]], "X").shape
    (2, 2)
    >>> as_array([[1, 2], [3]], "X")
    Traceback (most recent call last):
    ...
    mha.inputs.MHAInputError: X: ragged rows: entry 0 has shape [2] but entry 1 has shape [1]
    """
    if isinstance(value, np.ndarray) or _is_tensor(value):
        arr = np.asarray(value.detach().cpu().numpy() if _is_tensor(value) else value)
        if arr.size == 0:
            raise MHAInputError(f"{field}: empty array of shape {list(arr.shape)}")
        shape = arr.shape
        leaves = None
    else:
        if isinstance(value, (str, bytes, dict)) or value is None:
            raise MHAInputError(f"{field}: expected a nested list of numbers, got {type(value).__name__}")
        fast = _plain_numbers(value, kind)
        if fast is not None and len(fast.shape) in ndims:
            if kind == "float":
                return _checked(_cast(fast, field, dtype), field, allow_neg_inf)
            return fast.astype(np.int64) if kind == "int" else fast
        found = _rectangular_leaves(value)
        if found is None:           # ragged, empty or too deep: the walk below says where
            shape = _shape_of(value, field)
            leaves = list(_leaves(value))
        else:
            shape, leaves = found
    if len(shape) not in ndims:
        want = " or ".join(f"{n}-D" for n in ndims)
        raise MHAInputError(f"{field}: expected {want}, got shape {list(shape)}")

    if leaves is None:  # already an array
        if kind == "bool":
            if arr.dtype != np.bool_:
                raise MHAInputError(f"{field}: expected booleans (True = may attend), got dtype {arr.dtype}")
            return arr.astype(bool)
        if kind == "int":
            if not np.issubdtype(arr.dtype, np.integer):
                raise MHAInputError(f"{field}: expected integers, got dtype {arr.dtype}")
            return arr.astype(np.int64)
        if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
            raise MHAInputError(f"{field}: expected numbers, got dtype {arr.dtype}")
        out = _cast(arr, field, dtype)
    else:
        # the leaves' types, each checked once (a 512 x 768 X has 3 of them, not 393 216 leaves)
        types = set(map(type, leaves))
        if kind == "bool":
            if types - {bool}:
                bad = next(x for x in leaves if not isinstance(x, bool))
                raise MHAInputError(f"{field}: expected true/false (true = may attend), found {bad!r}")
            return np.array(leaves, dtype=bool).reshape(shape)
        if kind == "int":
            if any(issubclass(t, bool) or not issubclass(t, int) for t in types):
                bad = next(x for x in leaves if isinstance(x, bool) or not isinstance(x, int))
                raise MHAInputError(f"{field}: expected integers, found {bad!r}")
            return np.array(leaves, dtype=np.int64).reshape(shape)
        masked = allow_neg_inf and type(None) in types
        if any(issubclass(t, bool) or not issubclass(t, (int, float)) for t in types - {type(None)}) or \
                (type(None) in types and not allow_neg_inf):
            bad = next(x for x in leaves if not (x is None and allow_neg_inf) and
                       (isinstance(x, bool) or not isinstance(x, (int, float))))
            raise MHAInputError(f"{field}: expected numbers, found {bad!r}")
        if masked:                        # a JSON null in a bias is a masked entry: -inf
            leaves = [-math.inf if x is None else x for x in leaves]
        try:
            nums = np.array(leaves, dtype=np.float64)
        except OverflowError:             # an int beyond float64: name it as the walk did
            bad = next(x for x in leaves if isinstance(x, int) and abs(x) > 1.7e308)
            raise MHAInputError(f"{field}: {bad:.3g} is beyond the range of float64") from None
        out = _cast(nums, field, dtype).reshape(shape)

    return _checked(out, field, allow_neg_inf)


def _checked(out: np.ndarray, field: str, allow_neg_inf: bool) -> np.ndarray:
    """out, if every value is finite (or -inf where allowed); else an error naming the first one."""
    if out.dtype.kind != "f":
        return out
    # min and max see every NaN and infinity without allocating a mask the size of the input
    lo, hi = out.min(), out.max()
    if np.isfinite(hi) and (np.isfinite(lo) or (allow_neg_inf and lo == -np.inf)):
        return out
    bad = np.isnan(out) | (np.isposinf(out) if allow_neg_inf else ~np.isfinite(out))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise MHAInputError(f"{field}: non-finite value {out[idx]} at index {list(idx)}")
    return out


def _cast(arr: np.ndarray, field: str, dtype: Any) -> np.ndarray:
    """arr as dtype (no copy when it already has it).  A finite value beyond the dtype's range is an
    error naming it, not an overflow warning followed by inf."""
    dtype = np.dtype(dtype)
    if arr.dtype == dtype:
        return arr
    with np.errstate(over="ignore", invalid="ignore"):
        out = arr.astype(dtype)
    if out.size and dtype.kind == "f" and (np.isinf(out.min()) or np.isinf(out.max())):
        overflowed = np.isinf(out) & np.isfinite(arr)
        if overflowed.any():
            idx = tuple(int(i) for i in np.argwhere(overflowed)[0])
            raise MHAInputError(f"{field}: {float(arr[idx]):.3g} at index {list(idx)} is beyond the range of "
                                f"{dtype} (largest {float(np.finfo(dtype).max):.3g})")
    return out


def _is_tensor(value: Any) -> bool:
    # Recognise a torch tensor without importing torch.
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


# ---------------------------------------------------------------- counts, words, the batch axis


def _count(value: Any, field: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        want = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise MHAInputError(f"{field}: expected {want}, got {value!r}")
    return int(value)


def _is_word(value: Any, word: str) -> bool:
    return isinstance(value, str) and value == word


def _batched(value: Any, field: str, batched: bool, B: int | None, dtype, *, extra: int = 0) -> np.ndarray:
    """An array with the batch axis first (added when the input had none); extra = axes before [S, d]."""
    ndim = 2 + extra
    arr = as_array(value, field, ndims=(ndim + 1,) if batched else (ndim,), dtype=dtype)
    if not batched:
        arr = arr[None]
    if B is not None and arr.shape[0] != B:
        raise MHAInputError(f"{field}: batch size {arr.shape[0]} does not match the input's batch size {B}")
    return arr
