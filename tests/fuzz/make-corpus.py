#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seed corpus of the core's fuzz target (tests/fuzz/corpus/).

Each input is the 12-byte header fuzz-core.c decodes (operation, format,
size, row padding, threshold, options, band seed) followed by pixel bytes:
every format, the options one by one, thresholds at and outside the range,
the largest sizes, empty and short inputs, and upscales of both pixel
sizes (and an invalid one).  The output is the same on every run.
Usage: tests/fuzz/make-corpus.py [OUT_DIR]
"""
import os
import random
import sys

random.seed(2026)
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), 'corpus')
os.makedirs(out, exist_ok=True)
cases = []


def header(upscale, fmt, w, h, src_pad, dst_pad, threshold, opts, seed):
    """The 12 bytes fuzz-core.c decodes; w and h in 1 ... 257."""
    return bytes([
        (upscale & 1) | ((fmt % 128) << 1),
        (w - 1) & 0xff, (w - 1) >> 8, (h - 1) & 0xff, (h - 1) >> 8,
        (src_pad & 0x3f) | ((dst_pad & 3) << 6),
        threshold & 0xff, threshold >> 8,
        opts,
        seed & 0xff, (seed >> 8) & 0xff, seed >> 16,
    ])


def random_bytes(n):
    return bytes(random.randrange(256) for _ in range(n))


# The order of the random draws below fixes the corpus: keep it.

# Edge chain: every format (ce_format order), small odd sizes.
FORMATS = ['gray8', 'i420', 'yv12', 'nv12', 'nv21', 'y42b', 'y444', 'yuy2',
           'uyvy', 'rgb', 'bgr', 'rgba', 'bgra', 'argb', 'abgr', 'rgbx',
           'bgrx', 'xrgb', 'xbgr']
for fmt, name in enumerate(FORMATS):
    w, h = random.choice([(1, 1), (3, 2), (7, 5), (17, 9), (33, 4), (2, 31)])
    opts = random.randrange(256) & ~0x06 | (random.randrange(3) << 1)
    pixels = random_bytes(random.randrange(16, 200))
    src_pad = random.randrange(64)
    dst_pad = random.randrange(4)
    threshold = random.randrange(0xfff0)
    seed = random.randrange(1 << 24)
    cases.append(('edge-%s-%dx%d' % (name, w, h),
                  header(0, fmt, w, h, src_pad, dst_pad, threshold, opts,
                         seed) + pixels))

# Edge chain: the options one by one (bit 0 blur, bits 1-2 border, bit 3
# l1, bit 4 magnitude, bit 6 buffers after the guard page).
for opts, tag in [(0x00, 'noblur-replicate-l2'), (0x01, 'blur-replicate-l2'),
                  (0x03, 'blur-zero'), (0x05, 'blur-reflect'),
                  (0x09, 'blur-l1'), (0x11, 'blur-magnitude'),
                  (0x18, 'noblur-l1-magnitude'), (0x07, 'border-invalid'),
                  (0x41, 'at-start')]:
    cases.append(('edge-opts-' + tag,
                  header(0, 0, 23, 19, 5, 1, 64 * 32, opts, 77)
                  + random_bytes(97)))

# Edge chain: thresholds at and outside the range (the top 16 codes).
for code, tag in [(0, '2048'), (2, 'zero'), (7, 'above-max'),
                  (12, 'negative'), (14, 'nan'), (15, 'inf')]:
    cases.append(('edge-threshold-' + tag,
                  header(0, 11, 12, 12, 0, 0, 0xfff0 + code, 0x01, 5)
                  + bytes([0, 255] * 40)))

# Edge chain: the largest sizes, no pixels, short and empty inputs.
cases.append(('edge-max-width', header(0, 0, 257, 3, 0, 0, 128 * 32, 0x01, 9)
              + bytes([255, 0, 0, 255])))
cases.append(('edge-max-height', header(0, 0, 2, 257, 3, 2, 128 * 32, 0x05, 9)
              + bytes([0, 0, 255])))
cases.append(('edge-empty-pixels', header(0, 7, 9, 9, 1, 1, 10 * 32, 0x11, 1)))
cases.append(('short-header', bytes([0x02, 4, 0])))
cases.append(('empty', b''))

# Upscale: 1 and 4 bytes per pixel, the invalid 3, after the guard page.
for opts, tag in [(0x00, 'gray8'), (0x20, 'rgba'), (0xc0, 'bpp3-invalid'),
                  (0x60, 'rgba-at-start')]:
    for w, h in [(1, 1), (5, 3), (31, 2), (1, 40)]:
        seed = random.randrange(1 << 24)
        if opts == 0xc0:
            seed &= ~0x0f           # 3 bytes per pixel needs these bits 0
        src_pad = random.randrange(64)
        dst_pad = random.randrange(4)
        pixels = random_bytes(random.randrange(8, 120))
        cases.append(('upscale-%s-%dx%d' % (tag, w, h),
                      header(1, 0, w, h, src_pad, dst_pad, 0, opts, seed)
                      + pixels))
cases.append(('upscale-max', header(1, 0, 257, 257, 0, 0, 0, 0x20, 3)
              + bytes(range(256))))

for name, data in cases:
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
print('%d inputs in %s' % (len(cases), out))
