// Package ui stands in for Argo Workflows' ui/embed.go when the harness builds the argo CLI from the
// module: the module has no built user interface (ui/dist/app is made by Argo's own build), so its
// go:embed would fail. The harness never starts `argo server`; the CLI commands it runs need no UI.
// Given to the compiler with -overlay, never copied into the module.
package ui

import "embed"

// EMBED_PATH is where the UI files would be; the name is upstream's.
const EMBED_PATH = "dist/app" //nolint:revive

// Embedded holds no files.
var Embedded embed.FS
