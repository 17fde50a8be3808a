// Renders a Helm chart the way `helm template` does, for the subset of Go templates and Sprig
// functions the product's chart uses, so that its manifests can be parsed and checked where no
// helm binary can be installed. Anything outside that subset is an error, never a silent guess:
// a chart change that needs more makes the check fail until this renderer learns it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml, parseAllDocuments, stringify as toYamlText } from 'yaml';

type Value = unknown;
type Dict = Record<string, Value>;

// ---------------------------------------------------------------------------------------------
// Lexing: text and actions, with Go's trim markers ("{{- " and " -}}").

interface Segment {
  kind: 'text' | 'action';
  value: string;
  /** Where it starts, for messages. */
  at: string;
}

function segments(source: string, file: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  const lineOf = (offset: number) => `${file}:${source.slice(0, offset).split('\n').length}`;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    if (open < 0) {
      out.push({ kind: 'text', value: source.slice(i), at: lineOf(i) });
      break;
    }
    let text = source.slice(i, open);
    let start = open + 2;
    if (source.startsWith('- ', start) || source.startsWith('-\n', start)) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    out.push({ kind: 'text', value: text, at: lineOf(i) });
    const close = findClose(source, start);
    if (close < 0) throw new Error(`${lineOf(open)}: unclosed action`);
    let inner = source.slice(start, close);
    let next = close + 2;
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1);
      const rest = source.slice(next);
      next += rest.length - rest.replace(/^\s+/, '').length;
    }
    out.push({ kind: 'action', value: inner.trim(), at: lineOf(open) });
    i = next;
  }
  return out;
}

/** The "}}" closing an action, skipping quoted strings and comments. */
function findClose(source: string, from: number): number {
  let i = from;
  while (i < source.length) {
    if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return -1;
      i = end + 2;
      continue;
    }
    const c = source[i];
    if (c === '"') {
      i++;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '`') {
      i = source.indexOf('`', i + 1) + 1;
      if (i === 0) return -1;
      continue;
    }
    if (source.startsWith('}}', i)) return i;
    i++;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Parsing actions into pipelines, and the template into a tree.

type Operand =
  | { kind: 'literal'; value: Value }
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'identifier'; name: string }
  | { kind: 'group'; pipeline: Pipeline; path: string[] };
type Command = Operand[];
interface Pipeline {
  declare: string[];
  commands: Command[];
}

type Node =
  | { kind: 'text'; value: string }
  | { kind: 'output'; pipeline: Pipeline; at: string }
  | { kind: 'if'; branches: Array<{ pipeline: Pipeline; body: Node[] }>; otherwise: Node[]; at: string }
  | { kind: 'with'; pipeline: Pipeline; body: Node[]; otherwise: Node[]; at: string }
  | { kind: 'range'; pipeline: Pipeline; body: Node[]; otherwise: Node[]; at: string };

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|((?:\.[A-Za-z0-9_]+)+|\.)|(-?\d+(?:\.\d+)?)|(:=|=|\||\(|\)|,)|([A-Za-z_][A-Za-z0-9_]*))/y;

function tokenize(text: string, at: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let rest = text.trim();
  while (rest.length) {
    TOKEN.lastIndex = 0;
    const m = TOKEN.exec(rest);
    if (!m) throw new Error(`${at}: cannot read "${rest}"`);
    const token = m[0].trim();
    // `(pipeline).field` reads a field of the group's value only when nothing separates them.
    tokens.push(token.startsWith('.') && m[0] === token && tokens[tokens.length - 1] === ')' ? `~${token}` : token);
    rest = rest.slice(m[0].length);
    if (!rest.trim()) break;
  }
  return tokens;
}

