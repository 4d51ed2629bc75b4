"""Types of cuda.core.system's NVML API (its enumerations).

They come with the NVML side of cuda.core.system, which this cuda.core does not have yet;
the module exists so that ``cuda.core.system.typing`` imports as it does in NVIDIA's.
"""

__all__: list[str] = []
