# m4/rb_cuda.m4: detection of the CUDA toolkit for the CUDA pack.
#   --with-cuda[=PATH]   build the CUDA pack (PATH: the toolkit root)
#   --without-cuda       do not
#   default: auto (nvcc on PATH, else /usr/local/cuda/bin/nvcc)
#   --with-cuda-arch=LIST  GPU targets, e.g. sm_80,sm_90 (default: real code
#                          for sm_90 plus PTX for compute_80)
AC_DEFUN([RB_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=PATH@:>@], [build the CUDA pack (default: auto)])],
    [], [with_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU targets, comma-separated (default: sm_90 code plus compute_80 PTX)])],
    [], [with_cuda_arch=default])
  NVCC=
  AS_CASE([$with_cuda],
    [no], [],
    [yes|auto], [
      AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])],
    [
      AS_IF([test -x "$with_cuda/bin/nvcc"], [NVCC=$with_cuda/bin/nvcc],
        [AC_MSG_ERROR([--with-cuda=$with_cuda: no $with_cuda/bin/nvcc])])])
  AS_IF([test "x$with_cuda" = xyes && test -z "$NVCC"],
    [AC_MSG_ERROR([--with-cuda: nvcc not found on PATH or in /usr/local/cuda/bin])])
  AS_IF([test -n "$NVCC"], [
    AS_IF([test "x$with_cuda_arch" = xdefault],
      [NVCC_ARCH_FLAGS="-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80"
       rb_cuda_arch="sm_90 + compute_80 PTX"],
      [NVCC_ARCH_FLAGS=
       rb_cuda_arch=$with_cuda_arch
       for rb_a in `echo "$with_cuda_arch" | tr ',' ' '`; do
         rb_n=`echo "$rb_a" | $SED 's/^sm_//;s/^compute_//'`
         AS_CASE([$rb_n], [*[[!0-9a]]*|""], [AC_MSG_ERROR([--with-cuda-arch: bad target '$rb_a' (use e.g. sm_80,sm_90)])])
         NVCC_ARCH_FLAGS="$NVCC_ARCH_FLAGS -gencode arch=compute_$rb_n,code=sm_$rb_n"
       done])
    rb_cuda_summary="yes ($NVCC; targets: $rb_cuda_arch)"
  ], [
    AS_IF([test "x$with_cuda" = xno], [rb_cuda_summary="no (--without-cuda)"],
      [rb_cuda_summary="no (nvcc not found; use --with-cuda=PATH)"])
  ])
  dnl NCCL, for the nccl pack: nccl.h and libnccl beside the toolkit or in
  dnl the system's folders.
  NCCL_CPPFLAGS=
  NCCL_LIBS=
  rb_nccl_summary="no (no CUDA)"
  AS_IF([test -n "$NVCC"], [
    rb_cuda_root=`dirname "$NVCC"`/..
    rb_nccl_summary="no (nccl.h and libnccl not found)"
    for rb_d in "$rb_cuda_root/include" /usr/include /usr/local/include; do
      AS_IF([test -z "$NCCL_CPPFLAGS" && test -f "$rb_d/nccl.h"], [NCCL_CPPFLAGS="-I$rb_d"])
    done
    for rb_d in "$rb_cuda_root/lib64" "$rb_cuda_root/lib" /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib64 /usr/local/lib; do
      for rb_f in libnccl.so libnccl.so.2; do
        AS_IF([test -z "$NCCL_LIBS" && test -f "$rb_d/$rb_f"], [NCCL_LIBS="-L$rb_d -l:$rb_f"])
      done
    done
    AS_IF([test -n "$NCCL_CPPFLAGS" && test -n "$NCCL_LIBS"],
      [rb_nccl_summary="yes ($NCCL_CPPFLAGS $NCCL_LIBS)"], [NCCL_CPPFLAGS= NCCL_LIBS=])
  ])
  AC_SUBST([NCCL_CPPFLAGS])
  AC_SUBST([NCCL_LIBS])
  AM_CONDITIONAL([BUILD_NCCL], [test -n "$NCCL_LIBS"])
  AC_MSG_CHECKING([whether to build the NCCL pack])
  AC_MSG_RESULT([$rb_nccl_summary])
  AC_SUBST([NVCC])
  AC_SUBST([NVCC_ARCH_FLAGS])
  AM_CONDITIONAL([BUILD_CUDA], [test -n "$NVCC"])
  AC_MSG_CHECKING([whether to build the CUDA pack])
  AC_MSG_RESULT([$rb_cuda_summary])
])
