// What the interoperability tests share: a browser that keeps the cookies of several origins (the
// product's and a relying party's), the product's sign-in as its login page does it, and Apache
// httpd started and stopped by a test, from a configuration the test writes.
import { execFile, execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { expect } from 'chai';

/** One step of a redirect chain: the address asked for and the answer's status. */
export interface Hop {
  url: string;
  status: number;
}

/** Who sent a request, for its Sec-Fetch-Site header: browsers compare it with the target. */
function fetchSite(from: URL | undefined, target: URL): string {
  if (!from) return 'none';
  if (from.origin === target.origin) return 'same-origin';
  return from.hostname === target.hostname ? 'same-site' : 'cross-site';
}

/**
 * A minimal browser for redirect chains across origins: cookies kept per origin (host and port)
 * and path, nothing followed unless asked, the XSRF cookie echoed in JSON calls as the portal does.
 * Its GETs and form posts carry a browser's navigation headers (Accept: text/html, Sec-Fetch-Mode:
 * navigate): relying parties such as mod_auth_openidc answer others as scripts' calls (401, no
 * redirect to the provider). Node's fetch always says Sec-Fetch-Mode: cors, so it speaks HTTP/1.1
 * itself (node:http; plain HTTP on 127.0.0.1 only). Cookies' Secure and SameSite attributes are not
 * enforced (browsers treat the loopback address as secure).
 */
export class CookieBrowser {
  private readonly jars = new Map<string, Map<string, { value: string; path: string }>>();

  private jar(origin: string) {
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar(new URL(origin).origin).get(name)?.value;
  }

  cookieNames(origin: string): string[] {
    return [...this.jar(new URL(origin).origin).keys()];
  }

  private remember(target: URL, setCookies: string[]) {
    const jar = this.jar(target.origin);
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const cookiePath = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) || '/';
      const expired = attributes.some((a) => /^expires=thu, 01[ -]jan[ -]1970/i.test(a) || /^max-age=(0|-\d+)$/i.test(a));
      if (expired || value === '' || value === '""') jar.delete(name);
      else jar.set(name, { value, path: cookiePath });
    }
  }

  /**
   * One request, answered as a fetch Response (redirects not followed). `from`: the page it comes
   * from (none: typed in the address bar). `script` (implied by a JSON body): a script's call, not a navigation.
   */
  async request(
    method: string,
    url: string,
    init: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; from?: string; script?: boolean } = {},
  ): Promise<Response> {
    const target = new URL(url);
    if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1') throw new Error(`this browser goes to http://127.0.0.1 only, not ${url}`);
    const from = init.from ? new URL(init.from) : undefined;
    const script = init.script ?? init.json !== undefined;
    const headers: Record<string, string> = {
      'accept-language': 'en',
      'user-agent': 'gatehouse-interop-test',
      accept: script ? 'application/json' : 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'sec-fetch-mode': script ? 'cors' : 'navigate',
      'sec-fetch-dest': script ? 'empty' : 'document',
      'sec-fetch-site': fetchSite(from, target),
      ...init.headers,
    };
    const jar = this.jar(target.origin);
    const cookie = [...jar.entries()]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
      const xsrf = jar.get('XSRF-TOKEN')?.value;
      if (xsrf && !headers['x-xsrf-token']) headers['x-xsrf-token'] = xsrf;
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    if (from && method !== 'GET') headers.origin = from.origin;
    const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = http.request(target, { method, headers, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 30 s`)));
      req.on('error', reject);
      req.end(body);
    });
    const setCookies = answer.headers['set-cookie'] ?? [];
    this.remember(target, setCookies);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
    }
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: responseHeaders });
  }

  get(url: string, from?: string): Promise<Response> {
    return this.request('GET', url, { from });
  }

  /**
   * Follows redirects from `url` (across origins) until an answer that is not one, or one whose
   * address `stop` picks (not requested). Answers that last answer, its body, and every hop.
   */
  async follow(url: string, stop: (url: URL) => boolean = () => false, from?: string): Promise<{ url: string; status: number; body: string; hops: Hop[] }> {
    const hops: Hop[] = [];
    let current = new URL(url);
    for (let count = 0; count < 15; count++) {
      if (stop(current)) return { url: current.toString(), status: 0, body: '', hops };
      const res = await this.get(current.toString(), from);
      hops.push({ url: current.toString(), status: res.status });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current.toString(), status: res.status, body: await res.text(), hops };
      // A redirect keeps the navigation's initiator.
      current = new URL(location, current);
    }
    throw new Error(`too many redirects: ${hops.map((hop) => `${hop.status} ${hop.url}`).join(' -> ')}`);
  }
}

/**
 * The user signs in on the product's login page (`loginPage`, where an authorization request sent
 * the browser, with its `interaction`) through the JSON API the page uses. Answers where the
 * product sends the browser next (the authorization's resumption).
 */
export async function signIn(browser: CookieBrowser, loginPage: URL, userName: string, password: string): Promise<string> {
  expect(loginPage.pathname, `not sent to sign in: ${loginPage}`).to.equal('/account/login');
  const interaction = loginPage.searchParams.get('interaction');
  expect(interaction, `no interaction in ${loginPage}`).to.be.a('string');
  // The page's first call: it also sets the XSRF cookie.
  await browser.request('GET', `${loginPage.origin}/api/v1/config`, { script: true, from: loginPage.toString() });
  const login = await browser.request('POST', `${loginPage.origin}/api/v1/account/login`, { json: { userName, password, interaction }, from: loginPage.toString() });
  const body = (await login.json()) as { redirectTo?: string };
  expect(login.status, JSON.stringify(body)).to.equal(200);
  expect(body.redirectTo, JSON.stringify(body)).to.be.a('string');
  return new URL(body.redirectTo!, loginPage).toString();
}

/** The text of a file, or the empty string when there is none. */
export const readIfAny = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** Waits until something listens on 127.0.0.1:`port`, at most `ms`. */
async function listening(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const APACHE_BINARY = process.env.APACHE2_BINARY ?? '/usr/sbin/apache2';
export const APACHE_MODULES = process.env.APACHE2_MODULES ?? '/usr/lib/apache2/modules';

/** Modules the sites use; those built into the server (log_config, unixd in Debian's) are not loaded again. */
const MODULES = ['mpm_prefork', 'authn_core', 'authz_core', 'authz_user', 'auth_openidc', 'cgi', 'alias', 'env', 'headers', 'mime', 'dir', 'unixd', 'log_config'];

export interface RunningApache {
  /** The server's own directory: its configuration, logs and documents. */
  root: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The relying party's pages under Apache's `root`: a signed-out page, and a CGI script (`name`) behind the sign-in. */
export function intranetPages(root: string, name: string, script: string): void {
  mkdirSync(path.join(root, 'htdocs'));
  writeFileSync(path.join(root, 'htdocs/index.html'), '<!doctype html><title>Intranet</title><h1>Signed out of the intranet</h1>\n');
  mkdirSync(path.join(root, 'protected'));
  writeFileSync(path.join(root, `protected/${name}`), script);
  chmodSync(path.join(root, `protected/${name}`), 0o755);
}

/**
 * Apache httpd on 127.0.0.1 with a configuration of the test's own (ServerRoot, PidFile and logs in
 * a temporary directory): `sites(root)` answers the server's configuration after the common part.
 * `prepare(root)` writes its documents first. Started with `-k start`; `stop()` stops it with
 * `-k stop`, and kills it (and its children) by pid when it did not end within five seconds.
 */
export async function startApache(ports: number[], sites: (root: string) => string, prepare: (root: string) => void = () => undefined): Promise<RunningApache> {
  const root = mkdtempSync(path.join(tmpdir(), 'gatehouse-apache-'));
  const asRoot = process.getuid?.() === 0;
  const loads = MODULES.filter((name) => existsSync(path.join(APACHE_MODULES, `mod_${name}.so`)))
    .map((name) => `LoadModule ${name}_module ${APACHE_MODULES}/mod_${name}.so`)
    .join('\n');
  const config = path.join(root, 'httpd.conf');
  const pidFile = path.join(root, 'httpd.pid');
  const errorLog = path.join(root, 'error.log');
  prepare(root);
  writeFileSync(
    config,
    `ServerRoot "${root}"
DefaultRuntimeDir "${root}"
PidFile "${pidFile}"
Mutex file:${root} default
${loads}
${ports.map((port) => `Listen 127.0.0.1:${port}`).join('\n')}
ServerName 127.0.0.1
${asRoot ? 'User www-data\nGroup www-data' : ''}
StartServers 1
MinSpareServers 1
MaxSpareServers 3
MaxRequestWorkers 10
Timeout 30
KeepAlive Off
ErrorLog "${errorLog}"
LogLevel warn auth_openidc:info
LogFormat "%h %l %u %t \\"%r\\" %>s %b" common
CustomLog "${path.join(root, 'access.log')}" common
TypesConfig /etc/mime.types
<Directory />
  AllowOverride None
  Require all denied
</Directory>
${sites(root)}
`,
  );
  // The workers run as www-data when the tests run as root: the documents must be readable by it.
  if (asRoot) chmodSync(root, 0o755);
  // A clean environment: no proxy variable reaches the module's HTTP client (libcurl).
  const env = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };
  const control = (action: 'start' | 'stop') => promisify(execFile)(APACHE_BINARY, ['-d', root, '-f', config, '-k', action], { env, timeout: 15_000 });
  const pid = () => {
    const text = readIfAny(pidFile).trim();
    return text ? Number(text) : undefined;
  };
  const stop = async () => {
    const main = pid();
    await control('stop').catch(() => undefined);
    const deadline = Date.now() + 5_000;
    while (main && alive(main) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (main && alive(main)) {
      // Its children first (the workers), then the server itself.
      try {
        execFileSync('pkill', ['-KILL', '-P', String(main)]);
      } catch {
        // none left
      }
      try {
        process.kill(main, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  // Should the test process end without its `after` (an exit on a hook's timeout), the server ends with it.
  const onExit = () => {
    const main = pid();
    if (main && alive(main)) process.kill(main, 'SIGTERM');
    rmSync(root, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  try {
    await control('start');
  } catch (error) {
    await stop();
    throw new Error(`apache2 did not start: ${(error as Error).message}\n${readIfAny(errorLog)}`);
  }
  for (const port of ports) {
    if (!(await listening(port, 10_000))) {
      await stop();
      throw new Error(`apache2 does not listen on 127.0.0.1:${port}\n${readIfAny(errorLog)}`);
    }
  }
  return {
    root,
    errorLog: () => readIfAny(errorLog),
    async stop() {
      await stop();
      process.off('exit', onExit);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The lines `NAME=value` of a page printing variables (a CGI page behind Apache), as a record. */
export const variables = (body: string): Record<string, string> =>
  Object.fromEntries(
    body
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** Debian's Python, where the interoperability tests' packages are installed (the PATH may lead to another one). */
export const PYTHON = process.env.INTEROP_PYTHON ?? '/usr/bin/python3';
/** The longest a run of a test script may take before it is killed (the scripts end themselves after 60 s). */
const PYTHON_RUN_LIMIT_MS = 90_000;
/** Runs still going: `killPythonRuns` ends them, whatever happened. */
const pythonRuns = new Set<PythonRun>();

/** Fails, saying which Debian packages to install, when Debian's Python cannot import `modules`. */
export function requirePython(modules: string[], packages: string): void {
  const check = spawnSync(PYTHON, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8', timeout: 20_000 });
  if (check.status !== 0) throw new Error(`${PYTHON} cannot import ${modules.join(' and ')} (apt-get install ${packages}): ${check.error?.message ?? check.stderr}`);
}

/**
 * A run of a Python test script that speaks in JSON lines: its lines one by one, lines written to
 * its input, and its end. A line with `error` (and no `ok` verdict) fails the test with the
 * script's error output.
 */
export class PythonRun {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiting?: (line: string | undefined) => void;
  private stderr = '';
  private closed = false;
  readonly ended: Promise<number | null>;

  constructor(private readonly script: string, args: string[]) {
    this.child = spawn(PYTHON, [script, ...args], { env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' } });
    const killer = setTimeout(() => this.child.kill('SIGKILL'), PYTHON_RUN_LIMIT_MS);
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      if (this.waiting) {
        this.waiting(line);
        this.waiting = undefined;
      } else this.lines.push(line);
    });
    this.ended = new Promise((resolve) =>
      this.child.on('close', (code) => {
        clearTimeout(killer);
        this.closed = true;
        this.waiting?.(undefined);
        resolve(code);
      }),
    );
    pythonRuns.add(this);
    void this.ended.then(() => pythonRuns.delete(this));
  }

  /** The next JSON line of its output; fails with its error output when it ended without one. */
  async next(): Promise<Record<string, unknown>> {
    const line = this.lines.shift() ?? (this.closed ? undefined : await new Promise<string | undefined>((resolve) => (this.waiting = resolve)));
    const name = path.basename(this.script);
    if (line === undefined) throw new Error(`${name} ended without an answer:\n${this.stderr}`);
    const document = JSON.parse(line) as Record<string, unknown>;
    if (document.error && document.ok === undefined) throw new Error(`${name}: ${String(document.error)}\n${this.stderr}`);
    return document;
  }

  /** Writes a line to its input. */
  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Ends its input: the script finishes. */
  finish(): void {
    this.child.stdin.end();
  }

  kill(): void {
    if (!this.closed) this.child.kill('SIGKILL');
  }
}

/** Kills the runs still going and waits for their ends (a suite's `after`). */
export async function killPythonRuns(): Promise<void> {
  for (const run of pythonRuns) run.kill();
  await Promise.all([...pythonRuns].map((run) => run.ended));
}
