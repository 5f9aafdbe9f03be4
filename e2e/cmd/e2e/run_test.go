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
