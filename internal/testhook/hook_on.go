//go:build testhooks

package testhook

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"dpgibo/internal/blasinfo"
)

// Test hooks, compiled only into the binary the command-line tests build (-tags
// testhooks), so that those tests never race a clock:
//
//   - DPGIBO_TESTHOOK_HOLD=N lets N task evaluations through, then prints
//     "testhook: holding" to stderr and blocks every later evaluation for ever (an
//     evaluation cannot be interrupted from inside, so this is a long evaluation);
//   - DPGIBO_TESTHOOK_SELFCHECK=fail makes blasinfo.SelfCheck see a different bit at one
//     alignment.
var (
	holding   bool
	holdLeft  atomic.Int64 // evaluations still let through
	holdShown sync.Once
)

func init() {
	if v, ok := os.LookupEnv("DPGIBO_TESTHOOK_HOLD"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			panic("DPGIBO_TESTHOOK_HOLD: not a count: " + v)
		}
		holding = true
		holdLeft.Store(int64(n))
	}
	if os.Getenv("DPGIBO_TESTHOOK_SELFCHECK") == "fail" {
		blasinfo.SelfCheckHook = func(call string, offset int, result []float64) {
			if offset == 3 && len(result) > 0 {
				result[0] += 1
			}
		}
	}
}

// Hold is called before every task evaluation of a suite run or a task inspection.
func Hold() {
	if !holding || holdLeft.Add(-1) >= 0 {
		return
	}
	holdShown.Do(func() { fmt.Fprintln(os.Stderr, "testhook: holding") })
	for {
		time.Sleep(time.Hour)
	}
}
