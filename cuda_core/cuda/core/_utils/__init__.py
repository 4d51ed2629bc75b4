"""Internal helpers of cuda.core: driver error checking (cuda_utils)."""
