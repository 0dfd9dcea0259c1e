# redbench.m4: autoconf macros for packs of redbench plugins, installed into
# $(datadir)/aclocal. In a pack's configure.ac:
#
#   REDBENCH_SDK([1.0])   the installed SDK, plugin ABI 1.0 or a newer 1.x
#   REDBENCH_PROG_NVCC    nvcc, for CUDA strategies (optional)
#
# When redbench is installed where aclocal does not look (e.g. /usr/local),
# tell it where this file is:
#   ACLOCAL_PATH=$(pkg-config --variable=aclocaldir redbench) autoreconf -fi
#
# serial 1

# REDBENCH_SDK([ABI-VERSION], [ACTION-IF-FOUND], [ACTION-IF-NOT-FOUND])
# Finds redbench.pc with pkg-config and checks that <redbench/plugin.h>
# compiles and declares the plugin ABI the pack is written for: the same
# major as ABI-VERSION (default 1.0) and a minor at least as new. Sets and
# substitutes:
#   REDBENCH_CFLAGS         flags to compile a plugin (-I...)
#   REDBENCH_PLUGINDIR      the installed plugin folder; a pack installs into
#                           $(REDBENCH_PLUGINDIR)/PACK/. Precious: configure
#                           REDBENCH_PLUGINDIR=DIR installs elsewhere.
#   REDBENCH_ABI_MAJOR, REDBENCH_ABI_MINOR   the ABI of the installed headers
#   REDBENCH_EXPORT_FLAGS   libtool link flags that export only the
#                           redbench entry points; a module links with
#                           -module -avoid-version -shared $(REDBENCH_EXPORT_FLAGS)
# Without ACTION-IF-NOT-FOUND, configure stops and says what to do.
AC_DEFUN([REDBENCH_SDK], [
  AC_REQUIRE([PKG_PROG_PKG_CONFIG])
  AC_ARG_VAR([REDBENCH_PLUGINDIR],
    [where to install the pack (default: redbench's plugin folder, from pkg-config)])
  rb_sdk_want=m4_default([$1], [1.0])
  rb_sdk_want_major=`echo "$rb_sdk_want" | sed 's/\..*//'`
  rb_sdk_want_minor=`echo "$rb_sdk_want" | sed -n 's/^[[0-9]]*\.\([[0-9]]*\).*/\1/p'`
  test -n "$rb_sdk_want_minor" || rb_sdk_want_minor=0
  rb_sdk_problem=
  PKG_CHECK_MODULES([REDBENCH], [redbench], [],
    [rb_sdk_problem="pkg-config finds no redbench.pc ($REDBENCH_PKG_ERRORS)"])
  AS_IF([test -z "$rb_sdk_problem"], [
    REDBENCH_ABI_MAJOR=`$PKG_CONFIG --variable=abi_major redbench`
    REDBENCH_ABI_MINOR=`$PKG_CONFIG --variable=abi_minor redbench`
    AS_IF([test -z "$REDBENCH_PLUGINDIR"],
      [REDBENCH_PLUGINDIR=`$PKG_CONFIG --variable=plugindir redbench`])
    AC_MSG_CHECKING([for the redbench plugin ABI $rb_sdk_want_major.x, at least $rb_sdk_want])
    rb_sdk_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $REDBENCH_CFLAGS"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include <redbench/plugin.h>
#if REDBENCH_ABI_MAJOR != $rb_sdk_want_major || REDBENCH_ABI_MINOR < $rb_sdk_want_minor
#error the installed headers declare another plugin ABI
#endif
]], [[return (int)sizeof(rb_plugin) == 0;]])],
      [AC_MSG_RESULT([yes, $REDBENCH_ABI_MAJOR.$REDBENCH_ABI_MINOR])],
      [AC_MSG_RESULT([no])
       rb_sdk_problem="<redbench/plugin.h> (with $REDBENCH_CFLAGS) does not compile or declares ABI $REDBENCH_ABI_MAJOR.$REDBENCH_ABI_MINOR, where this pack needs $rb_sdk_want_major.x, at least $rb_sdk_want"])
    CPPFLAGS=$rb_sdk_save_CPPFLAGS
  ])
  REDBENCH_EXPORT_FLAGS="-export-symbols-regex '^redbench_(plugin|backend)_entry\$\$'"
  AC_SUBST([REDBENCH_PLUGINDIR])
  AC_SUBST([REDBENCH_ABI_MAJOR])
  AC_SUBST([REDBENCH_ABI_MINOR])
  AC_SUBST([REDBENCH_EXPORT_FLAGS])
  AS_IF([test -z "$rb_sdk_problem"],
    [m4_default([$2], [:])],
    [m4_default([$3],
      [AC_MSG_ERROR([the redbench SDK was not found: $rb_sdk_problem.
  Install redbench (make install puts redbench.pc under LIBDIR/pkgconfig),
  or point pkg-config at it: ./configure PKG_CONFIG_PATH=PREFIX/lib/pkgconfig])])])
])

