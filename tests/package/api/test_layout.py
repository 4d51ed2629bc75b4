# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""_StridedLayout without a GPU: construction, each property and transformation, and the errors
for bad arguments. Views of numpy arrays are the reference: a layout taken from a view must
address every element at the byte numpy does, and a transformation of a layout must match the
same transformation of the array."""

from __future__ import annotations

import itertools

import numpy as np
import pytest


@pytest.fixture(scope="module")
def L(cuda_core):  # noqa: N802 - the class under test, short for the many constructions
    from cuda.core._layout import _StridedLayout

    return _StridedLayout


def of(L, array: np.ndarray):  # noqa: N803
    """The layout of a numpy array (its byte strides divided by the itemsize)."""
    return L(array.shape, array.strides, array.itemsize, divide_strides=True)


def byte_offsets(layout) -> list[int]:
    """The byte offset of every element, in C index order, from the layout's base."""
    strides = layout.strides_in_bytes
    if strides is None:
        strides = c_byte_strides(layout.shape, layout.itemsize)
    base = layout.slice_offset_in_bytes
    return [base + sum(i * s for i, s in zip(index, strides)) for index in itertools.product(*map(range, layout.shape))]


def c_byte_strides(shape, itemsize) -> tuple[int, ...]:
    """C-order strides in bytes (what strides=None means)."""
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def numpy_offsets(view: np.ndarray, base: np.ndarray) -> list[int]:
    """The byte offset of every element of ``view`` from the start of ``base``."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return [
        start + sum(i * s for i, s in zip(index, view.strides)) for index in itertools.product(*map(range, view.shape))
    ]


def assert_matches(layout, view: np.ndarray, base: np.ndarray) -> None:
    """``layout`` (relative to ``base``) describes exactly ``view``."""
    assert layout.shape == view.shape
    assert layout.ndim == view.ndim
    assert layout.itemsize == view.itemsize
    assert layout.volume == view.size
    if view.size:
        assert byte_offsets(layout) == numpy_offsets(view, base)
        assert layout.is_contiguous_c == view.flags.c_contiguous
        assert layout.is_contiguous_f == view.flags.f_contiguous


BASE = np.arange(2 * 3 * 4 * 5, dtype=np.int32).reshape(2, 3, 4, 5)

VIEWS = {
    "c": lambda a: a,
    "f": lambda a: np.asfortranarray(a),
    "transposed": lambda a: a.transpose(2, 0, 3, 1),
    "sliced": lambda a: a[1:, ::2, 1:3],
    "reversed": lambda a: a[::-1, :, ::-1],
    "stepped": lambda a: a[:, 1, ::3, ::-2],
    "picked": lambda a: a[1, 2],
    "scalar": lambda a: a[1, 2, 3, 4, ...],  # a 0-d view (without the ellipsis, a copied scalar)
    "empty": lambda a: a[:, 2:2],
}


# -- construction ---------------------------------------------------------------------------


def test_implicit_strides_are_c_contiguous(L) -> None:  # noqa: N803
    layout = L((4, 6), None, 8)
    assert (layout.shape, layout.strides, layout.strides_in_bytes, layout.itemsize) == ((4, 6), None, None, 8)
    assert layout.is_contiguous_c and layout.is_dense and layout.is_unique
    assert byte_offsets(layout) == list(range(0, 4 * 6 * 8, 8))
    assert repr(layout) == "_StridedLayout(shape=(4, 6), strides=None, itemsize=8)"


def test_byte_strides_are_divided_by_the_itemsize(L) -> None:  # noqa: N803
    layout = L((3, 2), (16, -4), 4, divide_strides=True)
    assert layout.strides == (4, -1)
    assert layout.strides_in_bytes == (16, -4)
    assert L((3, 2), (16, -4), 4).strides == (16, -4)


@pytest.mark.parametrize("name", VIEWS)
def test_layout_of_a_numpy_view(L, name) -> None:  # noqa: N803
    view = VIEWS[name](BASE)
    assert_matches(of(L, view), view, view)


@pytest.mark.parametrize(
    "args, error, message",
    [
        (((2, -1), None, 4), ValueError, "Extents must be non-negative"),
        (((2, 3), (1,), 4), ValueError, "one entry per axis"),
        (((2, 3), None, 0), ValueError, "itemsize must be positive"),
        (((2, 3), None, -8), ValueError, "itemsize must be positive"),
        (((2,), (6,), 4, True), ValueError, "divisible by itemsize"),
        (((1,) * 65, None, 1), ValueError, "at most 64 dimensions"),
        (([2, 3], None, 4), TypeError, None),
        (((2, 3), [3, 1], 4), TypeError, None),
        (((2, "a"), None, 4), TypeError, None),
    ],
)
def test_bad_construction(L, args, error, message) -> None:  # noqa: N803
    with pytest.raises(error, match=message):
        L(*args)


def test_equality_compares_every_field(L) -> None:  # noqa: N803
    layout = L((2, 3), (3, 1), 4)
    assert layout == L((2, 3), (3, 1), 4)
    assert layout != L((2, 3), (3, 1), 8)
    assert layout != L((3, 2), (3, 1), 4)
    assert layout != L((2, 3), (1, 2), 4)
    assert layout != L((2, 3), None, 4)  # implicit strides are a different layout object
    assert layout[1:] != L((1, 3), (3, 1), 4)  # the slice offset counts
    assert layout.__eq__("layout") is NotImplemented
    assert layout != (2, 3)
    with pytest.raises(TypeError, match="unhashable"):
        hash(layout)


def test_attributes_are_read_only(L) -> None:  # noqa: N803
    layout = L((2,), None, 4)
    for name, value in (("itemsize", 8), ("slice_offset", 1), ("shape", (3,))):
        with pytest.raises(AttributeError):
            setattr(layout, name, value)


def test_c_interface_is_exported(cuda_core) -> None:
    from cuda.core import _layout

    assert "layout_from_arrays" in _layout.__pyx_capi__


# -- dense layouts --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order, strides, stride_order",
    [
        ("C", (12, 4, 1), (0, 1, 2)),
        ("F", (1, 2, 6), (2, 1, 0)),
        ((1, 2, 0), (1, 8, 2), (1, 2, 0)),
        ((-1, 0, 1), (3, 1, 6), (2, 0, 1)),
    ],
)
def test_dense(L, order, strides, stride_order) -> None:  # noqa: N803
    layout = L.dense((2, 3, 4), 2, order)
    assert layout.strides == strides
    assert layout.stride_order == stride_order
    assert layout.is_dense and layout.offset_bounds == (0, 23)
    assert layout.required_size_in_bytes() == 48


def test_dense_empty_and_scalar(L) -> None:  # noqa: N803
    assert L.dense((3, 0, 2), 4).strides == (0, 0, 0)
    scalar = L.dense((), 4)
    assert (scalar.shape, scalar.strides, scalar.volume, scalar.offset_bounds) == ((), (), 1, (0, 0))


@pytest.mark.parametrize(
    "order, message",
    [
        ("K", "stride_order must be 'C', 'F'"),
        ("c", "stride_order must be 'C', 'F'"),
        (None, "stride_order must be 'C', 'F'"),
        ((0,), "same length as the number of dimensions"),
        ((0, 0), "axis 0 appears multiple times"),
        ((0, 2), "axis 2 out of range"),
    ],
)
def test_dense_rejects_bad_orders(L, order, message) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=message):
        L.dense((2, 3), 4, order)


def test_to_dense_and_dense_like(L) -> None:  # noqa: N803
    gappy = of(L, BASE.transpose(1, 2, 0, 3)[:, ::2])
    for order in ("K", "C", "F", (3, 1, 0, 2)):
        dense = gappy.to_dense(order)
        assert dense == L.dense_like(gappy, order)
        assert dense.shape == gappy.shape and dense.is_dense and dense.slice_offset == 0
    assert gappy.to_dense().stride_order == gappy.stride_order
    assert gappy.to_dense("F").is_contiguous_f
    implicit = L((2, 3), None, 4)
    assert implicit.to_dense("C") is implicit  # already dense in that order: nothing to build
    assert implicit.to_dense("F").strides == (1, 2)
    with pytest.raises(ValueError, match="'K', 'C', 'F'"):
        implicit.to_dense("X")
    with pytest.raises(TypeError):
        L.dense_like((2, 3))


# -- properties -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, strides, order",
    [
        ((4, 3, 2), (1, 4, 12), (2, 1, 0)),
        ((3, 4), (-4, 1), (0, 1)),
        ((5, 1, 7), (1, 0, 5), (2, 0, 1)),
        ((2, 3, 4), (1, 1, 1), (2, 1, 0)),  # equal strides: the larger extent first
        ((2, 2), (1, 1), (0, 1)),  # a full tie keeps the axes in order
    ],
)
def test_stride_order(L, shape, strides, order) -> None:  # noqa: N803
    assert L(shape, strides, 1).stride_order == order


def test_contiguity(L) -> None:  # noqa: N803
    assert L((3, 1), (1, 99), 4).is_contiguous_c  # extents of 1 have no say
    assert L((3, 1), (1, 99), 4).is_contiguous_f
    permuted = L((4, 2, 3), (1, 12, 4), 4)
    assert not permuted.is_contiguous_c and not permuted.is_contiguous_f and permuted.is_contiguous_any
    assert not L((4, 2), (-2, 1), 4).is_contiguous_any
    sliced = L((4, 3), None, 4)[1:]
    assert sliced.is_contiguous_c and not sliced.is_dense
    assert L((0, 5), (7, 3), 4).is_dense  # nothing to address, nothing out of place


@pytest.mark.parametrize(
    "shape, strides, unique",
    [
        ((4, 3), (3, 1), True),
        ((2, 2), (3, 2), True),
        ((3, 2), (-3, 1), True),
        ((3, 2), (0, 1), False),
        ((2, 3), (1, 1), False),
        ((1, 3), (0, 1), True),
        ((0, 3), (0, 0), True),
    ],
)
def test_is_unique(L, shape, strides, unique) -> None:  # noqa: N803
    layout = L(shape, strides, 1)
    assert layout.is_unique is unique
    offsets = byte_offsets(layout)
    if unique:
        assert len(set(offsets)) == len(offsets)
    else:
        assert len(set(offsets)) < len(offsets)


def test_offsets_and_required_size(L) -> None:  # noqa: N803
    layout = L((3, 4), (4, 1), 2)[1:, ::-2]
    offsets = [o // 2 for o in byte_offsets(layout)]
    assert layout.offset_bounds == (min(offsets), max(offsets)) == (layout.min_offset, layout.max_offset)
    assert layout.required_size_in_bytes() == (max(offsets) + 1) * 2
    assert layout.slice_offset_in_bytes == layout.slice_offset * 2
    assert L((3, 0), None, 4).offset_bounds == (0, -1)
    assert L((3, 0), None, 4).required_size_in_bytes() == 0
    negative = L((2, 3), (-3, 1), 4)
    assert negative.offset_bounds == (-3, 2)
    with pytest.raises(ValueError, match="negative element offset -3"):
        negative.required_size_in_bytes()


def test_volume(L) -> None:  # noqa: N803
    assert L((2, 3, 7), None, 1).volume == 42
    assert L((), None, 1).volume == 1
    assert L((5, 0), None, 1).volume == 0
    huge = L((2**40, 2**40), None, 1)  # representable, but its volume is not
    with pytest.raises(OverflowError):
        huge.volume


# -- transformations ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in VIEWS if n not in ("scalar", "empty")])
def test_permuted(L, name) -> None:  # noqa: N803
    view = VIEWS[name](BASE)
    for perm in itertools.islice(itertools.permutations(range(view.ndim)), 5):
        assert_matches(of(L, view).permuted(perm), view.transpose(perm), view)


@pytest.mark.parametrize(
    "perm, message",
    [
        ((0, 1, 2), "same length as the number of dimensions"),
        ((1, 1), "axis 1 appears multiple times"),
        ((0, 5), "axis 5 out of range"),
        ((0, -3), "axis -3 out of range"),
    ],
)
def test_permuted_rejects(L, perm, message) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=message):
        L((2, 3), None, 4).permuted(perm)
    with pytest.raises(TypeError):
        L((2, 3), None, 4).permuted([1, 0])


@pytest.mark.parametrize(
    "index",
    [
        np.s_[1],
        np.s_[-1],
        np.s_[::-1],
        np.s_[1:, 2],
        np.s_[:, ::-2, 1:4],
        np.s_[0, 0, 0, 0],
        np.s_[1, :, 3:1:-1, ::2],
        np.s_[()],
        np.s_[:, 5:],
        np.s_[10:-10:-1],
    ],
)
def test_sliced(L, index) -> None:  # noqa: N803
    layout = of(L, BASE)
    view = BASE[index + (...,)] if isinstance(index, tuple) else BASE[index]
    assert_matches(layout[index], view, BASE)
    assert layout.sliced(index) == layout[index]


def test_empty_slice_zeroes_the_strides(L) -> None:  # noqa: N803
    layout = L((4, 5), None, 2)[1:1]
    assert (layout.shape, layout.strides, layout.offset_bounds) == ((0, 5), (0, 0), (0, -1))


@pytest.mark.parametrize(
    "index, error, message",
    [
        (np.s_[::0], ValueError, "step cannot be zero"),
        (np.s_[1, 2, 3], ValueError, "greater than the number of dimensions"),
        (np.s_[4], ValueError, "out of range for axis 0"),
        (np.s_[:, -6], ValueError, "out of range for axis 1"),
        (np.s_[...], TypeError, "Expected slice instance or integer"),
        (np.s_[None], TypeError, "Expected slice instance or integer"),
        ([0, 1], TypeError, "Expected slice instance or integer"),
    ],
)
def test_sliced_rejects(L, index, error, message) -> None:  # noqa: N803
    with pytest.raises(error, match=message):
        L((4, 5), None, 2)[index]


@pytest.mark.parametrize(
    "view_name, shape",
    [
        ("c", (6, 20)),
        ("c", (120,)),
        ("c", (2, 1, 60, 1)),
        ("c", (-1, 5)),
        ("sliced", (2, 10)),
        ("sliced", (2, 2, 5, 1)),
        ("reversed", (2, 1, 3, 4, 5)),
        ("reversed", (2, 3, 2, 2, 5)),
        ("transposed", (2, 2, 2, 5, 3)),
        ("stepped", (1, 2, 2, 3, 1)),
        ("scalar", (1, 1)),
        ("empty", (5, 0)),
    ],
)
def test_reshaped(L, view_name, shape) -> None:  # noqa: N803
    view = VIEWS[view_name](BASE)
    expected = view.reshape(shape, copy=False)
    reshaped = of(L, view).reshaped(shape)
    assert_matches(reshaped, expected, view)
    if expected.size == 0:
        assert reshaped.strides == (0,) * len(shape)


@pytest.mark.parametrize(
    "view_name, shape, message",
    [
        ("c", (7, -1), "original volume 120 must be divisible by the specified sub-volume 7"),
        ("c", (121,), "original volume 120 and the new volume 121 must be equal"),
        ("c", (-1, -1), "at most one -1 extent"),
        ("c", (-3, 40), "Extents must be non-negative"),
        ("empty", (0, -1), "-1 extent is ambiguous"),
        ("transposed", (120,), "incompatible with the new shape"),
        ("sliced", (20,), "incompatible with the new shape"),
    ],
)
def test_reshaped_rejects(L, view_name, shape, message) -> None:  # noqa: N803
    view = VIEWS[view_name](BASE)
    with pytest.raises(ValueError, match=message):
        of(L, view).reshaped(shape)
    if "incompatible" in message:  # numpy needs a copy too
        with pytest.raises(ValueError):
            view.reshape(shape, copy=False)


def test_reshaped_takes_a_tuple(L) -> None:  # noqa: N803
    with pytest.raises(TypeError):
        L((2, 3), None, 4).reshaped([3, 2])


def test_flattened(L) -> None:  # noqa: N803
    layout = L((2, 3, 4, 5), None, 4)[:, :, :3]  # axis 2 can no longer merge into axis 1
    assert layout.flattened_axis_mask() == 0b1010
    flat = layout.flattened()
    assert (flat.shape, flat.strides, flat.slice_offset) == ((6, 15), (20, 1), 0)
    assert flat.flattened_axis_mask() == 0
    assert byte_offsets(flat) == byte_offsets(layout)
    assert layout.flattened(start_axis=1).shape == (2, 3, 15)
    assert layout.flattened(0, 2).shape == (6, 3, 5)
    assert layout.flattened(mask=0b1000).shape == (2, 3, 15)
    assert layout.flattened(mask=0b0100).shape == (2, 3, 3, 5)  # axis 2 is not mergeable: ignored
    assert layout.flattened(2, 1) == layout.flattened(mask=0)
    assert L((), None, 4).flattened() == L((1,), (1,), 4)


def test_flattened_masks_combine(L) -> None:  # noqa: N803
    c = L.dense((4, 5, 3), 4)
    other = L((4, 5, 3), (1, 12, 4), 4)
    mask = c.flattened_axis_mask() & other.flattened_axis_mask()
    assert c.flattened(mask=mask).shape == other.flattened(mask=mask).shape == (4, 15)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"start_axis": 4}, ValueError),
        ({"end_axis": -5}, ValueError),
        ({"mask": -1}, OverflowError),
        ({"mask": "1"}, TypeError),
    ],
)
def test_flattened_rejects(L, kwargs, error) -> None:  # noqa: N803
    with pytest.raises(error):
        L((2, 3, 4, 5), None, 4).flattened(**kwargs)


def test_squeezed(L) -> None:  # noqa: N803
    view = BASE[:, 1:2, :, 3:4]
    squeezed = of(L, view).squeezed()
    assert_matches(squeezed, view.squeeze(), view)
    assert L((1, 1), None, 4).squeezed() == L((), (), 4)
    empty = L((1, 0, 3), None, 4).squeezed()
    assert (empty.shape, empty.strides) == ((0,), (0,))


@pytest.mark.parametrize("axes", [0, -1, 2, (0, 3), (1, 2, 5), (-1, -5), [3]])
def test_unsqueezed(L, axes) -> None:  # noqa: N803
    view = BASE[1:, ::-1, 2]
    unsqueezed = of(L, view).unsqueezed(axes)
    expected = np.expand_dims(view, tuple(axes) if isinstance(axes, list) else axes)
    assert_matches(unsqueezed, expected, view)


def test_unsqueezed_nothing_keeps_the_layout(L) -> None:  # noqa: N803
    assert L((2, 3), None, 4).unsqueezed(()).strides is None


@pytest.mark.parametrize(
    "axes, error, message",
    [
        (3, ValueError, "Invalid axis: 3 out of range"),
        (-4, ValueError, "Invalid axis: -4 out of range"),
        ((0, 0), ValueError, "appears multiple times"),
        ((1, -3), ValueError, "appears multiple times"),
        (tuple(range(63)), ValueError, "at most 64 dimensions"),
        ("a", TypeError, None),
    ],
)
def test_unsqueezed_rejects(L, axes, error, message) -> None:  # noqa: N803
    with pytest.raises(error, match=message):
        L((2, 3), None, 4).unsqueezed(axes)


@pytest.mark.parametrize("shape", [(3, 4, 5), (2, 3, 4, 5), (6, 1, 3, 1, 5), (1, 1, 3, 1, 5), (3, 0, 5)])
def test_broadcast_to(L, shape) -> None:  # noqa: N803
    view = BASE[0, :, 1:2]  # (3, 1, 5)
    layout = of(L, view)
    broadcast = layout.broadcast_to(shape)
    expected = np.broadcast_to(view, shape)
    assert_matches(broadcast, expected, view)
    assert broadcast.is_unique is (broadcast.volume in (0, layout.volume))  # no element repeated


@pytest.mark.parametrize(
    "shape, message",
    [
        ((5,), "must be greater than or equal to"),
        ((2, 1, 5), "extent 3 of axis 0 must be 1 or equal"),
        ((3, 1, -5), "Extents must be non-negative"),
    ],
)
def test_broadcast_to_rejects(L, shape, message) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=message):
        L((3, 1, 5), None, 4).broadcast_to(shape)


@pytest.mark.parametrize(
    "dtype, new_dtype",
    [
        (np.int32, np.int64),
        (np.int32, np.int16),
        (np.int16, np.complex128),
        (np.int64, np.int8),
    ],
)
def test_repacked_matches_numpy_views(L, dtype, new_dtype) -> None:  # noqa: N803
    base = np.arange(4 * 3 * 16, dtype=np.int8).view(dtype)
    base = base.reshape(4, 3, -1)
    view = base[1:3, ::-1]
    new_itemsize = np.dtype(new_dtype).itemsize
    repacked = of(L, view).repacked(new_itemsize)
    assert_matches(repacked, view.view(new_dtype), view)
    assert repacked.repacked(view.itemsize) == of(L, view)


def test_repacked_details(L) -> None:  # noqa: N803
    layout = L((2, 4), None, 4)
    assert layout.repacked(4) is layout
    assert layout.repacked(16) == L((2, 1), (1, 1), 16)
    assert layout.repacked(16, keep_dim=False) == L((2,), (1,), 16)
    assert layout.permuted((1, 0)).repacked(8, axis=0) == L((2, 2), (1, 2), 8)
    assert layout[:, 2:].repacked(8).slice_offset == 1


@pytest.mark.parametrize(
    "layout_args, kwargs, message",
    [
        (((2, 4), None, 4), {"itemsize": 0}, "greater than zero"),
        (((2, 4), None, 4), {"itemsize": 8, "axis": 0}, "axis 0 stride must be 1"),
        (((2, 4), None, 4), {"itemsize": 8, "axis": 2}, "Invalid axis: 2 out of range"),
        (((2, 3), None, 4), {"itemsize": 8}, r"extent \(3\) must be divisible by 2"),
        (((2, 4), (5, 1), 4), {"itemsize": 8}, r"axis 0 stride \(5\) must be divisible by 2"),
        (((2, 4), None, 4), {"itemsize": 8, "data_ptr": 4}, r"data pointer \(4\) must be aligned"),
        (((2, 0), (0, 1), 4), {"itemsize": 2}, "extent must be non-zero"),
    ],
)
def test_repacked_rejects(L, layout_args, kwargs, message) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=message):
        L(*layout_args).repacked(**kwargs)


def test_repacked_rejects_an_odd_slice_offset(L) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=r"slice offset \(1\) must be divisible by 2"):
        L((2, 4), None, 4)[:, 1:3].repacked(8)


@pytest.mark.parametrize(
    "layout_args, kwargs, expected",
    [
        (((2, 4), None, 4), {}, 16),
        (((2, 6), None, 4), {}, 8),
        (((2, 6), None, 4), {"max_itemsize": 48}, 24),
        (((2, 4), None, 4), {"data_ptr": 4}, 4),
        (((2, 4), None, 4), {"axis": 0}, 4),  # stride 4: cannot repack along it
        (((3, 4), (6, 1), 2), {}, 4),
    ],
)
def test_max_compatible_itemsize(L, layout_args, kwargs, expected) -> None:  # noqa: N803
    layout = L(*layout_args)
    result = layout.max_compatible_itemsize(**kwargs)
    assert result == expected
    if result != layout.itemsize:
        assert layout.repacked(result, data_ptr=kwargs.get("data_ptr", 0)).itemsize == result


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_itemsize": 0}, "greater than zero"),
        ({"max_itemsize": 2}, r"cannot be less than itemsize \(4\)"),
        ({"axis": 5}, "Invalid axis: 5 out of range"),
    ],
)
def test_max_compatible_itemsize_rejects(L, kwargs, message) -> None:  # noqa: N803
    with pytest.raises(ValueError, match=message):
        L((2, 4), None, 4).max_compatible_itemsize(**kwargs)
