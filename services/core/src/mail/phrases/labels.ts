/** A `, `-separated list of codes, each written with its label in the mail's language (an unknown code as it is). */
export function labelled(list: string, labels: Readonly<Record<string, string>>): string {
  return list
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean)
    .map((code) => labels[code] ?? code)
    .join(', ');
}
