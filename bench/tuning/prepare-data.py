#!/usr/bin/env python3
"""prepare-data.py - tuning and verification inputs for examples/combined.

    bench/tuning/prepare-data.py OUTDIR [--pip-target DIR] [--no-install]
        [--option-count N] [--lse-rows R] [--hmm-sequences B] [--hmm-steps T]

Writes raw little-endian buffers (what `approx-tune --input I=file:PATH`
reads: exactly the buffer's bytes, row-major) for the three apps of
examples/combined, and OUTDIR/inputs.json describing every file and giving,
per set, the approx-tune arguments that bind it (see "inputs.json" below).

  image_pipeline  blur arg 0 `src` (f64 H x W) and tonemap arg 0 `tmp` (the
                  exact 3x3 blur of src, clamped borders): grayscale images
                  of skimage.data whose native size is 512 x 512, scaled to
                  [0, 1], at 2048 x 2048 (mirrored 4 x 4 tiling) and at 512
                  x 512 ("-512" variant). train = camera, verify-K the rest.
  option_pricing  black_scholes args 2, 3, 4 (price, strike, years; f64, n
                  each): train = the CUDA sample's ranges (price U[5, 30),
                  strike U[1, 100), years U[0.25, 10)); verify sets: another
                  seed, and shifted regimes (deep in / out of the money, at
                  the money with short expiries, listed-option-like).
  logsumexp       logsumexp arg 0 `x` (f64 R x C): the rows whose
                  log-sum-exp hmmlearn's forward pass / posterior / emission
                  code computes (reference lse written beside them);
                  hmm_forward args 0-3 (log2 A, log2 B, log2 pi, obs i32 B x
                  T) of CategoricalHMM models, observations sampled from the
                  model (reference log2-likelihoods from hmmlearn's score).

Train and verify sets come from different images, seeds and models.
Deterministic: fixed seeds, and BLAS/OpenMP pinned to one thread (sklearn's
k-means and the BLAS sums are then reproducible). Idempotent: a set whose
files all exist with the right sizes is kept (read back for the manifest's
statistics and sha256), otherwise written again.

Needs numpy, scikit-image and hmmlearn; whichever is not importable is
installed with `python -m pip install --user` (or --target DIR with
--pip-target DIR, which is put on sys.path). A failed install is a one-line
error (exit 2). skimage.data images are loaded with sockets disabled, so an
image that would need a download (pooch) is skipped, as is one whose shape
is not 512 x 512.

inputs.json: {"schema": "approx-tuning-inputs/1", "root": OUTDIR (absolute),
"versions", "defaults", "sets": [{app, set, tag, description, params}],
"files": [{path (relative to root), app, kernel, set, tag, variant, arg,
name, role ("input", or "reference": the exact result of output argument
`arg`), dtype, shape, bytes, sha256, source, stats {min, max, mean}}],
"runs": [{app, kernel, set, tag, variant, args}]}, where args is the list
of approx-tune arguments binding every argument of the kernel (inputs as
file: with absolute paths, shapes, scalars, block, grid), to follow
`approx-tune MANIFEST --knob ... --method ...`.
"""
import argparse
import contextlib
import hashlib
import importlib
import importlib.util
import json
import math
import os
import site
import socket
import subprocess
import sys
import time

# Before numpy/sklearn load: one thread, so that every sum is reproducible.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

PROG = "prepare-data"
PACKAGES = [("numpy", "numpy"), ("skimage", "scikit-image>=0.20"),
            ("hmmlearn", "hmmlearn>=0.3")]
SCHEMA = "approx-tuning-inputs/1"

np = None  # numpy, imported after ensure_packages


