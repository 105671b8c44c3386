/* SPDX-License-Identifier: GPL-2.0-or-later
 * Plain files: read whole, read a line, write atomically (temp, fsync, rename, fsync of the directory). */
#pragma once

#include <stddef.h>

/* File helpers. */
int read_file(const char *path, char **ret, size_t *ret_len);  /* -errno */
/* First line of a small file, stripped; NULL if missing. */
char *read_line_file(const char *path);
/* Write via temp file + fsync + rename in the same directory + fsync of the
 * directory; creates missing parent directories (0755). Returns 0 or -errno
 * (an fsync error included). */
int write_file_atomic(const char *path, const char *content, size_t len, unsigned mode);
int mkdir_parents(const char *path, unsigned mode);
