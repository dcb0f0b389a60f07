/* gst-cudaedge: the one runner of the core tests (GLib's test framework).
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: core-tests [GTest options] [--quick]
 *   -p /cpu/reference, /cpu/fast, /cpu/upscale, /cuda-entry,
 *   /cuda/host-path, /gpu/core, /gpu/runtime:
 *   one family (-l lists the cases); --tap for TAP output; --quick: GPU
 *   frames up to 613x611, and 1920x1080 (for compute-sanitizer).  Without a GPU the
 *   /gpu cases are skipped, loudly.
 */
#include <string.h>

#include <glib.h>

#include "ce-core-test.h"

int
main (int argc, char **argv)
{
  int n = 1, ret;

  /* our own option, taken out before GLib reads the rest */
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      ce_test_quick = TRUE;
    else
      argv[n++] = argv[i];
  }
  argc = n;
  argv[argc] = NULL;

  g_test_init (&argc, &argv, NULL);
  /* a failed assertion fails its case and the run goes on */
  g_test_set_nonfatal_assertions ();

  ce_test_register_reference ();
  ce_test_register_cpu_fast ();
  ce_test_register_cpu_upscale ();
  ce_test_register_cuda_entry ();
#ifdef CE_HAVE_CUDA
  ce_test_register_fused_layout ();
  ce_test_register_upscale_threads ();
  ce_test_register_fused_out ();
  ce_test_register_gpu_core ();
#ifdef CE_TEST_HAVE_GPU_RUNTIME
  ce_test_register_gpu_runtime ();
  ce_test_register_gpu_host_path ();
#endif
#endif

  ret = g_test_run ();
  ce_test_run_at_end ();
  return ret;
}
