package private

import (
	"context"
	"math"
	"strings"
	"testing"

	"dpgibo/accounting"
)

// Forecast refuses what Tune refuses, before any evaluation: a Theta0 of the wrong length,
// outside the box or not finite.
func TestForecastValidatesTheta0(t *testing.T) {
	obj := bowl{d: 2, users: 50, Bound: 4, noLosses: true}
	for _, tc := range []struct {
		theta0 []float64
		want   string
	}{
		{[]float64{0}, "theta has 1 values, want 2"},
		{[]float64{0, 2}, "outside the box"},
		{[]float64{math.NaN(), 0}, "not finite"},
	} {
		for _, m := range []Candidate{DPGIBO, ReportNoisyMin} {
			_, err := Forecast(obj, Config{Mu: 1, Theta0: tc.theta0, Rule: Always{m}})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "Config.Theta0") {
				t.Errorf("%v, Theta0 %v: Forecast error %v, want one naming Config.Theta0 and %q", m, tc.theta0, err, tc.want)
			}
		}
	}
}

// The warnings Forecast gives from public facts reach Result.Warnings: report-noisy-min with
// one user, and DP-GIBO with an SNR ceiling below 1; a comfortable run gives none.
func TestWarningsReachTheResult(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		what string
		obj  bowl
		cfg  Config
		want string // "" : no warning
	}{
		{"dp-rnm, one user", bowl{d: 2, users: 1, Bound: 6.9}, Config{Mu: 1, Evals: 20, Rule: Always{ReportNoisyMin}}, "its pick is close to random"},
		{"dp-rnm at Mu 0.01", bowl{d: 2, users: 100, Bound: 6.9}, Config{Mu: 0.01, Evals: 20, Rule: Always{ReportNoisyMin}}, "its pick is close to random"},
		{"dp-rnm, 10000 users", bowl{d: 2, users: 10000, Bound: 6.9}, Config{Mu: 1, Evals: 20, Rule: Always{ReportNoisyMin}}, ""},
		{"dpgibo, 10 users", bowl{d: 2, users: 10, Bound: 4}, Config{Mu: 0.5, Evals: 60, Rule: Always{DPGIBO}}, "SNR ceiling"},
		{"dpgibo, 10000 users", bowl{d: 2, users: 10000, Bound: 4}, Config{Mu: 1, Evals: 60, Rule: Always{DPGIBO}}, ""},
	} {
		plan, err := Forecast(tc.obj, tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		res, err := Tune(ctx, tc.obj, tc.cfg, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		joined := strings.Join(res.Warnings, "\n")
		if tc.want == "" {
			if len(plan.Warnings) > 0 {
				t.Errorf("%s: warnings %q, want none", tc.what, plan.Warnings)
			}
			continue
		}
		if len(plan.Warnings) == 0 || !strings.Contains(plan.Warnings[0], tc.want) || !strings.Contains(joined, plan.Warnings[0]) {
			t.Errorf("%s: Forecast warnings %q, Result.Warnings %q; want one containing %q in both", tc.what, plan.Warnings, res.Warnings, tc.want)
		}
	}
}

// The progress hook sees every evaluation of every method, with the budget, and counts what
// the method used.
func TestNonPrivateProgress(t *testing.T) {
	obj := bowl{d: 2, users: 50, Bound: 4}
	target := accounting.EpsDelta{Epsilon: 2, Delta: 1e-5}
	for _, tc := range tunable {
		cfg := Config{EpsDelta: target, Evals: 60, Rule: Always{tc.m}}
		plan, err := Forecast(obj, cfg)
		if err != nil {
			t.Fatal(err)
		}
		calls, last, budget := 0, 0, -1
		ctx := WithNonPrivateProgress(context.Background(), func(done, b int) {
			calls++
			if done != last+1 {
				t.Errorf("%v: progress %d after %d", tc.m, done, last)
			}
			last, budget = done, b
		})
		res, err := Tune(ctx, obj, cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := res.Evals
		if res.NonPrivateTrials > 0 {
			want = res.NonPrivateTrials
		}
		if calls != want || budget != plan.MaxEvals || last > plan.MaxEvals {
			t.Errorf("%v: %d progress calls (last %d of %d), want %d of %d", tc.m, calls, last, budget, want, plan.MaxEvals)
		}
	}
}
