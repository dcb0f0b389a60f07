/* cudaedge-bench: NPP's closest chain as a peer (Gaussian 5x5 -> Sobel
 * magnitude -> compare), built only when meson finds NPP.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * meson compiles and links this very file with -DNPP_PEER_LINK_TEST (which
 * adds a stub main) before enabling the peer, so an NPP API that differs
 * from what is used here disables the peer instead of breaking the build.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nppdefs.h>
#include <nppi.h>

/* Prototypes (repeated in cudaedge-bench.c). */
int npp_peer_init (int device, cudaStream_t stream);
int npp_peer_gauss (const uint8_t * src, size_t src_pitch, int width,
    int height, uint8_t * dst, size_t dst_pitch);
int npp_peer_sobel_mag (const uint8_t * src, size_t src_pitch, int width,
    int height, int16_t * mag, size_t mag_pitch);
int npp_peer_compare (const int16_t * mag, size_t mag_pitch, int width,
    int height, int threshold, uint8_t * dst, size_t dst_pitch);

static NppStreamContext npp_ctx;

static int
npp_failed (NppStatus st, const char *what)
{
  /* Negative: error; positive: warning (still a result). */
  if (st < 0) {
    fprintf (stderr, "cudaedge-bench: NPP error: %s returned %d\n", what,
        (int) st);
    return -1;
  }
  if (st > 0)
    fprintf (stderr, "cudaedge-bench: NPP warning: %s returned %d\n", what,
        (int) st);
  return 0;
}

int
npp_peer_init (int device, cudaStream_t stream)
{
  struct cudaDeviceProp prop;
  unsigned int flags = 0;
  cudaError_t e;

  e = cudaGetDeviceProperties (&prop, device);
  if (e != cudaSuccess) {
    fprintf (stderr, "cudaedge-bench: NPP init: cudaGetDeviceProperties: "
        "%s\n", cudaGetErrorString (e));
    return -1;
  }
  e = cudaStreamGetFlags (stream, &flags);
  if (e != cudaSuccess) {
    fprintf (stderr, "cudaedge-bench: NPP init: cudaStreamGetFlags: %s\n",
        cudaGetErrorString (e));
    return -1;
  }
  memset (&npp_ctx, 0, sizeof npp_ctx);
  npp_ctx.hStream = stream;
  npp_ctx.nCudaDeviceId = device;
  npp_ctx.nMultiProcessorCount = prop.multiProcessorCount;
  npp_ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  npp_ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  npp_ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  npp_ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  npp_ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  npp_ctx.nStreamFlags = flags;
  return 0;
}

int
npp_peer_gauss (const uint8_t * src, size_t src_pitch, int width,
    int height, uint8_t * dst, size_t dst_pitch)
{
  NppiSize size = { width, height };
  NppiPoint origin = { 0, 0 };
  return npp_failed (nppiFilterGaussBorder_8u_C1R_Ctx (src, (int) src_pitch,
          size, origin, dst, (int) dst_pitch, size, NPP_MASK_SIZE_5_X_5,
          NPP_BORDER_REPLICATE, npp_ctx), "nppiFilterGaussBorder_8u_C1R_Ctx");
}

int
npp_peer_sobel_mag (const uint8_t * src, size_t src_pitch, int width,
    int height, int16_t * mag, size_t mag_pitch)
{
  NppiSize size = { width, height };
  NppiPoint origin = { 0, 0 };
  return npp_failed (nppiGradientVectorSobelBorder_8u16s_C1R_Ctx (src,
          (int) src_pitch, size, origin, NULL, (int) mag_pitch, NULL,
          (int) mag_pitch, mag, (int) mag_pitch, NULL, (int) mag_pitch * 2,
          size, NPP_MASK_SIZE_3_X_3, nppiNormL2,
          NPP_BORDER_REPLICATE, npp_ctx),
      "nppiGradientVectorSobelBorder_8u16s_C1R_Ctx");
}

int
npp_peer_compare (const int16_t * mag, size_t mag_pitch, int width,
    int height, int threshold, uint8_t * dst, size_t dst_pitch)
{
  NppiSize size = { width, height };
  return npp_failed (nppiCompareC_16s_C1R_Ctx (mag, (int) mag_pitch,
          (Npp16s) threshold, dst, (int) dst_pitch, size, NPP_CMP_GREATER,
          npp_ctx), "nppiCompareC_16s_C1R_Ctx");
}

#ifdef NPP_PEER_LINK_TEST
int
main (void)
{
  volatile int never = 0;
  if (never) {
    npp_peer_init (0, 0);
    npp_peer_gauss (NULL, 0, 1, 1, NULL, 0);
    npp_peer_sobel_mag (NULL, 0, 1, 1, NULL, 0);
    npp_peer_compare (NULL, 0, 1, 1, 0, NULL, 0);
  }
  return 0;
}
#endif
