// Prints the README's configuration table from the key definitions: `npm run docs:config`.
import { CONFIG_KEYS } from '@gatehouse/core';

const escape = (text: string) => text.replaceAll('|', '\\|');
console.log('| Key | Environment variable | Default | Meaning |');
console.log('| --- | --- | --- | --- |');
for (const key of CONFIG_KEYS) {
  const fallback = key.defaultText === undefined ? '(unset)' : `\`${key.defaultText}\``;
  console.log(`| \`${key.key}\` | \`${key.env}\` | ${fallback} | ${escape(key.description)} |`);
}