def die(msg, code=2):
    print(f"{PROG}: error: {msg}", file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------------------
# Packages

def ensure_packages(target, allow_install):
    if target:
        target = os.path.abspath(target)
        os.makedirs(target, exist_ok=True)
        sys.path.insert(0, target)
        importlib.invalidate_caches()
    missing = [spec for mod, spec in PACKAGES if importlib.util.find_spec(mod) is None]
    if missing:
        names = " ".join(missing)
        if not allow_install:
            die(f"missing packages (--no-install given): {names}")
        cmd = [sys.executable, "-m", "pip", "install", "--quiet",
               "--disable-pip-version-check", "--no-input"]
        cmd += ["--target", target] if target else ["--user"]
        cmd += missing
        print(f"{PROG}: installing {names} ({'--target ' + target if target else '--user'})",
              flush=True)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 and "externally-managed-environment" in r.stdout + r.stderr:
            r = subprocess.run(cmd + ["--break-system-packages"], capture_output=True, text=True)
        if r.returncode != 0:
            lines = [l.strip() for l in (r.stderr + r.stdout).splitlines()
                     if l.strip() and not l.startswith("WARNING")]
            die(f"cannot install {names}: pip exited {r.returncode}: "
                f"{lines[-1] if lines else 'no output'}")
        if not target:
            site.addsitedir(site.getusersitepackages())
        importlib.invalidate_caches()
    global np
    try:
        import numpy
        import skimage
        import skimage.color
        import skimage.data
        import hmmlearn
        import hmmlearn.hmm
    except Exception as e:  # an install that does not import (ABI, partial)
        die(f"cannot import the installed packages: {type(e).__name__}: {e}")
    np = numpy
    import logging
    logging.getLogger("hmmlearn").setLevel(logging.ERROR)
    return {"python": sys.version.split()[0], "numpy": numpy.__version__,
            "scikit-image": skimage.__version__, "hmmlearn": hmmlearn.__version__}


# ---------------------------------------------------------------------------
# Files and sets

DTYPES = {"f64": "<f8", "i32": "<i4"}


class Item:
    """One file: a kernel argument of one set (or its reference result)."""

    def __init__(self, key, path, app, kernel, setname, tag, variant, arg, name,
                 dtype, shape, source, role="input"):
        self.key, self.path, self.app, self.kernel = key, path, app, kernel
        self.set, self.tag, self.variant, self.arg, self.name = setname, tag, variant, arg, name
        self.dtype, self.shape, self.source, self.role = dtype, tuple(shape), source, role

    @property
    def nbytes(self):
        return int(np.prod(self.shape)) * np.dtype(DTYPES[self.dtype]).itemsize


class SetSpec:
    def __init__(self, app, setname, tag, description, params, items, make, runs):
        self.app, self.set, self.tag = app, setname, tag
        self.description, self.params = description, params
        self.items, self.make, self.runs = items, make, runs


def shp(shape):
    return "x".join(str(d) for d in shape)


def fbind(item, root):
    return f"{item.arg}=file:{os.path.join(root, item.path)}"


def write_raw(path, arr, dtype):
    arr = np.ascontiguousarray(arr, dtype=DTYPES[dtype])
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        arr.tofile(f)
    os.replace(tmp, path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 24), b""):
            h.update(chunk)
    return h.hexdigest()


def lse_rows(x):
    """Row-wise log-sum-exp, max-shifted (the kernel's formula), f64."""
    m = x.max(axis=1)
    return m + np.log(np.exp(x - m[:, None]).sum(axis=1))


# ---------------------------------------------------------------------------
# image_pipeline

@contextlib.contextmanager
def no_network():
    """Every socket connect fails: a loader that would download raises."""
    def refuse(*a, **k):
        raise OSError("network disabled while loading skimage.data")
    saved = (socket.socket.connect, socket.socket.connect_ex, socket.create_connection)
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    try:
        yield
    finally:
        socket.socket.connect, socket.socket.connect_ex, socket.create_connection = saved


def u8(a):
    if a.dtype != np.uint8:
        raise ValueError(f"expected uint8, got {a.dtype}")
    return a.astype(np.float64) / 255.0


def minmax(a):
    a = a.astype(np.float64)
    lo, hi = a.min(), a.max()
    return (a - lo) / (hi - lo)


def image_candidates():
    import skimage.data as d
    import skimage.color as c

    def blobs():
        try:
            b = d.binary_blobs(length=512, blob_size_fraction=0.1, volume_fraction=0.5, rng=7)
        except TypeError:  # scikit-image < 0.21 calls it seed
            b = d.binary_blobs(length=512, blob_size_fraction=0.1, volume_fraction=0.5, seed=7)
        return b.astype(np.float64)

    return [
        ("camera", "skimage.data.camera() (uint8) / 255", lambda: u8(d.camera())),
        ("astronaut", "skimage.color.rgb2gray(skimage.data.astronaut())",
         lambda: c.rgb2gray(d.astronaut())),
        ("brick", "skimage.data.brick() (uint8) / 255", lambda: u8(d.brick())),
        ("grass", "skimage.data.grass() (uint8) / 255", lambda: u8(d.grass())),
        ("gravel", "skimage.data.gravel() (uint8) / 255", lambda: u8(d.gravel())),
        ("moon", "skimage.data.moon() (uint8) / 255", lambda: u8(d.moon())),
        ("ihc-gray", "skimage.color.rgb2gray(skimage.data.immunohistochemistry())",
         lambda: c.rgb2gray(d.immunohistochemistry())),
        ("ihc-hematoxylin", "skimage.color.rgb2hed(skimage.data.immunohistochemistry())"
         "[..., 0] (hematoxylin stain), min-max scaled",
         lambda: minmax(c.rgb2hed(d.immunohistochemistry())[..., 0])),
        ("ihc-dab", "skimage.color.rgb2hed(skimage.data.immunohistochemistry())"
         "[..., 2] (DAB stain), min-max scaled",
         lambda: minmax(c.rgb2hed(d.immunohistochemistry())[..., 2])),
        ("blobs", "skimage.data.binary_blobs(512, blob_size_fraction=0.1, "
         "volume_fraction=0.5, rng=7) as 0/1 (synthetic, hard edges)", blobs),
    ]


