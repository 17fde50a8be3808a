/**
 * A package's sources reach another package through its name (`@gatehouse/core/...`), never
 * through a relative path such as `../../../core/src/x.js`: the name goes through the package's
 * exports, the relative path around them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const roots = new Map();

/** The nearest folder above `directory` that holds a package.json. */
function packageRoot(directory) {
  if (!roots.has(directory)) {
    const parent = path.dirname(directory);
    const root = existsSync(path.join(directory, 'package.json')) || parent === directory ? directory : packageRoot(parent);
    roots.set(directory, root);
  }
  return roots.get(directory);
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbids relative imports that leave the package' },
    schema: [],
    messages: {
      leaves: '"{{source}}" leaves this package through a relative path: import it by its package name.',
    },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!path.isAbsolute(filename)) return {};
    const directory = path.dirname(filename);
    const root = packageRoot(directory);

    function check(sourceNode) {
      const source = sourceNode?.type === 'Literal' ? sourceNode.value : undefined;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(directory, source);
      const inside = path.relative(root, target);
      if (inside.startsWith('..') || path.isAbsolute(inside)) {
        context.report({ node: sourceNode, messageId: 'leaves', data: { source } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
