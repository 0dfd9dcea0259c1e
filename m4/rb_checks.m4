# m4/rb_checks.m4: redbench's own configure checks (inih, libdl, pthreads,
# warnings, pkg-config), each failing with the Debian package to install.

# RB_REQUIRE_PKG_CONFIG: pkg-config must exist (Debian: pkg-config).
AC_DEFUN([RB_REQUIRE_PKG_CONFIG], [
  m4_ifndef([PKG_PROG_PKG_CONFIG],
    [m4_fatal([pkg.m4 is missing: install pkg-config (apt-get install pkg-config) and run autoreconf -fi])])
  PKG_PROG_PKG_CONFIG
  AS_IF([test -z "$PKG_CONFIG"],
    [AC_MSG_ERROR([pkg-config not found: apt-get install pkg-config])])
])

# RB_CHECK_INIH: the system inih library (Debian: libinih-dev).
AC_DEFUN([RB_CHECK_INIH], [
  PKG_CHECK_MODULES([INIH], [inih], [],
    [AC_MSG_ERROR([inih not found ($INIH_PKG_ERRORS).
  redbench reads experiment files with the system inih library.
  On Debian or Ubuntu: apt-get install libinih-dev])])
])

# RB_CHECK_LIBDL: dlopen, in libc or libdl.
AC_DEFUN([RB_CHECK_LIBDL], [
  AC_SEARCH_LIBS([dlopen], [dl], [],
    [AC_MSG_ERROR([dlopen not found: redbench loads plugins with dlopen (glibc's libdl)])])
])

# AX_PTHREAD_SIMPLE: -pthread for gcc and clang on Linux.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  AC_MSG_CHECKING([whether $CC accepts -pthread])
  rb_save_CFLAGS=$CFLAGS; CFLAGS="$CFLAGS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]], [[pthread_create(0,0,0,0);]])],
    [AC_MSG_RESULT([yes]); PTHREAD_CFLAGS=-pthread; PTHREAD_LIBS=-pthread],
    [AC_MSG_RESULT([no]); AC_MSG_ERROR([POSIX threads are required])])
  CFLAGS=$rb_save_CFLAGS
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])

# RB_WARNING_FLAGS: -Wall -Wextra for our own code (WARN_CFLAGS).
AC_DEFUN([RB_WARNING_FLAGS], [
  WARN_CFLAGS="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2"
  AC_ARG_ENABLE([werror], [AS_HELP_STRING([--enable-werror], [turn warnings into errors])],
    [AS_IF([test "x$enableval" = xyes], [WARN_CFLAGS="$WARN_CFLAGS -Werror"])])
  AC_SUBST([WARN_CFLAGS])
])
