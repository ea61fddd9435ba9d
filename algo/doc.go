// Package algo is DP-GIBO: differentially private hyperparameter tuning by local Bayesian
// optimisation (Algorithm 1 of "Differentially Private Hyperparameter Tuning using Local
// Bayesian Optimization").
//
// A validation loss is split by validation user, f(theta) = (1/n) sum_i L(theta, x_i), and
// is only available as a black box. DP-GIBO minimises f over a box Theta and releases a
// theta that is mu-GDP with respect to replacing one validation user.
//
// # Usage
//
// Implement Objective for your validation loss: Dim, Bounds (the box Theta of
// hyperparameters, often in log scale), Users (n) and Losses, which writes every user's
// loss at a theta. If you know, without looking at the data, an upper bound on every
// user's loss, implement LossBounder too (a method LossBound() float64): the default
// clipping norm is derived from it.
//
// Configure the run with Settings. Only Mu, the total privacy budget of mu-GDP, must be
// set (math.Inf(1) runs non-private GIBO); every other zero field takes a documented
// default. The defaults that depend on the problem's scale (the kernel's length-scale, the
// design's LocalRadius, Clip and Step) are derived from public facts only, the box and the
// loss bound, so Settings{Mu: 1} is a sensible start on a box of any width and a loss of
// any scale; Settings.WithDefaults lists the formulas and returns the settings a run would
// use.
//
// Call Minimize with a start theta0 chosen without looking at the validation data and a
// nil *rand.Rand, which means a generator seeded from crypto/rand for that call; a fixed
// seed (math/rand/v2) gives the same run again, for experiments only, since anyone who
// knows it can replay the run. A Callback, when given, sees every iteration. Minimize returns a Result: the
// released Theta, the evaluations used, the iterations run and the Ledger, which states
// the guarantee of the release: Mu, the number of composed releases and Epsilon at
// Delta = DefaultDelta (1e-5) by the exact conversion of mu-GDP to (epsilon, delta)-DP
// (GDPToEpsDelta, EpsilonForDelta). Settings.MaxEvals caps the evaluations; a cap below
// the first iteration's batch is an error.
//
// Before a run, Forecast tells from public quantities only how much privacy noise each
// iteration adds and the ceiling n mu/(2 sqrt(T d)) of the privacy signal-to-noise ratio;
// below 1 the noise outweighs any gradient (see PrivacyForecast for what to change).
// Result.Warnings reports, without stopping the run, a default Clip derived without a loss
// bound and a ceiling below 1. A wrapper around an Objective hides its LossBound unless
// it forwards the method; WithLossBound declares a bound on any Objective.
//
// ExampleMinimize shows the whole path on a toy objective.
//
// # The algorithm
//
// Minimize runs Algorithm 1. Each iteration t
//
//  1. chooses a batch z minimising the acquisition alpha(z; D, theta) of section 3.1, the
//     trace of the GP posterior covariance of grad f(theta) (lines 4-5): either the
//     smallest batch with alpha <= BiasTol (adaptive) or a fixed size (d+1 by default);
//  2. evaluates every user's loss at z and adds z to the design D (lines 5-6);
//  3. computes every user's posterior-mean gradient at theta from all of D (line 7), clips
//     each to norm Clip and averages (line 8);
//  4. adds Gaussian noise of standard deviation PrivacyNoiseStd = 2*B*sqrt(T)/(n*mu_g) to
//     each coordinate, with B the iteration's clipping norm and mu_g the part of Mu spent
//     on the gradients (all of Mu with a FixedClip; Mu sqrt(1 - Share) with the default
//     ClipCalibration, Mu sqrt(1 - CountShare - Share) with AdaptiveClip too; Settings.Mu),
//     and steps with AdaGrad or gradient descent, projecting onto Theta (line 9).
//
// Mu = math.Inf(1) is GIBO, the non-private method. Each line of Algorithm 1 lives in one
// named function whose doc comment cites it.
//
// The surrogate is a GP with an RBF kernel and zero (or per-user constant, see PriorMean)
// prior mean. All users share the design, so one Cholesky factor serves them all: the
// gradients are G = Y W with W = (k(D,D)+noiseVar I)^{-1} grad k(D, theta). The factor is
// grown by block (Schur-complement) updates as points are added, and the acquisition of a
// candidate block of b points costs O(m^2 b + m b d) given the factor of the m kept
// points; its analytic gradient drives L-BFGS (gonum/optimize). Design points are kept in
// the box and within LocalRadius of theta through a sigmoid reparameterisation.
//
// # Choosing the clipping norm
//
// Settings.Clipping is the rule for B, one field. Left nil in a private run, B is chosen
// privately from the data at the first iteration by ClipCalibration, the upper quartile of
// the users' gradient norms found with a few noisy counts for 5% of mu^2; the ledger then
// records the split mu^2 = GradientMu^2 + CalibrationMu^2. FixedClip(B) fixes B by hand:
// S/(4 l) reads only the loss bound and the box (the default of a non-private run), and
// NoiseFloorClip is another rule that reads no data (B = 2 sigma/l, the size of the
// surrogate gradient of evaluation noise alone). AdaptiveClip instead tracks a quantile of
// the users' gradient norms from a privatised count per iteration (Andrew et al. 2021),
// from B_0 = its Start; the ledger then records the split mu^2 = GradientMu^2 + CountMu^2.
// Result.Clips and Result.Calibration report the B the run used.
//
// # Diagnostics
//
// Settings.NonPrivateDiagnostics fills Iteration.Diagnostics with the clipped mean
// gradient's norm, the privacy noise's norm and the share of users clipped. They are
// computed from the data outside the privacy guarantee, for experiments only; turning them
// on changes no released value.
//
// # GP building blocks
//
// The pieces of the surrogate are exported for research on the method itself; a tuning
// pipeline does not need them. RBF is the kernel k(a, b) = Variance exp(-|a-b|^2 /
// (2 Lengthscale^2)). GradientMean returns every user's posterior-mean gradient at theta
// given observations at a design D (line 7); GradientTrace is the acquisition value
// alpha(empty; D, theta), the trace of the posterior covariance of grad f(theta) given D;
// Acquisition is alpha(Z; D, theta) for a candidate batch Z with its gradient in Z (lines
// 4-5). They recompute from scratch; Minimize uses incremental versions of the same
// formulas.
package algo
