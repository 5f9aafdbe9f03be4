// Package audit reads the API server's audit log for the requests it refused: a 403 for a service
// account is either RBAC (the platform's Role lacks a verb) or admission (a pod refused under the
// namespace's Pod Security Standard). The scenarios must see none of the platform's.
package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type event struct {
	Verb     string `json:"verb"`
	Received string `json:"requestReceivedTimestamp"`
	User     struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		APIGroup    string `json:"apiGroup"`
	} `json:"objectRef"`
	ResponseStatus struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Reason  string `json:"reason"`
	} `json:"responseStatus"`
}

// Reader reads the log from where it last stopped.
type Reader struct {
	Path   string
	offset int64
}

// Skip moves past everything logged so far.
func (r *Reader) Skip() {
	if st, err := os.Stat(r.Path); err == nil {
		r.offset = st.Size()
	}
}

// events calls visit with each event the log holds from the reader's position on (lines that are not an
// event are passed over), and gives how many bytes it read.
func (r *Reader) events(visit func(e *event)) (int64, error) {
	f, err := os.Open(r.Path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(r.offset, io.SeekStart); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var read int64
	for sc.Scan() {
		line := sc.Bytes()
		read += int64(len(line)) + 1
		var e event
		if json.Unmarshal(line, &e) == nil {
			visit(&e)
		}
	}
	return read, sc.Err()
}

// Refusals gives each distinct refused request in namespace ns (or by its service accounts) since the
// last call, as one line: who, verb, resource, name, the API server's message.
func (r *Reader) Refusals(ns string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	read, err := r.events(func(e *event) {
		if e.ResponseStatus.Code != 403 {
			return
		}
		mine := e.ObjectRef.Namespace == ns || strings.HasPrefix(e.User.Username, "system:serviceaccount:"+ns+":")
		if !mine {
			return
		}
		res := e.ObjectRef.Resource
		if e.ObjectRef.Subresource != "" {
			res += "/" + e.ObjectRef.Subresource
		}
		if e.ObjectRef.APIGroup != "" {
			res += "." + e.ObjectRef.APIGroup
		}
		msg := e.ResponseStatus.Message
		if i := strings.Index(msg, "violates PodSecurity"); i >= 0 {
			msg = msg[i:]
		}
		line := fmt.Sprintf("%s %s %s %s: %s", e.User.Username, e.Verb, res, e.ObjectRef.Name, msg)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	})
	r.offset += read
	sort.Strings(out)
	return out, err
}

// writeVerbs are the verbs that change an object.
var writeVerbs = map[string]bool{"create": true, "update": true, "patch": true, "delete": true}

// Writes gives the service accounts' writes to one object since the reader's position, without moving it,
// one line each: when the API server received it, who, the verb and its answer. It explains how an object
// came to be as it is (the policy logs the service accounts' requests, not the harness's own).
func (r *Reader) Writes(group, resource, ns, name string) ([]string, error) {
	var out []string
	_, err := r.events(func(e *event) {
		o := e.ObjectRef
		if !writeVerbs[e.Verb] || o.APIGroup != group || o.Resource != resource || o.Namespace != ns || o.Name != name {
			return
		}
		what := e.Verb
		if o.Subresource != "" {
			what += " " + o.Subresource
		}
		line := fmt.Sprintf("%s %s %s %d", clock(e.Received), shortUser(e.User.Username), what, e.ResponseStatus.Code)
		if e.ResponseStatus.Reason != "" {
			line += " " + e.ResponseStatus.Reason
		}
		out = append(out, line)
	})
	return out, err
}

// clock is the time of day of an RFC 3339 timestamp, to the millisecond.
func clock(ts string) string {
	if i := strings.IndexByte(ts, 'T'); i >= 0 {
		ts = ts[i+1:]
	}
	if len(ts) > 12 {
		ts = ts[:12]
	}
	return ts
}

// shortUser is a service account's namespace and name.
func shortUser(u string) string {
	return strings.TrimPrefix(u, "system:serviceaccount:")
}