function parsePipeline(text: string, at: string): Pipeline {
  const tokens = tokenize(text, at);
  let i = 0;
  const declare: string[] = [];
  // `$a, $b :=` or `$a :=`
  const assign = tokens.indexOf(':=');
  if (assign >= 0) {
    for (const t of tokens.slice(0, assign)) if (t !== ',') declare.push(t);
    i = assign + 1;
  }
  if (tokens.includes('=')) throw new Error(`${at}: assignment to an existing variable is not supported`);
  const parseCommands = (stopAtParen: boolean): Command[] => {
    const commands: Command[] = [[]];
    while (i < tokens.length) {
      const t = tokens[i]!;
      if (t === ')') {
        if (!stopAtParen) throw new Error(`${at}: unexpected ")"`);
        return commands;
      }
      i++;
      if (t === '|') {
        commands.push([]);
        continue;
      }
      commands[commands.length - 1]!.push(parseOperand(t));
    }
    if (stopAtParen) throw new Error(`${at}: missing ")"`);
    return commands;
  };
  const chainAfterGroup = (): string[] => {
    const next = tokens[i];
    if (next?.startsWith('~.')) {
      i++;
      return next.slice(2).split('.');
    }
    return [];
  };
  const parseOperand = (t: string): Operand => {
    if (t === '(') {
      const commands = parseCommands(true);
      i++; // ")"
      return { kind: 'group', pipeline: { declare: [], commands }, path: chainAfterGroup() };
    }
    if (t.startsWith('"')) return { kind: 'literal', value: JSON.parse(t) as string };
    if (t.startsWith('`')) return { kind: 'literal', value: t.slice(1, -1) };
    if (t.startsWith('$')) {
      const [name, ...fields] = t.split('.');
      return { kind: 'variable', name: name!, path: fields };
    }
    if (t === '.') return { kind: 'field', path: [] };
    if (t.startsWith('.')) return { kind: 'field', path: t.slice(1).split('.') };
    if (/^-?\d/.test(t)) return { kind: 'literal', value: Number(t) };
    if (t === 'true' || t === 'false') return { kind: 'literal', value: t === 'true' };
    if (t === 'nil') return { kind: 'literal', value: null };
    if (/^[A-Za-z_]/.test(t)) return { kind: 'identifier', name: t };
    throw new Error(`${at}: unexpected "${t}"`);
  };
  const commands = parseCommands(false);
  if (commands.some((c) => c.length === 0)) throw new Error(`${at}: empty command in "${text}"`);
  return { declare, commands };
}

interface Parsed {
  nodes: Node[];
  defines: Map<string, Node[]>;
}

function parseTemplate(source: string, file: string): Parsed {
  const segs = segments(source, file);
  const defines = new Map<string, Node[]>();
  let pos = 0;
  // Parses nodes until one of `stops` (an action keyword) and answers which one stopped it.
  const parseBlock = (stops: string[]): { nodes: Node[]; stop?: Segment } => {
    const nodes: Node[] = [];
    while (pos < segs.length) {
      const seg = segs[pos++]!;
      if (seg.kind === 'text') {
        if (seg.value) nodes.push({ kind: 'text', value: seg.value });
        continue;
      }
      const action = seg.value;
      if (action.startsWith('/*')) {
        if (!action.endsWith('*/')) throw new Error(`${seg.at}: a comment must fill its action`);
        continue;
      }
      const keyword = /^(if|else if|else|end|range|with|define|template|block)\b/.exec(action)?.[1];
      if (keyword && stops.some((s) => s === keyword || (s === 'else' && keyword === 'else if'))) return { nodes, stop: seg };
      if (keyword === 'if' || keyword === 'with' || keyword === 'range') {
        nodes.push(parseControl(keyword, action.slice(keyword.length), seg.at));
      } else if (keyword === 'define') {
        const name = JSON.parse(action.slice('define'.length).trim()) as string;
        const { nodes: body, stop } = parseBlock(['end']);
        if (!stop) throw new Error(`${seg.at}: define "${name}" has no end`);
        defines.set(name, body);
      } else if (keyword) {
        throw new Error(`${seg.at}: "${keyword}" is not supported here`);
      } else {
        nodes.push({ kind: 'output', pipeline: parsePipeline(action, seg.at), at: seg.at });
      }
    }
    if (stops.length) throw new Error(`${file}: missing {{ end }}`);
    return { nodes };
  };
  const parseControl = (keyword: 'if' | 'with' | 'range', rest: string, at: string): Node => {
    const pipeline = parsePipeline(rest, at);
    const { nodes: body, stop } = parseBlock(['else', 'end']);
    if (keyword === 'if') {
      const branches = [{ pipeline, body }];
      let otherwise: Node[] = [];
      let current = stop!;
      while (current.value !== 'end') {
        if (current.value.startsWith('else if')) {
          const cond = parsePipeline(current.value.slice('else if'.length), current.at);
          const next = parseBlock(['else', 'end']);
          branches.push({ pipeline: cond, body: next.nodes });
          current = next.stop!;
        } else {
          const next = parseBlock(['end']);
          otherwise = next.nodes;
          current = next.stop!;
        }
      }
      return { kind: 'if', branches, otherwise, at };
    }
    let otherwise: Node[] = [];
    if (stop!.value === 'else') otherwise = parseBlock(['end']).nodes;
    else if (stop!.value !== 'end') throw new Error(`${stop!.at}: "${stop!.value}" is not supported in ${keyword}`);
    return { kind: keyword, pipeline, body, otherwise, at };
  };
  const { nodes } = parseBlock([]);
  return { nodes, defines };
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

const isDict = (v: Value): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Go templates' truth: false, 0, nil and empty strings, lists and maps are false. */
function truthy(v: Value): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}

