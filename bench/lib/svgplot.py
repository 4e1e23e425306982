"""svgplot.py - the one SVG plot module of the bench report scripts.

Line, scatter and grouped-bar plots with axes (linear, log10 or log2),
tick labels, axis titles, reference lines, ringed markers, per-point
tooltips and labels, and a legend, written as one self-contained SVG
document (no script, no external font or style). Standard library only: it
runs on the GPU machine too. runtime/tune/Plot.h is the C++ twin, used by
approx-tune and approx-perforation-tune; the two draw the same way.

    fig = Figure(640, 420, "blur, 1024x1024: error vs speedup")
    ax = fig.axes(xlabel="speedup", ylabel="median error (log)", yscale="log10")
    ax.line(xs, ys, color="#c33", label="Pareto front")
    ax.scatter(xs, ys, color="#69c", radius=2.5, tooltips=names)
    ax.hline(0.05, label="QoS", dash="4 3")
    fig.save("pareto.svg")

Points that are not finite (or not positive on a log axis) are left out;
every text is escaped for XML.
"""
import math

FONT = "DejaVu Sans, Arial, sans-serif"


def esc(text):
    """`text` safe inside an SVG element or attribute; the control
    characters XML 1.0 forbids (even as references) are dropped."""
    text = "".join(c for c in str(text) if c >= " " or c in "\t\n\r")
    return (text.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def num(v):
    """A coordinate: one decimal, no "-0.0"."""
    s = "%.1f" % v
    return "0.0" if s == "-0.0" else s


def nice_step(span, n):
    """A 1, 2, 2.5 or 5 times a power of ten step for about `n` ticks."""
    if not span > 0:
        return 1.0
    raw = span / n
    mag = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * mag >= raw * (1 - 1e-9):
            return m * mag
    return 10 * mag


def tick_text(v):
    """A tick label: short, no exponent between 0.01 and 10^4."""
    if v == 0:
        return "0"
    a = abs(v)
    if 1e-2 <= a < 1e4:
        return ("%.0f" % v) if a >= 10 else ("%.3g" % v)
    return "%.2g" % v


def finite(v):
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


class Axis:
    """One axis: scale, range, ticks, title."""

    def __init__(self, scale="linear", lo=None, hi=None, label="", ticks=None,
                 fmt=None, color="black", grid=False, nticks=5, step=None,
                 nice=False):
        assert scale in ("linear", "log10", "log2")
        self.scale, self.lo, self.hi, self.label = scale, lo, hi, label
        self.ticks, self.fmt, self.color, self.grid = ticks, fmt, color, grid
        self.nticks, self.step, self.nice = nticks, step, nice

    def usable(self, v):
        return finite(v) and (self.scale == "linear" or v > 0)

    def t(self, v):
        """The coordinate of `v` before scaling to pixels."""
        if self.scale == "log10":
            return math.log10(v)
        if self.scale == "log2":
            return math.log2(v)
        return v

    def fit(self, values):
        """Fills the range from `values` where it was not given."""
        vals = [self.t(v) for v in values if self.usable(v)]
        lo = self.t(self.lo) if self.lo is not None else (min(vals) if vals else 0.0)
        hi = self.t(self.hi) if self.hi is not None else (max(vals) if vals else 1.0)
        if hi <= lo:
            hi = lo + (abs(lo) * 0.1 or 1.0)
        if self.nice and self.scale == "linear":
            # Widened to whole tick steps (a top of 1.0, not 0.97).
            step = self.step or nice_step(hi - lo, self.nticks)
            lo = math.floor(lo / step + 1e-9) * step
            hi = math.ceil(hi / step - 1e-9) * step
        self._lo, self._hi = lo, hi

    def frac(self, v):
        """Where `v` falls in [0, 1] along the axis (may pass the ends)."""
        return (self.t(v) - self._lo) / (self._hi - self._lo)

    def tick_values(self):
        """The ticks: given, else nice steps (linear) or powers (log; every
        `step`-th)."""
        if self.ticks is not None:
            return list(self.ticks)
        lo, hi = self._lo, self._hi
        if self.scale == "linear":
            step = self.step or nice_step(hi - lo, self.nticks)
            first = math.ceil(lo / step - 1e-9) * step
            n = int(math.floor((hi - first) / step + 1e-9)) + 1
            return [first + k * step for k in range(max(n, 0))]
        base = 10.0 if self.scale == "log10" else 2.0
        step = self.step or 1
        e0, e1 = math.ceil(lo - 1e-9), math.floor(hi + 1e-9)
        return [base ** e for e in range(int(e0), int(e1) + 1) if e % step == 0]

    def tick_label(self, v):
        """`fmt(v)`, else 1eN / 2^N on log axes, else tick_text."""
        if self.fmt:
            return self.fmt(v)
        if self.scale == "log10":
            return "1e%d" % round(math.log10(v))
        if self.scale == "log2":
            return "2^%d" % round(math.log2(v))
        return tick_text(v)


class Axes:
    """A plot panel at (x, y, w, h) pixels of its figure."""

    def __init__(self, fig, rect, title="", frame="box", **axes):
        self.fig, self.rect, self.title, self.frame = fig, rect, title, frame
        self.x = Axis(**axes.get("x", {}))
        self.y = Axis(**axes.get("y", {}))
        self.y2 = Axis(**axes["y2"]) if "y2" in axes else None
        self.items, self.legend_items, self.bar_groups = [], [], None
        self.legend_pos = "bottom"

    # -- contents -----------------------------------------------------------
    def line(self, xs, ys, color="black", label=None, width=2.0, dash=None,
             radius=0.0, tooltips=None, labels=None, right=False, join=True,
             clip=False):
        """Points (xs[i], ys[i]), joined unless `join` is false, a circle of
        `radius` at each, a <title> tooltip and a text label per point when
        given; `right` measures y on the second y axis; `clip` keeps y
        inside the axis range."""
        self.items.append(("series", dict(xs=list(xs), ys=list(ys), color=color,
                                          width=width, dash=dash, radius=radius,
                                          tooltips=tooltips, labels=labels,
                                          right=right, join=join, clip=clip)))
        if label:
            self.legend_items.append(("line" if join else "dot", color, dash, label))

    def scatter(self, xs, ys, color="black", radius=3.0, **kw):
        """Unjoined points (line(..., join=False))."""
        self.line(xs, ys, color=color, radius=radius, join=False, **kw)

    def hline(self, y, color="#999", dash=None, label=None, legend=None,
              width=1.0, right=False, anchor="end"):
        """A horizontal line at y, its `label` written on it at the `anchor`
        end ("end", "start") or right of the panel ("outside"), `legend`
        its legend entry."""
        self.items.append(("hline", dict(v=y, color=color, dash=dash, label=label,
                                         width=width, right=right, anchor=anchor)))
        if legend:
            self.legend_items.append(("line", color, dash, legend))

    def vline(self, x, color="#999", dash=None, label=None, legend=None, width=1.0):
        """A vertical line at x, `label` written beside its top."""
        self.items.append(("vline", dict(v=x, color=color, dash=dash, label=label,
                                         width=width)))
        if legend:
            self.legend_items.append(("line", color, dash, legend))

    def ring(self, x, y, radius=6.0, color="black", label=None, right=False):
        """A ring around (x, y); `label` beside it."""
        self.items.append(("ring", dict(x=x, y=y, radius=radius, color=color,
                                        label=label, right=right)))

    def bars(self, groups, series, values, tooltips=None, rotate=0):
        """Grouped bars: one group per name of `groups` (its label under the
        x axis, rotated by `rotate` degrees), one bar per (name, color) of
        `series`; values[g][s] is the height (None: no bar); tooltips[g][s]
        the bar's <title>. The x axis becomes the groups."""
        self.bar_groups = dict(groups=list(groups), series=list(series),
                               values=values, tooltips=tooltips, rotate=rotate)
        for name, color in series:
            self.legend_items.append(("box", color, None, name))

    def legend(self, pos):
        """Where the legend goes: "bottom" (under the x title), "top" (over
        the panel), "right" (a column right of the panel) or None."""
        self.legend_pos = pos

    # -- drawing ------------------------------------------------------------
    def _fit(self):
        xs, ys, y2s = [], [], []
        for kind, d in self.items:
            if kind == "series":
                xs += d["xs"]
                (y2s if d["right"] else ys).extend(d["ys"])
            elif kind == "hline":
                (y2s if d["right"] else ys).append(d["v"])
            elif kind == "vline":
                xs.append(d["v"])
            elif kind == "ring":
                xs.append(d["x"])
                (y2s if d["right"] else ys).append(d["y"])
        if self.bar_groups:
            ys += [v for g in self.bar_groups["values"] for v in g if finite(v)]
            self.x = Axis(lo=0, hi=max(len(self.bar_groups["groups"]), 1),
                          ticks=[], label=self.x.label)
        self.x.fit(xs)
        self.y.fit(ys)
        if self.y2:
            self.y2.fit(y2s)

    def _px(self, v):
        x0, _, w, _ = self.rect
        return x0 + w * self.x.frac(v)

    def _py(self, v, right=False, clip=False):
        _, y0, _, h = self.rect
        f = (self.y2 if right else self.y).frac(v)
        if clip:
            f = min(max(f, 0.0), 1.0)
        return y0 + h * (1 - f)

    def draw(self, out):
        self._fit()
        x0, y0, w, h = self.rect
        fs = self.fig.font_size
        if self.title:
            out.append('<text x="%s" y="%s">%s</text>' % (num(x0), num(y0 - 4), esc(self.title)))
        # Grid and ticks.
        for v in self.y.tick_values():
            if not self.y.usable(v):
                continue
            y = self._py(v)
            if self.y.grid:
                out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e4e4e4"/>'
                           % (num(x0), num(y), num(x0 + w), num(y)))
            out.append('<text x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                       % (num(x0 - 6), num(y + fs / 3), self.y.color, esc(self.y.tick_label(v))))
        if self.y2:
            for v in self.y2.tick_values():
                if self.y2.usable(v):
                    out.append('<text x="%s" y="%s" fill="%s">%s</text>'
                               % (num(x0 + w + 6), num(self._py(v, True) + fs / 3),
                                  self.y2.color, esc(self.y2.tick_label(v))))
        for v in self.x.tick_values():
            if not self.x.usable(v):
                continue
            x = self._px(v)
            out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>'
                       % (num(x), num(y0 + h), num(x), num(y0 + h + 4)))
            out.append('<text x="%s" y="%s" text-anchor="middle" fill="%s">%s</text>'
                       % (num(x), num(y0 + h + 4 + fs), self.x.color, esc(self.x.tick_label(v))))
        if self.frame == "box":
            out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#999"/>'
                       % (num(x0), num(y0), num(w), num(h)))
        elif self.frame == "axes":
            out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>'
                       % (num(x0), num(y0 + h), num(x0 + w), num(y0 + h)))
            out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>'
                       % (num(x0), num(y0 + h), num(x0), num(y0)))
        # Axis titles.
        if self.x.label:
            out.append('<text x="%s" y="%s" text-anchor="middle">%s</text>'
                       % (num(x0 + w / 2), num(y0 + h + 10 + 2.4 * fs), esc(self.x.label)))
        if self.y.label:
            cx, cy = max(x0 - 3.2 * fs - 8, fs + 2), y0 + h / 2
            out.append('<text transform="translate(%s,%s) rotate(-90)" text-anchor="middle" fill="%s">%s</text>'
                       % (num(cx), num(cy), self.y.color, esc(self.y.label)))
        if self.y2 and self.y2.label:
            cx, cy = x0 + w + 5.5 * fs + 10, y0 + h / 2
            out.append('<text transform="translate(%s,%s) rotate(90)" text-anchor="middle" fill="%s">%s</text>'
                       % (num(cx), num(cy), self.y2.color, esc(self.y2.label)))
        if self.bar_groups:
            self._draw_bars(out)
        for kind, d in self.items:
            getattr(self, "_draw_" + kind)(out, d)
        self._draw_legend(out)

    def _dash(self, dash):
        return ' stroke-dasharray="%s"' % dash if dash else ""

    def _draw_series(self, out, d):
        ax_y = self.y2 if d["right"] else self.y
        pts = [(i, x, y) for i, (x, y) in enumerate(zip(d["xs"], d["ys"]))
               if self.x.usable(x) and ax_y.usable(y)]
        coords = [(i, self._px(x), self._py(y, d["right"], d["clip"])) for i, x, y in pts]
        if d["join"] and len(coords) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="%g"%s points="%s"/>'
                       % (d["color"], d["width"], self._dash(d["dash"]),
                          " ".join("%s,%s" % (num(x), num(y)) for _, x, y in coords)))
        for i, x, y in coords:
            tip = d["tooltips"][i] if d["tooltips"] else None
            if d["radius"] > 0:
                out.append('<circle cx="%s" cy="%s" r="%g" fill="%s">%s</circle>'
                           % (num(x), num(y), d["radius"], d["color"],
                              "<title>%s</title>" % esc(tip) if tip else ""))
            if d["labels"] and d["labels"][i]:
                out.append(self._label(x, y, d["radius"], d["labels"][i]))

    def _draw_hline(self, out, d):
        ax_y = self.y2 if d["right"] else self.y
        if not ax_y.usable(d["v"]):
            return
        x0, _, w, _ = self.rect
        y = self._py(d["v"], d["right"])
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%g"%s/>'
                   % (num(x0), num(y), num(x0 + w), num(y), d["color"], d["width"],
                      self._dash(d["dash"])))
        if d["label"] and d["anchor"] == "outside":
            out.append('<text x="%s" y="%s" fill="%s">%s</text>'
                       % (num(x0 + w + 10), num(y + self.fig.font_size / 3), d["color"],
                          esc(d["label"])))
        elif d["label"]:
            at = x0 + w - 4 if d["anchor"] == "end" else x0 + 6
            out.append('<text x="%s" y="%s" text-anchor="%s" fill="%s">%s</text>'
                       % (num(at), num(y - 4), d["anchor"], d["color"], esc(d["label"])))

    def _draw_vline(self, out, d):
        if not self.x.usable(d["v"]):
            return
        _, y0, _, h = self.rect
        x = self._px(d["v"])
        out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%g"%s/>'
                   % (num(x), num(y0), num(x), num(y0 + h), d["color"], d["width"],
                      self._dash(d["dash"])))
        if d["label"]:
            out.append('<text x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                       % (num(x - 4), num(y0 + 14), d["color"], esc(d["label"])))

    def _draw_ring(self, out, d):
        ax_y = self.y2 if d["right"] else self.y
        if not (self.x.usable(d["x"]) and ax_y.usable(d["y"])):
            return
        x, y = self._px(d["x"]), self._py(d["y"], d["right"])
        out.append('<circle cx="%s" cy="%s" r="%g" fill="none" stroke="%s" stroke-width="2"/>'
                   % (num(x), num(y), d["radius"], d["color"]))
        if d["label"]:
            out.append(self._label(x, y, d["radius"], d["label"], d["color"]))

    def _label(self, x, y, radius, text, color="black"):
        """`text` beside a point: right of it, or left in the panel's last
        quarter, where it would run off the figure."""
        x0, _, w, _ = self.rect
        if x > x0 + 0.75 * w:
            return ('<text x="%s" y="%s" text-anchor="end" fill="%s">%s</text>'
                    % (num(x - radius - 3), num(y - 4), color, esc(text)))
        return ('<text x="%s" y="%s" fill="%s">%s</text>'
                % (num(x + radius + 3), num(y - 4), color, esc(text)))

    def _draw_bars(self, out):
        b = self.bar_groups
        x0, y0, w, h = self.rect
        n = max(len(b["groups"]), 1)
        gw = w / n
        bw = gw * 0.8 / max(len(b["series"]), 1)
        base = self._py(max(self.y._lo, 0) if self.y.scale == "linear" else 10 ** self.y._lo)
        for g, name in enumerate(b["groups"]):
            for s, (sname, color) in enumerate(b["series"]):
                v = b["values"][g][s]
                if not self.y.usable(v):
                    continue
                x, y = x0 + g * gw + gw * 0.1 + s * bw, self._py(v)
                tip = b["tooltips"][g][s] if b["tooltips"] else None
                out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s">%s</rect>'
                           % (num(x), num(min(y, base)), num(bw * 0.9), num(abs(base - y)), color,
                              "<title>%s</title>" % esc(tip) if tip else ""))
            cx, ly = x0 + g * gw + gw / 2, y0 + h + 12
            if b["rotate"]:
                out.append('<text x="%s" y="%s" text-anchor="end" transform="rotate(%g %s %s)">%s</text>'
                           % (num(cx), num(ly), b["rotate"], num(cx), num(ly), esc(name)))
            else:
                out.append('<text x="%s" y="%s" text-anchor="middle">%s</text>'
                           % (num(cx), num(ly), esc(name)))

    def _draw_legend(self, out):
        if not self.legend_items or not self.legend_pos:
            return
        x0, y0, w, h = self.rect
        fs = self.fig.font_size
        if self.legend_pos == "right":
            lx, ly = x0 + w + 12, y0 + fs
        elif self.legend_pos == "top":
            lx, ly = x0, y0 - fs - 4
        else:
            lx, ly = x0, self.fig.height - 8
        for kind, color, dash, label in self.legend_items:
            mid = ly - fs / 3
            if kind == "box":
                out.append('<rect x="%s" y="%s" width="10" height="10" fill="%s"/>'
                           % (num(lx), num(mid - 5), color))
                sw = 14
            elif kind == "dot":
                out.append('<circle cx="%s" cy="%s" r="4" fill="%s"/>' % (num(lx + 8), num(mid), color))
                sw = 19
            else:
                out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>'
                           % (num(lx), num(mid), num(lx + 22), num(mid), color, self._dash(dash)))
                sw = 27
            out.append('<text x="%s" y="%s">%s</text>' % (num(lx + sw), num(ly), esc(label)))
            if self.legend_pos == "right":
                ly += fs + 6
            else:
                lx += sw + 0.6 * fs * len(label) + 16


