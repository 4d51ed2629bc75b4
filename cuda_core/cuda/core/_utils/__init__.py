"""Internal helpers of cuda.core: error checking (cuda_utils), versions (version), and the
explanations of CUDA error codes that CUDAError messages carry."""
