// What the benches measure, in one shape: printed as a table, and written as JSON to BENCH_JSON
// (when set), where each bench puts its own section into one document.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';

/** A goal: a ratio to the reference at least `ratio`, or a value at most `max`. */
export interface Target {
  ratio?: number;
  max?: number;
  /** Reported beside the figure and aimed for, never counted as met or missed. */
  aim?: boolean;
}

export interface Figure {
  /** Stable key (for tools reading the JSON). */
  id: string;
  label: string;
  /** Null when the figure could not be measured (see `note`). */
  value: number | null;
  unit: string;
  reference?: { label: string; value: number | null; unit?: string };
  /** value / reference value. */
  ratio?: number | null;
  target?: Target;
  /** Whether the target is met; null without a target, for an aim, or when not measured. */
  met?: boolean | null;
  /** Why a figure is missing, or what else to know to read it. */
  note?: string;
}

export interface Section {
  title: string;
  settings: Record<string, unknown>;
  figures: Figure[];
  /** Details beside the figures (latency distributions, seeding times…). */
  details?: Record<string, unknown>;
}

export interface BenchDocument {
  format: 'gatehouse-bench/1';
  startedAt: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  sections: Record<string, Section & { finishedAt: string }>;
  /** Set by the runner once every bench has run. */
  finishedAt?: string;
  /** What went wrong in the run (a bench that failed, a section missing); empty when complete. */
  failures?: string[];
}

/** A figure compared with its reference, its ratio and verdict computed. */
export function compared(
  id: string,
  label: string,
  unit: string,
  value: number | null,
  reference: { label: string; value: number | null; unit?: string },
  target?: Target,
  note?: string,
): Figure {
  const ratio = value !== null && reference.value ? value / reference.value : null;
  const met = ratio === null || target?.ratio === undefined || target.aim ? null : ratio >= target.ratio;
  return { id, label, value, unit, reference, ratio, ...(target ? { target } : {}), met, ...(note ? { note } : {}) };
}

/** A figure with an upper bound (latency, CPU time), or none. */
export function bounded(id: string, label: string, unit: string, value: number | null, target?: Target, note?: string): Figure {
  const met = value === null || target?.max === undefined || target.aim ? null : value <= target.max;
  return { id, label, value, unit, ...(target ? { target } : {}), met, ...(note ? { note } : {}) };
}

export function emptyDocument(): BenchDocument {
  return {
    format: 'gatehouse-bench/1',
    startedAt: new Date().toISOString(),
    machine: { cpus: availableParallelism(), cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` },
    sections: {},
  };
}

/** The document at `file`, or a new one when there is none (or it is not one of ours). */
export function readDocument(file: string): BenchDocument {
  if (!existsSync(file)) return emptyDocument();
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as BenchDocument;
    return doc.format === 'gatehouse-bench/1' && typeof doc.sections === 'object' ? doc : emptyDocument();
  } catch {
    return emptyDocument();
  }
}

/** Writes the whole document at once (a reader never sees half of it). */
export function writeDocument(file: string, doc: BenchDocument): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Puts this bench's section into the document of BENCH_JSON, keeping the other benches' sections. */
export function writeSection(name: string, section: Section): void {
  const file = process.env.BENCH_JSON;
  if (!file) return;
  const doc = readDocument(file);
  doc.sections[name] = { ...section, finishedAt: new Date().toISOString() };
  writeDocument(file, doc);
}

/** The problems of a document: a missing section, a figure without its fields. Empty when valid. */
export function problemsOf(doc: unknown, sections: readonly string[]): string[] {
  const problems: string[] = [];
  const d = doc as Partial<BenchDocument> | null;
  if (!d || d.format !== 'gatehouse-bench/1' || typeof d.sections !== 'object' || !d.sections) return ['not a benchmark document'];
  for (const name of sections) {
    const section = d.sections[name];
    if (!section) {
      problems.push(`section "${name}" is missing`);
      continue;
    }
    if (!Array.isArray(section.figures) || section.figures.length === 0) problems.push(`section "${name}" has no figures`);
    for (const figure of section.figures ?? []) {
      if (typeof figure.id !== 'string' || typeof figure.label !== 'string' || typeof figure.unit !== 'string') problems.push(`${name}: a figure lacks its id, label or unit`);
      if (figure.value !== null && !Number.isFinite(figure.value)) problems.push(`${name}/${figure.id}: value is not a number`);
      if (figure.value === null && !figure.note) problems.push(`${name}/${figure.id}: not measured, and no note says why`);
      if (figure.reference && figure.reference.value !== null && !Number.isFinite(figure.reference.value)) problems.push(`${name}/${figure.id}: reference is not a number`);
    }
  }
  return problems;
}

function number(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return '-';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

function targetText(figure: Figure): string {
  const t = figure.target;
  if (!t) return '';
  const bound = t.ratio !== undefined ? `>= ${t.ratio}x` : t.max !== undefined ? `<= ${t.max} ${figure.unit}` : '';
  return t.aim ? `aim ${bound}` : bound;
}

function verdict(figure: Figure): string {
  if (figure.value === null) return figure.note ?? 'not measured';
  const note = figure.note ? ` (${figure.note})` : '';
  if (figure.met === true) return `met${note}`;
  if (figure.met === false) return `MISSED${note}`;
  if (figure.target?.aim) {
    const reached = figure.target.ratio !== undefined ? (figure.ratio ?? 0) >= figure.target.ratio : figure.target.max !== undefined && figure.value <= figure.target.max;
    return `${reached ? 'reported (aim reached)' : 'reported (aim not reached)'}${note}`;
  }
  return figure.note ?? '';
}

/** The figures as a table: value, reference, ratio, target and verdict. */
export function printFigures(figures: Figure[]): void {
  const rows = figures.map((f) => [
    f.label,
    number(f.value, f.unit),
    f.reference ? `${number(f.reference.value, f.reference.unit ?? f.unit)} (${f.reference.label})` : '',
    f.ratio === null || f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`,
    targetText(f),
    verdict(f),
  ]);
  const header = ['figure', 'value', 'reference', 'ratio', 'target', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 || i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

export interface Latencies {
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Percentiles (nearest rank) of latencies in ms, and the rate over `seconds`. */
export function latencies(samples: number[], seconds: number): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  return { count: sorted.length, perSecond: sorted.length / seconds, p50: at(50), p95: at(95), p99: at(99) };
}
