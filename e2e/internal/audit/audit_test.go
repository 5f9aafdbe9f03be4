package audit

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const (
	before      = `{"verb":"update","requestReceivedTimestamp":"2026-11-27T10:00:00.000000Z","user":{"username":"system:serviceaccount:argo:argo"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-a"},"responseStatus":{"code":200}}`
	update      = `{"verb":"update","requestReceivedTimestamp":"2026-11-27T10:00:01.123456Z","user":{"username":"system:serviceaccount:argo:argo"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-a"},"responseStatus":{"code":409,"reason":"Conflict"}}`
	patch       = `{"verb":"patch","requestReceivedTimestamp":"2026-11-27T10:00:01.200000Z","user":{"username":"system:serviceaccount:agents:play-runtime"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-a"},"responseStatus":{"code":200}}`
	read        = `{"verb":"get","requestReceivedTimestamp":"2026-11-27T10:00:01.300000Z","user":{"username":"system:serviceaccount:agents:play-runtime"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-a"},"responseStatus":{"code":200}}`
	otherPlay   = `{"verb":"patch","requestReceivedTimestamp":"2026-11-27T10:00:01.400000Z","user":{"username":"system:serviceaccount:agents:play-runtime"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-b"},"responseStatus":{"code":200}}`
	otherNS     = `{"verb":"patch","requestReceivedTimestamp":"2026-11-27T10:00:01.500000Z","user":{"username":"system:serviceaccount:agents-1:play-runtime"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents-1","name":"play-a"},"responseStatus":{"code":200}}`
	podOfSameNm = `{"verb":"delete","requestReceivedTimestamp":"2026-11-27T10:00:01.600000Z","user":{"username":"system:serviceaccount:argo:argo"},"objectRef":{"resource":"pods","namespace":"agents","name":"play-a"},"responseStatus":{"code":200}}`
)

func writeLog(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.log")
	text := ""
	for _, l := range lines {
		text += l + "\n"
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestWritesListsTheObjectsWritesSinceTheReadersPosition(t *testing.T) {
	path := writeLog(t, before)
	r := &Reader{Path: path}
	r.Skip()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{update, patch, read, otherPlay, otherNS, podOfSameNm, "not json"} {
		if _, err := f.WriteString(l + "\n"); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	got, err := r.Writes("argoproj.io", "workflows", "agents", "play-a")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10:00:01.123 argo:argo update 409 Conflict", "10:00:01.200 agents:play-runtime patch 200"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Writes = %q; want %q", got, want)
	}
	// Writes does not move the reader: the refusals after the scenario still see every line.
	again, _ := r.Writes("argoproj.io", "workflows", "agents", "play-a")
	if !reflect.DeepEqual(again, want) {
		t.Errorf("second Writes = %q; want %q", again, want)
	}
}

func TestWritesOfAMissingLogIsAnError(t *testing.T) {
	r := &Reader{Path: filepath.Join(t.TempDir(), "none.log")}
	if _, err := r.Writes("argoproj.io", "workflows", "agents", "play-a"); err == nil {
		t.Error("Writes of a missing log: no error")
	}
}

func TestRefusalsGivesEachDistinctRefusalOfTheNamespaceOnceAndMovesOn(t *testing.T) {
	forbidden := `{"verb":"patch","user":{"username":"system:serviceaccount:agents:play-runtime"},"objectRef":{"apiGroup":"argoproj.io","resource":"workflows","namespace":"agents","name":"play-a"},"responseStatus":{"code":403,"message":"cannot patch"}}`
	podSecurity := `{"verb":"create","user":{"username":"system:serviceaccount:argo:argo"},"objectRef":{"resource":"pods","namespace":"agents","name":"p"},"responseStatus":{"code":403,"message":"pods \"p\" is forbidden: violates PodSecurity \"restricted:latest\": runAsNonRoot"}}`
	elsewhere := `{"verb":"get","user":{"username":"system:serviceaccount:other:x"},"objectRef":{"resource":"secrets","namespace":"other","name":"s"},"responseStatus":{"code":403,"message":"no"}}`
	path := writeLog(t, forbidden, patch, forbidden, podSecurity, elsewhere)
	r := &Reader{Path: path}
	got, err := r.Refusals("agents")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`system:serviceaccount:agents:play-runtime patch workflows.argoproj.io play-a: cannot patch`,
		`system:serviceaccount:argo:argo create pods p: violates PodSecurity "restricted:latest": runAsNonRoot`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Refusals = %q; want %q", got, want)
	}
	if again, _ := r.Refusals("agents"); len(again) != 0 {
		t.Errorf("second Refusals = %q; want none (the reader moved past them)", again)
	}
}
