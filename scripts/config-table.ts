// Writes the README's configuration table from the key definitions: `npm run docs:config`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS } from '@gatehouse/core';

const escape = (text: string) => text.replaceAll('|', '\\|');
const rows = [
  '| Key | Environment variable | Default | Meaning |',
  '| --- | --- | --- | --- |',
  ...CONFIG_KEYS.map((key) => {
    const fallback = key.defaultText === undefined ? '(unset)' : key.defaultText === '' ? '(empty)' : `\`${key.defaultText}\``;
    return `| \`${key.key}\` | \`${key.env}\` | ${fallback} | ${escape(key.description)} |`;
  }),
];
const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../README.md');
const text = readFileSync(readme, 'utf8');
const updated = text.replace(
  /(<!-- config-table:start[^>]*-->\n)[\s\S]*?(\n<!-- config-table:end -->)/,
  (_m, open: string, close: string) => `${open}${rows.join('\n')}${close}`,
);
writeFileSync(readme, updated);
console.log(`README configuration table: ${CONFIG_KEYS.length} keys`);
