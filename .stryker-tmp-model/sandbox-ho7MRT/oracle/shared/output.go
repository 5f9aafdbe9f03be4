package shared

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// ReadRequest reads the request scripts/oracle.ts wrote.
func ReadRequest(path string) (Request, error) {
	var req Request
	raw, err := os.ReadFile(path)
	if err != nil {
		return req, err
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return req, fmt.Errorf("%s: %w", path, err)
	}
	return req, nil
}

// WriteJSON writes value indented, with HTML characters as they are, atomically.
func WriteJSON(path string, value any) error {
	var buf bytes.Buffer
	encoder := json.NewEncoder(&buf)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", " ")
	if err := encoder.Encode(value); err != nil {
		return err
	}
	if err := os.WriteFile(path+".tmp", buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// GeneratedWith is the Go version and, as built, the versions of the modules named.
func GeneratedWith(modules []string) string {
	parts := []string{runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return parts[0]
	}
	for _, path := range modules {
		for _, dep := range info.Deps {
			if dep.Path == path {
				parts = append(parts, dep.Path+"@"+dep.Version)
			}
		}
	}
	return strings.Join(parts, " ")
}
