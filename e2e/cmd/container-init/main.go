// Command container-init is a container's first process on the process node (e2e/node/ctrinit): the node
// runs `container-init SPEC` for every container it starts. It is the harness's own code without the
// harness's dependencies, so that it starts in a fraction of the harness binary's time.
package main

import (
	"fmt"
	"os"

	"cdk8s-agent-play/e2e/node/ctrinit"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: container-init SPEC")
		os.Exit(2)
	}
	ctrinit.Run(os.Args[1])
}
