# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""GraphNode: a node of a graph definition, its edges, and the methods that add nodes after it.

Each driver node has at most one Python object, found through ``_node_registry`` (address ->
node, weakly held), so traversals (nodes(), edges(), pred, succ) give back the objects the
builder methods returned, with what they know (kernel, event, callback...). The node kinds
live in ``_subclasses``, which subclasses GraphNode; the methods here call into it through
its Python module, imported on first use (a cimport would make the two modules' types
depend on each other at import time).
"""

import atexit
import os
import threading
import weakref

cimport cuda.bindings.cydriver as cydriver
from cpython.pythread cimport PyThread_get_thread_ident
from cpython.ref cimport Py_DECREF, Py_INCREF
from libc.stdint cimport uintptr_t

from cuda.core._memory._buffer cimport Buffer, _AllocationHold
from cuda.core._utils.cuda_utils cimport HANDLE_RETURN
from cuda.core.graph._graph_definition cimport GraphDefinition

from cuda.core._utils.cuda_utils import driver
from cuda.core.graph._adjacency_set_proxy import AdjacencySetProxy
from cuda.core.typing import GraphMemoryType

__all__ = ['GraphNode']

# CUgraphNode address -> its Python object, while that object lives.
_node_registry = weakref.WeakValueDictionary()

cdef object _kinds = None


cdef object _subclasses():
    """The _subclasses module (imported on first use: it cimports this one)."""
    global _kinds
    if _kinds is None:
        from cuda.core.graph import _subclasses as module
        _kinds = module
    return _kinds


cdef class GraphNode:
    """A node of a graph definition.

    Nodes come from a GraphDefinition's methods (entry nodes, without dependencies) or from
    another node's methods (nodes that depend on it); ``pred`` and ``succ`` view and change
    the edges.
    """

    cdef bint _valid(self) except -1:
        return self._node != NULL and self._definition is not None and self._definition._valid()

    cdef cydriver.CUgraphNode _live(self) except NULL:
        if self._is_entry:
            raise RuntimeError("the entry node of a GraphDefinition is virtual: it has no driver node")
        if self._node == NULL:
            raise RuntimeError("GraphNode has been destroyed")
        if not self._definition._valid():
            raise RuntimeError("GraphNode belongs to a GraphDefinition that is no longer valid")
        return self._node

    def __repr__(self) -> str:
        if self._is_entry:
            return "<GraphNode entry>"
        state = "" if self._valid() else " (destroyed)"
        return f"<{type(self).__name__} handle=0x{self._address:x}{state}>"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GraphNode):
            return NotImplemented
        return self._address != 0 and self._address == (<GraphNode>other)._address

    def __hash__(self) -> int:
        if self._address == 0:
            return hash(id(self))
        return hash((GraphNode, self._address))

    @property
    def type(self) -> driver.CUgraphNodeType | None:
        """The driver's CUgraphNodeType of the node; None for the entry node and once destroyed."""
        cdef cydriver.CUgraphNodeType kind
        if not self._valid():
            return None
        with nogil:
            HANDLE_RETURN(cydriver.cuGraphNodeGetType(self._node, &kind))
        return driver.CUgraphNodeType(<int>kind)

    @property
    def graph(self) -> GraphDefinition:
        """The GraphDefinition this node belongs to."""
        return self._definition

    @property
    def handle(self) -> driver.CUgraphNode:
        """The driver's CUgraphNode; None for the entry node and once destroyed."""
        if not self._valid():
            return None
        return driver.CUgraphNode(<uintptr_t>self._node)

    @property
    def is_valid(self) -> bool:
        """Whether this node and its graph definition remain valid (False after destroy())."""
        return self._valid()

    def destroy(self) -> None:
        """Remove this node and its edges from the graph; a no-op when already destroyed.

        The node cannot be used in a graph afterwards. When the driver refuses (e.g. a node
        that a graph memory node depends on), the error is raised and the node stays.
        """
        if not self._valid():
            return
        cdef cydriver.CUgraphNode node = self._node
        cdef list inner = _inner_user_objects(self._definition._keepalive, self._address)
        _hand_over(inner, True)
        cdef cydriver.CUresult status
        with nogil:
            status = cydriver.cuGraphDestroyNode(node)
        if status != cydriver.CUDA_SUCCESS:
            _hand_over(inner, False)
            HANDLE_RETURN(status)
        _drop(inner)
        self._node = NULL
        if _node_registry.get(self._address) is self:
            del _node_registry[self._address]
        _release_for(self._definition._keepalive, self._address)

    @property
    def pred(self) -> AdjacencySetProxy:
        """A mutable set-like view of this node's predecessors; changing it changes the edges."""
        return AdjacencySetProxy(self, False)

    @pred.setter
    def pred(self, value) -> None:
        _replace(AdjacencySetProxy(self, False), value)

    @property
    def succ(self) -> AdjacencySetProxy:
        """A mutable set-like view of this node's successors; changing it changes the edges."""
        return AdjacencySetProxy(self, True)

    @succ.setter
    def succ(self, value) -> None:
        _replace(AdjacencySetProxy(self, True), value)

    def launch(self, config, kernel, *args):
        """Add a kernel launch node depending on this node and return it (a KernelNode).

        ``config`` (a LaunchConfig; clusters and cooperative launches are not supported in
        graph nodes), ``kernel`` (a Kernel) and ``args`` are as for ``cuda.core.launch``. The
        graph keeps the kernel and the arguments alive. Beware of arguments that own the
        graph: such a reference cycle is never collected.
        """
        return _subclasses()._add_kernel(self, config, kernel, args)

    def join(self, *nodes: GraphNode):
        """Add an empty node depending on this node and on ``nodes`` (to join branches) and
        return it (an EmptyNode)."""
        return _subclasses()._add_empty(self, nodes)

    def allocate(self, size: int, *, device=None, memory_type=GraphMemoryType.DEVICE, peer_access=None):
        """Add a memory allocation node depending on this node and return it (an AllocNode).

        ``size``: bytes to allocate. ``device``: a Device or ordinal (None: the current
        context's device). ``memory_type``: a GraphMemoryType (or its string): ``device``,
        ``host`` (pinned) or ``managed``. ``peer_access``: devices (or ordinals) given
        read-write access too. The node's ``dptr`` is the address the allocation will have.
        """
        return _subclasses()._add_alloc(self, size, device, memory_type, peer_access)

    def deallocate(self, dptr: int):
        """Add a node freeing ``dptr`` (an AllocNode's dptr) depending on this node and
        return it (a FreeNode)."""
        return _subclasses()._add_free(self, dptr)

    def memset(self, dst, value, width: int, height: int = 1, pitch: int = 0, *, dst_owner=None):
        """Add a memset node depending on this node and return it (a MemsetNode).

        ``dst``: a Buffer (kept alive by the graph) or an address (``dst_owner``, if given,
        is kept alive for it; not allowed with a Buffer). ``value``: an int in [0, 256) for
        bytes, or a bytes-like object of 1, 2 or 4 bytes, the element to repeat. ``width``
        elements per row, ``height`` rows, ``pitch`` bytes between rows.
        """
        return _subclasses()._add_memset(self, dst, value, width, height, pitch, dst_owner)

    def memcpy(self, dst, src, size: int, *, dst_owner=None, src_owner=None):
        """Add a node copying ``size`` bytes from ``src`` to ``dst`` depending on this node and
        return it (a MemcpyNode).

        Each operand is a Buffer (kept alive by the graph) or an address of device or pinned
        host memory (whose ``*_owner``, if given, is kept alive for it).
        """
        return _subclasses()._add_memcpy(self, dst, src, size, dst_owner, src_owner)

    def embed(self, child: GraphDefinition):
        """Add a child graph node (a clone of ``child``) depending on this node and return it
        (a ChildGraphNode). The child must not hold memory or conditional nodes."""
        return _subclasses()._add_child(self, child)

    def record(self, event):
        """Add a node recording ``event`` (an Event, kept alive) depending on this node and
        return it (an EventRecordNode)."""
        return _subclasses()._add_event(self, event, True)

    def wait(self, event):
        """Add a node waiting on ``event`` (an Event, kept alive) depending on this node and
        return it (an EventWaitNode)."""
        return _subclasses()._add_event(self, event, False)

    def callback(self, fn, *, user_data=None):
        """Add a host callback node depending on this node and return it (a HostCallbackNode).

        ``fn``: a Python callable taking no arguments (bind state with a closure or
        functools.partial; ``user_data`` must then be None), or a ctypes function pointer
        declared ``CFUNCTYPE(None, c_void_p)``, given ``user_data``: an int (a raw pointer)
        or a bytes-like object (copied, kept with the graph). The graph keeps ``fn`` alive.
        Callbacks must not call CUDA.
        """
        return _subclasses()._add_callback(self, fn, user_data)

    def if_then(self, condition):
        """Add an if node depending on this node and return it (an IfNode): its ``then``
        graph runs when ``condition`` is non-zero."""
        return _subclasses()._add_conditional(self, condition, "if", 1)

    def if_else(self, condition):
        """Add an if-else node depending on this node and return it (an IfElseNode): its
        ``then`` graph runs when ``condition`` is non-zero, its ``else_`` graph otherwise."""
        return _subclasses()._add_conditional(self, condition, "if", 2)

    def while_loop(self, condition):
        """Add a while node depending on this node and return it (a WhileNode): its ``body``
        graph runs again and again while ``condition`` is non-zero."""
        return _subclasses()._add_conditional(self, condition, "while", 1)

    def switch(self, condition, count: int):
        """Add a switch node of ``count`` branches depending on this node and return it (a
        SwitchNode): the branch numbered ``condition`` runs (none when out of range)."""
        return _subclasses()._add_conditional(self, condition, "switch", count)


