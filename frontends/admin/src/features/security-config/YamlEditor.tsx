import { yaml } from '@codemirror/lang-yaml';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import ConfigProvider from 'antd/es/config-provider';
import { useContext, useMemo } from 'react';

export interface YamlEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The id of the element that names the editor. */
  labelledBy: string;
  /** The id of the element describing what is wrong, when something is. */
  errorId?: string;
}

/** The spec's editor height (and no minimap-like extras: line numbers and YAML highlighting only). */
export const YAML_EDITOR_HEIGHT = '300px';

/**
 * A YAML editor. The product's pages run under a Content Security Policy that allows inline
 * styles only with the page's nonce: the editor's own styles get the nonce the console gives its
 * component library (antd's `csp`), or they would not apply.
 */
export function YamlEditor({ value, onChange, labelledBy, errorId }: YamlEditorProps) {
  const { csp } = useContext(ConfigProvider.ConfigContext);
  const nonce = csp?.nonce;
  const extensions = useMemo(
    () => [
      yaml(),
      ...(nonce ? [EditorView.cspNonce.of(nonce)] : []),
      EditorView.contentAttributes.of({
        'aria-labelledby': labelledBy,
        'aria-multiline': 'true',
        ...(errorId ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}),
      }),
    ],
    [nonce, labelledBy, errorId],
  );
  return (
    <CodeMirror
      value={value}
      height={YAML_EDITOR_HEIGHT}
      extensions={extensions}
      basicSetup={{ foldGutter: false, autocompletion: false, searchKeymap: false, highlightSelectionMatches: false }}
      onChange={onChange}
      className="security-config__editor"
    />
  );
}
