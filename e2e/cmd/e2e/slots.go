package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"sigs.k8s.io/yaml"

	"cdk8s-agent-play/e2e/internal/cluster"
	"cdk8s-agent-play/e2e/internal/kube"
	"cdk8s-agent-play/e2e/internal/platform"
	"cdk8s-agent-play/e2e/internal/scenario"
	"cdk8s-agent-play/e2e/internal/upstream"
)

const (
	// quiet is how long the cluster, once at rest, must stay unchanged for a step to be over (settle): a
	// margin for what no condition of the rest covers, a controller between reading a change and writing
	// its answer. The Argo Workflows controller answers a change within DEFAULT_REQUEUE_TIME
	// (upstream.RequeueTime).
	quiet = 3 * time.Second
	// auditFlush is how long the audit log may hold a request before writing it (--audit-log-batch-max-wait
	// 1s), with a margin.
	auditFlush = 1500 * time.Millisecond
	// faultsPort is the first slot's fault injector's port; slot i takes the port i above it.
	faultsPort = 10260
)

// slot is where one scenario at a time runs: a namespace of its own, with its own event bus (the
// platform's objects are all namespaced but the CodeRun CRD, which every slot applies the same).
type slot struct {
	index     int
	namespace string
	bus       *cluster.Bus
	// faultsAddr is where its fault injector listens.
	faultsAddr string
}

// planSlots gives n slots: slot 0 runs the platform in its own namespace (dist-manifests/ as they are),
// slot i the same platform synthesized into the namespace {namespace}-{i}.
func planSlots(o runOptions, n int) ([]slot, error) {
	objs, err := kube.ReadObjects(filepath.Join(o.repoDir, "dist-manifests"))
	if err != nil {
		return nil, err
	}
	nss := platform.Namespaces(objs)
	if len(nss) != 1 {
		return nil, fmt.Errorf("dist-manifests: the harness runs a platform of one namespace; it names %v", nss)
	}
	slots := make([]slot, n)
	for i := range slots {
		slots[i] = slot{index: i, namespace: nss[0], faultsAddr: fmt.Sprintf("127.0.0.1:%d", faultsPort+i)}
		if i > 0 {
			slots[i].namespace = fmt.Sprintf("%s-%d", nss[0], i)
		}
	}
	return slots, nil
}

// platform gives the folder of the platform a scenario runs on in this slot, and the agent-play config
// it was synthesized from (what agent-play resume must be given): dist-manifests/ (config ""), or the
// platform synthesized from config; in a slot other than the first, synthesized from config (or no config:
// the default platform) with the slot's namespace, written beside it.
func (sl slot) platform(o runOptions, name, config string) (string, string, error) {
	if sl.index == 0 && config == "" {
		return filepath.Join(o.repoDir, "dist-manifests"), "", nil
	}
	dir := filepath.Join(o.runDir, "platforms", name)
	if sl.index > 0 {
		doc := map[string]any{}
		if config != "" {
			b, err := os.ReadFile(config)
			if err != nil {
				return "", "", err
			}
			if err := yaml.Unmarshal(b, &doc); err != nil {
				return "", "", fmt.Errorf("%s: %w", config, err)
			}
		}
		doc["namespace"] = sl.namespace
		b, err := yaml.Marshal(doc)
		if err != nil {
			return "", "", err
		}
		if err := os.MkdirAll(filepath.Join(o.runDir, "platforms"), 0o755); err != nil {
			return "", "", err
		}
		config = filepath.Join(o.runDir, "platforms", name+".agent-play.yaml")
		if err := os.WriteFile(config, b, 0o644); err != nil {
			return "", "", err
		}
	}
	_ = os.RemoveAll(dir)
	return dir, config, platform.Synth(o.repoDir, config, dir)
}

// runAll runs the scenarios, as many at once as there are slots, longest first (by their steps), and
// gives the results in the order of the list.
func runAll(ctx context.Context, c *cluster.Cluster, o runOptions, slots []slot, chosen []entry, cfg upstream.ControllerConfig) []result {
	order := make([]int, len(chosen))
	steps := make([]int, len(chosen))
	for i, e := range chosen {
		order[i] = i
		if sc, err := scenario.Load(filepath.Join(o.repoDir, e.File)); err == nil {
			steps[i] = len(sc.Steps)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return steps[order[a]] > steps[order[b]] })
	queue := make(chan int, len(order))
	for _, i := range order {
		queue <- i
	}
	close(queue)
	results := make([]result, len(chosen))
	var wg sync.WaitGroup
	for _, sl := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range queue {
				if ctx.Err() != nil {
					results[i] = result{Name: chosen[i].Name, Expect: chosen[i].Expect, Error: "not run: interrupted"}
					continue
				}
				start, cpu := time.Now(), c.Node.CPU(sl.namespace)
				res := runOne(ctx, c, o, sl, chosen[i], cfg)
				res.Seconds = int(time.Since(start).Seconds())
				res.PodCPUSeconds = (c.Node.CPU(sl.namespace) - cpu).Round(100 * time.Millisecond).Seconds()
				results[i] = res
				fmt.Fprintf(o.log, "%s: passed=%v in %ds, pods' CPU %.1fs (namespace %s, controller %s) %s\n", res.Name, res.Passed, res.Seconds, res.PodCPUSeconds, sl.namespace, res.Controller, res.Error)
				for _, d := range append(append([]string{}, res.Diff...), res.Refused...) {
					fmt.Fprintf(o.log, "  %s\n", d)
				}
			}
		}()
	}
	wg.Wait()
	return results
}
