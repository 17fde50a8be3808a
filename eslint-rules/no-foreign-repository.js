/**
 * A feature reads and writes only its own tables: it never imports another feature's repository
 * (`features/<other>/…/repository.ts`). What it needs of another feature it asks through that
 * feature's service, or through the core (`@gatehouse/core/access` gives and takes roles).
 */
import path from 'node:path';

/** The feature a file belongs to (`…/src/features/<feature>/…`), with the folder that holds the features. */
function featureOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('features');
  if (at < 1 || parts[at - 1] !== 'src' || at + 1 >= parts.length) return undefined;
  return { root: parts.slice(0, at + 1).join(path.sep), name: parts[at + 1].replace(/\.[jt]sx?$/, '') };
}

const isRepository = (file) => /^repository\.[jt]s$/.test(path.basename(file)) || file.split(path.sep).includes('repository');

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbids importing another feature's repository" },
    schema: [],
    messages: {
      foreign: '"{{source}}" is the repository of the {{other}} feature: ask its service or the core, never its tables.',
    },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!path.isAbsolute(filename)) return {};
    const own = featureOf(filename);
    if (!own) return {};

    function check(sourceNode) {
      const source = sourceNode?.type === 'Literal' ? sourceNode.value : undefined;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(filename), source);
      const other = featureOf(target);
      if (!other || other.root !== own.root || other.name === own.name || !isRepository(target)) return;
      context.report({ node: sourceNode, messageId: 'foreign', data: { source, other: other.name } });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
