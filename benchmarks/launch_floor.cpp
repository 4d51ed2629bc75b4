// SPDX-FileCopyrightText: 2026 cuda-core Meson build contributors
// SPDX-License-Identifier: Apache-2.0
// The driver's own floor for benchmarks/launch_bench.py: the host cost of cuLaunchKernel
// from C++, for the same empty kernels and the same batching: the two-argument kernel
// through a CUfunction (cuModuleLoadData) and through a CUkernel (cuLibraryLoadData, as
// cuda.core does), the six-argument one through a CUkernel, and the two-argument one as a
// cluster of 2 blocks (cuLaunchKernelEx, as cuda.core launches clusters). Prints one JSON object.
//
// Build (launch_bench.py does): nvcc -O2 -o launch_floor launch_floor.cpp -lcuda
// Run: ./launch_floor empty.cubin BATCHES [BATCH_SIZE]
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

int kBatch = 500;  // launches per timed batch; the stream is drained between batches

void check(CUresult result, const char* what) {
    if (result != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(result, &name);
        std::fprintf(stderr, "launch_floor: %s failed: %s\n", what, name ? name : "?");
        std::exit(1);
    }
}

// Median microseconds per call of `launch` over `batches` batches of kBatch.
template <typename Launch>
double per_launch_us(Launch launch, CUstream stream, int batches) {
    std::vector<double> samples;
    for (int b = 0; b < batches + 5; ++b) {  // the first 5 batches warm up
        check(cuStreamSynchronize(stream), "cuStreamSynchronize");
        auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < kBatch; ++i) launch();
        auto stop = std::chrono::steady_clock::now();
        if (b >= 5) samples.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kBatch);
    }
    check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
    return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::fprintf(stderr, "usage: launch_floor CUBIN BATCHES [BATCH_SIZE]\n");
        return 2;
    }
    if (argc == 4) kBatch = std::atoi(argv[3]);
    std::ifstream file(argv[1], std::ios::binary);
    std::vector<char> image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const int batches = std::atoi(argv[2]);

    CUdevice device;
    CUcontext context;
    CUstream stream;
    CUmodule module;
    CUlibrary library;
    CUfunction function;
    CUkernel kernel;
    CUkernel mixed;
    CUdeviceptr data;
    check(cuInit(0), "cuInit");
    check(cuDeviceGet(&device, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
    check(cuModuleGetFunction(&function, module, "empty"), "cuModuleGetFunction");
    check(cuLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cuLibraryLoadData");
    check(cuLibraryGetKernel(&kernel, library, "empty"), "cuLibraryGetKernel");
    check(cuLibraryGetKernel(&mixed, library, "mixed"), "cuLibraryGetKernel");
    check(cuMemAlloc(&data, 1024), "cuMemAlloc");
    int n = 256;
    void* params[] = {&data, &n};
    float x = 1.5f;
    double y = 2.5;
    long long m = 3;
    unsigned char c = 4;
    void* mixed_params[] = {&data, &n, &x, &y, &m, &c};

    auto plain = [&](CUfunction f, void** p) {
        return [=] { check(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, stream, p, nullptr), "cuLaunchKernel"); };
    };
    CUlaunchAttribute cluster_attribute{};
    cluster_attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster_attribute.value.clusterDim.x = 2;
    cluster_attribute.value.clusterDim.y = 1;
    cluster_attribute.value.clusterDim.z = 1;
    CUlaunchConfig cluster_config{};
    cluster_config.gridDimX = 2;
    cluster_config.gridDimY = cluster_config.gridDimZ = 1;
    cluster_config.blockDimX = cluster_config.blockDimY = cluster_config.blockDimZ = 1;
    cluster_config.hStream = stream;
    cluster_config.attrs = &cluster_attribute;
    cluster_config.numAttrs = 1;
    auto cluster = [&] {
        check(cuLaunchKernelEx(&cluster_config, reinterpret_cast<CUfunction>(kernel), params, nullptr),
              "cuLaunchKernelEx");
    };

    const double via_function = per_launch_us(plain(function, params), stream, batches);
    const double via_kernel = per_launch_us(plain(reinterpret_cast<CUfunction>(kernel), params), stream, batches);
    const double six = per_launch_us(plain(reinterpret_cast<CUfunction>(mixed), mixed_params), stream, batches);
    const double of_cluster = per_launch_us(cluster, stream, batches);
    std::printf("{\"launch, CUfunction [us]\": %.3f, \"launch, CUkernel [us]\": %.3f, "
                "\"launch, 6 mixed args, CUkernel [us]\": %.3f, \"launch, cluster of 2, CUkernel [us]\": %.3f, "
                "\"version\": \"C++ %d\"}\n",
                via_function, via_kernel, six, of_cluster, CUDA_VERSION);
    return 0;
}
