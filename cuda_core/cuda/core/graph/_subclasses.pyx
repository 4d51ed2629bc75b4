# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""The node kinds of a graph definition (EmptyNode ... SwitchNode), the functions that add
them (called by GraphNode's methods), and the executable-node views (``graph[node]``) that
update an instantiated graph, written in _executable_nodes.pxi and compiled here.

The builders set the node kinds' C fields, which only the module that compiles the classes
reaches, so they stay beside them; the readers that rebuild a node from the driver
(_node_readers.pxi) and the executable views (_executable_nodes.pxi) are written apart and
compiled here.

A node made here remembers what it was made with (kernel, config, event, callable...); a
node met only through a traversal (its Python object was collected) is rebuilt from the
driver's parameters, its kernel or event found again among what the definition keeps alive.
"""


cimport cuda.bindings.cydriver as cydriver
from libc.stdint cimport uintptr_t
from libc.string cimport memset as c_memset
from libcpp.vector cimport vector

from cuda.core._event cimport Event
from cuda.core._kernel_arg_handler cimport PackedArgs, pack_arguments, release_arguments
from cuda.core._launch_config cimport LaunchConfig
from cuda.core._memory._buffer cimport Buffer, pointer_value
from cuda.core._module cimport Kernel
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN, current_device
from cuda.core.graph._graph_builder cimport Graph  # no-cython-lint: used in the included _executable_nodes.pxi
from cuda.core.graph._graph_definition cimport GraphCondition, GraphDefinition, wrap_graph
from cuda.core.graph._graph_node cimport (
    GraphNode, attach_node, detach_owned, keep_for, keep_for_clone, pass_to_main_thread,
)
from cuda.core.graph._host_callback cimport is_python_trampoline, resolve_host_callback

from cuda.core.graph._graph_node import _Attachment
from cuda.core.typing import GraphConditionalType, GraphMemoryType

# COMPAT_HAS_MANAGED_POOLS, compat_managed_allocation_type, compat_graph_add_node.
include "driver_compat.pxi"

__all__ = ['AllocNode', 'ChildGraphNode', 'ConditionalNode', 'EmptyNode', 'EventRecordNode', 'EventWaitNode',
           'ExecutableChildGraphNode', 'ExecutableEventRecordNode', 'ExecutableEventWaitNode', 'ExecutableGraphNode',
           'ExecutableHostCallbackNode', 'ExecutableKernelNode', 'ExecutableMemcpyNode', 'ExecutableMemsetNode',
           'FreeNode', 'HostCallbackNode', 'IfElseNode', 'IfNode', 'KernelNode', 'MemcpyNode', 'MemsetNode',
           'SwitchNode', 'WhileNode']


# ---------------------------------------------------------------------------------------
# Parameters shared by the definition's nodes and the executable views
# ---------------------------------------------------------------------------------------

cdef int _dependencies(GraphNode parent, tuple others, vector[cydriver.CUgraphNode]& out) except -1:
    """The driver nodes a new node after ``parent`` (and ``others``) depends on."""
    cdef GraphNode other
    if not parent._is_entry:
        out.push_back(parent._live())
    for value in others:
        if not isinstance(value, GraphNode):
            raise TypeError(f"expected a GraphNode, got {type(value).__name__}")
        other = <GraphNode>value
        out.push_back(other._live())
    return 0


cdef cydriver.CUcontext _current_context() except? NULL:
    """The current context: memset and memcpy nodes run in it."""
    cdef cydriver.CUcontext context = NULL
    with nogil:
        HANDLE_RETURN(cydriver.cuCtxGetCurrent(&context))
    if context == NULL:
        HANDLE_RETURN(cydriver.CUDA_ERROR_INVALID_CONTEXT)
    return context


cdef int _check_launch(object config, object kernel) except -1:
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"config must be a LaunchConfig, not {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"kernel must be a Kernel, not {type(kernel).__name__}")
    if (<LaunchConfig>config)._cluster is not None or (<LaunchConfig>config)._cooperative:
        raise ValueError("graph kernel nodes do not support clustered or cooperative launch configurations; "
                         "launch such kernels on a stream (or capture them with a GraphBuilder)")
    return 0


cdef int _fill_kernel(cydriver.CUDA_KERNEL_NODE_PARAMS* params, LaunchConfig config, Kernel kernel,
                      tuple args, PackedArgs* packed) except -1:
    """Fill ``params`` for ``kernel`` launched with ``config`` and ``args`` (packed in
    ``packed``: release_arguments() must follow, also on error)."""
    # Nothing for release_arguments() to free until pack_arguments() takes the heap.
    packed.slots = packed.inline_slots
    packed.values = packed.inline_values
    c_memset(params, 0, sizeof(params[0]))
    kernel._check_argument_count(len(args))
    pack_arguments(packed, args, kernel._param_size_array)
    # func NULL: the driver takes the context-independent kern in the current context.
    params.kern = kernel._kernel
    params.gridDimX = config.dims[0]
    params.gridDimY = config.dims[1]
    params.gridDimZ = config.dims[2]
    params.blockDimX = config.dims[3]
    params.blockDimY = config.dims[4]
    params.blockDimZ = config.dims[5]
    params.sharedMemBytes = config._shmem_size
    params.kernelParams = packed.slots
    return 0


cdef tuple _memset_value(object value):
    """(value, element size) of a memset fill: an int byte, or 1, 2 or 4 bytes (little-endian)."""
    if isinstance(value, int):
        if not 0 <= value < 256:
            raise ValueError(f"memset value {value} is not a byte: give an int in [0, 256), or a bytes-like "
                             "object of 1, 2 or 4 bytes for wider elements")
        return value, 1
    try:
        data = memoryview(value).cast('B').tobytes()
    except TypeError:
        raise TypeError(f"memset value must be an int or a bytes-like object, not {type(value).__name__}") from None
    if len(data) not in (1, 2, 4):
        raise ValueError(f"memset value is {len(data)} bytes: the element size must be 1, 2 or 4 bytes")
    return int.from_bytes(data, 'little'), len(data)


cdef cydriver.CUdeviceptr _operand(object operand, object owner, str side, list keep) except? 0:
    """The address of a memset/memcpy operand; what keeps its memory alive goes to ``keep``."""
    if isinstance(operand, Buffer):
        if owner is not None:
            raise ValueError(f"{side}_owner cannot be used when {side} is a Buffer: the graph keeps the Buffer's "
                             f"allocation alive itself")
        if (<Buffer>operand)._closed:
            raise ValueError(f"{side} Buffer has no active allocation (it was closed)")
        keep.append(operand)
        return (<Buffer>operand)._ptr
    if owner is not None:
        if isinstance(owner, Buffer) and (<Buffer>owner)._closed:
            raise ValueError(f"{side}_owner Buffer has no active allocation (it was closed)")
        keep.append(owner)
    return pointer_value(operand)


cdef int _fill_memset(cydriver.CUDA_MEMSET_NODE_PARAMS* params, cydriver.CUdeviceptr dst, object value,
                      size_t width, size_t height, size_t pitch) except -1:
    c_memset(params, 0, sizeof(params[0]))
    fill, element_size = _memset_value(value)
    params.dst = dst
    params.value = fill
    params.elementSize = element_size
    params.width = width
    params.height = height
    params.pitch = pitch
    return 0


cdef cydriver.CUmemorytype _memory_kind(cydriver.CUdeviceptr address) except? cydriver.CU_MEMORYTYPE_ARRAY:
    """HOST for pinned or registered host memory, else DEVICE: what the driver says of an
    address, and DEVICE for one it does not know (a graph allocation not made yet)."""
    cdef unsigned int kind = 0
    cdef cydriver.CUresult result
    with nogil:
        result = cydriver.cuPointerGetAttribute(&kind, cydriver.CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address)
    if result == cydriver.CUDA_SUCCESS and kind == cydriver.CU_MEMORYTYPE_HOST:
        return cydriver.CU_MEMORYTYPE_HOST
    return cydriver.CU_MEMORYTYPE_DEVICE


cdef int _fill_memcpy(cydriver.CUDA_MEMCPY3D* params, cydriver.CUdeviceptr dst, cydriver.CUdeviceptr src,
                      size_t size) except -1:
    c_memset(params, 0, sizeof(params[0]))
    params.srcMemoryType = _memory_kind(src)
    if params.srcMemoryType == cydriver.CU_MEMORYTYPE_HOST:
        params.srcHost = <void*><uintptr_t>src  # void* fits CUDA 12's void* field and CUDA 13's const void*
    else:
        params.srcDevice = src
    params.dstMemoryType = _memory_kind(dst)
    if params.dstMemoryType == cydriver.CU_MEMORYTYPE_HOST:
        params.dstHost = <void*><uintptr_t>dst
    else:
        params.dstDevice = dst
    params.WidthInBytes = size
    params.Height = 1
    params.Depth = 1
    return 0


cdef cydriver.CUdeviceptr _copy_address(cydriver.CUmemorytype kind, cydriver.CUdeviceptr device,
                                        const void* host) noexcept:
    return <cydriver.CUdeviceptr><uintptr_t>host if kind == cydriver.CU_MEMORYTYPE_HOST else device


cdef int _device_id(object device) except -2:
    if device is None:
        device_id = current_device()
        return 0 if device_id < 0 else device_id
    return int(getattr(device, "device_id", device))


cdef object _memory_type(object memory_type):
    try:
        return GraphMemoryType(memory_type)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in GraphMemoryType)
        raise ValueError(f"{memory_type!r} is not a valid GraphMemoryType. Must be one of: {choices}") from None


def _kept_objects(list keepalive):
    """Each object a definition keeps, looking inside the nodes' records (recursively: an
    embedded child's records are objects of its child graph node's record)."""
    for entry in keepalive:
        if isinstance(entry, _Attachment):
            for value in entry.objects:
                if isinstance(value, _Attachment):
                    yield from _kept_objects([value])
                else:
                    yield value
        else:
            yield entry


cdef object _find_kernel(list keepalive, cydriver.CUkernel kern, cydriver.CUfunction func):
    """The Kernel a kernel node launches, among what its definition keeps (kernel nodes keep
    (kernel, args) pairs, a capture its kernels): by its CUkernel, or by its CUfunction in
    the current context. Failing that, a new Kernel over the CUkernel, which keeps the
    kernel's ObjectCode alive when cuda.core loaded it."""
    cdef cydriver.CUfunction function
    cdef cydriver.CUresult result
    for value in _kept_objects(keepalive):
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Kernel):
            kernel = <Kernel>value[0]
        elif isinstance(value, Kernel):
            kernel = <Kernel>value
        else:
            continue
        if kern != NULL and kernel._kernel == kern:
            return kernel
        if kern == NULL and func != NULL:
            with nogil:
                result = cydriver.cuKernelGetFunction(&function, kernel._kernel)
            if result == cydriver.CUDA_SUCCESS and function == func:
                return kernel
    if kern != NULL:
        return Kernel.from_handle(<uintptr_t>kern)
    return None


