// Command e2e is the end-to-end harness: `e2e build` builds the programs, `e2e up` brings a local cluster
// up and keeps it until interrupted (for a person to look around with kubectl), `e2e run` runs the
// scenarios. The same binary is each container's first process on the process node (container-init).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"cdk8s-agent-play/e2e/internal/cluster"
	"cdk8s-agent-play/e2e/internal/programs"
	"cdk8s-agent-play/e2e/internal/upstream"
	"cdk8s-agent-play/e2e/node/ctrinit"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == ctrinit.InitArg {
		ctrinit.Run(os.Args[2])
		return
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: e2e build|up|run [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	e2eDir := fs.String("e2e", ".", "the e2e folder of the repository")
	noBuild := fs.Bool("no-build", false, "run: use the programs already built")
	bare := fs.Bool("bare", false, "up: the control plane and the process node only")
	noEvents := fs.Bool("no-events", false, "up: without Argo Events")
	bin := fs.String("bin", "", "build: where to write the programs (default: the e2e folder's .bin)")
	parallel := fs.Int("parallel", 1, "run: how many scenarios run at once, each in a namespace of its own")
	templateReferencing := fs.String("template-referencing", "", "run: the workflow controller's workflowRestrictions.templateReferencing (Strict or Secure) for every scenario whose entry gives no controller")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	dir, err := filepath.Abs(*e2eDir)
	if err != nil {
		return err
	}
	binDir := filepath.Join(dir, ".bin")
	runDir := filepath.Join(dir, ".run")
	if ctrinit.UnderPrivateTmp(dir) && args[0] != "build" {
		return fmt.Errorf("%s is in /tmp, which every container of the process node sees as a private tmpfs (e2e/node/ctrinit): the pods' volume folders and programs there would be hidden from them; clone the repository outside /tmp", dir)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "build":
		if *bin != "" {
			binDir = *bin
		}
		t0 := time.Now()
		if err := programs.Build(dir, binDir, os.Stdout); err != nil {
			return err
		}
		fmt.Printf("programs built in %s\n", time.Since(t0).Round(time.Second))
		return nil
	case "up":
		c, err := cluster.Start(ctx, cluster.Options{E2EDir: dir, BinDir: binDir, RunDir: runDir, Self: self, Log: os.Stdout, Bare: *bare, NoEvents: *noEvents})
		if err != nil {
			return err
		}
		defer c.Stop()
		fmt.Printf("cluster up: KUBECONFIG=%s (logs in %s); interrupt to stop\n", c.CP.AdminKubeconfig, c.CP.LogDir)
		<-ctx.Done()
		fmt.Println("stopping")
		return nil
	case "run":
		if !*noBuild {
			t0 := time.Now()
			if err := programs.Build(dir, binDir, os.Stdout); err != nil {
				return err
			}
			fmt.Printf("programs built in %s\n", time.Since(t0).Round(time.Second))
		}
		controller := upstream.ControllerConfig{TemplateReferencing: *templateReferencing}
		if err := controller.Validate(); err != nil {
			return err
		}
		return runScenarios(ctx, runOptions{repoDir: filepath.Dir(dir), e2eDir: dir, binDir: binDir, runDir: runDir, self: self, only: fs.Args(), log: os.Stdout, parallel: *parallel, controller: controller})
	}
	return fmt.Errorf("unknown command %q", args[0])
}
