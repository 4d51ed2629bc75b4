"""cuda.core launch: LaunchConfig, launch() and the packing of kernel arguments (placeholder)."""
