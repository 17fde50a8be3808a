/**
 * A route handler validates, makes one service call and presents the result; anything longer is
 * orchestration that belongs in a service. The handler is the function passed as the last argument
 * of the route kit's `bind(router, contract, handler)` or of `router.get/post/put/patch/delete(...)`.
 * Lines are counted like `max-lines-per-function` with `skipBlankLines` and `skipComments`.
 */

const ROUTER_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options', 'all']);
const DEFAULT_MAX = 15;

function propertyName(member) {
  if (member.computed) return member.property.type === 'Literal' ? String(member.property.value) : undefined;
  return member.property.type === 'Identifier' ? member.property.name : undefined;
}

function objectName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression') return propertyName(node);
  return undefined;
}

function isFunction(node) {
  return node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression';
}

/** `bind(router, contract, handler)` or `kit.bind(router, contract, handler)`. */
function isRouteBind(call) {
  const { callee } = call;
  if (callee.type === 'Identifier') return callee.name === 'bind';
  return callee.type === 'MemberExpression' && propertyName(callee) === 'bind' && call.arguments.length >= 3;
}

/** `router.get('/path', …, handler)`, `this.router.post(…)`, `accountRouter.put(…)`. */
function isRouterRoute(call) {
  const { callee } = call;
  if (callee.type !== 'MemberExpression' || !ROUTER_METHODS.has(propertyName(callee) ?? '')) return false;
  return call.arguments.length >= 2 && /router$/i.test(objectName(callee.object) ?? '');
}

/** The lines a comment fills on its own (nothing but whitespace beside it). */
function commentOnlyLines(sourceCode) {
  const lines = new Set();
  for (const comment of sourceCode.getAllComments()) {
    const { start, end } = comment.loc;
    const before = sourceCode.lines[start.line - 1].slice(0, start.column);
    const after = sourceCode.lines[end.line - 1].slice(end.column);
    for (let line = start.line; line <= end.line; line += 1) {
      const alone = (line !== start.line || !before.trim()) && (line !== end.line || !after.trim());
      if (alone) lines.add(line);
    }
  }
  return lines;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'Caps the length of a route handler' },
    schema: [
      {
        type: 'object',
        properties: { max: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
    ],
    messages: {
      tooLong:
        'This route handler has {{lines}} lines (at most {{max}}): move the work into a service function and call it once.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? DEFAULT_MAX;
    const { sourceCode } = context;
    let comments;

    function countLines(fn) {
      comments ??= commentOnlyLines(sourceCode);
      let lines = 0;
      for (let line = fn.loc.start.line; line <= fn.loc.end.line; line += 1) {
        if (sourceCode.lines[line - 1].trim() && !comments.has(line)) lines += 1;
      }
      return lines;
    }

    return {
      CallExpression(call) {
        const handler = call.arguments.at(-1);
        if (!isFunction(handler) || !(isRouteBind(call) || isRouterRoute(call))) return;
        const lines = countLines(handler);
        if (lines > max) context.report({ node: handler, messageId: 'tooLong', data: { lines, max } });
      },
    };
  },
};
