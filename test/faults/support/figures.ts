/** Prints what a fault scenario measured, one line, so a run's log keeps the figures. */
export function noteFigures(scenario: string, figures: Record<string, number | string>): void {
  console.log(`      figures (${scenario}): ${Object.entries(figures).map(([name, value]) => `${name}=${value}`).join(', ')}`);
}
