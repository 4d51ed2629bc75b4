# SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
# SPDX-License-Identifier: Apache-2.0
"""Clients that free a handle before cuda.core does (docs/lifetimes.md): each case runs in a
fresh interpreter whose exit status must be 0, since the crash these guard against comes at
interpreter exit, after every check passed (numba-cuda unloading ``ObjectCode.handle`` itself
aborted in libcuda's free() when cuda.core unloaded it again; issue 40).

A native crash shows as a negative status (the signal) or 134/139; the assertion prints the
status and both streams of the child. The children import the cuda.core of this interpreter.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = r"""
extern "C" __global__ void fill(int* out, int value, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}
"""

# What every child starts with: the kernel's source, a driver-call check, and one launch of
# fill() whose result is read back, so that each case runs real work before its client frees.
PRELUDE = f'''
import gc, json, sys
from pathlib import Path
import numpy as np
from cuda.bindings import driver
from cuda.core import Buffer, Device, Kernel, LaunchConfig, ObjectCode, Program, ProgramOptions, Stream, launch

SOURCE = {SOURCE!r}
N = 1024
CUBIN = Path(sys.argv[1]).read_bytes()
CASE = sys.argv[2]


def check(result):
    """The value(s) of a cuda.bindings call, or an error naming the status."""
    if result[0] != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"driver call failed: {{result[0]!r}}")
    return result[1] if len(result) == 2 else result[1:]


def fill_and_check(stream, kernel, buffer, value):
    """fill() ``buffer`` with ``value`` on ``stream``, read it back and compare."""
    launch(stream, LaunchConfig(grid=N // 128, block=128), kernel, buffer, np.int32(value), np.uint64(N))
    stream.sync()
    host = np.zeros(N, np.int32)
    check(driver.cuMemcpyDtoH(host.ctypes.data, int(buffer.handle), 4 * N))
    assert (host == value).all(), (value, host[:4])


def our_buffer(device, stream):
    return device.allocate(4 * N, stream=stream)


def our_device_stream_buffer():
    """Device 0 made current, a stream of ours on it, and a buffer of ours for fill()."""
    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    return device, stream, our_buffer(device, stream)
'''

# (a) numba-cuda's pattern without numba: the client unloads the library itself, through the
# handle it took from the ObjectCode (numba's _module_finalizer) or reached from the Kernel,
# while our ObjectCode and Kernel live on (numba's dispatcher holds the Kernel).
CLIENT_UNLOADS = """
device, stream, buffer = our_device_stream_buffer()
code = ObjectCode.from_cubin(CUBIN, name="fill")
kernel = code.get_kernel("fill")
fill_and_check(stream, kernel, buffer, 7)
if CASE == "object_code_handle":
    check(driver.cuLibraryUnload(code.handle))
elif CASE == "kernel_handle":
    check(driver.cuLibraryUnload(check(driver.cuKernelGetLibrary(kernel.handle))))
elif CASE == "collected_mid_run":
    check(driver.cuLibraryUnload(code.handle))
    del code, kernel
    gc.collect()
    code = ObjectCode.from_cubin(CUBIN, name="again")  # the driver may reuse the address
    kernel = code.get_kernel("fill")
    fill_and_check(stream, kernel, buffer, 8)
