package node

import "testing"

func TestLastWins(t *testing.T) {
	got := lastWins([]string{"PATH=/bin", "HOME=/", "A=1", "HOME=/workspace/.agent-play/home/rex", "B=x=y"})
	want := []string{"PATH=/bin", "HOME=/workspace/.agent-play/home/rex", "A=1", "B=x=y"}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
}
