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

/** A word list module of zxcvbn's languages (plain, `language-de`, or compressed, `language-fr`). */
const WORD_LIST = /[\\/]@zxcvbn-ts[\\/](language-[^\\/]+)[\\/]dist[\\/](\w+)\.json\.(?:esm\.js|mjs)$/;
const PART_NAME = 'gatehouse-word-list-part:';
const WORD_LIST_PART = `\0${PART_NAME}`;

/**
 * The chunk of a password-strength word list: each list its own chunk, loaded only where a
 * password is chosen, so that no chunk grows past the bundler's warning size (500 kB). For the
 * `groups` of `codeSplitting`, with `splitWordLists()`.
 */
export const wordListChunks = {
  debugName: 'password-strength word lists',
  name: (id: string) => {
    const part = id.indexOf(PART_NAME);
    if (part !== -1) return `words-${id.slice(part + PART_NAME.length).replace(/[^\w-]/g, '-')}`;
    const match = WORD_LIST.exec(id);
    return match ? `words-${match[1]}-${match[2]}` : null;
  },
  test: /@zxcvbn-ts[\\/]language-|gatehouse-word-list-part/,
  // A list cut by `splitWordLists()` only joins its parts: they stay chunks of their own.
  includeDependenciesRecursively: false,
};

/**
 * Cuts the plain word lists over `maxBytes` (German and Italian Wikipedia words, about 650 kB each)
 * into parts of their own, joined again in order when the language loads: the same words, the same
 * estimate, in chunks under the warning size.
 */
export function splitWordLists(maxBytes = 300_000): Plugin {
  const parts = new Map<string, string[]>();
  return {
    name: 'gatehouse-split-word-lists',
    apply: 'build',
    transform(code, id) {
      const match = WORD_LIST.exec(id);
      if (!match || code.length <= maxBytes) return null;
      // The plain lists are `var name = "w1,w2,…".split(',');` (no quote or backslash inside).
      const list = /^var (\w+) = "([^"\\]*)"\.split\(','\);$/m.exec(code);
      if (!list) return null;
      const words = list[2]!.split(',');
      const chunks: string[] = [];
      let current: string[] = [];
      let size = 0;
      for (const word of words) {
        if (size + word.length + 1 > maxBytes && current.length) {
          chunks.push(current.join(','));
          current = [];
          size = 0;
        }
        current.push(word);
        size += word.length + 1;
      }
      chunks.push(current.join(','));
      const key = `${match[1]!}-${match[2]!}`;
      parts.set(key, chunks);
      const names = chunks.map((_, i) => `part${i}`);
      return {
        code: [
          ...names.map((name, i) => `import ${name} from ${JSON.stringify(`${WORD_LIST_PART}${key}-${i}`)};`),
          `export default [${names.map((name) => `...${name}`).join(', ')}];`,
        ].join('\n'),
        map: null,
      };
    },
    resolveId(source) {
      return source.startsWith(WORD_LIST_PART) ? source : null;
    },
    load(id) {
      if (!id.startsWith(WORD_LIST_PART)) return null;
      const name = id.slice(WORD_LIST_PART.length);
      const at = name.lastIndexOf('-');
      const text = parts.get(name.slice(0, at))?.[Number(name.slice(at + 1))];
      return text === undefined ? null : `export default ${JSON.stringify(text)}.split(',');`;
    },
  };
}
