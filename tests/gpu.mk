# tests/gpu.mk: (filled in by its area)
