"""Random draws the generators share: a small geometric count and a weighted
choice, both from the case's own random.Random (so a case depends on
(--seed, index) alone)."""


def geometric(rng, p=0.5, cap=6):
    n = 1
    while n < cap and rng.random() < p:
        n += 1
    return n


def weighted(rng, items):
    total = sum(w for _, w in items)
    x = rng.uniform(0, total)
    for item, w in items:
        x -= w
        if x <= 0:
            return item
    return items[-1][0]
