// The renderer behind the chart check follows Go templates and Sprig where the chart relies on them,
// and refuses what it does not know rather than guessing.
import { expect } from 'chai';
import { mergeValues, renderTemplate } from './helm-template.js';

describe('deployment: the chart renderer', () => {
  it('trims whitespace at "{{-" and "-}}" only, as Go does', () => {
    expect(renderTemplate('a  {{- "b" -}}  \n c {{ "d" }} e', {})).to.equal('abc d e');
  });

  it('ranges over maps in key order and over lists, with variables, else and the root as $', () => {
    const data = { Values: { m: { b: 2, a: 1 }, l: ['x', 'y'], none: [] }, Name: 'root' };
    expect(renderTemplate('{{ range $k, $v := .Values.m }}{{ $k }}={{ $v }};{{ end }}', data)).to.equal('a=1;b=2;');
    expect(renderTemplate('{{ range .Values.l }}{{ . }}{{ $.Name }} {{ end }}', data)).to.equal('xroot yroot ');
    expect(renderTemplate('{{ range .Values.none }}x{{ else }}empty{{ end }}', data)).to.equal('empty');
  });

  it('treats false, 0, nil and empty values as false in if and with', () => {
    const data = { Values: { zero: 0, empty: '', list: [], map: {}, yes: 'y' } };
    for (const key of ['zero', 'empty', 'list', 'map', 'missing']) {
      expect(renderTemplate(`{{ if .Values.${key} }}t{{ else if .Values.yes }}elif{{ else }}f{{ end }}`, data), key).to.equal('elif');
    }
    expect(renderTemplate('{{ with .Values.yes }}{{ . }}{{ else }}no{{ end }}', data)).to.equal('y');
  });

  it('pipes the value as the last argument, and reads fields of a group only when they touch it', () => {
    const data = { Values: { url: 'https://example.com/identity/', name: '' } };
    expect(renderTemplate('{{ .Values.name | default "fallback" | quote }}', data)).to.equal('"fallback"');
    expect(renderTemplate('{{ trimSuffix "/" (urlParse .Values.url).path }}', data)).to.equal('/identity');
    expect(renderTemplate('{{ (urlParse "https://example.com").path | quote }}', data)).to.equal('""');
    expect(renderTemplate('{{ printf "%s-%s" "a" (default "b" .Values.name) | trunc 3 }}', data)).to.equal('a-b');
  });

  it('includes defined templates with their own dot, and indents YAML', () => {
    const source = '{{- define "t" -}}name: {{ .n }}{{- end -}}\nx:{{- include "t" (dict "n" "v") | nindent 2 }}\ny: {{ toYaml (list 1 2) | nindent 2 }}';
    expect(renderTemplate(source, {})).to.equal('x:\n  name: v\ny: \n  - 1\n  - 2');
  });

  it('stops on required values, nil fields, unknown functions and unsupported actions', () => {
    expect(() => renderTemplate('{{ required "give x" .x }}', {})).to.throw(/give x/);
    expect(() => renderTemplate('{{ .a.b }}', {})).to.throw(/nil pointer evaluating \.b/);
    expect(() => renderTemplate('{{ lookup "v1" "Secret" "ns" "name" }}', {})).to.throw(/function "lookup" is not supported/);
    expect(() => renderTemplate('{{ template "x" . }}', {})).to.throw(/not supported/);
    expect(() => renderTemplate('{{ .m }}', { m: { a: 1 } })).to.throw(/cannot print/);
  });

  it('merges values as helm does: maps key by key, null removes', () => {
    expect(mergeValues({ a: { b: 1, c: 2 }, d: [1], e: 1 }, { a: { c: 3 }, d: [2], e: null })).to.deep.equal({ a: { b: 1, c: 3 }, d: [2] });
  });
});
