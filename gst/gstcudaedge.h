/* gst-cudaedge: the cudaedge element
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

#ifndef __GST_CUDA_EDGE_H__
#define __GST_CUDA_EDGE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "gstcebasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_EDGE (gst_cuda_edge_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaEdge, gst_cuda_edge, GST, CUDA_EDGE,
    GstCeBaseFilter);

#define GST_TYPE_CUDA_EDGE_BORDER_MODE (gst_cuda_edge_border_mode_get_type ())
GType gst_cuda_edge_border_mode_get_type (void);

#define GST_TYPE_CUDA_EDGE_NORM (gst_cuda_edge_norm_get_type ())
GType gst_cuda_edge_norm_get_type (void);

#define GST_TYPE_CUDA_EDGE_OUTPUT (gst_cuda_edge_output_get_type ())
GType gst_cuda_edge_output_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudaedge);

G_END_DECLS

#endif /* __GST_CUDA_EDGE_H__ */