cdef object _find_event(list keepalive, cydriver.CUevent handle):
    """The Event among ``keepalive`` with that handle, or None."""
    for value in _kept_objects(keepalive):
        if isinstance(value, Event) and (<Event>value)._handle == handle:
            return value
    return None


# ---------------------------------------------------------------------------------------
# Node kinds
# ---------------------------------------------------------------------------------------

cdef str _kind_letter(cydriver.CUdeviceptr address):
    return "H" if _memory_kind(address) == cydriver.CU_MEMORYTYPE_HOST else "D"


cdef object _event_address(object event):
    return 0 if event is None else int(event.handle)


cdef object _condition_value(object condition):
    return 0 if condition is None else int(condition.handle)


cdef class EmptyNode(GraphNode):
    """An empty node: it only orders its predecessors before its successors."""

    def __repr__(self) -> str:
        return f"<EmptyNode handle=0x{self._address:x}>"


cdef class KernelNode(GraphNode):
    """A kernel launch node: ``grid``, ``block``, ``shmem_size``, ``kernel`` and ``config``."""

    def __repr__(self) -> str:
        # The C field, not Kernel.handle: reading that marks the kernel's library as a client's.
        cdef size_t kernel = 0 if self._kernel is None else <size_t>(<Kernel>self._kernel)._kernel
        return f"<KernelNode handle=0x{self._address:x} kernel=0x{kernel:x}>"

    cdef int _set(self, LaunchConfig config, Kernel kernel, tuple args) except -1:
        self._grid = (config.dims[0], config.dims[1], config.dims[2])
        self._block = (config.dims[3], config.dims[4], config.dims[5])
        self._shmem_size = config._shmem_size
        self._kernel = kernel
        self._config = config
        self._args = args
        return 0

    def update(self, *, config=None, kernel=None, args=None) -> None:
        """Replace some of the launch's parameters; those not given stay.

        A new ``kernel`` needs its ``args`` (``args=()`` for none). Clustered and
        cooperative configurations are not supported. Beware of arguments that own the
        graph: such a reference cycle is never collected.
        """
        if kernel is not None and args is None:
            raise ValueError("a new kernel needs its args: pass args=(...) (args=() for a kernel without parameters)")
        config = self.config if config is None else config
        kernel = self._kernel if kernel is None else kernel
        args = self._args if args is None else tuple(args)
        if kernel is None or args is None:
            raise ValueError("this node was rebuilt from the driver without its kernel or arguments: pass both "
                             "kernel= and args=")
        _check_launch(config, kernel)
        cdef cydriver.CUgraphNode node = self._live()
        cdef cydriver.CUDA_KERNEL_NODE_PARAMS params
        cdef PackedArgs packed
        try:
            _fill_kernel(&params, <LaunchConfig>config, <Kernel>kernel, <tuple>args, &packed)
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphKernelNodeSetParams(node, &params))
        finally:
            release_arguments(&packed)
        keep_for(self, [(kernel, args)], ())
        self._set(<LaunchConfig>config, <Kernel>kernel, <tuple>args)

    @property
    def grid(self) -> tuple:
        """Grid dimensions, in blocks (gridDimX, gridDimY, gridDimZ)."""
        return self._grid

    @property
    def block(self) -> tuple:
        """Block dimensions, in threads (blockDimX, blockDimY, blockDimZ)."""
        return self._block

    @property
    def shmem_size(self) -> int:
        """Dynamic shared memory size in bytes."""
        return self._shmem_size

    @property
    def kernel(self):
        """The Kernel this node launches (None if it cannot be found again)."""
        return self._kernel

    @property
    def config(self):
        """The LaunchConfig of the launch (rebuilt from grid, block and shmem_size when the
        node was not made here: clusters and cooperation are not kept by the driver)."""
        if self._config is None:
            self._config = LaunchConfig(grid=self._grid, block=self._block, shmem_size=self._shmem_size)
        return self._config


