import path from 'node:path';
import { RuleTester } from 'eslint';
import gatehouse from '../eslint-rules/index.js';

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2023, sourceType: 'module' } });

/** A handler of `lines` lines in all: its opening line, `lines - 2` statements, its closing brace. */
function handler(lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const step${i} = await service.step(${i});`);
  return ['async ({ body }) => {', ...body, '}'].join('\n');
}

describe('gatehouse/handler-length', () => {
  tester.run('handler-length', gatehouse.rules['handler-length'], {
    valid: [
      { name: 'a 15-line handler given to the route kit', code: `bind(router, usersRoutes.create, ${handler(15)});` },
      { name: 'a 15-line koa-router handler', code: `router.post('/login', koaBody(), ${handler(15)});` },
      {
        name: 'blank and comment lines are not counted',
        code: `bind(router, contract, ${handler(15).replace('{\n', '{\n\n  // Why the steps run in this order.\n\n')});`,
      },
      { name: 'a long callback that is no route', code: `items.forEach(${handler(30)});` },
      { name: "Function.prototype.bind's this", code: `const load = fetchAll.bind(null, ${handler(30)});` },
    ],
    invalid: [
      {
        name: 'a 16-line handler given to the route kit',
        code: `bind(router, usersRoutes.create, ${handler(16)});`,
        errors: [{ messageId: 'tooLong', data: { lines: 16, max: 15 } }],
      },
      {
        name: 'a 16-line handler of the kit held in a variable',
        code: `kit.bind(router, usersRoutes.create, ${handler(16)});`,
        errors: [{ messageId: 'tooLong' }],
      },
      {
        name: 'a 16-line koa-router handler',
        code: `this.router.delete('/users/:id', async function (ctx) {\n${handler(16).split('\n').slice(1, -1).join('\n')}\n});`,
        errors: [{ messageId: 'tooLong' }],
      },
      {
        name: 'a lower limit from the options',
        code: `router.get('/x', ${handler(6)});`,
        options: [{ max: 5 }],
        errors: [{ messageId: 'tooLong', data: { lines: 6, max: 5 } }],
      },
    ],
  });
});

describe('gatehouse/no-cross-package-import', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const inAdminApi = path.join(root, 'services/admin-api/src/features/users/router.ts');

  tester.run('no-cross-package-import', gatehouse.rules['no-cross-package-import'], {
    valid: [
      { name: 'a file of the same package', code: "import { x } from '../../http/route.js';", filename: inAdminApi },
      { name: 'another package by name', code: "import { AppError } from '@gatehouse/core/errors';", filename: inAdminApi },
      {
        name: 'the cross-service tests, which belong to no package',
        code: "import { x } from '../services/admin-api/src/app.js';",
        filename: path.join(root, 'test/users.test.ts'),
      },
    ],
    invalid: [
      {
        name: "another package's sources through a relative path",
        code: "import { AppError } from '../../../../core/src/errors/app-error.js';",
        filename: inAdminApi,
        errors: [{ messageId: 'leaves' }],
      },
      {
        name: 'a re-export that leaves the package',
        code: "export * from '../../../../../packages/contracts/src/index.js';",
        filename: inAdminApi,
        errors: [{ messageId: 'leaves' }],
      },
    ],
  });
});