cdef int _replace(object proxy, object value) except -1:
    """Make the edges of ``proxy`` exactly ``value`` (removing, then adding, only the difference)."""
    wanted = set(value)
    current = set(proxy)
    proxy -= current - wanted
    proxy |= wanted - current
    return 0


# ---------------------------------------------------------------------------------------
# Attachments held by the driver. A record is also a CUDA user object retained by its
# graph, so the driver keeps it alive in every clone and executable graph made from that
# graph (including ones made with raw driver calls), until the last is destroyed. The
# driver runs the destructor on any thread, possibly without the GIL: it only queues the
# record. What is queued is dropped by a drain on the main thread, and only there: a
# callback or any object a graph kept is finalized on the main thread, whichever thread let
# go of it. One drain at a time is in the interpreter's pending calls (Py_AddPendingCall);
# where that queue is full (it holds 32 in CPython 3.12), a helper thread retries until
# there is room, so nothing queued waits for a later cuda.core call. During interpreter
# shutdown (from the first atexit handler on) the references are left, not touched.

cdef extern from *:
    """
    #include <chrono>
    #include <condition_variable>
    #include <mutex>
    #include <thread>
    #include <vector>
    #include <Python.h>
    #ifndef _WIN32
    #include <unistd.h>
    #endif

    /* Never freed: the driver may run destructors while the interpreter shuts down. */
    struct cuda_core_release_queue {
        std::mutex lock;
        std::condition_variable wake;      /* the retry thread waits on it */
        std::vector<PyObject*> released;   /* references to drop on the main thread */
        bool drain_scheduled = false;      /* a drain is in the interpreter's pending calls,
                                              or the retry thread is putting one there */
        bool retry_wanted = false;
        bool stopping = false;             /* the interpreter is shutting down */
        long retry_thread_pid = 0;         /* the process the retry thread runs in (fork) */
        unsigned long retries = 0;         /* times the interpreter's queue was found full */
    };
    static cuda_core_release_queue* cuda_core_releases = new cuda_core_release_queue();

    static long cuda_core_process_id(void) {
    #ifdef _WIN32
        return 1;
    #else
        return (long)getpid();
    #endif
    }

    static int cuda_core_graph_is_finalizing(void) {
    #if PY_VERSION_HEX >= 0x030D0000
        return Py_IsFinalizing();
    #else
        return _Py_IsFinalizing();
    #endif
    }

    /* With the GIL, on the main thread: drop every queued reference. As the pending call it
       also ends the scheduled state, so a later release schedules the next drain. */
    static void cuda_core_graph_drop_queued(bool ends_schedule) {
        std::vector<PyObject*> batch;
        {
            std::lock_guard<std::mutex> guard(cuda_core_releases->lock);
            batch.swap(cuda_core_releases->released);
            if (ends_schedule) cuda_core_releases->drain_scheduled = false;
        }
        for (PyObject* object : batch) Py_DECREF(object);
    }

    static int cuda_core_graph_drain(void* unused) {
        cuda_core_graph_drop_queued(true);
        return 0;
    }

    /* The retry thread: puts the drain into the interpreter's pending calls once there is
       room (the main thread empties that queue as it runs Python). Called with no GIL and
       no thread state, which Py_AddPendingCall allows; always under the queue's lock, so
       that once the atexit handler has set ``stopping`` no call reaches the interpreter. */
    static void cuda_core_graph_retry_loop(void) {
        std::unique_lock<std::mutex> guard(cuda_core_releases->lock);
        int pause_us = 100;
        for (;;) {
            cuda_core_releases->wake.wait(guard, [] {
                return cuda_core_releases->retry_wanted || cuda_core_releases->stopping;
            });
            if (cuda_core_releases->stopping || cuda_core_graph_is_finalizing()) {
                cuda_core_releases->retry_wanted = false;
                return;
            }
            if (Py_AddPendingCall(cuda_core_graph_drain, NULL) == 0) {
                cuda_core_releases->retry_wanted = false;
                pause_us = 100;
                continue;
            }
            cuda_core_releases->retries++;
            cuda_core_releases->wake.wait_for(guard, std::chrono::microseconds(pause_us));
            if (pause_us < 10000) pause_us *= 2;
        }
    }

    /* Under the queue's lock: a drain into the interpreter's pending calls, or to the retry
       thread where that queue is full (started on first need, again after a fork). */
    static void cuda_core_graph_schedule_locked(void) {
        cuda_core_releases->drain_scheduled = true;
        if (Py_AddPendingCall(cuda_core_graph_drain, NULL) == 0) return;
        cuda_core_releases->retries++;
        cuda_core_releases->retry_wanted = true;
        if (cuda_core_releases->retry_thread_pid != cuda_core_process_id()) {
            try {
                std::thread(cuda_core_graph_retry_loop).detach();
                cuda_core_releases->retry_thread_pid = cuda_core_process_id();
            } catch (...) {
                /* No thread: the next release or cuda.core graph call on the main thread drains. */
                cuda_core_releases->retry_wanted = false;
                cuda_core_releases->drain_scheduled = false;
                return;
            }
        }
        cuda_core_releases->wake.notify_one();
    }

    /* Queue one reference (taken over from the caller) to be dropped on the main thread.
       Any thread, no GIL needed: the user objects' destructor (a CUhostFn) is this. */
    static void cuda_core_graph_release(void* object) {
        if (cuda_core_graph_is_finalizing()) return;
        std::lock_guard<std::mutex> guard(cuda_core_releases->lock);
        if (cuda_core_releases->stopping) return;
        cuda_core_releases->released.push_back((PyObject*)object);
        if (!cuda_core_releases->drain_scheduled) cuda_core_graph_schedule_locked();
    }

    /* The atexit handler: no drain is scheduled or retried from now on. */
    static void cuda_core_graph_stop_releases(void) {
        std::lock_guard<std::mutex> guard(cuda_core_releases->lock);
        cuda_core_releases->stopping = true;
        cuda_core_releases->retry_wanted = false;
        cuda_core_releases->wake.notify_all();
    }

    /* In the child after fork(): the parent's lock and condition variable may be held or
       waited on by threads the child does not have (a notify could then wait on, or wake,
       the parent's retry thread). A fresh queue takes over what was queued; the old one
       is left. */
    static void cuda_core_graph_after_fork_in_child(void) {
        cuda_core_release_queue* fresh = new cuda_core_release_queue();
        fresh->released.swap(cuda_core_releases->released);
        fresh->stopping = cuda_core_releases->stopping;
        cuda_core_releases = fresh;
        std::lock_guard<std::mutex> guard(fresh->lock);
        if (!fresh->released.empty() && !fresh->stopping) cuda_core_graph_schedule_locked();
    }

    static unsigned long cuda_core_graph_release_retries(void) {
        std::lock_guard<std::mutex> guard(cuda_core_releases->lock);
        return cuda_core_releases->retries;
    }

    static size_t cuda_core_graph_queued(void) {
        std::lock_guard<std::mutex> guard(cuda_core_releases->lock);
        return cuda_core_releases->released.size();
    }
    """
    void cuda_core_graph_drop_queued(bint ends_schedule) noexcept
    void cuda_core_graph_release(void* object) noexcept nogil
    void cuda_core_graph_stop_releases() noexcept nogil
    void cuda_core_graph_after_fork_in_child() noexcept nogil
    unsigned long cuda_core_graph_release_retries() noexcept nogil
    size_t cuda_core_graph_queued() noexcept nogil