cdef class AllocNode(GraphNode):
    """A memory allocation node: ``dptr``, ``bytesize``, ``device_id``, ``memory_type`` and
    ``peer_access``."""

    def __repr__(self) -> str:
        return f"<AllocNode handle=0x{self._address:x} dptr=0x{<uintptr_t>self._dptr:x} size={self._bytesize}>"

    @property
    def dptr(self) -> int:
        """The address of the allocation."""
        return <uintptr_t>self._dptr

    @property
    def bytesize(self) -> int:
        """The number of bytes allocated."""
        return self._bytesize

    @property
    def device_id(self) -> int:
        """The device of the allocation."""
        return self._device_id

    @property
    def memory_type(self) -> str:
        """The kind of memory: ``"device"``, ``"host"`` or ``"managed"``."""
        return self._memory_type

    @property
    def peer_access(self) -> tuple:
        """The other devices with read-write access to the allocation."""
        return self._peer_access


cdef class FreeNode(GraphNode):
    """A memory free node: ``dptr``."""

    def __repr__(self) -> str:
        return f"<FreeNode handle=0x{self._address:x} dptr=0x{<uintptr_t>self._dptr:x}>"

    @property
    def dptr(self) -> int:
        """The address freed."""
        return <uintptr_t>self._dptr


cdef class MemsetNode(GraphNode):
    """A memset node: ``dptr``, ``value``, ``element_size``, ``width``, ``height``, ``pitch``."""

    def __repr__(self) -> str:
        return f"<MemsetNode handle=0x{self._address:x} dptr=0x{<uintptr_t>self._dptr:x} value={self._value}>"

    cdef int _set(self, cydriver.CUDA_MEMSET_NODE_PARAMS* params) except -1:
        self._dptr = params.dst
        self._value = params.value
        self._element_size = params.elementSize
        self._width = params.width
        self._height = params.height
        self._pitch = params.pitch
        return 0

    def update(self, *, dst=None, value=None, width=None, height=None, pitch=None, dst_owner=None) -> None:
        """Replace some of the memset's parameters; those not given stay. ``dst_owner`` goes
        only with a raw-address ``dst``.

        Before CUDA 13.2, the node's CUDA context must be current. Beware of owners that own
        the graph: such a reference cycle is never collected.
        """
        cdef cydriver.CUgraphNode node = self._live()
        cdef list keep = []
        cdef cydriver.CUdeviceptr address = self._dptr
        cdef cydriver.CUDA_MEMSET_NODE_PARAMS params
        if dst is not None:
            address = _operand(dst, dst_owner, "dst", keep)
        elif dst_owner is not None:
            raise ValueError("dst_owner goes with a new raw-address dst")
        if value is None:
            value = self._value.to_bytes(self._element_size, 'little') if self._element_size != 1 else self._value
        _fill_memset(&params, address, value, self._width if width is None else width,
                     self._height if height is None else height, self._pitch if pitch is None else pitch)
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphMemsetNodeSetParams(node, &params))
        keep_for(self, keep, ())
        self._set(&params)

    @property
    def dptr(self) -> int:
        """The destination address."""
        return <uintptr_t>self._dptr

    @property
    def value(self) -> int:
        """The fill value (an element, read little-endian)."""
        return self._value

    @property
    def element_size(self) -> int:
        """The element size in bytes (1, 2 or 4)."""
        return self._element_size

    @property
    def width(self) -> int:
        """The width of a row, in elements."""
        return self._width

    @property
    def height(self) -> int:
        """The number of rows."""
        return self._height

    @property
    def pitch(self) -> int:
        """The bytes from one row to the next (unused when height is 1)."""
        return self._pitch


