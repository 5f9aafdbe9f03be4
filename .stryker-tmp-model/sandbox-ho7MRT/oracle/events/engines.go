package main

// The engine vectors: test/golden/vectors/<engine>.json answered by the Go libraries at the versions
// Argo Events v1.9.11 pins (go.mod of this module; generatedWith names them), written to
// test/golden/<engine>.json. The TypeScript engines in src/simulate/engine/ must give the same answers
// (test/simulate-engine/golden-oracle.test.ts).
//
// Each library is called the way Argo Events calls it (pkg/sensors/dependencies/filter.go and
// pkg/sensors/triggers/params.go of argoproj/argo-events):
//   - regexp: regexp.Compile, then MatchString / FindString / ReplaceAllString;
//   - text/template: template.New("param").Funcs(sprig.FuncMap()).Parse(t), executed with
//     map[string]interface{}{"Input": gjson.Parse(data).Value()};
//   - gjson: gjson.GetBytes(payload, path) on the payload as encoding/json writes it (the GitHub
//     EventSource re-marshals the body), then Exists / String / Raw / Value;
//   - govaluate: NewEvaluableExpression(expr).Evaluate(params), each param a gjson Result.Value();
//   - sjson: sjson.SetBytes(payload, dest, value) with the value a string, and sjson.SetRawBytes(payload,
//     dest, raw) when the parameter has useRawData and its value is JSON, on the resource as encoding/json
//     writes it; Argo then decodes the result with encoding/json, so the oracle says whether it is JSON;
//   - time.ParseDuration, which the validator's duration checks stand for.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"text/template"
	"time"

	"github.com/Knetic/govaluate"
	"github.com/Masterminds/sprig/v3"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// golden is the file written for one engine.
type golden struct {
	Engine        string        `json:"engine"`
	VectorsSha256 string        `json:"vectorsSha256"`
	GeneratedWith string        `json:"generatedWith"`
	Results       []interface{} `json:"results"`
}

type engine func(vectors []byte) ([]interface{}, error)

var engines = map[string]engine{
	"regexp":    regexpResults,
	"template":  templateResults,
	"gjson":     gjsonResults,
	"govaluate": govaluateResults,
	"duration":  durationResults,
	"sjson":     sjsonResults,
}

