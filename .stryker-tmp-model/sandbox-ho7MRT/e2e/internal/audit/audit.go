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
	Verb string `json:"verb"`
	User struct {
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

// Refusals gives each distinct refused request in namespace ns (or by its service accounts) since the
// last call, as one line: who, verb, resource, name, the API server's message.
func (r *Reader) Refusals(ns string) ([]string, error) {
	f, err := os.Open(r.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(r.offset, io.SeekStart); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var read int64
	for sc.Scan() {
		line := sc.Bytes()
		read += int64(len(line)) + 1
		var e event
		if json.Unmarshal(line, &e) != nil || e.ResponseStatus.Code != 403 {
			continue
		}
		mine := e.ObjectRef.Namespace == ns || strings.HasPrefix(e.User.Username, "system:serviceaccount:"+ns+":")
		if !mine {
			continue
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
		line2 := fmt.Sprintf("%s %s %s %s: %s", e.User.Username, e.Verb, res, e.ObjectRef.Name, msg)
		if !seen[line2] {
			seen[line2] = true
			out = append(out, line2)
		}
	}
	r.offset += read
	sort.Strings(out)
	return out, sc.Err()
}
