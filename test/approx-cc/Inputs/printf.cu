// printf: clang emits its format as a private global named .str, which
// the NVPTX backend renames (_$_str).
#include <cstdio>
__global__ void s8(float *p) { printf("%f\n", p[0]); p[1] = expf(p[0]); }
