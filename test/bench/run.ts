// `npm run bench`: the provider, users, roles, getting-in and start benches one after another, each in its own
// process, then every figure that has a reference or a target in one table. The figures go to
// BENCH_JSON as one document when it is set. Fails when a bench fails or the document is not
// complete and valid; a missed target never fails it (speed is judged by reading, not by CI).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyDocument, printFigures, problemsOf, readDocument, writeDocument } from './figures.js';

const BENCHES = [
  { section: 'oidc', file: 'oidc-bench.ts' },
  { section: 'users', file: 'users-bench.ts' },
  { section: 'roles', file: 'roles-bench.ts' },
  { section: 'getting-in', file: 'getting-in-bench.ts' },
  { section: 'start', file: 'start-bench.ts' },
] as const;

function runBench(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(import.meta.dirname, file)], { stdio: 'inherit', env });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function main(): Promise<number> {
  const scratch = process.env.BENCH_JSON ? undefined : mkdtempSync(path.join(tmpdir(), 'gatehouse-bench-'));
  const file = path.resolve(process.env.BENCH_JSON ?? path.join(scratch!, 'bench.json'));
  // A fresh document: sections of an earlier run never pass for this one's.
  writeDocument(file, emptyDocument());
  const failures: string[] = [];
  try {
    for (const bench of BENCHES) {
      console.log(`\n=== ${bench.file} ===`);
      const code = await runBench(bench.file, { ...process.env, BENCH_JSON: file });
      if (code !== 0) failures.push(`${bench.file} failed (exit code ${code})`);
    }
    const doc = readDocument(file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      failures.push(`${file} is not JSON: ${(error as Error).message}`);
    }
    failures.push(...problemsOf(parsed, BENCHES.map((b) => b.section)));

    console.log(`\n=== every figure with its reference or target (${doc.machine.cpus} CPUs, ${doc.machine.cpuModel}, Node ${doc.machine.node}) ===`);
    for (const bench of BENCHES) {
      const section = doc.sections[bench.section];
      if (!section) continue;
      console.log(`\n${section.title}`);
      printFigures(section.figures.filter((f) => f.reference || f.target));
    }
    const all = Object.values(doc.sections).flatMap((s) => s.figures);
    const count = (met: boolean) => all.filter((f) => f.met === met).length;
    console.log(`\ntargets: ${count(true)} met, ${count(false)} missed; ${all.filter((f) => f.value === null).length} not measured`);

    doc.finishedAt = new Date().toISOString();
    doc.failures = failures;
    writeDocument(file, doc);
    if (process.env.BENCH_JSON) console.log(`figures written to ${file}`);
    if (failures.length) console.error(`\nbenchmark incomplete:\n  ${failures.join('\n  ')}`);
    return failures.length ? 1 : 0;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

process.exit(await main());
