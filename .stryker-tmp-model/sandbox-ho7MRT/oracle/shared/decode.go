package shared

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Document is one YAML document of a file, as JSON, with what identifies it.
type Document struct {
	File  string
	Index int
	// JSON is the document converted the lenient way (the last of duplicate keys kept).
	JSON []byte
	// StrictYAML is the error of the strict conversion, which refuses duplicate keys.
	StrictYAML string
	Type       metav1.TypeMeta
	Meta       metav1.ObjectMeta
}

// Name is the object's name, else its generateName.
func (d Document) Name() string {
	if d.Meta.Name != "" {
		return d.Meta.Name
	}
	return d.Meta.GenerateName
}

// Documents splits a file as kubectl does (k8s.io/apimachinery/pkg/util/yaml) and converts each document to
// JSON with sigs.k8s.io/yaml (go-yaml, YAML 1.1), the conversion client-go and the Argo CLIs use. Empty
// documents are not counted, as agent-play does not count them.
func Documents(file InputFile) ([]Document, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(file.Text)))
	var found []Document
	for {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return found, nil
		}
		if err != nil {
			return found, fmt.Errorf("%s: document %d: %w", file.Name, len(found), err)
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		converted, err := yaml.YAMLToJSON(raw)
		if err != nil {
			return found, fmt.Errorf("%s: document %d: %w", file.Name, len(found), err)
		}
		if string(converted) == "null" {
			continue
		}
		doc := Document{File: file.Name, Index: len(found), JSON: converted}
		if _, err := yaml.YAMLToJSONStrict(raw); err != nil {
			doc.StrictYAML = err.Error()
		}
		var header struct {
			metav1.TypeMeta `json:",inline"`
			Metadata        metav1.ObjectMeta `json:"metadata"`
		}
		// Identification only: a document whose metadata does not decode still gets an answer.
		_ = kjson.UnmarshalCaseSensitivePreserveInts(converted, &header)
		doc.Type = header.TypeMeta
		doc.Meta = header.Metadata
		found = append(found, doc)
	}
}

// GroupDocuments are the documents of every file of a group, in order.
func GroupDocuments(g Group) ([]Document, error) {
	var docs []Document
	for _, file := range g.Files {
		found, err := Documents(file)
		if err != nil {
			return nil, fmt.Errorf("group %s: %w", g.ID, err)
		}
		docs = append(docs, found...)
	}
	return docs, nil
}

// DecodeAsController decodes a document into target the way client-go's JSON serializer does for the
// controllers (case-sensitive, unknown fields dropped), and lists what a strict decoding refuses: the fields
// the controller never sees. The error is set when the document does not decode at all.
func DecodeAsController(doc Document, target any) (unknown []string, err string) {
	strictErrors, decodeErr := kjson.UnmarshalStrict(doc.JSON, target, kjson.DisallowUnknownFields)
	if decodeErr != nil {
		return nil, decodeErr.Error()
	}
	for _, strict := range strictErrors {
		unknown = append(unknown, strict.Error())
	}
	sort.Strings(unknown)
	return unknown, ""
}

// MetadataErrors is what the API server says of a custom resource's metadata
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource/validator.go: ValidateObjectMetaAccessor with
// NameIsDNSSubdomain), once kubectl has set the namespace of its context on an object without one.
func MetadataErrors(meta *metav1.ObjectMeta) []string {
	sent := meta.DeepCopy()
	if sent.Namespace == "" {
		sent.Namespace = metav1.NamespaceDefault
	}
	if sent.Name == "" && sent.GenerateName != "" {
		// The API server makes the name before it validates (BeforeCreate); its random tail changes nothing here.
		sent.Name = sent.GenerateName + "x2x4z"
	}
	var found []string
	for _, problem := range metavalidation.ValidateObjectMeta(sent, true, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata")) {
		found = append(found, problem.Error())
	}
	return found
}

// NewObjectAnswer is the part of an answer every object gets: where it is, what it is, its YAML and metadata.
func NewObjectAnswer(groupID string, doc Document) ObjectAnswer {
	return ObjectAnswer{
		Group: groupID, File: doc.File, Document: doc.Index,
		APIVersion: doc.Type.APIVersion, Kind: doc.Type.Kind, Name: doc.Name(),
		YAML: doc.StrictYAML, Metadata: MetadataErrors(&doc.Meta),
	}
}

// ErrorText is an error's text, "" for none.
func ErrorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
