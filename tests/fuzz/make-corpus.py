#!/usr/bin/env python3
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


def hdr(up, fmt, w, h, spad, dpad, thr, opts, seed):
    d0 = (up & 1) | ((fmt % 128) << 1)
    d5 = (spad & 0x3f) | ((dpad & 3) << 6)
    return bytes([d0, (w-1) & 0xff, (w-1) >> 8, (h-1) & 0xff, (h-1) >> 8, d5,
                  thr & 0xff, thr >> 8, opts, seed & 0xff, (seed >> 8) & 0xff, seed >> 16])


# edge: every format, small odd sizes
names = ['gray8','i420','yv12','nv12','nv21','y42b','y444','yuy2','uyvy','rgb','bgr',
         'rgba','bgra','argb','abgr','rgbx','bgrx','xrgb','xbgr']
for f, n in enumerate(names):
    w, h = random.choice([(1,1),(3,2),(7,5),(17,9),(33,4),(2,31)])
    opts = random.randrange(256) & ~0x06 | (random.randrange(3) << 1)
    px = bytes(random.randrange(256) for _ in range(random.randrange(16, 200)))
    cases.append(('edge-%s-%dx%d' % (n, w, h),
                  hdr(0, f, w, h, random.randrange(64), random.randrange(4),
                      random.randrange(0xfff0), opts, random.randrange(1 << 24)) + px))
# edge: options
for opts, tag in [(0x00,'noblur-replicate-l2'),(0x01,'blur-replicate-l2'),(0x03,'blur-zero'),
                  (0x05,'blur-reflect'),(0x09,'blur-l1'),(0x11,'blur-magnitude'),
                  (0x18,'noblur-l1-magnitude'),(0x07,'border-invalid'),(0x41,'at-start')]:
    cases.append(('edge-opts-' + tag, hdr(0, 0, 23, 19, 5, 1, 64*32, opts, 77) +
                  bytes(random.randrange(256) for _ in range(97))))
# edge: thresholds at and outside the range
for i, tag in [(0,'2048'),(2,'zero'),(7,'above-max'),(12,'negative'),(14,'nan'),(15,'inf')]:
    cases.append(('edge-threshold-' + tag, hdr(0, 11, 12, 12, 0, 0, 0xfff0 + i, 0x01, 5) +
                  bytes([0, 255] * 40)))
# edge: extremes
cases.append(('edge-max-width', hdr(0, 0, 257, 3, 0, 0, 128*32, 0x01, 9) + bytes([255,0,0,255])))
cases.append(('edge-max-height', hdr(0, 0, 2, 257, 3, 2, 128*32, 0x05, 9) + bytes([0,0,255])))
cases.append(('edge-empty-pixels', hdr(0, 7, 9, 9, 1, 1, 10*32, 0x11, 1)))
cases.append(('short-header', bytes([0x02, 4, 0])))
cases.append(('empty', b''))
# upscale
for bpp_opts, tag in [(0x00,'gray8'),(0x20,'rgba'),(0xc0,'bpp3-invalid'),(0x60,'rgba-at-start')]:
    for w, h in [(1,1),(5,3),(31,2),(1,40)]:
        seed = random.randrange(1 << 24)
        if bpp_opts == 0xc0:
            seed &= ~0x0f
        cases.append(('upscale-%s-%dx%d' % (tag, w, h),
                      hdr(1, 0, w, h, random.randrange(64), random.randrange(4), 0, bpp_opts, seed) +
                      bytes(random.randrange(256) for _ in range(random.randrange(8, 120)))))
cases.append(('upscale-max', hdr(1, 0, 257, 257, 0, 0, 0, 0x20, 3) + bytes(range(256))))
for name, data in cases:
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
print('%d inputs in %s' % (len(cases), out))