function text(v: Value): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Error(`cannot print ${JSON.stringify(v)} as text (use toYaml)`);
}

function field(v: Value, name: string, at: string): Value {
  if (v === undefined || v === null) throw new Error(`${at}: nil pointer evaluating .${name}`);
  if (!isDict(v)) throw new Error(`${at}: can't evaluate field ${name} in ${typeof v}`);
  return v[name];
}

function indent(n: number, s: string): string {
  const pad = ' '.repeat(n);
  return s
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

function printf(format: string, args: Value[]): string {
  let i = 0;
  return format.replace(/%([sdvq%])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    const arg = args[i++];
    if (verb === 'q') return JSON.stringify(text(arg));
    if (verb === 'd' && typeof arg !== 'number') throw new Error(`printf %d of ${JSON.stringify(arg)}`);
    return text(arg);
  });
}

function urlParse(raw: string): Dict {
  const u = new URL(raw);
  return {
    scheme: u.protocol.replace(/:$/, ''),
    host: u.host,
    hostname: u.hostname,
    path: u.pathname === '/' && !/^[a-z]+:\/\/[^/]+\//i.test(raw) ? '' : u.pathname,
    query: u.search.replace(/^\?/, ''),
    fragment: u.hash.replace(/^#/, ''),
    userinfo: u.username ? `${u.username}${u.password ? `:${u.password}` : ''}` : '',
    opaque: '',
  };
}

type Func = (...args: Value[]) => Value;

class Renderer {
  private readonly defines = new Map<string, Node[]>();

  addDefines(defines: Map<string, Node[]>): void {
    for (const [name, body] of defines) this.defines.set(name, body);
  }

  private readonly functions: Record<string, Func> = {
    quote: (...args) => args.map((a) => JSON.stringify(text(a))).join(' '),
    squote: (...args) => args.map((a) => `'${text(a)}'`).join(' '),
    default: (fallback, value) => (truthy(value) ? value : fallback),
    required: (message, value) => {
      if (value === undefined || value === null || value === '') throw new Error(String(message));
      return value;
    },
    toYaml: (value) => (value === undefined || value === null ? 'null' : toYamlText(value, { lineWidth: 0 }).replace(/\n$/, '')),
    toString: (value: Value) => text(value),
    nindent: (n, s) => `\n${indent(Number(n), text(s))}`,
    indent: (n, s) => indent(Number(n), text(s)),
    printf: (format, ...args) => printf(text(format), args),
    print: (...args) => args.map(text).join(''),
    trimSuffix: (suffix, s) => (text(s).endsWith(text(suffix)) && text(suffix) ? text(s).slice(0, -text(suffix).length) : text(s)),
    trimPrefix: (prefix, s) => (text(s).startsWith(text(prefix)) ? text(s).slice(text(prefix).length) : text(s)),
    trunc: (n, s) => text(s).slice(0, Number(n)),
    lower: (s) => text(s).toLowerCase(),
    upper: (s) => text(s).toUpperCase(),
    replace: (from, to, s) => text(s).replaceAll(text(from), text(to)),
    contains: (sub, s) => text(s).includes(text(sub)),
    hasPrefix: (prefix, s) => text(s).startsWith(text(prefix)),
    hasSuffix: (suffix, s) => text(s).endsWith(text(suffix)),
    eq: (a, ...rest) => rest.some((b) => a === b),
    ne: (a, b) => a !== b,
    lt: (a, b) => Number(a) < Number(b),
    gt: (a, b) => Number(a) > Number(b),
    le: (a, b) => Number(a) <= Number(b),
    ge: (a, b) => Number(a) >= Number(b),
    and: (...args) => args.find((a) => !truthy(a)) ?? args[args.length - 1],
    or: (...args) => args.find((a) => truthy(a)) ?? args[args.length - 1],
    not: (a) => !truthy(a),
    empty: (a) => !truthy(a),
    list: (...args) => args,
    dict: (...args) => {
      const out: Dict = {};
      for (let i = 0; i < args.length; i += 2) out[text(args[i])] = args[i + 1];
      return out;
    },
    hasKey: (map, key) => isDict(map) && Object.hasOwn(map, text(key)),
    index: (collection, ...keys) =>
      keys.reduce<Value>((v, k) => (Array.isArray(v) ? v[Number(k)] : isDict(v) ? v[text(k)] : undefined), collection),
    len: (v) => (Array.isArray(v) || typeof v === 'string' ? v.length : isDict(v) ? Object.keys(v).length : 0),
    int: (v) => Math.trunc(Number(v)),
    urlParse: (s) => urlParse(text(s)),
    sha256sum: (s) => createHash('sha256').update(text(s)).digest('hex'),
    b64enc: (s) => Buffer.from(text(s)).toString('base64'),
    include: (name, data) => {
      const body = this.defines.get(text(name));
      if (!body) throw new Error(`include: no template named "${text(name)}"`);
      return this.render(body, data, [new Map([['$', data]])]);
    },
  };

  render(nodes: Node[], dot: Value, scopes: Array<Map<string, Value>>): string {
    let out = '';
    for (const node of nodes) {
      if (node.kind === 'text') {
        out += node.value;
      } else if (node.kind === 'output') {
        const value = this.pipeline(node.pipeline, dot, scopes, node.at);
        if (node.pipeline.declare.length) {
          scopes[scopes.length - 1]!.set(node.pipeline.declare[0]!, value);
        } else {
          out += text(value);
        }
      } else if (node.kind === 'if') {
        const branch = node.branches.find((b) => truthy(this.pipeline(b.pipeline, dot, scopes, node.at)));
        out += this.render(branch ? branch.body : node.otherwise, dot, [...scopes, new Map()]);
      } else if (node.kind === 'with') {
        const value = this.pipeline(node.pipeline, dot, scopes, node.at);
        out += truthy(value) ? this.render(node.body, value, [...scopes, new Map()]) : this.render(node.otherwise, dot, [...scopes, new Map()]);
      } else {
        const value = this.pipeline({ ...node.pipeline, declare: [] }, dot, scopes, node.at);
        const entries: Array<[Value, Value]> = Array.isArray(value)
          ? value.map((v, i) => [i, v])
          : isDict(value)
            ? Object.keys(value)
                .sort()
                .map((k) => [k, value[k]])
            : [];
        if (value !== undefined && value !== null && !Array.isArray(value) && !isDict(value)) throw new Error(`${node.at}: range over ${typeof value}`);
        if (entries.length === 0) {
          out += this.render(node.otherwise, dot, [...scopes, new Map()]);
          continue;
        }
        const [first, second] = node.pipeline.declare;
        for (const [key, item] of entries) {
          const scope = new Map<string, Value>();
          if (second) {
            scope.set(first!, key);
            scope.set(second, item);
          } else if (first) {
            scope.set(first, item);
          }
          out += this.render(node.body, item, [...scopes, scope]);
        }
      }
    }
    return out;
  }

  private variable(name: string, scopes: Array<Map<string, Value>>, at: string): Value {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.has(name)) return scopes[i]!.get(name);
    throw new Error(`${at}: undefined variable "${name}"`);
  }

  private operand(op: Operand, dot: Value, scopes: Array<Map<string, Value>>, at: string): Value {
    switch (op.kind) {
      case 'literal':
        return op.value;
      case 'field':
        return op.path.reduce((v, name) => field(v, name, at), dot);
      case 'variable':
        return op.path.reduce((v, name) => field(v, name, at), this.variable(op.name, scopes, at));
      case 'group':
        return op.path.reduce((v, name) => field(v, name, at), this.pipeline(op.pipeline, dot, scopes, at));
      case 'identifier':
        return this.call(op.name, [], at);
    }
  }

  private call(name: string, args: Value[], at: string): Value {
    const fn = this.functions[name];
    if (!fn) throw new Error(`${at}: function "${name}" is not supported`);
    try {
      return fn(...args);
    } catch (error) {
      throw new Error(`${at}: ${(error as Error).message}`, { cause: error });
    }
  }

  private pipeline(pipeline: Pipeline, dot: Value, scopes: Array<Map<string, Value>>, at: string): Value {
    let piped: Value;
    pipeline.commands.forEach((command, i) => {
      const [head, ...rest] = command;
      const args = rest.map((op) => this.operand(op, dot, scopes, at));
      if (i > 0) args.push(piped);
      if (head!.kind === 'identifier') {
        piped = this.call(head!.name, args, at);
      } else {
        if (args.length) throw new Error(`${at}: ${JSON.stringify(head)} is not a function`);
        piped = this.operand(head!, dot, scopes, at);
      }
    });
    return piped;
  }
}