// writeGoldens answers every engine's vectors.
func writeGoldens(vectorsDir, goldenDir string) error {
	for _, name := range sortedEngineNames() {
		if err := writeGolden(name, engines[name], vectorsDir, goldenDir); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func sortedEngineNames() []string {
	names := make([]string, 0, len(engines))
	for name := range engines {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func writeGolden(name string, run engine, vectorsDir, goldenDir string) error {
	vectors, err := os.ReadFile(filepath.Join(vectorsDir, name+".json"))
	if err != nil {
		return err
	}
	results, err := run(vectors)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(vectors)
	out := golden{
		Engine:        name,
		VectorsSha256: hex.EncodeToString(sum[:]),
		GeneratedWith: generatedWith(),
		Results:       results,
	}
	var buf bytes.Buffer
	encoder := json.NewEncoder(&buf)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", " ")
	if err := encoder.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(goldenDir, name+".json"), buf.Bytes(), 0o644)
}

// guarded runs f and turns a panic of the library into an error text, so one bad vector cannot stop the run.
func guarded(f func() (interface{}, error)) (result interface{}, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// --- regexp ---

type regexpVectors struct {
	DefaultInputs    []string `json:"defaultInputs"`
	DefaultTemplates []string `json:"defaultTemplates"`
	Cases            []struct {
		Pattern   string   `json:"pattern"`
		Inputs    []string `json:"inputs"`
		Templates []string `json:"templates"`
	} `json:"cases"`
}

type regexpRun struct {
	Input   string   `json:"input"`
	Match   bool     `json:"match"`
	Find    string   `json:"find"`
	Replace []string `json:"replace"`
}

func regexpResults(raw []byte) ([]interface{}, error) {
	var vectors regexpVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, c := range vectors.Cases {
		re, err := regexp.Compile(c.Pattern)
		if err != nil {
			results = append(results, map[string]interface{}{"pattern": c.Pattern, "error": err.Error()})
			continue
		}
		inputs := c.Inputs
		if inputs == nil {
			inputs = vectors.DefaultInputs
		}
		templates := c.Templates
		if templates == nil {
			templates = vectors.DefaultTemplates
		}
		runs := []regexpRun{}
		for _, input := range inputs {
			replaced := []string{}
			for _, t := range templates {
				replaced = append(replaced, re.ReplaceAllString(input, t))
			}
			runs = append(runs, regexpRun{Input: input, Match: re.MatchString(input), Find: re.FindString(input), Replace: replaced})
		}
		results = append(results, map[string]interface{}{"pattern": c.Pattern, "runs": runs})
	}
	return results, nil
}

// --- text/template with Sprig ---

type templateVectors struct {
	Data  map[string]json.RawMessage `json:"data"`
	Cases []struct {
		Template string   `json:"template"`
		Data     []string `json:"data"`
	} `json:"cases"`
}

// namedOrAll is the names a case lists, or else every name of the vectors, sorted.
func namedOrAll(names []string, all map[string]json.RawMessage) []string {
	if names != nil {
		return names
	}
	return sortedKeys(all)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func templateResults(raw []byte) ([]interface{}, error) {
	var vectors templateVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, c := range vectors.Cases {
		names := namedOrAll(c.Data, vectors.Data)
		for _, name := range names {
			data, ok := vectors.Data[name]
			if !ok {
				return nil, fmt.Errorf("template %q names unknown data %q", c.Template, name)
			}
			result := map[string]interface{}{"template": c.Template, "data": name}
			tpl, err := template.New("param").Funcs(sprig.FuncMap()).Parse(c.Template)
			if err != nil {
				result["parseError"] = err.Error()
				results = append(results, result)
				continue
			}
			out, err := guarded(func() (interface{}, error) {
				var buf bytes.Buffer
				err := tpl.Execute(&buf, map[string]interface{}{"Input": gjson.ParseBytes(data).Value()})
				return buf.String(), err
			})
			if err != nil {
				result["execError"] = err.Error()
			} else {
				result["output"] = out
			}
			results = append(results, result)
		}
	}
	return results, nil
}

// --- gjson ---

type gjsonVectors struct {
	Documents map[string]json.RawMessage `json:"documents"`
	Cases     []struct {
		Path      string   `json:"path"`
		Documents []string `json:"documents"`
	} `json:"cases"`
}

// goEncoded is the document as Go's encoding/json writes it after decoding it into interface{}, as the
// GitHub EventSource does with the webhook body before the sensor reads it.
func goEncoded(raw json.RawMessage) ([]byte, error) {
	var decoded interface{}
	if err := json.Unmarshal(raw, &decoded); err != nil {
		return nil, err
	}
	return json.Marshal(decoded)
}

func gjsonResults(raw []byte) ([]interface{}, error) {
	var vectors gjsonVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, c := range vectors.Cases {
		names := namedOrAll(c.Documents, vectors.Documents)
		for _, name := range names {
			document, ok := vectors.Documents[name]
			if !ok {
				return nil, fmt.Errorf("path %q names unknown document %q", c.Path, name)
			}
			payload, err := goEncoded(document)
			if err != nil {
				return nil, err
			}
			found := gjson.GetBytes(payload, c.Path)
			value, err := json.Marshal(found.Value())
			if err != nil {
				return nil, err
			}
			results = append(results, map[string]interface{}{
				"path": c.Path, "document": name, "exists": found.Exists(), "type": found.Type.String(),
				"string": found.String(), "raw": found.Raw, "value": string(value),
			})
		}
	}
	return results, nil
}

// --- govaluate ---

type govaluateVectors struct {
	Parameters map[string]json.RawMessage `json:"parameters"`
	Cases      []struct {
		Expr       string   `json:"expr"`
		Parameters []string `json:"parameters"`
	} `json:"cases"`
}

func govaluateResults(raw []byte) ([]interface{}, error) {
	var vectors govaluateVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, c := range vectors.Cases {
		names := namedOrAll(c.Parameters, vectors.Parameters)
		for _, name := range names {
			bound, ok := vectors.Parameters[name]
			if !ok {
				return nil, fmt.Errorf("expr %q names unknown parameters %q", c.Expr, name)
			}
			// Argo binds each field to gjson's Result.Value() of its path.
			parameters := map[string]interface{}{}
			gjson.ParseBytes(bound).ForEach(func(key, value gjson.Result) bool {
				parameters[key.String()] = value.Value()
				return true
			})
			result := map[string]interface{}{"expr": c.Expr, "parameters": name}
			value, err := guarded(func() (interface{}, error) {
				expr, err := govaluate.NewEvaluableExpression(c.Expr)
				if err != nil {
					return nil, fmt.Errorf("parse: %w", err)
				}
				return expr.Evaluate(parameters)
			})
			if err != nil {
				result["error"] = err.Error()
			} else if encoded, err := json.Marshal(value); err != nil {
				result["error"] = "result not JSON: " + err.Error()
			} else {
				result["value"] = string(encoded)
			}
			results = append(results, result)
		}
	}
	return results, nil
}

// --- time.ParseDuration ---

type durationVectors struct {
	Cases []string `json:"cases"`
}

func durationResults(raw []byte) ([]interface{}, error) {
	var vectors durationVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, text := range vectors.Cases {
		parsed, err := time.ParseDuration(text)
		if err != nil {
			results = append(results, map[string]interface{}{"text": text, "error": err.Error()})
		} else {
			results = append(results, map[string]interface{}{"text": text, "nanoseconds": fmt.Sprint(int64(parsed))})
		}
	}
	return results, nil
}

// --- sjson ---

// sjsonValue is one value to write: exactly one field is set. String and Raw are the two calls Argo Events
// makes; Number, Bool and Null are sjson.SetBytes with those Go types, for completeness.
type sjsonValue struct {
	String *string  `json:"string"`
	Raw    *string  `json:"raw"`
	Number *float64 `json:"number"`
	Bool   *bool    `json:"bool"`
	Null   bool     `json:"null"`
	Note   string   `json:"note"`
}

type sjsonVectors struct {
	Documents     map[string]json.RawMessage `json:"documents"`
	Values        map[string]sjsonValue      `json:"values"`
	DefaultValues []string                   `json:"defaultValues"`
	Cases         []struct {
		Path      string   `json:"path"`
		Documents []string `json:"documents"`
		Values    []string `json:"values"`
	} `json:"cases"`
}

func sjsonSet(payload []byte, path string, value sjsonValue) ([]byte, error) {
	switch {
	case value.String != nil:
		return sjson.SetBytes(payload, path, *value.String)
	case value.Raw != nil:
		return sjson.SetRawBytes(payload, path, []byte(*value.Raw))
	case value.Number != nil:
		return sjson.SetBytes(payload, path, *value.Number)
	case value.Bool != nil:
		return sjson.SetBytes(payload, path, *value.Bool)
	case value.Null:
		return sjson.SetBytes(payload, path, nil)
	}
	return nil, fmt.Errorf("a value names no kind")
}

func sjsonResults(raw []byte) ([]interface{}, error) {
	var vectors sjsonVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		return nil, err
	}
	results := []interface{}{}
	for _, c := range vectors.Cases {
		documents := namedOrAll(c.Documents, vectors.Documents)
		values := c.Values
		if values == nil {
			values = vectors.DefaultValues
		}
		for _, documentName := range documents {
			document, ok := vectors.Documents[documentName]
			if !ok {
				return nil, fmt.Errorf("path %q names unknown document %q", c.Path, documentName)
			}
			payload, err := goEncoded(document)
			if err != nil {
				return nil, err
			}
			for _, valueName := range values {
				value, ok := vectors.Values[valueName]
				if !ok {
					return nil, fmt.Errorf("path %q names unknown value %q", c.Path, valueName)
				}
				result := map[string]interface{}{"path": c.Path, "document": documentName, "value": valueName}
				out, err := guarded(func() (interface{}, error) {
					written, err := sjsonSet(payload, c.Path, value)
					return string(written), err
				})
				if err != nil {
					result["error"] = err.Error()
				} else {
					result["output"] = out
					result["json"] = json.Valid([]byte(out.(string)))
				}
				results = append(results, result)
			}
		}
	}
	return results, nil
}
