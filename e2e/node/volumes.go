package node

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Volumes are folders. Every folder is world-writable (the pods' users differ and no runtime maps
// ownership here); configMap, secret and projected files get their defaultMode. Contents are written
// once, when the pod starts: later changes to a ConfigMap or Secret do not reach a running pod.

// prepareVolumes makes each volume of the pod a folder and returns the folders by volume name.
func (n *Node) prepareVolumes(ctx context.Context, pod *corev1.Pod, podDir, podIP string) (map[string]string, error) {
	dirs := map[string]string{}
	for _, v := range pod.Spec.Volumes {
		dir := filepath.Join(podDir, "volumes", v.Name)
		var err error
		switch {
		case v.EmptyDir != nil:
			err = mkdirAll(dir)
		case v.PersistentVolumeClaim != nil:
			// A claim is one folder per namespace and name, shared by every pod that mounts it.
			dir = filepath.Join(n.cfg.RunDir, "pvcs", pod.Namespace, v.PersistentVolumeClaim.ClaimName)
			err = mkdirAll(dir)
		case v.HostPath != nil:
			dir = v.HostPath.Path
		case v.ConfigMap != nil:
			err = n.writeConfigMap(ctx, pod.Namespace, v.ConfigMap.Name, v.ConfigMap.Items, v.ConfigMap.Optional, mode(v.ConfigMap.DefaultMode), dir)
		case v.Secret != nil:
			err = n.writeSecret(ctx, pod.Namespace, v.Secret.SecretName, v.Secret.Items, v.Secret.Optional, mode(v.Secret.DefaultMode), dir)
		case v.DownwardAPI != nil:
			err = writeDownward(pod, v.DownwardAPI.Items, mode(v.DownwardAPI.DefaultMode), dir, podIP)
		case v.Projected != nil:
			err = n.writeProjected(ctx, pod, v.Projected, dir, podIP)
		default:
			err = fmt.Errorf("volume %s: this node supports emptyDir, persistentVolumeClaim, hostPath, configMap, secret, downwardAPI and projected", v.Name)
		}
		if err == nil && v.HostPath == nil && v.EmptyDir == nil && v.PersistentVolumeClaim == nil {
			err = fsGroupOwns(pod, dir)
		}
		if err != nil {
			return nil, fmt.Errorf("volume %s: %w", v.Name, err)
		}
		dirs[v.Name] = dir
	}
	return dirs, nil
}

// fsGroupOwns gives the files of a volume the node writes to the pod's fsGroup, as the kubelet does
// (pkg/volume/volume_linux.go, SetVolumeOwnership): a Secret mounted with defaultMode 0440 is readable by
// the pod's users through their supplementary group fsGroup, not by others.
func fsGroupOwns(pod *corev1.Pod, dir string) error {
	sc := pod.Spec.SecurityContext
	if sc == nil || sc.FSGroup == nil {
		return nil
	}
	gid := int(*sc.FSGroup)
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, -1, gid)
	})
}

func mode(m *int32) os.FileMode {
	if m == nil {
		return 0o644
	}
	return os.FileMode(*m)
}

func mkdirAll(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return os.Chmod(dir, 0o777)
}

// writeFile writes one file of a volume (key paths may have folders).
func writeFile(dir, rel string, data []byte, m os.FileMode) error {
	if strings.Contains(rel, "..") {
		return fmt.Errorf("path %q leaves the volume", rel)
	}
	p := filepath.Join(dir, rel)
	if err := mkdirAll(filepath.Dir(p)); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, m); err != nil {
		return err
	}
	return os.Chmod(p, m)
}

