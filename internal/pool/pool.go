// Package pool runs n indexed jobs on a fixed number of goroutines and stops at the first
// error. Jobs write their results into slots indexed by i, so the outcome does not depend on
// the number of workers.
package pool

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Run calls do(ctx, i) for i = 0..n-1 on max(workers, 1) goroutines. The first error
// cancels the context passed to the remaining jobs, no new job starts after it, and Run
// returns that error. Cancellation of ctx stops the feed as well; Run then returns nil and
// the caller checks ctx.Err() to tell an interrupted run from a finished one.
func Run(ctx context.Context, workers, n int, do func(ctx context.Context, i int) error) error {
	if workers < 1 {
		workers = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if ctx.Err() != nil {
					continue
				}
				if err := do(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// RunWithProgress is Run with a progress bar of n steps named desc on progress (none when
// progress is nil): each job that returns nil advances it, and the bar ends on its own line.
func RunWithProgress(ctx context.Context, workers, n int, progress io.Writer, desc string, do func(ctx context.Context, i int) error) error {
	if progress == nil {
		return Run(ctx, workers, n, do)
	}
	bar := progressbar.NewOptions(n, progressbar.OptionSetWriter(progress),
		progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond))
	var mu sync.Mutex
	err := Run(ctx, workers, n, func(ctx context.Context, i int) error {
		if err := do(ctx, i); err != nil {
			return err
		}
		mu.Lock()
		_ = bar.Add(1)
		mu.Unlock()
		return nil
	})
	_ = bar.Finish()
	fmt.Fprintln(progress)
	return err
}