def load_images(native):
    loaded, skipped = [], []
    with no_network():
        for tag, desc, fn in image_candidates():
            try:
                img = np.asarray(fn(), dtype=np.float64)
            except Exception as e:
                skipped.append((tag, f"{type(e).__name__}: {str(e).splitlines()[0][:80]}"))
                continue
            if img.shape != (native, native):
                skipped.append((tag, f"shape {img.shape}, not {native}x{native}"))
                continue
            if not (np.isfinite(img).all() and img.min() >= 0.0 and img.max() <= 1.0):
                skipped.append((tag, "values outside [0, 1]"))
                continue
            loaded.append((tag, desc, img))
    return loaded, skipped


def mirror_tile(img, reps):
    """reps x reps tiles; odd tile columns mirrored left-right, odd tile rows
    up-down, so the image continues seamlessly at every seam."""
    row = np.concatenate([img if j % 2 == 0 else img[:, ::-1] for j in range(reps)], axis=1)
    return np.concatenate([row if i % 2 == 0 else row[::-1, :] for i in range(reps)], axis=0)


def blur(img):
    """The blur kernel, accurate scheme: 1 2 1 / 2 4 2 / 1 2 1 over 16, clamped
    borders, in the kernel's order of f64 operations (every multiplication is
    by a power of two, so the GPU result is bitwise this one)."""
    p = np.pad(img, 1, mode="edge")
    h, w = img.shape
    a = lambda i, j: p[i:i + h, j:j + w]
    corners = (a(0, 0) + a(0, 2)) + (a(2, 0) + a(2, 2))
    edges = (a(0, 1) + a(2, 1)) + (a(1, 0) + a(1, 2))
    return ((corners + edges * 2.0) + a(1, 1) * 4.0) * 0.0625


TONEMAP = {"exposure": 4.0, "white": 1.0, "vignette": 0.5, "inv_gamma": 0.4545}


def image_sets(root, native=512, reps=4):
    loaded, skipped = load_images(native)
    if not loaded or loaded[0][0] != "camera":
        die("skimage.data.camera() did not load offline at 512x512: no training image")
    big = native * reps
    specs, k = [], 0
    for tag, desc, img in loaded:
        if tag == "camera":
            setname = "train"
        else:
            k += 1
            setname = f"verify-{k}"
        items, runs = {}, []
        for variant, size in (("2048", big), ("512", native)):
            sfx = "" if variant == "2048" else f"-{native}"
            how = (f"mirrored {reps}x{reps} tiling to {big}x{big}" if variant == "2048"
                   else f"native {native}x{native}")
            base = f"image/{setname}-{tag}{sfx}"
            src = Item(f"src{sfx}", f"{base}.src.f64", "image_pipeline", "blur", setname, tag,
                       variant, 0, "src", "f64", (size, size), f"{desc}, {how}")
            tmp = Item(f"tmp{sfx}", f"{base}.tmp.f64", "image_pipeline", "tonemap", setname, tag,
                       variant, 0, "tmp", "f64", (size, size),
                       f"blur of {base}.src.f64 (3x3 Gaussian, clamped borders; "
                       f"the accurate blur's output, bitwise)")
            items[src.key], items[tmp.key] = src, tmp
            launch = ["--block", "32,8", "--grid", f"{math.ceil(size / 32)},{math.ceil(size / 8)}"]
            shapes = ["--shape", f"0={size}x{size}", "--shape", f"1={size}x{size}"]
            runs.append(("blur", variant, ["--kernel", "blur", "--input", fbind(src, root)]
                         + shapes + launch))
            runs.append(("tonemap", variant, ["--kernel", "tonemap", "--input", fbind(tmp, root)]
                         + shapes + ["--scalar", f"2={TONEMAP['exposure']}",
                                     "--scalar", f"3={TONEMAP['white']}",
                                     "--scalar", f"4={TONEMAP['vignette']}",
                                     "--scalar", f"5={TONEMAP['inv_gamma']}"] + launch))

        def make(img=img):
            tiled = mirror_tile(img, reps)
            return {"src": tiled, "tmp": blur(tiled), f"src-{native}": img,
                    f"tmp-{native}": blur(img)}

        specs.append(SetSpec("image_pipeline", setname, tag, desc,
                             {"native": [native, native], "tiled": [big, big],
                              "tiling": f"mirrored {reps}x{reps}", "tonemap_scalars": TONEMAP},
                             list(items.values()), make, runs))
    return specs, skipped


# ---------------------------------------------------------------------------
# option_pricing

RISKFREE, VOLATILITY = 0.02, 0.30
LISTED_DAYS = [7, 14, 21, 28, 35, 63, 91, 119, 182, 273, 364, 546, 728, 910]
LISTED_WEIGHTS = [12, 9, 7, 7, 8, 10, 9, 6, 9, 5, 7, 4, 4, 3]


def opt_uniform(rng, n):
    return rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n)


def opt_deep_itm(rng, n):
    s = rng.uniform(5, 30, n)
    return s, s * rng.uniform(0.2, 0.6, n), rng.uniform(0.25, 10, n)


def opt_deep_otm(rng, n):
    s = rng.uniform(5, 30, n)
    return s, s * rng.uniform(1.8, 4.0, n), rng.uniform(0.25, 2, n)


def opt_atm_short(rng, n):
    s = rng.uniform(5, 30, n)
    return s, s * np.exp(rng.normal(0.0, 0.03, n)), rng.uniform(1 / 365, 30 / 365, n)


