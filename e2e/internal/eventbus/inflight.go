// Package eventbus tells when the Sensors have handled every event on the bus: the NATS server's
// JetStream state (its monitoring endpoint /jsz) shows, for each Sensor's durable consumer, the events not
// yet fetched (num_pending) and those fetched but not yet acknowledged (num_ack_pending).
//
// A Sensor of Argo Events v1.9 fetches one message at a time and acknowledges it only after it has handled
// it: with `atLeastOnce: true` (every trigger of the platform) after the trigger ran, its retries and their
// back-off included (pkg/eventbus/jetstream/sensor/trigger_conn.go, processMsg; pkg/sensors/listener.go,
// triggerActions). A delivery is in the stream when the EventSource answers 200 (it publishes first:
// pkg/eventsources/common/webhook/webhook.go, DispatchEvent). So "no consumer has an event pending or
// unacknowledged" means every delivery so far has been handled, its triggers' effects written.
package eventbus

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"sort"
	"strings"
	"time"
)

// jsz is the part of /jsz?accounts=true&streams=true&consumers=true read here.
type jsz struct {
	AccountDetails []struct {
		Streams []struct {
			Name      string `json:"name"`
			Consumers []struct {
				Name          string `json:"name"`
				NumPending    uint64 `json:"num_pending"`
				NumAckPending int    `json:"num_ack_pending"`
			} `json:"consumer_detail"`
		} `json:"stream_detail"`
	} `json:"account_details"`
}

// DurableName is the durable consumer a Sensor's trigger reads a dependency through: "group-" and the
// FNV-32a hash of "{sensor}-{trigger}-{dependency}" (pkg/eventbus/jetstream/sensor/sensor_jetstream.go,
// getDurableName, with pkg/shared/util Hasher).
func DurableName(sensor, trigger, dependency string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(sensor + "-" + trigger + "-" + dependency))
	return fmt.Sprintf("group-%d", h.Sum32())
}

// Monitor reads a NATS server's monitoring endpoint.
type Monitor struct {
	// URL is the monitoring endpoint's base, e.g. http://127.0.0.1:8222.
	URL    string
	client *http.Client
}

// NewMonitor makes a monitor of the endpoint at url.
func NewMonitor(url string) *Monitor {
	return &Monitor{URL: url, client: &http.Client{Timeout: 5 * time.Second}}
}

// InFlight names the consumers among durables (the live Sensors' consumers; a deleted Sensor's durable
// consumer stays on the server and would count its events pending for ever) that have an event not yet
// handled, with how many; "" when there is none.
func (m *Monitor) InFlight(ctx context.Context, durables map[string]string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.URL+"/jsz?accounts=true&streams=true&consumers=true", nil)
	if err != nil {
		return "", err
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("the event bus's monitoring endpoint: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the event bus's monitoring endpoint answered %s", resp.Status)
	}
	var state jsz
	if err := json.NewDecoder(resp.Body).Decode(&state); err != nil {
		return "", fmt.Errorf("the event bus's monitoring endpoint: %w", err)
	}
	return inFlight(&state, durables), nil
}

func inFlight(state *jsz, durables map[string]string) string {
	var busy []string
	for _, a := range state.AccountDetails {
		for _, s := range a.Streams {
			for _, c := range s.Consumers {
				who, ok := durables[c.Name]
				if !ok || (c.NumPending == 0 && c.NumAckPending == 0) {
					continue
				}
				busy = append(busy, fmt.Sprintf("%s (%d pending, %d being handled)", who, c.NumPending, c.NumAckPending))
			}
		}
	}
	if len(busy) == 0 {
		return ""
	}
	sort.Strings(busy)
	return "Sensor events not handled yet: " + strings.Join(busy, ", ")
}