// ---------------------------------------------------------------------------------------------
// The chart.

/** Helm's merge of values: maps merge key by key, null removes a key, anything else replaces. */
export function mergeValues(base: Dict, overrides: Dict): Dict {
  const out: Dict = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) delete out[key];
    else if (isDict(value) && isDict(out[key])) out[key] = mergeValues(out[key], value);
    else out[key] = value;
  }
  return out;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  values?: Dict;
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Dict;
  [key: string]: unknown;
}

export interface RenderedChart {
  /** Each template's output, by file name. */
  files: Record<string, string>;
  manifests: Array<Manifest & { source: string }>;
  values: Dict;
}

/**
 * Helm's check of the merged values against the chart's values.schema.json (JSON Schema draft 7),
 * before anything is rendered: a refusal names each value's path and problem, as helm does.
 */
function checkValuesSchema(chartDir: string, chartName: string, values: Dict): void {
  const file = path.join(chartDir, 'values.schema.json');
  if (!existsSync(file)) return;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(file, 'utf8')) as object);
  if (validate(values)) return;
  const problems = (validate.errors ?? []).map((error) => {
    const at = error.instancePath.slice(1).replaceAll('/', '.') || '(root)';
    const detail = error.keyword === 'additionalProperties' ? `${String(error.params.additionalProperty)} is not a setting of the chart` : error.message;
    return `- ${at}: ${detail}`;
  });
  throw new Error(`values don't meet the specifications of the schema(s) in the following chart(s):\n${chartName}:\n${problems.join('\n')}`);
}

