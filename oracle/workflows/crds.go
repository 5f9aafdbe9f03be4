package main

import (
	"context"
	"fmt"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"cdk8s-agent-play/oracle/shared"
)

// crdScheme converts and defaults CustomResourceDefinitions as the API server does.
var crdScheme = func() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}()

// objectValidator is the API server's create strategy of one served version of a CRD
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource, NewStrategy).
type objectValidator interface {
	Validate(ctx context.Context, obj runtime.Object) field.ErrorList
}

// servedVersion is what the API server builds for one served version of a CRD
// (pkg/apiserver/customresource_handler.go, getOrCreateServingInfoFor).
type servedVersion struct {
	structural *structuralschema.Structural
	strategy   objectValidator
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
	strategy := customresourcedefinition.NewStrategy(crdScheme)
	ctx := context.Background()
	strategy.PrepareForCreate(ctx, internal)
	problems := fieldErrors(strategy.Validate(ctx, internal))
	if len(problems) > 0 {
		return nil, problems, nil
	}
	kind, err := servingInfo(crd)
	return kind, nil, err
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
		statusSpec, statusValidator, scaleSpec, err := subresources(crd, version.Name, internal)
		if err != nil {
			return nil, err
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version.Name, Kind: crd.Spec.Names.Kind}
		served.strategy = customresource.NewStrategy(nil, namespaced, gvk, validator, statusValidator, served.structural, statusSpec, scaleSpec, version.SelectableFields)
		kind.versions[version.Name] = served
	}
	return kind, nil
}

func subresources(crd *apiextensionsv1.CustomResourceDefinition, version string, internal *apiextensions.CustomResourceValidation) (*apiextensions.CustomResourceSubresourceStatus, apiservervalidation.SchemaValidator, *apiextensions.CustomResourceSubresourceScale, error) {
	found, err := apihelpers.GetSubresourcesForVersion(crd, version)
	if err != nil || found == nil {
		return nil, nil, nil, err
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if found.Status != nil {
		statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
		if internal.OpenAPIV3Schema != nil {
			if statusSchema, ok := internal.OpenAPIV3Schema.Properties["status"]; ok {
				if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&statusSchema); err != nil {
					return nil, nil, nil, err
				}
			}
		}
	}
	var scaleSpec *apiextensions.CustomResourceSubresourceScale
	if found.Scale != nil {
		scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(found.Scale, scaleSpec, nil); err != nil {
			return nil, nil, nil, err
		}
	}
	return statusSpec, statusValidator, scaleSpec, nil
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
	problems = append(problems, fieldErrors(served.strategy.Validate(context.Background(), object))...)
	return problems
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