class Figure:
    """An SVG document of `width` x `height` pixels holding panels."""

    def __init__(self, width, height, title="", font_size=11):
        self.width, self.height, self.title = width, height, title
        self.font_size = font_size
        self.panels = []

    def axes(self, rect=None, title="", frame="axes", xscale="linear",
             yscale="linear", xlabel="", ylabel="", x=None, y=None, y2=None):
        """A panel: `rect` (x, y, w, h) in pixels, default the figure less
        margins for tick labels and titles; x/y/y2 are Axis keyword
        arguments (xscale, yscale, xlabel, ylabel fill in x and y)."""
        if rect is None:
            fs = self.font_size
            left, right = 5.5 * fs + 14, (6.5 * fs + 14) if y2 else 20
            top, bottom = 2.6 * fs + 12, 4.5 * fs + 18
            rect = (left, top, self.width - left - right, self.height - top - bottom)
        xa = dict(dict(scale=xscale, label=xlabel), **(x or {}))
        ya = dict(dict(scale=yscale, label=ylabel), **(y or {}))
        axes = dict(x=xa, y=ya)
        if y2 is not None:
            axes["y2"] = y2
        p = Axes(self, rect, title=title, frame=frame, **axes)
        self.panels.append(p)
        return p

    def svg(self):
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" '
               'viewBox="0 0 %g %g" font-family="%s" font-size="%g">'
               % (self.width, self.height, self.width, self.height, FONT, self.font_size),
               '<rect width="100%" height="100%" fill="white"/>']
        if self.title:
            out.append('<text x="%s" y="%s" text-anchor="middle" font-size="%g" '
                       'font-weight="bold">%s</text>'
                       % (num(self.width / 2), num(self.font_size + 8), self.font_size + 2,
                          esc(self.title)))
        for p in self.panels:
            p.draw(out)
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def save(self, path):
        with open(path, "w") as f:
            f.write(self.svg())
