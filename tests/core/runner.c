/* gst-cudaedge: the one runner of the core tests (GLib's test framework)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: core-tests [GTest options] [--quick]
 *   -p /cpu/reference, /cpu/cpu-fast, /cpu/cpu-upscale, /gpu/core: one
 *   family; --tap for TAP output; --quick: GPU scenes up to 613x611 only
 *   (for compute-sanitizer).  Without a GPU the /gpu cases are skipped,
 *   loudly.
 */

#include <string.h>

#include <glib.h>

void ce_test_register_reference (void);
void ce_test_register_cpu_fast (void);
void ce_test_register_cpu_upscale (void);
#ifdef CE_HAVE_CUDA
void ce_test_register_gpu_core (gboolean quick);
#endif

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  int i;

  g_test_init (&argc, &argv, NULL);
  for (i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = TRUE;
  }
  ce_test_register_reference ();
  ce_test_register_cpu_fast ();
  ce_test_register_cpu_upscale ();
#ifdef CE_HAVE_CUDA
  ce_test_register_gpu_core (quick);
#else
  (void) quick;
#endif
  return g_test_run ();
}