def opt_listed(rng, n):
    s = np.clip(100.0 * np.exp(rng.normal(0.0, 0.6, n)), 1.0, 2000.0)
    m = np.clip(rng.normal(1.0, 0.15, n), 0.5, 1.6)
    inc = np.select([s < 25, s < 200], [0.5, 2.5], 5.0)
    x = np.maximum(np.round(s * m / inc) * inc, inc)
    w = np.asarray(LISTED_WEIGHTS, dtype=np.float64)
    t = rng.choice(np.asarray(LISTED_DAYS, dtype=np.float64), size=n, p=w / w.sum()) / 365.0
    return s, x, t


OPTION_SETS = [
    ("train", "uniform", 2001, opt_uniform,
     "the CUDA sample's ranges: price U[5,30), strike U[1,100), years U[0.25,10)"),
    ("verify-1", "uniform", 2002, opt_uniform, "as train, another seed"),
    ("verify-2", "deep-itm", 2003, opt_deep_itm,
     "deep in the money (calls): price U[5,30), strike = price * U[0.2,0.6), years U[0.25,10)"),
    ("verify-3", "deep-otm", 2004, opt_deep_otm,
     "deep out of the money (calls): price U[5,30), strike = price * U[1.8,4), years U[0.25,2)"),
    ("verify-4", "atm-short", 2005, opt_atm_short,
     "at the money, short expiries: price U[5,30), strike = price * exp(N(0,0.03)), "
     "years U[1/365,30/365) (1 day to 1 month)"),
    ("verify-5", "listed", 2006, opt_listed,
     "listed-option-like: price 100*exp(N(0,0.6)) clipped to [1,2000], strike = "
     "round(price * clip(N(1,0.15),0.5,1.6)) to the listing increment (0.5 below 25, "
     "2.5 below 200, else 5), years from listed expiries 7..910 days (weighted to short)"),
]


def option_sets(root, n):
    specs = []
    for setname, tag, seed, fn, desc in OPTION_SETS:
        items = []
        for arg, name in ((2, "price"), (3, "strike"), (4, "years")):
            items.append(Item(name, f"options/{setname}-{tag}.{name}.f64", "option_pricing",
                              "black_scholes", setname, tag, str(n), arg, name, "f64", (n,),
                              f"numpy default_rng({seed}) ({fn.__name__}): {desc}"))

        def make(fn=fn, seed=seed):
            s, x, t = fn(np.random.default_rng(seed), n)
            assert (s > 0).all() and (x > 0).all() and (t > 0).all()
            return {"price": s, "strike": x, "years": t}

        args = ["--kernel", "black_scholes"]
        for it in items:
            args += ["--input", fbind(it, root)]
        for arg in range(5):
            args += ["--shape", f"{arg}={n}"]
        args += ["--scalar", f"5={RISKFREE}", "--scalar", f"6={VOLATILITY}", "--scalar", f"7={n}",
                 "--block", "128", "--grid", str(math.ceil(n / 128))]
        specs.append(SetSpec("option_pricing", setname, tag, desc,
                             {"seed": seed, "n": n, "riskfree": RISKFREE,
                              "volatility": VOLATILITY},
                             items, make, [("black_scholes", str(n), args)]))
    return specs


# ---------------------------------------------------------------------------
# logsumexp: models

FLOOR = 1e-12


def floor_rows(p):
    """Probabilities floored at FLOOR and renormalised: every log finite."""
    p = np.maximum(np.asarray(p, dtype=np.float64), FLOOR)
    return p / p.sum(axis=-1, keepdims=True)


def cat_model(n, m, pi, a, b):
    from hmmlearn import hmm
    model = hmm.CategoricalHMM(n_components=n, n_features=m, init_params="", params="")
    model.startprob_, model.transmat_, model.emissionprob_ = floor_rows(pi), floor_rows(a), floor_rows(b)
    return model


def cat_dirichlet(seed, n, m):
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.ones(n))
    a = rng.dirichlet(np.ones(n), size=n)
    b = rng.dirichlet(np.full(m, 0.5), size=n)
    return cat_model(n, m, pi, a, b)


def cat_sticky(seed, n, m):
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.full(n, 0.5))
    leave = rng.uniform(0.02, 0.2, n)
    a = rng.dirichlet(np.full(n, 0.3), size=n) * leave[:, None]
    a[np.arange(n), np.arange(n)] += 1.0 - leave
    b = rng.dirichlet(np.full(m, 0.2), size=n)
    return cat_model(n, m, pi, a, b)


def cat_fitted(seed, n, m, fit_sequences=200, fit_steps=100):
    """EM (hmmlearn's fit, random init; the scaling forward-backward, 8x
    faster than the log one here) on sequences of a sticky model."""
    from hmmlearn import hmm
    gen = cat_sticky(seed, n, m)
    rs = np.random.RandomState(seed)
    x = np.concatenate([gen.sample(fit_steps, random_state=rs)[0] for _ in range(fit_sequences)])
    model = hmm.CategoricalHMM(n_components=n, n_features=m, n_iter=30, tol=1e-3,
                               random_state=seed, implementation="scaling")
    model.fit(x, lengths=[fit_steps] * fit_sequences)
    return cat_model(n, m, model.startprob_, model.transmat_, model.emissionprob_)


