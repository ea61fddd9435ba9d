// Package algo is DP-GIBO: differentially private hyperparameter tuning by local Bayesian
// optimisation (Algorithm 1 of "Differentially Private Hyperparameter Tuning using Local
// Bayesian Optimization").
//
// # The problem
//
// A validation loss is split by validation user, f(theta) = (1/n) sum_i L(theta, x_i), and
// is only available as a black box: an Objective returns the n per-user losses at a theta
// in a box Theta. DP-GIBO releases a theta that is mu-GDP with respect to replacing one
// validation user.
//
// # The algorithm
//
// Minimize runs Algorithm 1. Each iteration t
//
//  1. chooses a batch z minimising the acquisition alpha(z; D, theta) of section 3.1, the
//     trace of the GP posterior covariance of grad f(theta) (lines 4-5, designer.chooseBatch):
//     either the smallest batch with alpha <= BiasTol (adaptive) or a fixed size;
//  2. evaluates every user's loss at z and adds z to the design D (lines 5-6);
//  3. computes every user's posterior-mean gradient at theta from all of D (line 7,
//     GradientMean), clips each to norm Clip and averages (line 8);
//  4. adds Gaussian noise of standard deviation PrivacyNoiseStd = 2*Clip*sqrt(T)/(n*Mu) and
//     steps with AdaGrad or gradient descent, projecting onto Theta (line 9).
//
// Mu = math.Inf(1) is GIBO, the non-private method. Each line of Algorithm 1 lives in one
// named function whose doc comment cites it.
//
// # Linear algebra
//
// The surrogate is a GP with an RBF kernel and zero (or per-user constant, see PriorMean)
// prior mean. All users share the design, so one Cholesky factor serves them all: the
// gradients are G = Y W with W = (k(D,D)+noiseVar I)^{-1} grad k(D, theta). The factor is
// grown by block (Schur-complement) updates as points are added, and the acquisition of a
// candidate block of b points costs O(m^2 b + m b d) given the factor of the m kept
// points; its analytic gradient drives L-BFGS (gonum/optimize). Design points are kept in
// the box and within LocalRadius of theta through a sigmoid reparameterisation.
//
// Build with -tags openblas (cgo; links -lopenblas -llapacke) to run gonum's BLAS and
// LAPACK through OpenBLAS.
//
// # Privacy accounting
//
// Ledger records every run's guarantee: mu, the number of composed releases, and epsilon at
// delta = 1e-5 from the exact conversion GDPToEpsDelta / EpsilonForDelta.
//
// # Choosing the clipping norm
//
// Settings.Clip is B. NoiseFloorClip is a rule that reads no data (B = 2 sigma/l, the size
// of the surrogate gradient of evaluation noise alone). Settings.AdaptiveClip instead
// tracks a quantile of the users' gradient norms from a privatised count per iteration
// (Andrew et al. 2021); the ledger then records the split mu^2 = GradientMu^2 + CountMu^2.
//
// # Diagnostics
//
// Settings.NonPrivateDiagnostics fills Iteration.Diagnostics with the clipped mean
// gradient's norm, the privacy noise's norm and the share of users clipped. They are
// computed from the data outside the privacy guarantee, for experiments only; turning them
// on changes no released value.
package algo
