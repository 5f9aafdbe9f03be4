package node

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func TestFSGroupOwnsTheVolumesFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's group needs root (as the process node runs)")
	}
	dir := t.TempDir()
	if err := writeFile(dir, "keys/private-key", []byte("k"), 0o440); err != nil {
		t.Fatal(err)
	}
	gid := int64(1000)
	if err := fsGroupOwns(&corev1.Pod{Spec: corev1.PodSpec{SecurityContext: &corev1.PodSecurityContext{FSGroup: &gid}}}, dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "keys"), filepath.Join(dir, "keys", "private-key")} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if g := st.Sys().(*syscall.Stat_t).Gid; g != 1000 {
			t.Errorf("%s: group %d, want the fsGroup 1000", p, g)
		}
	}
	// Without an fsGroup nothing changes.
	other := t.TempDir()
	if err := fsGroupOwns(&corev1.Pod{}, other); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(other); st.Sys().(*syscall.Stat_t).Gid != 0 {
		t.Errorf("a pod without fsGroup changed the group")
	}
}

func TestAnEndedPodsScratchVolumesAreFreedAndItsClaimsKept(t *testing.T) {
	dir := t.TempDir()
	scratch := filepath.Join(dir, "volumes", "var-run-argo")
	claim := filepath.Join(dir, "pvcs", "agents", "workspace")
	config := filepath.Join(dir, "volumes", "runtime")
	for _, folder := range []string{scratch, claim, config} {
		if err := writeFile(folder, "file", []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pod := &corev1.Pod{Spec: corev1.PodSpec{Volumes: []corev1.Volume{
		{Name: "var-run-argo", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		{Name: "workspace", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "workspace"}}},
		{Name: "runtime", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}},
	}}}
	r := &podRunner{n: &Node{}, pod: pod, volumes: map[string]string{"var-run-argo": scratch, "workspace": claim, "runtime": config}}
	r.freeScratchVolumes()
	if _, err := os.Stat(scratch); !os.IsNotExist(err) {
		t.Errorf("the emptyDir folder is still there (%v)", err)
	}
	for _, kept := range []string{claim, config} {
		if _, err := os.Stat(filepath.Join(kept, "file")); err != nil {
			t.Errorf("%s: %v", kept, err)
		}
	}
}
