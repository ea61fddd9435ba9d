package pool

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestRunVisitsEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		seen := make([]int32, 50)
		if err := Run(context.Background(), workers, len(seen), func(_ context.Context, i int) error {
			atomic.AddInt32(&seen[i], 1)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("workers %d: index %d ran %d times", workers, i, c)
			}
		}
	}
}

func TestRunStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	var ran int32
	err := Run(context.Background(), 1, 100, func(_ context.Context, i int) error {
		atomic.AddInt32(&ran, 1)
		if i == 3 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if ran > 5 {
		t.Fatalf("%d jobs ran after the failure at index 3", ran-4)
	}
}

func TestRunHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran int32
	err := Run(ctx, 1, 100, func(_ context.Context, i int) error {
		if atomic.AddInt32(&ran, 1) == 2 {
			cancel()
		}
		return nil
	})
	if err != nil || ctx.Err() == nil || ran > 3 {
		t.Fatalf("err %v, ctx %v, ran %d", err, ctx.Err(), ran)
	}
}

func TestRunWithProgressVisitsEveryIndexAndDrawsTheBar(t *testing.T) {
	var out bytes.Buffer
	seen := make([]int, 7)
	err := RunWithProgress(context.Background(), 3, len(seen), &out, "jobs", func(_ context.Context, i int) error {
		seen[i]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("index %d ran %d times", i, n)
		}
	}
	if !strings.Contains(out.String(), "jobs") || !strings.Contains(out.String(), "7/7") {
		t.Errorf("progress output %q: want the description and 7/7", out.String())
	}
	if err := RunWithProgress(context.Background(), 2, 3, nil, "quiet", func(context.Context, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}
