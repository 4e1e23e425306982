// A device variable named like the default knob: approx-to-ptx refuses, so
// --emit-raised must not leave NAME.raised.mlir behind.
extern "C" __device__ int lambda = 0;
__global__ void k(float *p) { p[0] = expf(p[0]) * lambda; }
