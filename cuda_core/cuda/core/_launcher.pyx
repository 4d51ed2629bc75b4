# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""cuda.core launch(): a kernel on a stream, with its arguments packed in C.

A config that needs no launch attribute takes the plain cuLaunchKernel path, the
driver's cheapest; clusters, cooperative launches and programmatic dependent launch go
through cuLaunchKernelEx with the attributes the LaunchConfig keeps ready.

launch() is called through vectorcall (METH_FASTCALL): its arguments are read where the
caller put them, with no tuple of them made. Keywords (or too few arguments) go to the
Cython function of the same signature, which parses and reports them as ever.
"""

import os
import sys

from cpython.object cimport PyObject
from cpython.sequence cimport PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_GET_SIZE

cimport cuda.bindings.cydriver as cydriver
from cuda.core._kernel_arg_handler cimport PackedArgs, pack_argument_array, release_arguments
from cuda.core._launch_config cimport MAX_LAUNCH_ATTRIBUTES, LaunchConfig
from cuda.core._module cimport Kernel
from cuda.core._stream cimport Stream, Stream_accept
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN

__all__ = ['launch']

cdef enum:
    # How far _launch() goes: launch() runs every step; _launch_steps() stops after one, so
    # that benchmarks/launch_steps.py times each step of the very code launch() runs.
    STEP_CALL = 0        # the call alone
    STEP_CHECKED = 1     # + stream, config and kernel checked, the stream's handle read
    STEP_COUNTED = 2     # + the kernel's parameter sizes, the argument count checked
    STEP_PACKED = 3      # + the arguments packed
    STEP_NOGIL = 4       # + the GIL released and taken back, with nothing in between
    STEP_LAUNCHED = 5    # + cuLaunchKernel (cuLaunchKernelEx with launch attributes)


cdef Stream _launch_stream(object stream, object kernel):
    """A launch's stream other than a plain Stream: a Stream subclass, a GraphBuilder (its
    stream: the launch is captured, and the graph keeps ``kernel``, hence its code, alive), or
    (deprecated) an object with ``__cuda_stream__``; anything else is a TypeError. The
    GraphBuilder class is looked up among the loaded modules: cuda.core.graph is not imported
    by a launch, and a plain Stream never gets here."""
    builders = sys.modules.get("cuda.core.graph._graph_builder")
    if builders is not None and isinstance(stream, builders.GraphBuilder):
        stream._keep_alive(kernel)
        return <Stream>stream.stream
    return Stream_accept(stream, True)


cdef int _check_cooperative_grid(LaunchConfig config, cydriver.CUfunction function) except -1:
    """A cooperative grid must be resident on the device all at once: refuse a larger one
    here, with the numbers, rather than let the driver fail it."""
    cdef int per_multiprocessor = 0
    cdef int multiprocessors = 0
    cdef cydriver.CUdevice device = 0
    cdef int threads = config.dims[3] * config.dims[4] * config.dims[5]
    cdef size_t shmem = config._shmem_size
    with nogil:
        HANDLE_RETURN(cydriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_multiprocessor, function, threads, shmem))
        HANDLE_RETURN(cydriver.cuCtxGetDevice(&device))
        HANDLE_RETURN(cydriver.cuDeviceGetAttribute(&multiprocessors, cydriver.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                                    device))
    cdef unsigned long long blocks = (<unsigned long long>config.dims[0]) * config.dims[1] * config.dims[2]
    cdef unsigned long long resident = (<unsigned long long>per_multiprocessor) * multiprocessors
    if blocks > resident:
        raise ValueError(f"a cooperative launch needs all its blocks resident at once, but this grid has {blocks} "
                         f"blocks and at most {resident} ({per_multiprocessor} per multiprocessor x {multiprocessors} "
                         f"multiprocessors) fit with {threads} threads and {shmem} bytes of dynamic shared memory "
                         f"per block")
    return 0


# The driver's cuLaunchKernel, taken once from the driver as cuda.bindings takes it (cuGetProcAddress,
# the per-thread default stream variant where CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM is set),
# and called directly: cydriver.cuLaunchKernel reaches it through two wrappers, each checking
# for errors. NULL until the first launch, or where the driver does not give it (then cydriver's).
ctypedef cydriver.CUresult (*_LaunchKernel)(cydriver.CUfunction, unsigned int, unsigned int, unsigned int,
                                            unsigned int, unsigned int, unsigned int, unsigned int,
                                            cydriver.CUstream, void**, void**) noexcept nogil
cdef _LaunchKernel _driver_launch_kernel = NULL
cdef bint _driver_launch_kernel_asked = False


cdef int _ask_driver_launch_kernel() except -1:
    """Set _driver_launch_kernel from the driver, once (a launch has loaded the driver by then)."""
    global _driver_launch_kernel, _driver_launch_kernel_asked
    cdef void* function = NULL
    cdef cydriver.CUdriverProcAddressQueryResult status = cydriver.CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND
    cdef bint per_thread = os.getenv("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", 0)  # as cuda.bindings reads it
    # The versions of cuLaunchKernel's ABI in cuda.h (PFN_cuLaunchKernel_v4000, _v7000_ptsz).
    cdef int version = 7000 if per_thread else 4000
    cdef cydriver.cuuint64_t flags = (cydriver.CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM if per_thread
                                      else cydriver.CU_GET_PROC_ADDRESS_DEFAULT)
    cdef cydriver.CUresult result
    _driver_launch_kernel_asked = True
    try:
        with nogil:
            result = cydriver.cuGetProcAddress("cuLaunchKernel", &function, version, flags, &status)
    except RuntimeError:  # cuda.bindings found no cuGetProcAddress in the driver: its wrapper then
        return 0
    if result == cydriver.CUDA_SUCCESS and status == cydriver.CU_GET_PROC_ADDRESS_SUCCESS:
        _driver_launch_kernel = <_LaunchKernel>function
    return 0


cdef int _launch_with_attributes(LaunchConfig config, cydriver.CUfunction function, cydriver.CUstream stream,
                                 void** slots) except -1:
    cdef cydriver.CUlaunchConfig native
    cdef cydriver.CUlaunchAttribute attributes[MAX_LAUNCH_ATTRIBUTES]
    if config._cooperative:
        _check_cooperative_grid(config, function)
    config.fill_native(&native, attributes, stream, True)
    with nogil:
        HANDLE_RETURN(cydriver.cuLaunchKernelEx(&native, function, slots, NULL))
    return 0


def launch(stream, config, kernel, *kernel_args) -> None:
    """Launch ``kernel`` on ``stream`` with ``config``, passing ``kernel_args`` by value in order.

    ``stream`` is a Stream, or a GraphBuilder that is building (the launch becomes a node
    of its graph); an object with ``__cuda_stream__`` still works, with a
    DeprecationWarning: wrap it with ``Stream(obj)``. Arguments are Buffers (their device
    pointer), numpy or ctypes scalars (their own type), or Python bool (bool), int
    (a pointer-sized integer), float (double) and complex (two doubles). They must match the
    kernel's parameters in number, and each must be at least as wide as its parameter (a
    wider one gives its low bytes, as in NVIDIA's cuda.core; a Python float for a float
    parameter gives its value): a mismatch is a TypeError, never a launch that reads past a value."""
    _launch(stream, config, kernel, <PyObject**>PySequence_Fast_ITEMS(kernel_args), PyTuple_GET_SIZE(kernel_args),
            STEP_LAUNCHED)


def _launch_steps(int upto, stream, config, kernel, *kernel_args) -> None:
    """launch() stopped after step ``upto`` (0: the call alone ... 5: all of it; see STEP_*),
    for benchmarks/launch_steps.py."""
    _launch(stream, config, kernel, <PyObject**>PySequence_Fast_ITEMS(kernel_args), PyTuple_GET_SIZE(kernel_args),
            upto)


# ---- the vectorcall entries: launch() and _launch_steps() as builtin functions whose C code
# gets the caller's argument array; anything but positional arguments enough goes to the
# Cython functions above (the same parameters, parsing and errors). ----

cdef extern from *:
    """
    typedef int (*cuda_core_launch_impl_t)(PyObject** args, Py_ssize_t nargs, int upto);
    static cuda_core_launch_impl_t cuda_core_launch_impl = NULL;
    static PyObject* cuda_core_launch_general[2] = {NULL, NULL};  /* launch, _launch_steps */

    static PyObject* cuda_core_launch_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                           PyObject* kwnames) {
        (void)self;
        if ((kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) && nargs >= 3) {
            if (cuda_core_launch_impl((PyObject**)args, nargs, 5) < 0) return NULL;
            Py_RETURN_NONE;
        }
        return PyObject_Vectorcall(cuda_core_launch_general[0], args, (size_t)nargs, kwnames);
    }

    static PyObject* cuda_core_launch_steps_call(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                                 PyObject* kwnames) {
        (void)self;
        if ((kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) && nargs >= 4 && PyLong_CheckExact(args[0])) {
            long upto = PyLong_AsLong(args[0]);
            if (upto == -1 && PyErr_Occurred()) return NULL;
            if (cuda_core_launch_impl((PyObject**)args + 1, nargs - 1, (int)upto) < 0) return NULL;
            Py_RETURN_NONE;
        }
        return PyObject_Vectorcall(cuda_core_launch_general[1], args, (size_t)nargs, kwnames);
    }

    static PyMethodDef cuda_core_launch_defs[2] = {
        {"launch", (PyCFunction)(void (*)(void))cuda_core_launch_call, METH_FASTCALL | METH_KEYWORDS, NULL},
        {"_launch_steps", (PyCFunction)(void (*)(void))cuda_core_launch_steps_call, METH_FASTCALL | METH_KEYWORDS,
         NULL},
    };

    /* The builtin function of entry ``which``, its docstring ``doc`` (kept alive by the
       caller: a text signature, then the Cython function's own) and ``general`` behind it. */
    static PyObject* cuda_core_launch_entry(int which, PyObject* general, const char* doc, PyObject* module_name,
                                            cuda_core_launch_impl_t impl) {
        cuda_core_launch_impl = impl;
        Py_INCREF(general);
        cuda_core_launch_general[which] = general;
        cuda_core_launch_defs[which].ml_doc = doc;
        return PyCFunction_NewEx(&cuda_core_launch_defs[which], NULL, module_name);
    }
    """
    ctypedef int (*cuda_core_launch_impl_t)(PyObject** args, Py_ssize_t nargs, int upto) except -1
    object cuda_core_launch_entry(int which, object general, const char* doc, object module_name,
                                  cuda_core_launch_impl_t impl)


cdef int _launch_array(PyObject** args, Py_ssize_t nargs, int upto) except -1:
    """A vectorcall entry's work: ``args[0:3]`` the stream, config and kernel, the rest the
    kernel's arguments (all borrowed from the caller)."""
    return _launch(<object>args[0], <object>args[1], <object>args[2], args + 3, nargs - 3, upto)


