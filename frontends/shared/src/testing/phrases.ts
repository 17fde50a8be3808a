/** Every phrase of a phrases object as [dotted path, text], depth first. */
export function phraseLeaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object') return [[prefix, value]];
  return Object.entries(value).flatMap(([key, child]) => phraseLeaves(child, prefix ? `${prefix}.${key}` : key));
}

/** The names of a phrase's `{{placeholders}}`, sorted. */
export const placeholderNames = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
