package studies

import (
	"testing"

	"dpgibo/tasks"
	"dpgibo/tasks/bowl"
	"dpgibo/tasks/gpreg"
	"dpgibo/tasks/grouplasso"
	"dpgibo/tasks/logreg"
	"dpgibo/tasks/ridge"
	"dpgibo/tasks/svr"
	"dpgibo/tasks/toy"
)

// The study reads private.Facts.LogLoss from a curve's task name (logLossTask), which must
// name the one task that declares a log loss (tasks.LogLosser), as the runner reads it.
func TestLogLossTaskIsTheOneThatDeclaresIt(t *testing.T) {
	for name, task := range map[string]any{bowl.Name: &bowl.Task{}, gpreg.Name: &gpreg.Task{}, grouplasso.Name: &grouplasso.Task{},
		logreg.Name: &logreg.Task{}, ridge.Name: &ridge.Task{}, svr.Name: &svr.Task{}, toy.Name: &toy.Task{}} {
		l, ok := task.(tasks.LogLosser)
		if declares := ok && l.LogLoss(); declares != (name == logLossTask) {
			t.Errorf("task %s declares a log loss: %v; the study takes %q to be the one that does", name, declares, logLossTask)
		}
	}
}