cdef class MemcpyNode(GraphNode):
    """A memcpy node: ``dst``, ``src`` and ``size``."""

    def __repr__(self) -> str:
        # D or H: device or host memory, as the driver knows the address now.
        return (f"<MemcpyNode handle=0x{self._address:x} dst=0x{<uintptr_t>self._dst:x}({_kind_letter(self._dst)}) "
                f"src=0x{<uintptr_t>self._src:x}({_kind_letter(self._src)}) size={self._size}>")

    def update(self, *, dst=None, src=None, size=None, dst_owner=None, src_owner=None) -> None:
        """Replace some of the copy's parameters; those not given stay. Each owner goes only
        with a new raw-address operand. Only one-dimensional copies are supported.

        Before CUDA 13.2, the node's CUDA context must be current. Beware of owners that own
        the graph: such a reference cycle is never collected.
        """
        cdef cydriver.CUgraphNode node = self._live()
        cdef list keep = []
        cdef cydriver.CUdeviceptr dst_address = self._dst
        cdef cydriver.CUdeviceptr src_address = self._src
        cdef size_t nbytes = self._size if size is None else size
        cdef cydriver.CUDA_MEMCPY3D params
        if dst is not None:
            dst_address = _operand(dst, dst_owner, "dst", keep)
        elif dst_owner is not None:
            raise ValueError("dst_owner goes with a new raw-address dst")
        if src is not None:
            src_address = _operand(src, src_owner, "src", keep)
        elif src_owner is not None:
            raise ValueError("src_owner goes with a new raw-address src")
        _fill_memcpy(&params, dst_address, src_address, nbytes)
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphMemcpyNodeSetParams(node, &params))
        keep_for(self, keep, ())
        self._dst, self._src, self._size = dst_address, src_address, nbytes

    @property
    def dst(self) -> int:
        """The destination address."""
        return <uintptr_t>self._dst

    @property
    def src(self) -> int:
        """The source address."""
        return <uintptr_t>self._src

    @property
    def size(self) -> int:
        """The number of bytes copied."""
        return self._size