class _Attachment:
    """What one node keeps alive (a record in its definition's _keepalive list): the graph
    and node it belongs to, the objects, the graphs the node owns, and the CUDA user object
    (an address, 0 for none) through which the graph holds the record."""

    __slots__ = ("graph", "node", "objects", "subgraphs", "user_object")

    def __init__(self, graph: int, node: int, objects: list, subgraphs: tuple) -> None:
        self.graph = graph
        self.node = node
        self.objects = objects
        self.subgraphs = subgraphs
        self.user_object = 0

    def __repr__(self) -> str:
        return f"<_Attachment node=0x{self.node:x} objects={len(self.objects)}>"


cdef int keep_for(GraphNode node, list objects, tuple subgraphs) except -1:
    return attach(node._definition._graph, node._node, node._definition._keepalive, objects, subgraphs)


cdef int attach(cydriver.CUgraph graph, cydriver.CUgraphNode node, list keepalive, list objects,
                tuple subgraphs) except -1:
    if not (objects or subgraphs):
        return 0
    objects = objects + _holds_of(objects)
    record = _Attachment(<uintptr_t>graph, <uintptr_t>node, objects, subgraphs)
    if objects:
        _retain_by_graph(graph, record)
    keepalive.append(record)
    return 0


cdef list _holds_of(list objects):
    """A hold on each Buffer among ``objects`` (and in the tuples there: a kernel's arguments),
    so the memory a node uses outlives Buffer.close() as long as some graph may run it."""
    cdef list holds = []
    for item in objects:
        if isinstance(item, Buffer):
            holds.append(_AllocationHold(item))
        elif type(item) is tuple:
            holds.extend(_holds_of(list(item)))
    return holds


