import type { ESLint, Rule } from 'eslint';

declare const gatehouse: ESLint.Plugin & {
  rules: Record<'handler-length' | 'no-cross-package-import' | 'no-foreign-repository', Rule.RuleModule>;
};
export default gatehouse;
