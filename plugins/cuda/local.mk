# plugins/cuda/local.mk: the cuda pack (built when configure finds nvcc).
