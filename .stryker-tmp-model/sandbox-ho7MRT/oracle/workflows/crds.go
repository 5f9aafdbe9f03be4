package main

import (
	"context"
	"fmt"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemacel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"cdk8s-agent-play/oracle/shared"
)

// crdScheme converts and defaults CustomResourceDefinitions as the API server does.
var crdScheme = func() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}()

// servedVersion is what the API server builds for one served version of a CRD
// (pkg/apiserver/customresource_handler.go, getOrCreateServingInfoFor). Its checks are those of the create
// strategy (pkg/registry/customresource/strategy.go and validator.go: Validate), called here one by one:
// that package brings in the API server's etcd storage, which does not build against the OpenTelemetry
// version Argo Workflows pins.
type servedVersion struct {
	structural      *structuralschema.Structural
	namespaced      bool
	kind            schema.GroupVersionKind
	schemaValidator apiservervalidation.SchemaValidator
	cel             *schemacel.Validator
}

// crdKind is an accepted CRD, ready to check its objects.
type crdKind struct {
	name                  string
	group                 string
	kind                  string
	preserveUnknownFields bool
	versions              map[string]*servedVersion
}

// crdDocument decodes a CustomResourceDefinition, checks it as the API server does when it is created
// (the customresourcedefinition strategy: PrepareForCreate, then Validate) and, when it is accepted, builds
// what checks its objects.
func crdDocument(doc shared.Document) (*crdKind, []string, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if _, err := shared.DecodeAsController(doc, crd); err != "" {
		return nil, nil, fmt.Errorf("%s", err)
	}
	crdScheme.Default(crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd, internal, nil); err != nil {
		return nil, nil, err
	}
	prepareForCreate(internal)
	problems := fieldErrors(crdvalidation.ValidateCustomResourceDefinition(context.Background(), internal))
	if len(problems) > 0 {
		return nil, problems, nil
	}
	kind, err := servingInfo(crd)
	return kind, nil, err
}

// prepareForCreate is the CRD strategy's PrepareForCreate (pkg/registry/customresourcedefinition/strategy.go):
// no status, generation 1, the storage version stored.
func prepareForCreate(crd *apiextensions.CustomResourceDefinition) {
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd.Generation = 1
	for _, version := range crd.Spec.Versions {
		if version.Storage {
			crd.Status.StoredVersions = append(crd.Status.StoredVersions, version.Name)
			break
		}
	}
}

func servingInfo(crd *apiextensionsv1.CustomResourceDefinition) (*crdKind, error) {
	kind := &crdKind{
		name: crd.Name, group: crd.Spec.Group, kind: crd.Spec.Names.Kind,
		preserveUnknownFields: crd.Spec.PreserveUnknownFields, versions: map[string]*servedVersion{},
	}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	for _, version := range crd.Spec.Versions {
		if !version.Served {
			continue
		}
		validation, err := apihelpers.GetSchemaForVersion(crd, version.Name)
		if err != nil {
			return nil, err
		}
		internal := &apiextensions.CustomResourceValidation{}
		if validation != nil {
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validation, internal, nil); err != nil {
				return nil, err
			}
		}
		served := &servedVersion{}
		if internal.OpenAPIV3Schema != nil {
			structural, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
			if err != nil {
				return nil, err
			}
			structural = structural.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(structural); err != nil {
				return nil, err
			}
			served.structural = structural
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
		if err != nil {
			return nil, err
		}
		served.namespaced = namespaced
		served.kind = schema.GroupVersionKind{Group: crd.Spec.Group, Version: version.Name, Kind: crd.Spec.Names.Kind}
		served.schemaValidator = validator
		if served.structural != nil {
			served.cel = schemacel.NewValidator(served.structural, true, celconfig.PerCallLimit)
		}
		kind.versions[version.Name] = served
	}
	return kind, nil
}

// check is what the API server says when the object is created: the fields pruning drops (with
// kubectl's default, strict field validation, each is an error), then the schema, list types and CEL rules
// on the pruned and defaulted object (unstructuredSchemaCoercer.apply, the defaulter, then the strategy's
// Validate).
func (k *crdKind) check(doc shared.Document) []string {
	object := &unstructured.Unstructured{}
	if err := object.UnmarshalJSON(doc.JSON); err != nil {
		return []string{err.Error()}
	}
	// What kubectl and the API server set before validating: the context's namespace, and a name made
	// from generateName (BeforeCreate; the random tail does not change what is valid).
	if object.GetNamespace() == "" {
		object.SetNamespace("default")
	}
	if object.GetName() == "" && object.GetGenerateName() != "" {
		object.SetName(object.GetGenerateName() + "x2x4z")
	}
	gv, err := schema.ParseGroupVersion(object.GetAPIVersion())
	if err != nil {
		return []string{err.Error()}
	}
	served, ok := k.versions[gv.Version]
	if !ok {
		return []string{fmt.Sprintf("no version %q of %s is served", gv.Version, k.name)}
	}
	problems := []string{}
	unknown, err := coerce(object, served.structural, k.preserveUnknownFields)
	if err != nil {
		return []string{err.Error()}
	}
	for _, path := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", path))
	}
	if served.structural != nil {
		structuraldefaulting.Default(object.Object, served.structural)
	}
	problems = append(problems, fieldErrors(served.validate(object))...)
	return problems
}

// validate is the create strategy's Validate: metadata, the schema, embedded resources, list types, then
// the CEL rules within the runtime budget unless an earlier error blocks them.
func (v *servedVersion) validate(object *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	if object.GetKind() != v.kind.Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), object.GetKind(), fmt.Sprintf("must be %v", v.kind.Kind)))
	}
	errs = append(errs, metavalidation.ValidateObjectMetaAccessor(object, v.namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, object.UnstructuredContent(), v.schemaValidator)...)
	if v.structural == nil {
		return errs
	}
	errs = append(errs, schemaobjectmeta.Validate(nil, object.Object, v.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, v.structural, object.Object)...)
	for _, problem := range errs {
		switch problem.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
		}
	}
	celErrs, _ := v.cel.Validate(context.Background(), nil, v.structural, object.Object, nil, celconfig.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// coerce prunes an object as the API server's decoder does and returns the paths it dropped.
func coerce(object *unstructured.Unstructured, structural *structuralschema.Structural, preserveUnknownFields bool) ([]string, error) {
	kind, apiVersion := object.GetKind(), object.GetAPIVersion()
	meta, foundMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(object.Object, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: true, ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	if structural != nil {
		if !preserveUnknownFields {
			unknown = append(unknown, structuralpruning.PruneWithOptions(object.Object, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(object.Object, structural)
		}
		fieldErr, paths := schemaobjectmeta.CoerceWithOptions(nil, object.Object, structural, false, schemaobjectmeta.CoerceOptions{DropInvalidFields: true, ReturnUnknownFieldPaths: true})
		if fieldErr != nil {
			return nil, fieldErr
		}
		unknown = append(unknown, paths...)
	}
	object.SetKind(kind)
	object.SetAPIVersion(apiVersion)
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(object.Object, meta); err != nil {
			return nil, err
		}
	}
	sort.Strings(unknown)
	return unknown, nil
}

func fieldErrors(errs field.ErrorList) []string {
	found := []string{}
	for _, problem := range errs {
		found = append(found, problem.Error())
	}
	return found
}
