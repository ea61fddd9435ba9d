//go:build !(goexperiment.simd && amd64)

package svr

// vectorSMO is false without GOEXPERIMENT=simd on amd64: the solver's loops run as
// written in selectUp, selectLow and updateResid. (A variable, as in the vector build, so
// that the tests can switch the vector paths off.)
var vectorSMO = false

func selectUpVector(resid, alpha, alphaStar []float64, C, eps float64) (done int, up, low float64, iUp int, iStar bool) {
	panic("svr: no vector path in this build")
}

func (s *smo) qualify(resid, alpha, alphaStar, diag, ki []float64, dii, up, C, eps float64) int {
	panic("svr: no vector path in this build")
}

func updateResidVector(resid, ki, kj []float64, delta float64) int {
	panic("svr: no vector path in this build")
}