cdef int drain_released_attachments() except -1:
    if _on_main_thread():  # elsewhere the drain scheduled for the main thread comes
        cuda_core_graph_drop_queued(False)
    return 0


cdef unsigned long _main_thread = threading.main_thread().ident


def _after_fork_in_child() -> None:
    """A fork from another thread makes that thread the child's main thread; the child gets a
    release queue of its own."""
    global _main_thread
    cuda_core_graph_after_fork_in_child()
    _main_thread = threading.main_thread().ident


def _stop_releases() -> None:
    """At interpreter exit: what is queued from now on is left, and no drain is scheduled."""
    cuda_core_graph_stop_releases()


os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(_stop_releases)


cdef inline bint _on_main_thread() noexcept:
    return PyThread_get_thread_ident() == _main_thread


cdef object pass_to_main_thread(object references):
    """On the main thread: ``references``. On any other: the release queue takes a reference
    to it, for a drain on the main thread, and the result is None.

    A holder letting go of what a graph keeps alive (its list of records, records taken out
    of one) assigns the result over its own reference, with the GIL held, before any driver
    call that releases the GIL: off the main thread the queue's reference is then the last
    one, and the objects go on the main thread. (Dropping its own reference after such a
    call lost that race: the driver's release of the records' user objects could be drained
    on the main thread meanwhile, and the thread's own reference was then the last.)"""
    if references is None or _on_main_thread():
        return references
    Py_INCREF(references)  # the queue's reference, dropped by a drain on the main thread
    cuda_core_graph_release(<void*>references)
    return None


