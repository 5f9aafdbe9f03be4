package main

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	wfv1 "github.com/argoproj/argo-workflows/v4/pkg/apis/workflow/v1alpha1"
	"github.com/argoproj/argo-workflows/v4/workflow/common"
	"github.com/argoproj/argo-workflows/v4/workflow/util"

	"cdk8s-agent-play/oracle/shared"
)

// workflowPods judges, under the restricted Pod Security level, the pod of every container, script and
// containerSet template of a workflow spec as the controller builds it for a controller with the default
// configuration (no executor security context): the pod-level fields and containers of
// workflow/controller/workflowpod.go (createWorkflowPod, newInitContainers, newWaitContainer,
// addSchedulingConstraints, addVolumeReferences, addScriptStagingVolume, addInitContainers, addSidecars),
// then the workflow's and the template's podSpecPatch applied with Argo's own util.ApplyPodSpecPatch
// (a strategic merge patch). A pod whose patch still holds a placeholder (`{{...}}`, filled at run time)
// is left out: what it becomes is not known before the run.
func workflowPods(spec *wfv1.WorkflowSpec) []shared.PodAnswer {
	pods := []shared.PodAnswer{}
	for index := range spec.Templates {
		template := &spec.Templates[index]
		mains := mainContainers(template)
		if mains == nil {
			continue
		}
		patches := []string{}
		for _, patch := range []string{spec.PodSpecPatch, template.PodSpecPatch} {
			if patch != "" {
				patches = append(patches, patch)
			}
		}
		if strings.Contains(strings.Join(patches, ""), "{{") {
			continue
		}
		podSpec := basePod(spec, template, mains)
		answer := shared.PodAnswer{Name: template.Name, Forbidden: []string{}}
		if len(patches) > 0 {
			patched, err := util.ApplyPodSpecPatch(podSpec, patches...)
			if err != nil {
				answer.Error = err.Error()
				pods = append(pods, answer)
				continue
			}
			podSpec = *patched
		}
		answer.Forbidden = shared.Restricted(&metav1.ObjectMeta{}, &podSpec)
		pods = append(pods, answer)
	}
	return pods
}

// mainContainers are the user's containers of a pod template, named as the controller names them; nil for
// a template that runs no such pod.
func mainContainers(template *wfv1.Template) []corev1.Container {
	switch template.GetType() {
	case wfv1.TemplateTypeContainer:
		main := *template.Container.DeepCopy()
		main.Name = common.MainContainerName
		return []corev1.Container{main}
	case wfv1.TemplateTypeScript:
		main := *template.Script.Container.DeepCopy()
		main.Name = common.MainContainerName
		return []corev1.Container{main}
	case wfv1.TemplateTypeContainerSet:
		mains := []corev1.Container{}
		for _, node := range template.ContainerSet.Containers {
			main := *node.Container.DeepCopy()
			if main.Name == "" {
				main.Name = common.MainContainerName
			}
			mains = append(mains, main)
		}
		return mains
	}
	return nil
}

// executor is one of Argo's own containers (init, wait) as newExecContainer makes it for the default
// controller configuration: no security context.
func executor(name string) corev1.Container {
	return corev1.Container{Name: name, Image: "quay.io/argoproj/argoexec:v4.0.5"}
}

func basePod(spec *wfv1.WorkflowSpec, template *wfv1.Template, mains []corev1.Container) corev1.PodSpec {
	pod := corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyNever,
		Volumes: append([]corev1.Volume{
			{Name: "var-run-argo", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			{Name: "tmp-dir-argo", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		}, template.Volumes...),
		ImagePullSecrets: spec.ImagePullSecrets,
	}
	if spec.HostNetwork != nil {
		pod.HostNetwork = *spec.HostNetwork
	}
	pod.Containers = append([]corev1.Container{executor(common.WaitContainerName)}, mains...)
	pod.InitContainers = []corev1.Container{executor(common.InitContainerName)}
	if template.SecurityContext != nil {
		pod.SecurityContext = template.SecurityContext
	} else if spec.SecurityContext != nil {
		pod.SecurityContext = spec.SecurityContext
	}
	pod.Volumes = append(pod.Volumes, referencedVolumes(spec, template, pod.Volumes)...)
	if template.GetType() == wfv1.TemplateTypeScript {
		pod.Volumes = append(pod.Volumes, corev1.Volume{Name: "argo-staging", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	}
	for _, init := range template.InitContainers {
		pod.InitContainers = append(pod.InitContainers, init.Container)
	}
	for _, sidecar := range template.Sidecars {
		pod.Containers = append(pod.Containers, sidecar.Container)
	}
	return pod
}

// referencedVolumes are the workflow's volumes and claims that the template's containers mount and the pod
// does not have yet (addVolumeReferences).
func referencedVolumes(spec *wfv1.WorkflowSpec, template *wfv1.Template, have []corev1.Volume) []corev1.Volume {
	known := map[string]corev1.Volume{}
	for _, claim := range spec.VolumeClaimTemplates {
		known[claim.Name] = corev1.Volume{Name: claim.Name, VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name}}}
	}
	for _, volume := range spec.Volumes {
		known[volume.Name] = volume
	}
	present := map[string]bool{}
	for _, volume := range have {
		present[volume.Name] = true
	}
	mounts := template.GetVolumeMounts()
	for _, init := range template.InitContainers {
		mounts = append(mounts, init.VolumeMounts...)
	}
	for _, sidecar := range template.Sidecars {
		mounts = append(mounts, sidecar.VolumeMounts...)
	}
	added := []corev1.Volume{}
	for _, mount := range mounts {
		volume, ok := known[mount.Name]
		if ok && !present[mount.Name] {
			present[mount.Name] = true
			added = append(added, volume)
		}
	}
	return added
}
