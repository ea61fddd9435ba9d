package svr

import (
	"fmt"

	"dpgibo/data"
)

// Preload reads and checks the CT-slice data that New would use for Config.Path = path (the
// file or directory, else $DPGIBO_CTSLICE, else data/ctslice/; nothing when only the
// stand-in is left) and keeps it for the tasks built later in this process. A runner calls
// it before its first cell, so that a bad file is reported at once rather than when the
// first SVR task is built, possibly an hour into a run.
func Preload(path string) error {
	found, err := data.Find(path)
	if err != nil {
		return fmt.Errorf("svr: %w", err)
	}
	if found.Path == "" {
		return nil
	}
	if _, err := loadCached(found.Path); err != nil {
		return fmt.Errorf("svr: %w", err)
	}
	return nil
}