cdef class ChildGraphNode(GraphNode):
    """A child graph node: ``child_graph``, a view of the embedded clone."""

    def __repr__(self) -> str:
        return f"<ChildGraphNode handle=0x{self._address:x} child=0x{int(self.child_graph.handle):x}>"

    def update(self, child) -> None:
        """Embed a clone of ``child`` instead (of an independent graph hierarchy)."""
        if not isinstance(child, GraphDefinition):
            raise TypeError(f"child must be a GraphDefinition, not {type(child).__name__}")
        cdef cydriver.CUgraphNode node = self._live()
        cdef cydriver.CUgraphNodeParams params
        c_memset(&params, 0, sizeof(params))
        params.type = cydriver.CU_GRAPH_NODE_TYPE_GRAPH
        params.graph.graph = (<GraphDefinition>child)._live()
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphNodeSetParams(node, &params))
        # The records of the clone replaced are not the new clone's: they are kept, inert,
        # until the node goes (as a record of its own), and the new child's are carried over.
        cdef GraphDefinition definition = self._definition
        cdef list replaced = detach_owned(definition._keepalive, self._address)
        keep_for_clone(definition._graph, node, definition._keepalive, (<GraphDefinition>child)._keepalive,
                       params.graph.graph)
        keep_for(self, replaced, ())
        self._child = None

    @property
    def child_graph(self) -> GraphDefinition:
        """The embedded graph, as a definition valid while this node is."""
        cdef cydriver.CUgraphNode node
        cdef cydriver.CUgraph graph = NULL
        if self._child is None:
            node = self._live()
            with nogil:
                HANDLE_RETURN(cydriver.cuGraphChildGraphNodeGetGraph(node, &graph))
            self._child = wrap_graph(graph, self)
        return self._child


