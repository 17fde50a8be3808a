// Checks the API document with tools that read it as client generators do: `npm run openapi:check`.
// The document is built in-process from the contracts (no server), linted by Redocly CLI with the
// repository's redocly.yaml, turned into TypeScript by openapi-typescript, and a small client of a
// few real operations is compiled against those types with `tsc --strict`. Any finding fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiDocument } from '../services/idp/src/features/docs/document.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-openapi-'));
const files = { document: path.join(dir, 'openapi.json'), types: path.join(dir, 'openapi-types.ts'), client: path.join(dir, 'client.ts') };

// Redocly CLI never calls home from here: no usage data, no update check.
const quiet = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

const findings: string[] = [];

function run(command: string, args: string[], capture = false): { status: number; stdout: string } {
  const result = spawnSync(command, args, { cwd: root, env: quiet, encoding: 'utf8', stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? '' };
}

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location?: Array<{ pointer?: string }>;
}

/** Redocly's findings, warnings included: the configuration turns off what does not fit the product. */
function lint(): void {
  const { status, stdout } = run(bin('redocly'), ['lint', files.document, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'], true);
  let report: { totals: { errors: number; warnings: number }; problems: LintProblem[] };
  try {
    report = JSON.parse(stdout) as typeof report;
  } catch {
    findings.push(`redocly lint gave no report (exit ${status}):\n${stdout}`);
    return;
  }
  for (const problem of report.problems) {
    findings.push(`redocly ${problem.severity} ${problem.ruleId} at ${problem.location?.[0]?.pointer ?? '?'}: ${problem.message}`);
  }
  if (status !== 0 && report.problems.length === 0) findings.push(`redocly lint failed (exit ${status})`);
  console.log(`redocly lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
}

/** Example values from the document itself, so the client also proves they fit the generated types. */
function exampleOf(route: string, method: string, where: 'request' | string): unknown {
  const operation = apiDocument().paths[route]?.[method] as
    | { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }
    | undefined;
  if (!operation) throw new Error(`The document has no ${method.toUpperCase()} ${route}`);
  const content = where === 'request' ? operation.requestBody?.content : operation.responses[where]?.content;
  const example = content?.['application/json']?.example;
  if (example === undefined) throw new Error(`${method.toUpperCase()} ${route} has no JSON example for ${where}`);
  return example;
}

/** A client of a list, a create with a body, a path parameter, a recursive schema and the token endpoint. */
function client(): string {
  const literal = (value: unknown) => JSON.stringify(value, null, 2);
  return `import type { components, paths } from './openapi-types.js';

type ListUsers = paths['/api/v1/admin/users']['get'];
type CreateUser = paths['/api/v1/admin/users']['post'];
type GetUser = paths['/api/v1/admin/users/{id}']['get'];
type HierarchyTree = paths['/api/v1/admin/tenants/{tenantId}/hierarchy-tree']['get'];
type Token = paths['/oidc/token']['post'];

type UsersPage = ListUsers['responses'][200]['content']['application/json'];
type NewUser = CreateUser['requestBody']['content']['application/json'];
type CreatedUser = CreateUser['responses'][201]['content']['application/json'];
type User = GetUser['responses'][200]['content']['application/json'];
type TreeNode = components['schemas']['TenantTreeNode'];

async function call<T>(base: string, token: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(new URL(path, base), { ...init, headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json' } });
  if (!response.ok) throw new Error(\`\${init.method ?? 'GET'} \${path}: \${response.status}\`);
  return (await response.json()) as T;
}

export async function listUserNames(base: string, token: string, query: NonNullable<ListUsers['parameters']['query']>): Promise<string[]> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const page = await call<UsersPage>(base, token, \`/api/v1/admin/users?\${search}\`);
  return page.items.map((user) => user.userName);
}

export async function createUser(base: string, token: string, body: NewUser): Promise<CreatedUser> {
  return call<CreatedUser>(base, token, '/api/v1/admin/users', { method: 'POST', body: JSON.stringify(body) });
}

export async function getUser(base: string, token: string, params: GetUser['parameters']['path']): Promise<User> {
  return call<User>(base, token, \`/api/v1/admin/users/\${encodeURIComponent(params.id)}\`);
}

export async function tenantTree(base: string, token: string, params: HierarchyTree['parameters']['path']): Promise<number> {
  const root = await call<HierarchyTree['responses'][200]['content']['application/json']>(base, token, \`/api/v1/admin/tenants/\${params.tenantId}/hierarchy-tree\`);
  const size = (node: TreeNode): number => 1 + node.children.reduce((sum, child) => sum + size(child), 0);
  return size(root);
}

export function tokenRequest(form: Token['requestBody']['content']['application/x-www-form-urlencoded']): URLSearchParams {
  return new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

// The document's own examples, typed: an example the generated types refuse is a finding.
export const newUserExample: NewUser = ${literal(exampleOf('/api/v1/admin/users', 'post', 'request'))};
export const usersPageExample: UsersPage = ${literal(exampleOf('/api/v1/admin/users', 'get', '200'))};
export const treeExample: TreeNode = ${literal(exampleOf('/api/v1/admin/tenants/{tenantId}/hierarchy-tree', 'get', '200'))};
`;
}

const started = Date.now();
try {
  writeFileSync(files.document, JSON.stringify(apiDocument(), null, 2));
  console.log(`API document: ${files.document}`);

  lint();

  if (run(bin('openapi-typescript'), [files.document, '--output', files.types]).status !== 0) findings.push('openapi-typescript could not generate types from the document');
  else {
    writeFileSync(files.client, client());
    const tsc = run(bin('tsc'), ['--strict', '--noEmit', '--skipLibCheck', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom', files.types, files.client], true);
    if (tsc.status !== 0) findings.push(`tsc --strict on the generated types and a client of them:\n${tsc.stdout}`);
    else console.log('tsc --strict: the generated types and the client compile');
  }
} catch (error) {
  findings.push(`the check could not run: ${(error as Error).stack ?? String(error)}`);
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (findings.length > 0) {
  console.error(`\nopenapi:check found ${findings.length} problem(s) in ${seconds} s (files kept in ${dir}):`);
  for (const finding of findings) console.error(`- ${finding}`);
  process.exit(1);
}
rmSync(dir, { recursive: true, force: true });
console.log(`openapi:check passed in ${seconds} s`);
