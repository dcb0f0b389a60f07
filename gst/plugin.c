/* gst-cudaedge: plugin registration
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcepackage.h"       /* GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN */

#include "gstcudaedge.h"
#include "gstcudaupscale.h"

#ifdef GST_CE_TEST_HOOKS
#include "cudaedge-testing.h"
#endif

/* The elements run on the CPU when no GPU is usable, so they are always
 * registered; the backend is chosen when an element starts. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

#ifdef GST_CE_TEST_HOOKS
  /* Test builds only: the CUDA backend on a device emulated on the CPU,
   * so that frames in flight are tested without a GPU. */
  if (g_getenv ("CUDAEDGE_TEST_FAKE_DEVICE") != NULL) {
    ce_cuda_set_fake_device (1);
    if (ce_cuda_fake_device ())
      GST_WARNING ("test hook CUDAEDGE_TEST_FAKE_DEVICE: the CUDA backend "
          "runs on an emulated device");
  }
#endif

  ret |= GST_ELEMENT_REGISTER (cudaedge, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaupscale, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR,
    GST_VERSION_MINOR,
    cudaedge,
    "Edge detection and 2x upscaling on NVIDIA GPUs through CUDA, "
    "with a bit-exact CPU fallback",
    plugin_init, PACKAGE_VERSION, GST_LICENSE, GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