cdef class _EventNode(GraphNode):
    """What EventRecordNode and EventWaitNode share: their Event, kept alive by the definition,
    and its update."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} handle=0x{self._address:x} event=0x{_event_address(self._event):x}>"

    def update(self, event) -> None:
        """Record (or wait on) ``event`` (kept alive) instead."""
        cdef cydriver.CUgraphNode node = self._live()
        cdef cydriver.CUevent handle = _event_handle(event)
        cdef bint record = isinstance(self, EventRecordNode)
        with nogil:
            if record:
                HANDLE_RETURN(cydriver.cuGraphEventRecordNodeSetEvent(node, handle))
            else:
                HANDLE_RETURN(cydriver.cuGraphEventWaitNodeSetEvent(node, handle))
        keep_for(self, [event], ())
        self._event = event

    @property
    def event(self):
        """The Event recorded (or waited on)."""
        return self._event


cdef class EventRecordNode(_EventNode):
    """An event record node: ``event``."""


cdef class EventWaitNode(_EventNode):
    """An event wait node: ``event``."""


cdef class HostCallbackNode(GraphNode):
    """A host callback node: ``callback``, the Python callable (None for a ctypes function)."""

    def __repr__(self) -> str:
        name = "cfunc" if self._callable is None else getattr(self._callable, "__name__", type(self._callable).__name__)
        return f"<HostCallbackNode handle=0x{self._address:x} callback={name}>"

    def __dealloc__(self):
        # The callable goes on the main thread, as what the graph keeps does (a node dropped by
        # another thread may hold the last reference to it once the graph let go).
        _held = pass_to_main_thread(self._callable)  # None off the main thread
        self._callable = None

    def update(self, fn, *, user_data=None) -> None:
        """Call ``fn`` instead, as :meth:`GraphNode.callback` takes it (a Python callable, or a
        ctypes ``CFUNCTYPE(None, c_void_p)`` with ``user_data``). Callbacks must not call CUDA.
        """
        cdef cydriver.CUgraphNode node = self._live()
        cdef list keep = []
        cdef cydriver.CUDA_HOST_NODE_PARAMS params
        resolve_host_callback(fn, user_data, &params.fn, &params.userData, keep)
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphHostNodeSetParams(node, &params))
        keep_for(self, keep, ())
        self._callable = fn if is_python_trampoline(params.fn) else None

    @property
    def callback(self):
        """The Python callable, or None for a ctypes function pointer."""
        return self._callable


cdef class ConditionalNode(GraphNode):
    """A conditional node: ``condition``, ``cond_type`` and its ``branches``.

    The builder methods return its kinds (IfNode, IfElseNode, WhileNode, SwitchNode); a
    conditional node met only in a traversal is this base, without condition, type or
    branches (the driver reports them only from CUDA 13.2).
    """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} handle=0x{self._address:x} condition=0x{_condition_value(self._condition):x}>"

    @property
    def condition(self):
        """The GraphCondition that steers the node (None when unknown)."""
        return self._condition

    @property
    def cond_type(self):
        """GraphConditionalType.IF, WHILE or SWITCH (None when unknown)."""
        return self._cond_type

    @property
    def branches(self) -> tuple:
        """The branch graphs, as GraphDefinitions (empty when unknown)."""
        return self._branches if self._branches is not None else ()


cdef class IfNode(ConditionalNode):
    """An if node: ``then`` runs when the condition is non-zero."""

    @property
    def then(self) -> GraphDefinition:
        """The graph run when the condition is non-zero."""
        return self._branches[0]


cdef class IfElseNode(ConditionalNode):
    """An if-else node: ``then`` runs when the condition is non-zero, ``else_`` otherwise."""

    @property
    def then(self) -> GraphDefinition:
        """The graph run when the condition is non-zero."""
        return self._branches[0]

    @property
    def else_(self) -> GraphDefinition:
        """The graph run when the condition is zero."""
        return self._branches[1]


cdef class WhileNode(ConditionalNode):
    """A while node: ``body`` runs again and again while the condition is non-zero."""

    @property
    def body(self) -> GraphDefinition:
        """The loop's body graph."""
        return self._branches[0]


cdef class SwitchNode(ConditionalNode):
    """A switch node: the branch numbered by the condition runs (none when out of range)."""


cdef cydriver.CUevent _event_handle(object event) except? NULL:
    if not isinstance(event, Event):
        raise TypeError(f"event must be an Event, not {type(event).__name__}")
    return (<Event>event)._live_handle()


# ---------------------------------------------------------------------------------------
# Adding nodes (GraphNode's builder methods call these)
# ---------------------------------------------------------------------------------------

def _add_empty(GraphNode parent, tuple nodes):
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, nodes, deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddEmptyNode(&handle, graph, deps.data(), deps.size()))
    cdef EmptyNode node = EmptyNode.__new__(EmptyNode)
    attach_node(node, definition, handle)
    return node


