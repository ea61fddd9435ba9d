package runner

import (
	"cmp"

	"dpgibo/baselines/registry"
	"dpgibo/tasks/catalog"
)

// pinnedAutoRevision is the revision of a method that runs earlier revisions (dp-auto,
// private.Auto: a revisioner) in every cell of a block whose algocfg.Config has no
// AutoRevision: revision 2, the private tuner's first-round rule (private.FirstRoundRule),
// with which every committed dp-auto run before the second round was made.
const pinnedAutoRevision = 2

// A revisioner is a method that runs earlier revisions of itself (dp-auto): a block pins the
// revision its cells run (algocfg.Config.AutoRevision, else pinnedAutoRevision).
type revisioner interface {
	KnownRevision(r int) bool
}

// revisionerOf returns method's prototype as a revisioner, and false for a method that runs
// only its current revision.
func revisionerOf(method string) (revisioner, bool) {
	m, ok := registry.Lookup(method)
	if !ok {
		return nil, false
	}
	r, ok := m.(revisioner)
	return r, ok
}

// specPrecision is the precision a cell spec records for a block's setting p ("" : the
// task's default) of a task described by info: "" when the task has no choice or p resolves
// to the task's first precision (which every cell of the task computed with before it had
// a choice), else the precision.
func specPrecision(info catalog.Info, p string) string {
	if len(info.Precisions) == 0 {
		return ""
	}
	if p = cmp.Or(p, info.DefaultPrecision); p == info.Precisions[0] {
		return ""
	}
	return p
}

// cellPrecision is the precision a cell computes with (its spec's, else its task's first),
// "" for a task that has no choice.
func cellPrecision(c cellSpec) string {
	info, _ := catalog.Lookup(c.Task)
	if len(info.Precisions) == 0 {
		return ""
	}
	return cmp.Or(c.Precision, info.Precisions[0])
}
