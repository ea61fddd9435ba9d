package gemm

import "math"

func fma(x, y, z float64) float64 { return math.FMA(x, y, z) }