buffer.close(stream)
stream.sync()
print("DONE", flush=True)
"""

# (a) the same over many libraries, as numba's queue does it: unloads flushed by tens while the
# dispatcher keeps some kernels, every third library never seen by the client (ours to unload),
# gc.collect() between rounds, and the queue's rest flushed at the end (numba's Context.reset).
MANY_LIBRARIES = """
device, stream, buffer = our_device_stream_buffer()
dispatcher, pending, unseen = [], [], []
for round in range(90):
    code = ObjectCode.from_cubin(CUBIN, name=f"round {round}")
    kernel = code.get_kernel("fill")
    fill_and_check(stream, kernel, buffer, round)
    if round % 3 == 0:
        unseen.append(kernel)
        del unseen[:-3]
    else:
        dispatcher.append(kernel)
        pending.append(code.handle)
        if len(pending) > 10:  # numba's CUDA_DEALLOCS_COUNT
            for handle in pending:
                check(driver.cuLibraryUnload(handle))
            pending.clear()
    del code, kernel
    if round % 7 == 6:
        del dispatcher[: len(dispatcher) // 2]
        gc.collect()
for handle in pending:
    check(driver.cuLibraryUnload(handle))
gc.collect()
buffer.close(stream)
stream.sync()
print("DONE", flush=True)
"""

# (a) what the rule costs and saves: device memory lost over 3,000 libraries loaded, launched
# and dropped, without and with the handle given out (then the library is the client's, and
# this client leaves it loaded, as NVIDIA's 1.2 does with every library).
MEMORY = """
device, stream, buffer = our_device_stream_buffer()


def lost(give_handle):
    warm = ObjectCode.from_cubin(CUBIN).get_kernel("fill")  # the first load's one-time costs
    launch(stream, LaunchConfig(grid=N // 128, block=128), warm, buffer, np.int32(0), np.uint64(N))
    stream.sync()
    del warm
    gc.collect()
    free_before = check(driver.cuMemGetInfo())[0]
    for round in range(3000):
        code = ObjectCode.from_cubin(CUBIN)
        kernel = code.get_kernel("fill")
        if give_handle:
            code.handle
        launch(stream, LaunchConfig(grid=N // 128, block=128), kernel, buffer, np.int32(round), np.uint64(N))
        stream.sync()
        del code, kernel
    gc.collect()
    return free_before - check(driver.cuMemGetInfo())[0]


print(json.dumps({"unseen": lost(False), "given": lost(True)}))
buffer.close(stream)
stream.sync()
print("DONE", flush=True)
"""

# (b) test_context_stack's Test3rdPartyContext without numba: a third party retains and pushes
# the primary context, our work runs in it, the third party pops and releases it and resets
# the primary context; our ObjectCode and Kernel (context-independent) outlive all of it.
THIRD_PARTY_CONTEXT = """
check(driver.cuInit(0))
cu_device = check(driver.cuDeviceGet(0))
context = check(driver.cuDevicePrimaryCtxRetain(cu_device))
check(driver.cuCtxPushCurrent(context))
device = Device()
assert device.device_id == 0, device
options = ProgramOptions(arch=f"sm_{device.arch}")
code = Program(SOURCE, "c++", options=options).compile("cubin")
kernel = code.get_kernel("fill")
if CASE in ("ours_retains", "work_after_reset"):
    device.set_current()  # our own retain of the primary context, never released
    stream = device.create_stream()
    buffer = our_buffer(device, stream)
    fill_and_check(stream, kernel, buffer, 5)
    buffer.close(stream)
    stream.close()
else:  # the third party's stream and memory, lent to us
    client_stream = check(driver.cuStreamCreate(1))
    client_memory = check(driver.cuMemAlloc(4 * N))
    fill_and_check(Stream.from_handle(int(client_stream)), kernel, Buffer.from_handle(int(client_memory), 4 * N), 6)
    check(driver.cuMemFree(client_memory))
    check(driver.cuStreamDestroy(client_stream))
gc.collect()
assert int(check(driver.cuCtxPopCurrent())) == int(context)
check(driver.cuDevicePrimaryCtxRelease(cu_device))
check(driver.cuDevicePrimaryCtxReset(cu_device))
if CASE == "work_after_reset":  # numba's next test: our Device again, the kernel loaded before
    device = Device(0)
    device.set_current()
    stream = device.create_stream()
    buffer = our_buffer(device, stream)
    fill_and_check(stream, kernel, buffer, 12)
    buffer.close(stream)
    stream.close()
print("DONE", flush=True)
"""

# (c) a Stream over the client's CUstream (from_handle, or an object speaking __cuda_stream__),
# and an Event recorded on it: the client destroys the stream first, our objects outlive it.
CLIENT_STREAM = """
device = Device(0)
device.set_current()
client_stream = check(driver.cuStreamCreate(1))


class ClientStream:
    def __cuda_stream__(self):
        return (0, int(client_stream))


if CASE == "protocol":
    stream = device.create_stream(ClientStream())
else:
    stream = Stream.from_handle(int(client_stream))
code = ObjectCode.from_cubin(CUBIN)
kernel = code.get_kernel("fill")
buffer = our_buffer(device, stream)
fill_and_check(stream, kernel, buffer, 3)
buffer.close(stream)
event = stream.record()
event.sync()
stream.sync()
check(driver.cuStreamDestroy(client_stream))
assert event.is_done
if CASE == "closed":
    stream.close()  # lets go of the handle, destroys nothing
del buffer
gc.collect()
print("DONE", flush=True)
"""

# (d) what the audit found besides: a Kernel over a kernel of the client's own library, and
# Buffers over the client's memory (plain, and with owner=), each freed by the client first.
CLIENT_LIBRARY_AND_MEMORY = """
device = Device(0)
device.set_current()
stream = device.create_stream()
if CASE == "library":
    library = check(driver.cuLibraryLoadData(CUBIN, [], [], 0, [], [], 0))
    kernel = Kernel.from_handle(int(check(driver.cuLibraryGetKernel(library, b"fill"))))
    buffer = our_buffer(device, stream)
    fill_and_check(stream, kernel, buffer, 9)
    buffer.close(stream)
    stream.sync()
    check(driver.cuLibraryUnload(library))
else:
    kernel = ObjectCode.from_cubin(CUBIN).get_kernel("fill")
    plain_memory = check(driver.cuMemAlloc(4 * N))
    owned_memory = check(driver.cuMemAlloc(4 * N))
    plain = Buffer.from_handle(int(plain_memory), 4 * N)
    kept = Buffer.from_handle(int(owned_memory), 4 * N, owner=[owned_memory])
    fill_and_check(stream, kernel, plain, 10)
    fill_and_check(stream, kernel, kept, 11)
    check(driver.cuMemFree(plain_memory))
    check(driver.cuMemFree(owned_memory))
    plain.close()
print("DONE", flush=True)
"""


# (d) our cached ordering event lives in the producer's context, which is the client's: the
# client resets the primary context between views (its streams, memory and our event go with
# it) and makes new ones in the fresh context, at the same context address.
CLIENT_RESETS_A_PRODUCER_CONTEXT = """
from cuda.core.utils import StridedMemoryView


class ClientArray:
    def __init__(self, pointer, stream):
        self.__cuda_array_interface__ = {
            "shape": (N,), "typestr": "<i4", "data": (int(pointer), False), "version": 3, "stream": int(stream)
        }


check(driver.cuInit(0))
cu_device = check(driver.cuDeviceGet(0))
for cycle in range(3):
    context = check(driver.cuDevicePrimaryCtxRetain(cu_device))
    check(driver.cuCtxPushCurrent(context))
    producer = check(driver.cuStreamCreate(1))
    consumer = check(driver.cuStreamCreate(1))
    memory = check(driver.cuMemAlloc(4 * N))
    view = StridedMemoryView.from_cuda_array_interface(ClientArray(memory, producer), stream_ptr=int(consumer))
    assert view.ptr == int(memory) and view.shape == (N,)
    check(driver.cuStreamSynchronize(consumer))
    del view
    gc.collect()
    check(driver.cuMemFree(memory))
    check(driver.cuStreamDestroy(producer))
    check(driver.cuStreamDestroy(consumer))
    check(driver.cuCtxPopCurrent())
    check(driver.cuDevicePrimaryCtxRelease(cu_device))
    check(driver.cuDevicePrimaryCtxReset(cu_device))
print("DONE", flush=True)
"""


@pytest.fixture(scope="module")
def cubin_path(cuda_core, module_device, tmp_path_factory) -> Path:
    """fill() as a cubin for device 0: by NVRTC (Program) where it loads, else by nvcc."""
    work = tmp_path_factory.mktemp("lifetimes")
    path = work / "fill.cubin"
    try:
        from cuda.bindings import nvrtc

        nvrtc.nvrtcVersion()
    except Exception:
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if not Path(nvcc).exists():
            pytest.skip("neither NVRTC nor nvcc is here to compile the kernel")
        (work / "fill.cu").write_text(SOURCE)
        subprocess.run(
            [nvcc, "-cubin", f"-arch=sm_{module_device.arch}", "-o", path, work / "fill.cu"],
            check=True,
            capture_output=True,
        )
        return path
    options = cuda_core.ProgramOptions(arch=f"sm_{module_device.arch}")
    path.write_bytes(cuda_core.Program(SOURCE, "c++", options=options).compile("cubin").code)
    return path


def status_name(code: int) -> str:
    """What an exit status says: a signal's name for a native crash, else the number."""
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    if code in (134, 139):
        return f"{code} (a shell's report of {'SIGABRT' if code == 134 else 'SIGSEGV'})"
    return str(code)


def run_child(script: str, cubin: Path, case: str) -> str:
    """Run PRELUDE + ``script`` for ``case`` in a fresh interpreter; its stdout, once it exited 0
    after printing DONE (else an assertion with the status and both streams)."""
    child = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", PRELUDE + script, str(cubin), case],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = f"status {status_name(child.returncode)}\n--- stdout\n{child.stdout}\n--- stderr\n{child.stderr}"
    assert child.returncode == 0, f"the child ({case}) did not exit cleanly: {report}"
    assert "DONE" in child.stdout.splitlines(), f"the child ({case}) stopped early: {report}"
    return child.stdout


@pytest.mark.parametrize("case", ["object_code_handle", "kernel_handle", "collected_mid_run"])
def test_a_client_unloads_the_library_while_our_objects_live(cuda_core, cubin_path, case) -> None:
    run_child(CLIENT_UNLOADS, cubin_path, case)


def test_a_client_unloads_many_libraries_as_numba_queues_them(cuda_core, cubin_path) -> None:
    run_child(MANY_LIBRARIES, cubin_path, "many")


def test_libraries_no_client_saw_are_unloaded(cuda_core, cubin_path) -> None:
    """3,000 libraries dropped without their handle given out cost no device memory (NVIDIA's
    1.2 never unloads one: 8.0 MiB on an H100); with it given out they stay loaded, which
    the same measure sees, so it can tell the two apart."""
    output = run_child(MEMORY, cubin_path, "memory")
    lost = json.loads(next(line for line in output.splitlines() if line.startswith("{")))
    mib = 1 << 20
    assert lost["unseen"] <= 2 * mib, f"dropped libraries left {lost['unseen'] / mib:.1f} MiB behind: {lost}"
    assert lost["given"] > lost["unseen"], f"libraries left loaded cost no memory, so the measure is blind: {lost}"


@pytest.mark.parametrize("case", ["ours_retains", "client_resources", "work_after_reset"])
def test_a_third_party_pushes_pops_and_resets_the_primary_context(cuda_core, cubin_path, nvrtc_loaded, case) -> None:
    run_child(THIRD_PARTY_CONTEXT, cubin_path, case)


@pytest.mark.parametrize("case", ["from_handle", "protocol", "closed"])
def test_a_client_destroys_its_stream_before_ours_goes(cuda_core, cubin_path, case) -> None:
    run_child(CLIENT_STREAM, cubin_path, case)


@pytest.mark.parametrize("case", ["library", "memory"])
def test_a_client_frees_its_library_or_memory_first(cuda_core, cubin_path, case) -> None:
    run_child(CLIENT_LIBRARY_AND_MEMORY, cubin_path, case)


def test_a_client_resets_the_context_of_a_viewed_arrays_stream(cuda_core, cubin_path) -> None:
    run_child(CLIENT_RESETS_A_PRODUCER_CONTEXT, cubin_path, "reset")