def gauss_model(seed, k, dims):
    from hmmlearn import hmm
    rng = np.random.default_rng(seed)
    model = hmm.GaussianHMM(n_components=k, covariance_type="diag", init_params="", params="")
    model.n_features = dims  # set by fit() otherwise; the covars_ property needs it
    model.startprob_ = floor_rows(rng.dirichlet(np.ones(k)))
    leave = rng.uniform(0.05, 0.3, k)
    a = rng.dirichlet(np.full(k, 0.5), size=k) * leave[:, None]
    a[np.arange(k), np.arange(k)] += 1.0 - leave
    model.transmat_ = floor_rows(a)
    model.means_ = rng.normal(0.0, 3.0, (k, dims))
    model.covars_ = rng.uniform(0.3, 2.0, (k, dims))
    return model


def gauss_sample(model, seed, chains, steps):
    """chains x steps frames of a diagonal GaussianHMM, the chains advanced
    together (hmmlearn's sample() draws one frame in ~0.3 ms)."""
    rng = np.random.default_rng(seed)
    k = model.n_components
    cum_a = np.cumsum(model.transmat_, axis=1)
    z = np.empty((chains, steps), dtype=np.int64)
    z[:, 0] = np.minimum(np.searchsorted(np.cumsum(model.startprob_), rng.random(chains)), k - 1)
    for t in range(1, steps):
        u = rng.random(chains)
        z[:, t] = np.minimum((cum_a[z[:, t - 1]] < u[:, None]).sum(axis=1), k - 1)
    sd = np.sqrt(model.covars_[:, :] if model.covars_.ndim == 2 else
                 np.stack([np.diag(c) for c in model.covars_]))
    x = model.means_[z] + sd[z] * rng.standard_normal(z.shape + (model.means_.shape[1],))
    return x  # chains x steps x dims


def forward_log(model, x):
    """hmmlearn's log-space forward lattice of one sequence (and log P)."""
    log_frame = model._compute_log_likelihood(x)
    try:
        from hmmlearn import _hmmc
        logp, fwd = _hmmc.forward_log(model.startprob_, model.transmat_, log_frame)
        return logp, fwd, log_frame
    except (ImportError, AttributeError):
        la = np.log(model.transmat_)
        fwd = np.empty_like(log_frame)
        fwd[0] = np.log(model.startprob_) + log_frame[0]
        for t in range(1, len(x)):
            y = fwd[t - 1][:, None] + la
            fwd[t] = lse_rows(y.T) + log_frame[t]
        return float(lse_rows(fwd[-1:])[0]), fwd, log_frame


def backward_log(model, x, log_frame):
    try:
        from hmmlearn import _hmmc
        return _hmmc.backward_log(model.startprob_, model.transmat_, log_frame)
    except (ImportError, AttributeError):
        la = np.log(model.transmat_)
        bwd = np.zeros_like(log_frame)
        for t in range(len(x) - 2, -1, -1):
            bwd[t] = lse_rows(la + (log_frame[t + 1] + bwd[t + 1])[None, :])
        return bwd


def rows_forward_inner(model, seed, rows, steps):
    """The forward pass's sums: row (t, j) = log alpha_{t-1}(i) + log A[i][j]
    over i, whose log-sum-exp is log alpha_t(j) - log B[j][o_t]; sequences of
    `steps` symbols sampled from the model (hmmlearn sample)."""
    n = model.n_components
    per = (steps - 1) * n
    nseq = math.ceil(rows / per)
    la = np.log(model.transmat_)
    out = np.empty((nseq * per, n))
    ref = np.empty(nseq * per)
    rs = np.random.RandomState(seed)
    worst = 0.0
    for s in range(nseq):
        x, _ = model.sample(steps, random_state=rs)
        _, fwd, log_frame = forward_log(model, x)
        blk = (fwd[:-1, :, None] + la[None, :, :]).transpose(0, 2, 1).reshape(-1, n)
        out[s * per:(s + 1) * per] = blk
        ref[s * per:(s + 1) * per] = lse_rows(blk)
        want = (fwd[1:] - log_frame[1:]).reshape(-1)
        worst = max(worst, float(np.max(np.abs(ref[s * per:(s + 1) * per] - want)
                                     / np.maximum(1.0, np.abs(want)))))
    if worst > 1e-9:
        die(f"forward-pass rows disagree with hmmlearn's lattice ({worst:.3e})")
    return out[:rows], ref[:rows]


def rows_emission(model, seed, rows, chains=512):
    """GaussianHMM._compute_log_likelihood of frames sampled from the model:
    row = the per-state log densities of one frame (its lse: the frame's
    log density under the mixture)."""
    x = gauss_sample(model, seed, chains, math.ceil(rows / chains)).reshape(-1, model.means_.shape[1])
    out = model._compute_log_likelihood(x[:rows])
    return out, lse_rows(out)