cdef object _entry(int which, object general, str signature):
    """The builtin function over ``general`` (the Cython function of the same name): its name,
    module, docstring, and signature (a text signature, which inspect reads)."""
    doc = f"{general.__name__}{signature}\n--\n\n{general.__doc__}".encode()
    _entry_docs.append(doc)  # ml_doc points into it for good
    return cuda_core_launch_entry(which, general, doc, __name__, _launch_array)


cdef list _entry_docs = []
launch = _entry(0, launch, "(stream, config, kernel, *kernel_args)")
_launch_steps = _entry(1, _launch_steps, "(upto, stream, config, kernel, *kernel_args)")


cdef inline int _launch(object stream, object config, object kernel, PyObject** args, Py_ssize_t count,
                        int upto) except -1:
    """launch()'s work, up to step ``upto`` (launch(): all of it); the tests of ``upto`` are
    a few compares of a register."""
    if upto == STEP_CALL:
        return 0
    cdef Stream target = <Stream>stream if type(stream) is Stream else _launch_stream(stream, kernel)
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"launch() config must be a LaunchConfig, got {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch() kernel must be a Kernel (from ObjectCode.get_kernel), got {type(kernel).__name__}")
    cdef LaunchConfig launch_config = <LaunchConfig>config
    cdef Kernel launched = <Kernel>kernel
    # The handle read in place; _live_handle() raises its error for a closed Stream.
    cdef cydriver.CUstream handle = target._live_handle() if target._closed else target._handle
    if upto == STEP_CHECKED:
        return 0
    if launched._num_params != count:  # also while not yet asked of the driver (-1)
        launched._check_argument_count(count)
    if upto == STEP_COUNTED:
        return 0
    cdef PackedArgs packed
    cdef cydriver.CUresult result = cydriver.CUDA_SUCCESS
    cdef unsigned int* dims = launch_config.dims
    packed.slots = packed.inline_slots  # what release_arguments() leaves alone
    packed.values = packed.inline_values
    try:
        if count != 0:
            pack_argument_array(&packed, args, count, launched._param_size_array, NULL)
        if upto == STEP_PACKED:
            return 0
        if launch_config.num_attributes != 0 and upto == STEP_LAUNCHED:
            _launch_with_attributes(launch_config, <cydriver.CUfunction>launched._kernel, handle, packed.slots)
            return 0
        if not _driver_launch_kernel_asked:
            _ask_driver_launch_kernel()
        with nogil:
            if upto == STEP_LAUNCHED and _driver_launch_kernel != NULL:
                result = _driver_launch_kernel(<cydriver.CUfunction>launched._kernel, dims[0], dims[1], dims[2],
                                               dims[3], dims[4], dims[5], launch_config._shmem_size, handle,
                                               packed.slots, NULL)
            elif upto == STEP_LAUNCHED:
                result = cydriver.cuLaunchKernel(<cydriver.CUfunction>launched._kernel, dims[0], dims[1], dims[2],
                                                 dims[3], dims[4], dims[5], launch_config._shmem_size, handle,
                                                 packed.slots, NULL)
        if result != cydriver.CUDA_SUCCESS:
            HANDLE_RETURN(result)
    finally:
        if packed.slots != packed.inline_slots or packed.values != packed.inline_values:
            release_arguments(&packed)  # more arguments than the inline room
    return 0