# REDBENCH_PROG_NVCC([ACTION-IF-FOUND], [ACTION-IF-NOT-FOUND])
# Looks for nvcc: $NVCC if set, else on PATH, else in /usr/local/cuda/bin;
# --with-cuda=PATH names a toolkit, --without-cuda builds no CUDA strategy.
# Sets and substitutes:
#   NVCC                  the compiler; empty when none
#   REDBENCH_NVCC_FLAGS   flags to build one .cu file into a plugin module,
#                         as redbench's own cuda pack is built: the GPU
#                         targets (--with-cuda-arch=sm_80,sm_90; default: sm_90
#                         code plus compute_80 PTX, which runs on sm_80 and
#                         newer), -O3, a shared object with hidden symbols,
#                         and the CUDA runtime linked in statically (nvcc's
#                         default), so that a call costs what it costs in an
#                         application
# and the automake conditional REDBENCH_NVCC (call the macro unconditionally).
AC_DEFUN([REDBENCH_PROG_NVCC], [
  AC_ARG_VAR([NVCC], [the CUDA compiler])
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=PATH@:>@], [build the CUDA strategies (default: when nvcc is found)])],
    [], [with_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU targets, e.g. sm_80,sm_90 (default: sm_90 code plus compute_80 PTX)])],
    [], [with_cuda_arch=default])
  AS_CASE([$with_cuda],
    [no], [NVCC=],
    [yes|auto], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])],
    [AS_IF([test -x "$with_cuda/bin/nvcc"], [NVCC=$with_cuda/bin/nvcc],
       [AC_MSG_ERROR([--with-cuda=$with_cuda: there is no $with_cuda/bin/nvcc])])])
  AS_IF([test "x$with_cuda" = xyes && test -z "$NVCC"],
    [AC_MSG_ERROR([--with-cuda: nvcc is neither on PATH nor in /usr/local/cuda/bin; use --with-cuda=PATH])])
  REDBENCH_NVCC_FLAGS=
  AS_IF([test -n "$NVCC"], [
    AS_IF([test "x$with_cuda_arch" = xdefault],
      [rb_nvcc_arch="-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80"],
      [rb_nvcc_arch=
       for rb_a in `echo "$with_cuda_arch" | tr ',' ' '`; do
         rb_n=`echo "$rb_a" | sed 's/^sm_//;s/^compute_//'`
         AS_CASE([$rb_n], [*[[!0-9a]]*|""],
           [AC_MSG_ERROR([--with-cuda-arch: '$rb_a' is not a GPU target (write e.g. sm_80,sm_90)])])
         rb_nvcc_arch="$rb_nvcc_arch -gencode arch=compute_$rb_n,code=sm_$rb_n"
       done])
    REDBENCH_NVCC_FLAGS="$rb_nvcc_arch -O3 -std=c++20 -shared -Xcompiler -fPIC,-fvisibility=hidden -cudart static"
    $1
  ], [m4_default([$2], [:])])
  AC_SUBST([REDBENCH_NVCC_FLAGS])
  AM_CONDITIONAL([REDBENCH_NVCC], [test -n "$NVCC"])
])