def rows_posterior(seed, rows, k=32, dims=8, steps=256, fit_frames=16384):
    """log alpha_t + log beta_t of a GaussianHMM fitted by EM (hmmlearn fit,
    k-means init) to frames of another GaussianHMM, on other frames of that
    model: the rows hmmlearn's
    posterior normalises (their lse is the sequence's log-likelihood)."""
    from hmmlearn import hmm
    gen = gauss_model(seed, 64, dims)
    nseq = math.ceil(rows / steps)
    fit_seqs = fit_frames // steps
    x_fit = gauss_sample(gen, seed + 1, fit_seqs, steps)
    x = gauss_sample(gen, seed + 2, nseq, steps)
    model = hmm.GaussianHMM(n_components=k, covariance_type="diag", n_iter=20, tol=1e-2,
                            random_state=seed, implementation="scaling")
    model.fit(x_fit.reshape(-1, dims), lengths=[steps] * fit_seqs)
    model.startprob_ = floor_rows(model.startprob_)
    model.transmat_ = floor_rows(model.transmat_)
    out = np.empty((nseq * steps, k))
    worst = 0.0
    for s in range(nseq):
        logp, fwd, log_frame = forward_log(model, x[s])
        bwd = backward_log(model, x[s], log_frame)
        blk = fwd + bwd
        out[s * steps:(s + 1) * steps] = blk
        worst = max(worst, float(np.max(np.abs(lse_rows(blk) - logp)) / max(1.0, abs(logp))))
    if worst > 1e-9:
        die(f"posterior rows disagree with hmmlearn's log-likelihood ({worst:.3e})")
    out = out[:rows]
    return out, lse_rows(out), model


LSE_SETS = [
    # setname, tag, seed, kind, C, description
    ("train", "cat128-forward", 3001, "forward", 128,
     "CategoricalHMM (N=128, M=16; pi, A ~ Dirichlet(1), B ~ Dirichlet(0.5)): the sums of "
     "hmmlearn's log forward pass, row (t, j) = log alpha_{t-1}(:) + log A[:, j], over "
     "sequences of 64 symbols sampled from the model"),
    ("verify-1", "cat128-forward", 3002, "forward", 128, "as train, another model and seed"),
    ("verify-2", "sticky128-forward", 3003, "forward", 128,
     "sticky CategoricalHMM (N=128, M=16; A = (1-e) I + e Dirichlet(0.3), e ~ U[0.02,0.2), "
     "B ~ Dirichlet(0.2): peaked rows, wide range), forward-pass sums as train"),
    ("verify-3", "gauss128-emission", 3004, "emission", 128,
     "GaussianHMM (128 states, 8-dim diagonal; means N(0,3^2), variances U[0.3,2)): "
     "_compute_log_likelihood of frames sampled from the model (per-state log densities)"),
    ("verify-4", "gauss32-posterior", 3005, "posterior", 32,
     "GaussianHMM (32 states, diagonal) fitted by EM to frames of a 64-state GaussianHMM: "
     "log alpha_t + log beta_t over sequences of 256 frames (the rows hmmlearn's posterior "
     "normalises)"),
]


def lse_sets(root, rows):
    specs = []
    for setname, tag, seed, kind, cols, desc in LSE_SETS:
        x = Item("x", f"logsumexp/{setname}-{tag}.x.f64", "logsumexp", "logsumexp", setname, tag,
                 f"{rows}x{cols}", 0, "x", "f64", (rows, cols), f"hmmlearn, seed {seed}: {desc}")
        ref = Item("lse", f"logsumexp/{setname}-{tag}.lse-ref.f64", "logsumexp", "logsumexp",
                   setname, tag, f"{rows}x{cols}", 1, "lse", "f64", (rows,),
                   "row-wise max-shifted log-sum-exp of x in numpy f64 (the kernel's formula)",
                   role="reference")

        def make(kind=kind, seed=seed, tag=tag):
            if kind == "forward":
                model = (cat_dirichlet(seed, 128, 16) if "sticky" not in tag
                         else cat_sticky(seed, 128, 16))
                xs, lse = rows_forward_inner(model, seed, rows, steps=64)
            elif kind == "emission":
                xs, lse = rows_emission(gauss_model(seed, 128, 8), seed, rows)
            else:
                xs, lse, _ = rows_posterior(seed, rows)
            return {"x": xs, "lse": lse}

        args = ["--kernel", "logsumexp", "--input", fbind(x, root),
                "--shape", f"0={rows}x{cols}", "--shape", f"1={rows}",
                "--block", "256", "--grid", str(math.ceil(rows / 256))]
        specs.append(SetSpec("logsumexp", setname, tag, desc,
                             {"seed": seed, "rows": rows, "cols": cols, "kind": kind},
                             [x, ref], make, [("logsumexp", f"{rows}x{cols}", args)]))
    return specs