// writeKeys writes the selected keys (all when items is empty).
func writeKeys(dir string, data map[string][]byte, items []corev1.KeyToPath, m os.FileMode) error {
	if err := mkdirAll(dir); err != nil {
		return err
	}
	if len(items) == 0 {
		for k, v := range data {
			if err := writeFile(dir, k, v, m); err != nil {
				return err
			}
		}
		return nil
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			return fmt.Errorf("no key %s", it.Key)
		}
		fm := m
		if it.Mode != nil {
			fm = os.FileMode(*it.Mode)
		}
		if err := writeFile(dir, it.Path, v, fm); err != nil {
			return err
		}
	}
	return nil
}

func (n *Node) writeConfigMap(ctx context.Context, ns, name string, items []corev1.KeyToPath, opt *bool, m os.FileMode, dir string) error {
	cm, err := n.kc.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) && optional(opt) {
			return mkdirAll(dir)
		}
		return fmt.Errorf("configMap %s: %w", name, err)
	}
	data := map[string][]byte{}
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	for k, v := range cm.BinaryData {
		data[k] = v
	}
	return writeKeys(dir, data, items, m)
}

func (n *Node) writeSecret(ctx context.Context, ns, name string, items []corev1.KeyToPath, opt *bool, m os.FileMode, dir string) error {
	s, err := n.kc.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) && optional(opt) {
			return mkdirAll(dir)
		}
		return fmt.Errorf("secret %s: %w", name, err)
	}
	return writeKeys(dir, s.Data, items, m)
}

func writeDownward(pod *corev1.Pod, items []corev1.DownwardAPIVolumeFile, m os.FileMode, dir, podIP string) error {
	if err := mkdirAll(dir); err != nil {
		return err
	}
	for _, it := range items {
		if it.FieldRef == nil {
			continue
		}
		v, err := podField(pod, it.FieldRef.FieldPath, podIP)
		if err != nil {
			return err
		}
		fm := m
		if it.Mode != nil {
			fm = os.FileMode(*it.Mode)
		}
		if err := writeFile(dir, it.Path, []byte(v), fm); err != nil {
			return err
		}
	}
	return nil
}

// writeProjected writes a projected volume; a service-account token is asked of the API server
// (TokenRequest, bound to the pod), as the kubelet does.
func (n *Node) writeProjected(ctx context.Context, pod *corev1.Pod, p *corev1.ProjectedVolumeSource, dir, podIP string) error {
	m := mode(p.DefaultMode)
	if err := mkdirAll(dir); err != nil {
		return err
	}
	for _, src := range p.Sources {
		var err error
		switch {
		case src.ServiceAccountToken != nil:
			err = n.writeToken(ctx, pod, src.ServiceAccountToken, m, dir)
		case src.ConfigMap != nil:
			err = n.writeConfigMap(ctx, pod.Namespace, src.ConfigMap.Name, src.ConfigMap.Items, src.ConfigMap.Optional, m, dir)
		case src.Secret != nil:
			err = n.writeSecret(ctx, pod.Namespace, src.Secret.Name, src.Secret.Items, src.Secret.Optional, m, dir)
		case src.DownwardAPI != nil:
			err = writeDownward(pod, src.DownwardAPI.Items, m, dir, podIP)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (n *Node) writeToken(ctx context.Context, pod *corev1.Pod, t *corev1.ServiceAccountTokenProjection, m os.FileMode, dir string) error {
	sa := pod.Spec.ServiceAccountName
	if sa == "" {
		sa = "default"
	}
	exp := int64(3607)
	if t.ExpirationSeconds != nil {
		exp = *t.ExpirationSeconds
	}
	var aud []string
	if t.Audience != "" {
		aud = []string{t.Audience}
	}
	tr, err := n.kc.CoreV1().ServiceAccounts(pod.Namespace).CreateToken(ctx, sa, &authv1.TokenRequest{
		Spec: authv1.TokenRequestSpec{
			Audiences: aud, ExpirationSeconds: &exp,
			BoundObjectRef: &authv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("token of service account %s: %w", sa, err)
	}
	return writeFile(dir, t.Path, []byte(tr.Status.Token), m)
}
