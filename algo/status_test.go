package algo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// Result.Status says how a run ended: all its iterations, the evaluation budget, the
// callback, the context, or an error of the objective.
func TestResultStatus(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(1, 1)), 20, 2, 0.3)
	theta0 := []float64{-2, 2}
	base := Settings{Mu: 1, Iters: 4, Clipping: FixedClip(1), Step: 0.5}
	stop := errors.New("enough")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		s       Settings
		cb      Callback
		obj     Objective
		want    Status
		wantErr bool
	}{
		{"completed", context.Background(), base, nil, obj, Completed, false},
		{"budget", context.Background(), Settings{Mu: 1, Iters: 4, Clipping: FixedClip(1), Step: 0.5, MaxEvals: 7}, nil, obj, BudgetSpent, false},
		{"callback", context.Background(), base, func(it Iteration) error {
			if it.Iter == 2 {
				return stop
			}
			return nil
		}, obj, CallbackStop, true},
		{"cancelled", cancelled, base, nil, obj, Cancelled, true},
		{"failed", context.Background(), base, nil, &nanAfter{quadUsers: obj, left: 5}, Failed, true},
	} {
		res, err := Minimize(tc.ctx, tc.obj, theta0, tc.s, rand.New(rand.NewPCG(2, 2)), tc.cb)
		if (err != nil) != tc.wantErr || res.Status != tc.want {
			t.Errorf("%s: status %v, error %v; want %v, error %v", tc.name, res.Status, err, tc.want, tc.wantErr)
		}
	}
	if Completed.String() != "completed" || StatusUnknown.String() != "unknown" {
		t.Errorf("names: %q, %q", Completed, StatusUnknown)
	}
}

// nanAfter returns NaN losses once left evaluations have passed.
type nanAfter struct {
	*quadUsers
	left int
}

func (n *nanAfter) Losses(theta, dst []float64) error {
	if n.left--; n.left < 0 {
		for i := range dst {
			dst[i] = math.NaN()
		}
		return nil
	}
	return n.quadUsers.Losses(theta, dst)
}

// A clipping rule given by pointer is read as its value; a nil pointer is the default rule.
func TestClipRuleByPointer(t *testing.T) {
	b := FixedClip(0.7)
	c := ClipCalibration{Queries: 3, Anchor: 2}
	a := AdaptiveClip{Rate: 0.5, Start: 1.5}
	for _, pair := range [][2]ClipRule{{b, &b}, {c, &c}, {a, &a}, {nil, (*ClipCalibration)(nil)}} {
		byValue, err1 := Settings{Clipping: pair[0]}.lowerClipping()
		byPointer, err2 := Settings{Clipping: pair[1]}.lowerClipping()
		if err1 != nil || err2 != nil || byValue.clip != byPointer.clip ||
			(byValue.calibration == nil) != (byPointer.calibration == nil) || (byValue.adaptive == nil) != (byPointer.adaptive == nil) {
			t.Errorf("%T: by value %+v (%v), by pointer %+v (%v)", pair[0], byValue, err1, byPointer, err2)
		}
	}
	if _, err := (Settings{Clipping: FixedClip(-1)}).lowerClipping(); err == nil {
		t.Error("a negative FixedClip was accepted")
	}
}
