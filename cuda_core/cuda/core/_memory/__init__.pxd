# cuda.core._memory as a Cython package: its modules' declarations are in their own .pxd files.
