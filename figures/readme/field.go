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
		var order []fieldSetting
		bySetting := map[fieldSetting][]*verdict.Curve{}
		for _, c := range res.CurvesOf(fig) {
			s := fieldSetting{c.Task, c.Config, c.D}
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
		writeFieldPrivate(&b, fig, order, bySetting)
	}
	return b.String(), nil
}

// writeFieldPrivate renders, for a figure whose settings run at least two private methods,
// each private method's median final loss with the 95% interval of the median (order
// statistics, stats.MedianCI) side by side, in the ranking's order: the private methods at
// equal privacy.
func writeFieldPrivate(b *strings.Builder, fig string, order []fieldSetting, bySetting map[fieldSetting][]*verdict.Curve) {
	type line struct {
		setting fieldSetting
		cells   []string
	}
	var lines []line
	for _, s := range order {
		var cells []string
		for _, c := range bySetting[s] {
			if m, ok := registry.Lookup(c.Method); !ok || !m.Info().Private {
				continue
			}
			losses := c.Losses()
			lo, hi, _ := stats.MedianCI(losses, verdict.Level)
			name := c.Method
			if slices.Contains(fieldMethods, c.Method) {
				name = "**" + name + "**"
			}
			cells = append(cells, fmt.Sprintf("%s %s [%s, %s] (%d seeds)", name, sig(stats.Median(losses)), sig(lo), sig(hi), len(losses)))
		}
		if len(cells) >= 2 {
			lines = append(lines, line{s, cells})
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s, the private methods at equal privacy: median final loss [95%% interval of the median]:\n\n| task | d | config | private methods, lowest median first |\n|---|---|---|---|\n", fig)
	for _, l := range lines {
		fmt.Fprintf(b, "| %s | %d | %s | %s |\n", l.setting.task, l.setting.d, cell(l.setting.config), strings.Join(l.cells, ", "))
	}
}

// fieldSetting is one setting of a field figure.
type fieldSetting struct {
	task, config string
	d            int
}
