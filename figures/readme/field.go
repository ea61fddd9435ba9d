package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"dpgibo/baselines/bo"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/zo"
	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
)

// fieldPrefix names the field suite's figures (experiments' -suite=field).
const fieldPrefix = "field-"

// fieldMethods are the field's comparators, bold in the table.
var fieldMethods = []string{bo.UCBScaled{}.Info().Name, bo.DPUCBScaled{}.Info().Name, zo.DPZO{}.Info().Name}

// fieldTable renders, for every field figure in dir, each setting (task, d, config) with its
// methods ranked by median final loss over the setting's seeds (lowest first), the field's
// comparators in bold and the private methods marked, so that a reader sees where each
// comparator wins; "" when dir holds no field figure.
func fieldTable(dir string) (string, error) {
	res, err := verdict.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, fig := range res.Figures {
		if !strings.HasPrefix(fig, fieldPrefix) {
			continue
		}
		type setting struct {
			task, config string
			d            int
		}
		var order []setting
		bySetting := map[setting][]*verdict.Curve{}
		for _, c := range res.CurvesOf(fig) {
			s := setting{c.Task, c.Config, c.D}
			if _, ok := bySetting[s]; !ok {
				order = append(order, s)
			}
			bySetting[s] = append(bySetting[s], c)
		}
		if b.Len() == 0 {
			b.WriteString("Median final loss over each setting's seeds, lowest first (the field's comparators in bold; (p): private):\n")
		}
		fmt.Fprintf(&b, "\n**%s**\n\n| task | d | config | methods by median final loss |\n|---|---|---|---|\n", fig)
		for _, s := range order {
			curves := bySetting[s]
			medians := make(map[*verdict.Curve]float64, len(curves))
			for _, c := range curves {
				medians[c] = stats.Median(c.Losses())
			}
			slices.SortStableFunc(curves, func(x, y *verdict.Curve) int { return cmp.Compare(medians[x], medians[y]) })
			var cells []string
			for _, c := range curves {
				name := c.Method
				if m, ok := registry.Lookup(c.Method); ok && m.Info().Private {
					name += " (p)"
				}
				if slices.Contains(fieldMethods, c.Method) {
					name = "**" + name + "**"
				}
				cells = append(cells, fmt.Sprintf("%s %s", name, sig(medians[c])))
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", s.task, s.d, cell(s.config), strings.Join(cells, ", "))
		}
	}
	return b.String(), nil
}