HMM_SETS = [
    # setname, tag, seed, kind, N, M, B, T scale, description
    ("train", "cat128", 4001, "dirichlet", 128, 16, 1.0,
     "CategoricalHMM N=128, M=16: pi, A ~ Dirichlet(1), B ~ Dirichlet(0.5)"),
    ("verify-1", "cat128", 4002, "dirichlet", 128, 16, 1.0, "as train, another model and seed"),
    ("verify-2", "sticky128", 4003, "sticky", 128, 16, 1.0,
     "sticky CategoricalHMM N=128, M=16: A = (1-e) I + e Dirichlet(0.3), e ~ U[0.02,0.2), "
     "B ~ Dirichlet(0.2)"),
    ("verify-3", "fitted64", 4004, "fitted", 64, 16, 1.0,
     "CategoricalHMM N=64, M=16 fitted by EM (hmmlearn fit, at most 30 iterations, random "
     "init, scaling implementation) to "
     "200 x 100 symbols of a sticky 64-state model"),
    ("verify-4", "cat512", 4005, "dirichlet", 512, 64, 0.125,
     "CategoricalHMM N=512, M=64 (Dirichlet as train), an eighth of the sequences, twice "
     "as long"),
]


def hmm_sets(root, nseq, steps):
    specs = []
    for setname, tag, seed, kind, n, m, scale, desc in HMM_SETS:
        b = max(1, int(nseq * scale))
        t = steps if scale == 1.0 else steps * 2
        base = f"hmm/{setname}-{tag}"
        src = f"hmmlearn {kind} model, seed {seed}: {desc}; probabilities floored at {FLOOR:g}"
        mk = lambda key, arg, dtype, shape, what, role="input": Item(
            key, f"{base}.{key}.{dtype}", "logsumexp", "hmm_forward", setname, tag,
            f"N{n}-M{m}-B{b}-T{t}", arg, key, dtype, shape, what, role)
        items = [mk("la", 0, "f64", (n, n), f"log2 transmat_ of the {src}"),
                 mk("lb", 1, "f64", (n, m), f"log2 emissionprob_ of the {src}"),
                 mk("lpi", 2, "f64", (n,), f"log2 startprob_ of the {src}"),
                 mk("obs", 3, "i32", (b, t),
                    f"{b} sequences of {t} symbols, each model.sample({t}) "
                    f"(RandomState({seed}), one after another)"),
                 mk("out", 4, "f64", (b,),
                    "log2-likelihood of each sequence: hmmlearn score() / ln 2 (scaling "
                    "forward in f64; the first 8 checked against the log one to 1e-10)",
                    "reference")]

        def make(kind=kind, seed=seed, n=n, m=m, b=b, t=t):
            model = {"dirichlet": cat_dirichlet, "sticky": cat_sticky,
                     "fitted": cat_fitted}[kind](seed, n, m)
            rs = np.random.RandomState(seed)
            obs = np.empty((b, t), dtype=np.int64)
            ref = np.empty(b)
            for s in range(b):
                x, _ = model.sample(t, random_state=rs)
                obs[s] = x[:, 0]
            # score() with the scaling forward (8x faster than the log one);
            # the first sequences scored both ways must agree.
            model.implementation = "scaling"
            for s in range(b):
                ref[s] = model.score(obs[s].reshape(-1, 1)) / math.log(2.0)
            model.implementation = "log"
            for s in range(min(b, 8)):
                lg = model.score(obs[s].reshape(-1, 1)) / math.log(2.0)
                if abs(lg - ref[s]) > 1e-10 * abs(lg):
                    die(f"hmmlearn's scaling and log scores differ: {ref[s]!r} vs {lg!r}")
            assert obs.min() >= 0 and obs.max() < m
            return {"la": np.log2(model.transmat_), "lb": np.log2(model.emissionprob_),
                    "lpi": np.log2(model.startprob_), "obs": obs, "out": ref}

        args = ["--kernel", "hmm_forward"]
        for it in items[:4]:
            args += ["--input", fbind(it, root)]
        args += ["--shape", f"0={n}x{n}", "--shape", f"1={n}x{m}", "--shape", f"2={n}",
                 "--shape", f"3={b}x{t}", "--shape", f"4={b}",
                 "--block", str(32 * math.ceil(n / 32)), "--grid", str(b)]
        specs.append(SetSpec("logsumexp", setname, tag, desc,
                             {"seed": seed, "kind": kind, "N": n, "M": m, "B": b, "T": t,
                              "floor": FLOOR, "kernel": "hmm_forward"},
                             items, make, [("hmm_forward", items[0].variant, args)]))
    return specs


# ---------------------------------------------------------------------------

