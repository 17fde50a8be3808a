{{/* Name of the release's objects: <release>-gatehouse unless overridden, at most 63 characters. */}}
{{- define "gatehouse.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (default .Chart.Name .Values.nameOverride) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "gatehouse.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gatehouse.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | quote }}
app.kubernetes.io/name: {{ include "gatehouse.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels that select one service's pods; called with (dict "root" $ "component" "idp"). */}}
{{- define "gatehouse.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gatehouse.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "gatehouse.secretName" -}}
{{- default (printf "%s-secrets" (include "gatehouse.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{- define "gatehouse.configName" -}}
{{- printf "%s-config" (include "gatehouse.fullname" .) -}}
{{- end -}}

{{- define "gatehouse.bootstrapName" -}}
{{- printf "%s-bootstrap" (include "gatehouse.fullname" .) -}}
{{- end -}}

{{- define "gatehouse.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gatehouse.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gatehouse.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The path of publicUrl without its trailing slash: "" or "/identity". */}}
{{- define "gatehouse.basePath" -}}
{{- trimSuffix "/" (urlParse .Values.publicUrl).path -}}
{{- end -}}

{{/* What every container of the product reads: the settings, the secrets and the bootstrap file. */}}
{{- define "gatehouse.envFrom" -}}
- configMapRef:
    name: {{ include "gatehouse.configName" . }}
- secretRef:
    name: {{ include "gatehouse.secretName" . }}
{{- end -}}

{{/* Writable folders of a read-only root file system, and the bootstrap file when one is given. */}}
{{- define "gatehouse.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /data
{{- if .Values.bootstrap }}
- name: bootstrap
  mountPath: /etc/gatehouse
  readOnly: true
{{- end }}
{{- end -}}

{{- define "gatehouse.volumes" -}}
- name: tmp
  emptyDir: {}
- name: data
  emptyDir: {}
{{- if .Values.bootstrap }}
- name: bootstrap
  configMap:
    name: {{ include "gatehouse.bootstrapName" . }}
{{- end }}
{{- end -}}
