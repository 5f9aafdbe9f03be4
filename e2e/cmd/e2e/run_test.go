package main

import "testing"

func TestSelectedRunsAnOnDemandEntryOnlyWhenNamed(t *testing.T) {
	listed := entry{Name: "happy-path"}
	onDemand := entry{Name: "project-150", OnDemand: true}
	cases := []struct {
		e    entry
		only []string
		want bool
	}{
		{listed, nil, true},
		{onDemand, nil, false},
		{onDemand, []string{"project-150"}, true},
		{listed, []string{"project-150"}, false},
		{onDemand, []string{"happy-path"}, false},
	}
	for _, c := range cases {
		if got := selected(c.e, c.only); got != c.want {
			t.Errorf("selected(%s, onDemand=%v, only %v) = %v, want %v", c.e.Name, c.e.OnDemand, c.only, got, c.want)
		}
	}
}

func TestTheListRunsEveryEntryButTheOnDemandOnes(t *testing.T) {
	entries, err := loadEntries("../../scenarios.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var ci, onDemand []string
	for _, e := range entries {
		if selected(e, nil) {
			ci = append(ci, e.Name)
		} else {
			onDemand = append(onDemand, e.Name)
		}
	}
	if len(onDemand) != 1 || onDemand[0] != "project-150" {
		t.Errorf("on-demand entries = %v; want [project-150]", onDemand)
	}
	if len(ci) < 20 {
		t.Errorf("a run that names no scenario runs %d entries (%v); want the 20 of the list", len(ci), ci)
	}
}
