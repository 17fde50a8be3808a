import { yamlLanguage } from '@codemirror/lang-yaml';

/**
 * Whether the editor's text reads as YAML, by the editor's own YAML grammar: the spec's "Invalid
 * yaml format" before anything is sent. The server parses it again and is the judge.
 */
export function isYamlSyntax(text: string): boolean {
  let valid = true;
  yamlLanguage.parser.parse(text).iterate({
    enter: (node) => {
      if (node.type.isError) valid = false;
      return valid;
    },
  });
  return valid && text.trim() !== '';
}
