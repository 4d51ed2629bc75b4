"""cuda.core Program and ProgramOptions over NVRTC (placeholder, being written)."""
