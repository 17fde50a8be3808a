import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defaultClientConditions, type Plugin } from 'vite';

/** Resolves workspace packages (the API contracts) from their TypeScript sources. */
export const sharedResolve = { conditions: ['source', ...defaultClientConditions] };

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) twin next to every script, style and data file of the
 * build over 1 KB (the HTML shell is compressed per answer: it carries a nonce),
 * at the highest levels: compressed once here, the server sends them as they are to a browser
 * that accepts them. A twin that saves nothing is not written.
 */
export function precompress(options: { threshold?: number } = {}): Plugin {
  const threshold = options.threshold ?? 1024;
  let outDir = 'dist';
  return {
    name: 'gatehouse-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          if (data.length < threshold) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
            gzipped(data, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < data.length) await writeFile(`${file}.br`, br);
          if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}