def realise(spec, root):
    """Writes the set's files unless all exist with the right sizes; returns
    per-item (status, stats, sha256)."""
    paths = {it.key: os.path.join(root, it.path) for it in spec.items}
    ok = all(os.path.isfile(p) and os.path.getsize(p) == it.nbytes
             for it, p in zip(spec.items, paths.values()))
    data = None
    if not ok:
        data = spec.make()
        for it in spec.items:
            arr = np.asarray(data[it.key])
            if arr.shape != it.shape:
                die(f"internal: {it.path} has shape {arr.shape}, expected {it.shape}")
            if it.dtype == "f64" and not np.isfinite(arr).all():
                die(f"internal: {it.path} holds non-finite values")
            os.makedirs(os.path.dirname(paths[it.key]), exist_ok=True)
            write_raw(paths[it.key], arr, it.dtype)
    out = {}
    for it in spec.items:
        arr = np.memmap(paths[it.key], dtype=DTYPES[it.dtype], mode="r", shape=it.shape)
        st = {"min": float(arr.min()), "max": float(arr.max()), "mean": float(arr.mean())}
        if it.dtype == "i32":
            st = {k: (int(v) if k != "mean" else v) for k, v in st.items()}
        out[it.key] = ("kept" if ok else "written", st, sha256(paths[it.key]))
        del arr
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--pip-target", metavar="DIR",
                    help="install missing packages here (pip --target) instead of --user, "
                         "and import from here")
    ap.add_argument("--no-install", action="store_true",
                    help="fail instead of installing a missing package")
    ap.add_argument("--option-count", type=int, default=4_000_000, metavar="N",
                    help="options per option_pricing set (default 4000000)")
    ap.add_argument("--lse-rows", type=int, default=131072, metavar="R",
                    help="rows per logsumexp set (default 131072)")
    ap.add_argument("--hmm-sequences", type=int, default=1024, metavar="B",
                    help="sequences per hmm_forward set (default 1024)")
    ap.add_argument("--hmm-steps", type=int, default=100, metavar="T",
                    help="symbols per hmm_forward sequence (default 100)")
    args = ap.parse_args()
    for name in ("option_count", "lse_rows", "hmm_sequences", "hmm_steps"):
        if getattr(args, name) < 2:
            die(f"--{name.replace('_', '-')} must be at least 2")

    t0 = time.time()
    versions = ensure_packages(args.pip_target, not args.no_install)
    root = os.path.abspath(args.outdir)
    os.makedirs(root, exist_ok=True)

    img_specs, skipped = image_sets(root)
    specs = (img_specs + option_sets(root, args.option_count) + lse_sets(root, args.lse_rows)
             + hmm_sets(root, args.hmm_sequences, args.hmm_steps))
    for tag, why in skipped:
        print(f"{PROG}: skipped image {tag}: {why}")
    if len(img_specs) < 10:
        print(f"{PROG}: warning: only {len(img_specs)} images of 512x512 loaded (wanted 10)",
              file=sys.stderr)

    files, runs, sets, rows = [], [], [], []
    for spec in specs:
        ts = time.time()
        res = realise(spec, root)
        dt = time.time() - ts
        sets.append({"app": spec.app, "set": spec.set, "tag": spec.tag,
                     "kernel": sorted({it.kernel for it in spec.items}),
                     "description": spec.description, "params": spec.params,
                     "files": [it.path for it in spec.items]})
        for it in spec.items:
            status, st, digest = res[it.key]
            files.append({"path": it.path, "app": it.app, "kernel": it.kernel, "set": it.set,
                          "tag": it.tag, "variant": it.variant, "arg": it.arg, "name": it.name,
                          "role": it.role, "dtype": it.dtype, "shape": list(it.shape),
                          "bytes": it.nbytes, "sha256": digest, "source": it.source,
                          "stats": st})
            rows.append((it.path, it.dtype, shp(it.shape), it.nbytes, status, st))
        for kernel, variant, a in spec.runs:
            runs.append({"app": spec.app, "kernel": kernel, "set": spec.set, "tag": spec.tag,
                         "variant": variant, "args": a})
        kernels = ",".join(sorted({it.kernel for it in spec.items}))
        print(f"{PROG}: {kernels:<13} {spec.set:<9} {spec.tag:<18} "
              f"{'kept' if all(res[k][0] == 'kept' for k in res) else 'written'} "
              f"({dt:.1f} s)", flush=True)

    manifest = {
        "schema": SCHEMA, "generator": "bench/tuning/prepare-data.py", "root": root,
        "versions": versions,
        "defaults": {"option_count": args.option_count, "lse_rows": args.lse_rows,
                     "hmm_sequences": args.hmm_sequences, "hmm_steps": args.hmm_steps},
        "skipped_images": [{"tag": t, "why": w} for t, w in skipped],
        "sets": sets, "files": files, "runs": runs,
    }
    tmp = os.path.join(root, "inputs.json.part")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    os.replace(tmp, os.path.join(root, "inputs.json"))

    w = max(len(r[0]) for r in rows)
    print(f"\n{'file':<{w}}  {'type':<4} {'shape':>14} {'MiB':>8}  {'status':<7}  range")
    for path, dtype, shape, nbytes, status, st in rows:
        rng = (f"[{st['min']}, {st['max']}]" if dtype == "i32"
               else f"[{st['min']:.4g}, {st['max']:.4g}]")
        print(f"{path:<{w}}  {dtype:<4} {shape:>14} {nbytes / 2**20:8.2f}  {status:<7}  {rng}")
    total = sum(r[3] for r in rows)
    print(f"\n{len(rows)} files, {total / 2**20:.1f} MiB ({total} bytes), {len(runs)} runs; "
          f"{os.path.join(root, 'inputs.json')}; {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
