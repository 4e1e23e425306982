#!/usr/bin/env python3
"""images.py - write scikit-image's bundled photographs and textures as
grayscale uint8 .npy files, the natural-image set of the perforation bench.

    python3 bench/perforation/images.py OUT_DIR

Needs scikit-image (bench/perforation/prepare.sh installs it in a virtual
environment). Images are converted to grayscale (astronaut: ITU-R 601 luma
through skimage.color.rgb2gray) at their own size; nothing is committed.
"""
import os
import sys

NAMES = ["camera", "moon", "brick", "grass", "gravel", "coins", "text", "page",
         "astronaut"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: images.py OUT_DIR")
    try:
        import numpy as np
        from skimage import color, data, util
    except ImportError as e:
        sys.exit(f"images.py: scikit-image is missing ({e}); run "
                 "bench/perforation/prepare.sh")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in NAMES:
        img = getattr(data, name)()
        if img.ndim == 3:
            img = color.rgb2gray(img[..., :3])
        img = util.img_as_ubyte(img)
        if img.ndim != 2:
            sys.exit(f"images.py: {name} is not a 2-D image after conversion")
        np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(img))
        print(f"{name}: {img.shape[0]}x{img.shape[1]}")


if __name__ == "__main__":
    main()
