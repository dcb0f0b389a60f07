/* gst-cudaedge: the cudaupscale element
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

#ifndef __GST_CUDA_UPSCALE_H__
#define __GST_CUDA_UPSCALE_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcebasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_UPSCALE (gst_cuda_upscale_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaUpscale, gst_cuda_upscale, GST, CUDA_UPSCALE,
    GstCeBaseFilter);

GST_ELEMENT_REGISTER_DECLARE (cudaupscale);

G_END_DECLS

#endif /* __GST_CUDA_UPSCALE_H__ */
