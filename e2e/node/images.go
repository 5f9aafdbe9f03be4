package node

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// ImageTable maps container images to host programs. It is data (e2e/images.yaml): a new image is one
// entry. Values may name {bin} (the harness's built binaries) and {e2e} (the e2e folder).
type ImageTable struct {
	Images []Image `json:"images"`
}

// Image is one entry: images matching Match run Entrypoint (when the container gives no command) with
// Cmd (when it gives neither command nor args); Bin puts programs on the container's PATH under the
// names the image has; Paths stands host programs in for absolute paths of the image.
type Image struct {
	Match      string            `json:"match"`
	Entrypoint []string          `json:"entrypoint,omitempty"`
	Cmd        []string          `json:"cmd,omitempty"`
	Bin        map[string]string `json:"bin,omitempty"`
	Paths      map[string]string `json:"paths,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
}

// LoadImageTable reads the table and resolves its placeholders.
func LoadImageTable(file, binDir, e2eDir string) (*ImageTable, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var t ImageTable
	if err := yaml.UnmarshalStrict(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	r := strings.NewReplacer("{bin}", binDir, "{e2e}", e2eDir)
	for i := range t.Images {
		im := &t.Images[i]
		if _, err := path.Match(im.Match, ""); err != nil {
			return nil, fmt.Errorf("%s: images[%d].match: %w", file, i, err)
		}
		for k, v := range im.Bin {
			im.Bin[k] = r.Replace(v)
		}
		for k, v := range im.Paths {
			im.Paths[k] = r.Replace(v)
		}
		for k, v := range im.Env {
			im.Env[k] = r.Replace(v)
		}
	}
	return &t, nil
}

// Lookup finds the first entry matching image (a tag is added when the image has none, as a runtime
// pulls ":latest").
func (t *ImageTable) Lookup(image string) (*Image, error) {
	ref := image
	if !strings.Contains(path.Base(ref), ":") && !strings.Contains(ref, "@") {
		ref += ":latest"
	}
	for i := range t.Images {
		if ok, _ := path.Match(t.Images[i].Match, ref); ok {
			return &t.Images[i], nil
		}
	}
	return nil, fmt.Errorf("no host program stands for image %q (add it to e2e/images.yaml)", image)
}

// binDir makes (once) a folder of links named as the image's programs, for the container's PATH.
func (im *Image) binDir(root string) (string, error) {
	dir := filepath.Join(root, "images", strings.NewReplacer("/", "_", ":", "_", "*", "x").Replace(im.Match))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for name, target := range im.Bin {
		link := filepath.Join(dir, name)
		if cur, err := os.Readlink(link); err == nil && cur == target {
			continue
		}
		_ = os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// argv gives the process's argument vector as a runtime builds it from the image and the container.
func (im *Image) argv(command, args []string) []string {
	var out []string
	switch {
	case len(command) > 0:
		out = append(append(out, command...), args...)
	case len(args) > 0:
		out = append(append(out, im.Entrypoint...), args...)
	default:
		out = append(append(out, im.Entrypoint...), im.Cmd...)
	}
	if len(out) > 0 {
		if host, ok := im.Paths[out[0]]; ok {
			out[0] = host
		}
	}
	return out
}