def _release_from_this_thread_for_testing(list held) -> None:
    """Queue the last item of ``held`` as the driver's user-object destructor does: from the
    calling thread, without the GIL, and with the queue's reference the only one (the caller
    keeps none, so the item is finalized wherever the queue lets go of it). For tests of the
    release queue without a GPU."""
    item = held.pop()
    cdef void* reference = <void*>item
    Py_INCREF(item)  # the queue's reference; the local one goes before the release
    item = None
    with nogil:
        cuda_core_graph_release(reference)


def _release_queue_state() -> tuple:
    """(references queued now, times the interpreter's pending-call queue was found full),
    for tests and diagnosis."""
    return cuda_core_graph_queued(), cuda_core_graph_release_retries()


cdef int _retain_by_graph(cydriver.CUgraph graph, object record) except -1:
    """Make ``graph`` hold ``record`` through a CUDA user object (one reference, moved to it).
    Where the driver refuses, the definition's own list still keeps the record alive for all
    that cuda.core makes from the graph; only raw driver clones then go without it."""
    drain_released_attachments()  # on the main thread: what is queued goes now
    cdef cydriver.CUuserObject user_object = NULL
    cdef cydriver.CUresult status
    Py_INCREF(record)  # the user object's reference, dropped by its destructor
    with nogil:
        status = cydriver.cuUserObjectCreate(&user_object, <void*>record, <cydriver.CUhostFn>cuda_core_graph_release,
                                             1, cydriver.CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
    if status != cydriver.CUDA_SUCCESS:
        Py_DECREF(record)
        return 0
    with nogil:
        status = cydriver.cuGraphRetainUserObject(graph, user_object, 1, cydriver.CU_GRAPH_USER_OBJECT_MOVE)
    if status != cydriver.CUDA_SUCCESS:
        with nogil:
            cydriver.cuUserObjectRelease(user_object, 1)  # its destructor queues the reference's drop
        return 0
    record.user_object = <uintptr_t>user_object
    return 0


# ---------------------------------------------------------------------------------------
# Embedded clones. Adding a child graph node clones the child graph, and the clone holds a
# reference to each user object the child's graphs held (the driver copies them, nested
# child graphs included). Each record of the child's nodes is carried over as a record of
# the node's counterpart in the clone, naming the same user object: destroying that clone
# node then releases the clone's own reference, and nothing else's.

cdef int keep_for_clone(cydriver.CUgraph graph, cydriver.CUgraphNode node, list keepalive, list source,
                        cydriver.CUgraph source_graph) except -1:
    cdef cydriver.CUgraph clone = _embedded_graph(node)
    cdef list snapshot = list(source)  # ``source`` may be ``keepalive`` itself
    cdef list imported = []
    cdef set carried = set()
    if clone != NULL:
        _import_records(snapshot, <uintptr_t>source_graph, clone, imported, carried)
    # What was not carried over (records whose node was not found in the clone, others'
    # records, plain objects) stays with the child graph node, as before clones had records.
    cdef list rest = [entry for entry in snapshot if not (isinstance(entry, _Attachment) and entry in carried)]
    keepalive.extend(imported)
    return attach(graph, node, keepalive, rest, (<uintptr_t>clone,) if clone != NULL else ())


cdef int _import_records(list source, uintptr_t graph, cydriver.CUgraph clone, list imported,
                         set carried) except -1:
    """Records for ``clone``'s nodes (into ``imported``) from those of ``graph``'s nodes in
    ``source`` (added to ``carried``), and recursively for the graphs embedded in both."""
    cdef cydriver.CUgraphNode counterpart
    cdef cydriver.CUgraph inner
    for entry in source:
        if not isinstance(entry, _Attachment) or entry.graph != graph or entry in carried:
            continue
        counterpart = _find_in_clone(<cydriver.CUgraphNode><uintptr_t>entry.node, clone)
        if counterpart == NULL:
            continue
        inner = NULL
        if entry.subgraphs:
            inner = _embedded_graph(counterpart)
            if inner == NULL or len(entry.subgraphs) != 1:
                continue  # a node owning graphs this one cannot follow: it stays with the owner
        record = _Attachment(<uintptr_t>clone, <uintptr_t>counterpart, entry.objects,
                             (<uintptr_t>inner,) if inner != NULL else ())
        record.user_object = entry.user_object  # the clone holds its own reference to it
        imported.append(record)
        carried.add(entry)
        if inner != NULL:
            _import_records(source, entry.subgraphs[0], inner, imported, carried)
    return 0


cdef cydriver.CUgraphNode _find_in_clone(cydriver.CUgraphNode original, cydriver.CUgraph clone) noexcept:
    """The counterpart of ``original`` in ``clone``, or NULL when the driver finds none."""
    cdef cydriver.CUgraphNode found = NULL
    with nogil:
        if cydriver.cuGraphNodeFindInClone(&found, original, clone) != cydriver.CUDA_SUCCESS:
            found = NULL
    return found


cdef cydriver.CUgraph _embedded_graph(cydriver.CUgraphNode node) noexcept:
    """The graph a child graph node embeds; NULL for another kind of node."""
    cdef cydriver.CUgraphNodeType kind
    cdef cydriver.CUgraph graph = NULL
    with nogil:
        if cydriver.cuGraphNodeGetType(node, &kind) != cydriver.CUDA_SUCCESS \
                or kind != cydriver.CU_GRAPH_NODE_TYPE_GRAPH \
                or cydriver.cuGraphChildGraphNodeGetGraph(node, &graph) != cydriver.CUDA_SUCCESS:
            graph = NULL
    return graph


cdef list detach_owned(list keepalive, size_t address):
    cdef set removed = _owned_records(keepalive, address)
    if removed:
        keepalive[:] = [entry for entry in keepalive if not (isinstance(entry, _Attachment) and entry in removed)]
    for entry in keepalive:
        if isinstance(entry, _Attachment) and entry.node == address:
            entry.subgraphs = ()  # the node no longer owns those graphs (their addresses may be reused)
    return list(removed)


# ---------------------------------------------------------------------------------------
# Destroying a node

cdef set _owned_records(list keepalive, size_t address):
    """The records of the nodes of the graphs a node owns (a conditional node's bodies, a
    child graph node's clone), recursively."""
    cdef set owned = set()
    cdef set found = set()
    for entry in keepalive:
        if isinstance(entry, _Attachment) and entry.node == address:
            owned.update(entry.subgraphs)
    while owned:
        inner = set()
        for entry in keepalive:
            if isinstance(entry, _Attachment) and entry.graph in owned and entry not in found:
                inner.update(entry.subgraphs)
                found.add(entry)
        owned = inner
    return found


cdef list _inner_user_objects(list keepalive, size_t address):
    """(graph, user object) of each record in the graphs a node owns. Destroying the node
    destroys those graphs, but the driver lets go of their user objects only at some later
    point; releasing them ourselves makes the attachments go with the node."""
    return [(entry.graph, entry.user_object) for entry in _owned_records(keepalive, address) if entry.user_object]


cdef int _hand_over(list pairs, bint to_us) except -1:
    """Move each user object's reference from its graph to us (``to_us``), or back."""
    cdef cydriver.CUgraph graph
    cdef cydriver.CUuserObject user_object
    for graph_address, object_address in pairs:
        graph = <cydriver.CUgraph><uintptr_t>graph_address
        user_object = <cydriver.CUuserObject><uintptr_t>object_address
        with nogil:
            if to_us:
                cydriver.cuUserObjectRetain(user_object, 1)
                cydriver.cuGraphReleaseUserObject(graph, user_object, 1)
            else:
                cydriver.cuGraphRetainUserObject(graph, user_object, 1, cydriver.CU_GRAPH_USER_OBJECT_MOVE)
    return 0


cdef int _drop(list pairs) except -1:
    """Release our references taken by _hand_over: their destructors queue the records."""
    cdef cydriver.CUuserObject user_object
    for _, object_address in pairs:
        user_object = <cydriver.CUuserObject><uintptr_t>object_address
        with nogil:
            cydriver.cuUserObjectRelease(user_object, 1)
    return 0


cdef int _release_for(list keepalive, size_t address) except -1:
    """Drop the records of a destroyed node, and those of the nodes of the graphs it owned
    (recursively), from ``keepalive`` in place: the list is shared by the definition's views.
    Graphs instantiated before keep their own copy. Off the main thread the records taken
    out go to the release queue before the GIL is released for the driver."""
    cdef list held_by_graph = []
    dropped = pass_to_main_thread(_take_records(keepalive, address, held_by_graph))
    cdef cydriver.CUgraph graph
    cdef cydriver.CUuserObject user_object
    for graph_address, object_address in held_by_graph:
        graph = <cydriver.CUgraph><uintptr_t>graph_address
        user_object = <cydriver.CUuserObject><uintptr_t>object_address
        with nogil:  # the node is gone already: nothing to undo if this fails
            cydriver.cuGraphReleaseUserObject(graph, user_object, 1)
    del dropped  # on the main thread, after the graph let go of them
    return 0


cdef list _take_records(list keepalive, size_t address, list held_by_graph):
    """Take the records of the node at ``address`` and of the nodes of the graphs it owned
    out of ``keepalive`` and return them; (graph, user object) of each of the node's own
    records that its graph holds goes to ``held_by_graph`` (clones and executables keep
    their own holds). The GIL is held throughout."""
    cdef set gone = _owned_records(keepalive, address)
    cdef list kept = []
    cdef list taken = []
    for entry in keepalive:
        if not isinstance(entry, _Attachment):
            kept.append(entry)
        elif entry.node == address:
            taken.append(entry)
            if entry.user_object:
                held_by_graph.append((entry.graph, entry.user_object))
        elif entry in gone:
            taken.append(entry)
        else:
            kept.append(entry)
    if taken:
        keepalive[:] = kept
    return taken


cdef GraphNode entry_node(GraphDefinition definition):
    cdef GraphNode node = GraphNode.__new__(GraphNode)
    node._definition = definition
    node._is_entry = True
    return node


cdef int attach_node(GraphNode node, GraphDefinition definition, cydriver.CUgraphNode handle) except -1:
    node._node = handle
    node._address = <uintptr_t>handle
    node._definition = definition
    _node_registry[node._address] = node
    return 0


cdef GraphNode node_for(GraphDefinition definition, cydriver.CUgraphNode handle):
    cdef GraphNode known = _node_registry.get(<uintptr_t>handle)
    # A registered node of a graph since destroyed (with its child-graph or conditional
    # owner) may share the address of a new node: it is replaced.
    if known is not None and known._valid() and known._definition._graph == definition._graph:
        return known
    return _subclasses()._reconstruct(definition, <uintptr_t>handle)