def _add_kernel(GraphNode parent, config, kernel, tuple args):
    _check_launch(config, kernel)
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    cdef cydriver.CUDA_KERNEL_NODE_PARAMS params
    cdef PackedArgs packed
    _dependencies(parent, (), deps)
    try:
        _fill_kernel(&params, <LaunchConfig>config, <Kernel>kernel, args, &packed)
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphAddKernelNode(&handle, graph, deps.data(), deps.size(), &params))
    finally:
        release_arguments(&packed)
    cdef KernelNode node = KernelNode.__new__(KernelNode)
    attach_node(node, definition, handle)
    # The kernel keeps its ObjectCode (the library) alive; the arguments may own memory.
    keep_for(node, [(kernel, args)], ())
    node._set(<LaunchConfig>config, <Kernel>kernel, args)
    return node


def _add_alloc(GraphNode parent, size, device, memory_type, peer_access):
    kind = _memory_type(memory_type)
    cdef int device_id = _device_id(device)
    cdef tuple peers = tuple(_device_id(peer) for peer in (peer_access or ()))
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef vector[cydriver.CUmemAccessDesc] access
    cdef cydriver.CUmemAccessDesc desc
    cdef cydriver.CUgraphNode handle = NULL
    cdef cydriver.CUDA_MEM_ALLOC_NODE_PARAMS params
    c_memset(&params, 0, sizeof(params))
    params.poolProps.allocType = cydriver.CU_MEM_ALLOCATION_TYPE_PINNED
    params.poolProps.location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE
    params.poolProps.location.id = device_id
    if kind == GraphMemoryType.HOST:
        params.poolProps.location.type = cydriver.CU_MEM_LOCATION_TYPE_HOST
        params.poolProps.location.id = 0
    elif kind == GraphMemoryType.MANAGED:
        if not COMPAT_HAS_MANAGED_POOLS:
            raise RuntimeError("managed graph allocations need CUDA 13 (this cuda.core is built for CUDA 12)")
        params.poolProps.allocType = compat_managed_allocation_type()
    for peer in peers:
        c_memset(&desc, 0, sizeof(desc))
        desc.location.type = cydriver.CU_MEM_LOCATION_TYPE_DEVICE
        desc.location.id = peer
        desc.flags = cydriver.CU_MEM_ACCESS_FLAGS_PROT_READWRITE
        access.push_back(desc)
    params.accessDescs = access.data()
    params.accessDescCount = access.size()
    params.bytesize = size
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddMemAllocNode(&handle, graph, deps.data(), deps.size(), &params))
    cdef AllocNode node = AllocNode.__new__(AllocNode)
    attach_node(node, definition, handle)
    node._dptr = params.dptr
    node._bytesize = params.bytesize
    node._device_id = device_id
    node._memory_type = str(kind.value)
    node._peer_access = peers
    return node


def _add_free(GraphNode parent, dptr):
    cdef cydriver.CUdeviceptr address = pointer_value(dptr)
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddMemFreeNode(&handle, graph, deps.data(), deps.size(), address))
    cdef FreeNode node = FreeNode.__new__(FreeNode)
    attach_node(node, definition, handle)
    node._dptr = address
    return node


def _add_memset(GraphNode parent, dst, value, width, height, pitch, dst_owner):
    cdef list keep = []
    cdef cydriver.CUDA_MEMSET_NODE_PARAMS params
    _fill_memset(&params, _operand(dst, dst_owner, "dst", keep), value, width, height, pitch)
    cdef cydriver.CUcontext context = _current_context()
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddMemsetNode(&handle, graph, deps.data(), deps.size(), &params, context))
    cdef MemsetNode node = MemsetNode.__new__(MemsetNode)
    attach_node(node, definition, handle)
    keep_for(node, keep, ())
    node._set(&params)
    return node


def _add_memcpy(GraphNode parent, dst, src, size, dst_owner, src_owner):
    cdef list keep = []
    cdef cydriver.CUdeviceptr dst_address = _operand(dst, dst_owner, "dst", keep)
    cdef cydriver.CUdeviceptr src_address = _operand(src, src_owner, "src", keep)
    cdef size_t nbytes = size
    cdef cydriver.CUDA_MEMCPY3D params
    _fill_memcpy(&params, dst_address, src_address, nbytes)
    cdef cydriver.CUcontext context = _current_context()
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddMemcpyNode(&handle, graph, deps.data(), deps.size(), &params, context))
    cdef MemcpyNode node = MemcpyNode.__new__(MemcpyNode)
    attach_node(node, definition, handle)
    keep_for(node, keep, ())
    node._dst, node._src, node._size = dst_address, src_address, nbytes
    return node


