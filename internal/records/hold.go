package records

import "sync"

// writes is held for reading by every WriteFileAtomic and for writing by HoldWrites.
var writes sync.RWMutex

// HoldWrites waits until every WriteFileAtomic in progress has renamed its file into place
// (or removed its temporary file) and blocks any later call for the rest of the process's
// life. A process calls it just before os.Exit on an interruption, so that the exit leaves
// no temporary file and no partial one.
func HoldWrites() { writes.Lock() }
