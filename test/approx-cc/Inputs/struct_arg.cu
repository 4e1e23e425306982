struct Params { float scale; float shift; };
__global__ void k(Params p, float *out) { out[0] = expf(p.scale) + p.shift; }
