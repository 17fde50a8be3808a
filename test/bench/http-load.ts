// A load process: `connections` callers, each sending its next GET as soon as the last one is
// answered, for `seconds`, taking the URLs in turn. The bench that forks it sends the job over IPC
// and receives the latencies (ms) of every answer; any answer but 200 fails the job. Keeping the
// callers out of the server's process keeps their CPU out of the server's figures.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export interface LoadJob {
  urls: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

export type LoadReply = { latencies: number[]; seconds: number } | { error: string };

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => reject(new Error(`${url} answered ${res.statusCode}: ${body.slice(0, 300)}`)));
        return;
      }
      res.resume();
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function runLoad(job: LoadJob): Promise<{ latencies: number[]; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const until = started + job.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: job.connections }, async () => {
        while (performance.now() < until) {
          const url = job.urls[next++ % job.urls.length]!;
          const t0 = performance.now();
          await get(agent, url, job.headers);
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

// Run as a forked process only (never on import).
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once('message', (job: LoadJob) => {
    runLoad(job).then(
      (result) => process.send!(result satisfies LoadReply, () => process.exit(0)),
      (error: unknown) => process.send!({ error: String((error as Error)?.message ?? error) } satisfies LoadReply, () => process.exit(1)),
    );
  });
  process.on('disconnect', () => process.exit(1));
}