/** `helm template <release> <chartDir> -f values`: the manifests, parsed (a YAML error throws). */
export function renderChart(chartDir: string, options: RenderOptions = {}): RenderedChart {
  const chart = parseYaml(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as Dict;
  const values = mergeValues((parseYaml(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Dict, options.values ?? {});
  checkValuesSchema(chartDir, String(chart.name), values);
  const templatesDir = path.join(chartDir, 'templates');
  const renderer = new Renderer();
  const parsed = new Map<string, Parsed>();
  for (const file of readdirSync(templatesDir).sort()) {
    const result = parseTemplate(readFileSync(path.join(templatesDir, file), 'utf8'), `templates/${file}`);
    renderer.addDefines(result.defines);
    parsed.set(file, result);
  }
  const capitalized = Object.fromEntries(Object.entries(chart).map(([k, v]) => [k[0]!.toUpperCase() + k.slice(1), v]));
  const releaseName = options.releaseName ?? 'release-name';
  const files: Record<string, string> = {};
  const manifests: RenderedChart['manifests'] = [];
  for (const [file, { nodes }] of parsed) {
    if (file.startsWith('_') || file === 'NOTES.txt') continue;
    const data: Dict = {
      Values: values,
      Chart: capitalized,
      Release: { Name: releaseName, Namespace: options.namespace ?? 'default', Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
      Template: { Name: `${String(chart.name)}/templates/${file}`, BasePath: `${String(chart.name)}/templates` },
    };
    const output = renderer.render(nodes, data, [new Map([['$', data]])]);
    files[file] = output;
    for (const doc of parseAllDocuments(output, { uniqueKeys: true })) {
      if (doc.errors.length) throw new Error(`templates/${file}: ${doc.errors[0]!.message}\n${output}`);
      const manifest = doc.toJS() as Manifest | null;
      if (manifest !== null) manifests.push({ ...manifest, source: `templates/${file}` });
    }
  }
  return { files, manifests, values };
}

/** One template, rendered with `data` as its dot (for checking this renderer against Go's rules). */
export function renderTemplate(source: string, data: Dict): string {
  const { nodes, defines } = parseTemplate(source, 'inline');
  const renderer = new Renderer();
  renderer.addDefines(defines);
  return renderer.render(nodes, data, [new Map([['$', data]])]);
}
