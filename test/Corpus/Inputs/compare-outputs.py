#!/usr/bin/env python3
"""Compares two raw dumps of one kernel argument, element by element.

Usage: compare-outputs.py TYPE OURS.bin UPSTREAM.bin
       compare-outputs.py --self-test

TYPE is a manifest element type: f16, bf16, f32, f64, i1, i8, i16, i32, i64
(little-endian). Prints one line:
  elements=N differ=D max_ulp=U nan_mismatch=M first=INDEX
where max_ulp is the largest distance in units in the last place between the
two values of an element (floats: distance between their positions in the
ordered sequence of representable values, so +0 and -0 are 1 apart; two NaNs
count as equal; a NaN against a number counts in nan_mismatch, not in
max_ulp), or the largest absolute difference for integers. Exit status: 0
when the dumps are bitwise identical, 1 when they differ, 2 on bad input
(different sizes, unknown type).
"""
import struct
import sys

FLOAT = {'f16': ('<H', 16, 5, 10), 'bf16': ('<H', 16, 8, 7),
         'f32': ('<I', 32, 8, 23), 'f64': ('<Q', 64, 11, 52)}
INT = {'i1': '<B', 'i8': '<b', 'i16': '<h', 'i32': '<i', 'i64': '<q',
       'index': '<q'}


def is_nan(bits, width, exp_bits, man_bits):
    exp = (bits >> man_bits) & ((1 << exp_bits) - 1)
    return exp == (1 << exp_bits) - 1 and bits & ((1 << man_bits) - 1) != 0


def ordered(bits, width):
    """Maps float bits to an integer that is monotonic in the float value."""
    sign = bits >> (width - 1)
    mag = bits & ((1 << (width - 1)) - 1)
    return -mag - 1 if sign else mag  # -0 sits one step below +0


def compare(ty, a, b):
    if len(a) != len(b):
        raise ValueError('sizes differ: %d and %d bytes' % (len(a), len(b)))
    if ty in FLOAT:
        fmt, width, eb, mb = FLOAT[ty]
    elif ty in INT:
        fmt = INT[ty]
    else:
        raise ValueError('unknown element type %r' % ty)
    size = struct.calcsize(fmt)
    if len(a) % size:
        raise ValueError('%d bytes is not a whole number of %s' % (len(a), ty))
    n = len(a) // size
    differ = nan_mismatch = 0
    max_ulp = 0
    first = -1
    for i, (x, y) in enumerate(zip(struct.iter_unpack(fmt, a),
                                   struct.iter_unpack(fmt, b))):
        x, y = x[0], y[0]
        if x == y:
            continue
        if ty in FLOAT:
            nx, ny = is_nan(x, width, eb, mb), is_nan(y, width, eb, mb)
            if nx and ny:
                continue
            differ += 1
            if first < 0:
                first = i
            if nx or ny:
                nan_mismatch += 1
                continue
            max_ulp = max(max_ulp, abs(ordered(x, width) - ordered(y, width)))
        else:
            differ += 1
            if first < 0:
                first = i
            max_ulp = max(max_ulp, abs(x - y))
    return n, differ, max_ulp, nan_mismatch, first


def self_test():
    f32 = lambda *v: struct.pack('<%df' % len(v), *v)
    assert compare('f32', f32(1.0, 2.0), f32(1.0, 2.0)) == (2, 0, 0, 0, -1)
    one_up = struct.unpack('<f', struct.pack('<I', 0x3F800001))[0]
    assert compare('f32', f32(1.0), f32(one_up)) == (1, 1, 1, 0, 0)
    assert compare('f32', f32(0.0), f32(-0.0))[2] == 1
    nan = float('nan')
    assert compare('f32', f32(nan), f32(nan)) == (1, 0, 0, 0, -1)
    assert compare('f32', f32(1.0, nan), f32(1.0, 1.0)) == (2, 1, 0, 1, 1)
    tiny = struct.unpack('<f', struct.pack('<I', 1))[0]
    assert compare('f32', f32(-tiny), f32(tiny))[2] == 3  # -tiny, -0, +0, +tiny
    assert compare('i32', struct.pack('<2i', 5, -3),
                   struct.pack('<2i', 5, 4)) == (2, 1, 7, 0, 1)
    h = lambda *v: struct.pack('<%dH' % len(v), *v)
    assert compare('f16', h(0x3C00), h(0x3C02)) == (1, 1, 2, 0, 0)
    assert compare('bf16', h(0x3F80), h(0xBF80))[2] == 2 * 0x3F80 + 1
    d = lambda *v: struct.pack('<%dd' % len(v), *v)
    assert compare('f64', d(1.0), d(1.0 + 2 ** -52)) == (1, 1, 1, 0, 0)
    try:
        compare('f32', f32(1.0), f32(1.0, 2.0))
        raise AssertionError('size mismatch not caught')
    except ValueError:
        pass
    print('compare-outputs: self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    ty, pa, pb = sys.argv[1:]
    try:
        n, differ, ulp, nanm, first = compare(ty, open(pa, 'rb').read(),
                                              open(pb, 'rb').read())
    except (OSError, ValueError) as e:
        print('compare-outputs: %s' % e, file=sys.stderr)
        return 2
    print('elements=%d differ=%d max_ulp=%d nan_mismatch=%d first=%d'
          % (n, differ, ulp, nanm, first))
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