def _add_child(GraphNode parent, child):
    if not isinstance(child, GraphDefinition):
        raise TypeError(f"child must be a GraphDefinition, not {type(child).__name__}")
    cdef cydriver.CUgraph child_graph = (<GraphDefinition>child)._live()
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddChildGraphNode(&handle, graph, deps.data(), deps.size(), child_graph))
    cdef ChildGraphNode node = ChildGraphNode.__new__(ChildGraphNode)
    attach_node(node, definition, handle)
    # The embedded clone needs what the child's nodes need: its nodes get records of their own.
    keep_for_clone(graph, handle, definition._keepalive, (<GraphDefinition>child)._keepalive, child_graph)
    return node


def _add_event(GraphNode parent, event, bint record):
    cdef cydriver.CUevent event_handle = _event_handle(event)
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        if record:
            HANDLE_RETURN(cydriver.cuGraphAddEventRecordNode(&handle, graph, deps.data(), deps.size(), event_handle))
        else:
            HANDLE_RETURN(cydriver.cuGraphAddEventWaitNode(&handle, graph, deps.data(), deps.size(), event_handle))
    cdef _EventNode node = EventRecordNode.__new__(EventRecordNode) if record else EventWaitNode.__new__(EventWaitNode)
    attach_node(node, definition, handle)
    keep_for(node, [event], ())
    node._event = event
    return node


def _add_callback(GraphNode parent, fn, user_data):
    cdef list keep = []
    cdef cydriver.CUDA_HOST_NODE_PARAMS params
    resolve_host_callback(fn, user_data, &params.fn, &params.userData, keep)
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef cydriver.CUgraphNode handle = NULL
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(cydriver.cuGraphAddHostNode(&handle, graph, deps.data(), deps.size(), &params))
    cdef HostCallbackNode node = HostCallbackNode.__new__(HostCallbackNode)
    attach_node(node, definition, handle)
    keep_for(node, keep, ())
    node._callable = fn if is_python_trampoline(params.fn) else None
    return node


def _add_conditional(GraphNode parent, condition, str kind, count):
    if not isinstance(condition, GraphCondition):
        raise TypeError(f"condition must be a GraphCondition (from create_condition()), not {type(condition).__name__}")
    cdef unsigned int size = count
    cdef GraphDefinition definition = parent._definition
    cdef cydriver.CUgraph graph = definition._live()
    cdef vector[cydriver.CUgraphNode] deps
    cdef const cydriver.CUgraph* bodies = NULL
    cdef cydriver.CUgraphNode handle = NULL
    cdef cydriver.CUgraphNodeParams params
    c_memset(&params, 0, sizeof(params))
    params.type = cydriver.CU_GRAPH_NODE_TYPE_CONDITIONAL
    params.conditional.handle = (<GraphCondition>condition)._handle
    params.conditional.size = size  # 0 branches: the driver's error says so
    if kind == "while":
        params.conditional.type = cydriver.CU_GRAPH_COND_TYPE_WHILE
        node = WhileNode.__new__(WhileNode)
    elif kind == "switch":
        params.conditional.type = cydriver.CU_GRAPH_COND_TYPE_SWITCH
        node = SwitchNode.__new__(SwitchNode)
    else:
        params.conditional.type = cydriver.CU_GRAPH_COND_TYPE_IF
        node = IfElseNode.__new__(IfElseNode) if size == 2 else IfNode.__new__(IfNode)
    params.conditional.ctx = _current_context()
    _dependencies(parent, (), deps)
    with nogil:
        HANDLE_RETURN(compat_graph_add_node(&handle, graph, deps.data(), deps.size(), &params))
    # The driver points phGraph_out at its own array of the bodies, valid as long as the node.
    bodies = params.conditional.phGraph_out
    attach_node(node, definition, handle)
    (<ConditionalNode>node)._condition = condition
    (<ConditionalNode>node)._cond_type = GraphConditionalType(kind)
    (<ConditionalNode>node)._branches = tuple(wrap_graph(bodies[i], node) for i in range(size))
    # The branches' nodes keep their attachments as long as the node.
    keep_for(node, [], tuple(<uintptr_t>bodies[i] for i in range(size)))
    return node


# ---------------------------------------------------------------------------------------
# Rebuilding a node from the driver (a traversal met a node whose Python object is gone;
# compiled here, written beside: see the file)
# ---------------------------------------------------------------------------------------

include "source/graph/_node_readers.pxi"


# ---------------------------------------------------------------------------------------
# Executable-node views: graph[node] (compiled here, written beside: see the file)
# ---------------------------------------------------------------------------------------

include "source/graph/_executable_nodes.pxi"
