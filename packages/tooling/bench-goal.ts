/**
 * One goal line of a bench, in the form the issues ask for and docs/performance.md quotes:
 * `<figure>: <value>x (goal <= Nx): met|NOT met`. Every figure is a ratio to a baseline measured
 * in the same run, so a busy machine moves both sides; `unit` prints the absolute value beside it.
 */
export function goalLine(figure: string, value: number, goal: { op: '<=' | '<' | '>='; target: number; unit?: string }): string {
  const { op, target } = goal;
  const met = op === '<=' ? value <= target : op === '<' ? value < target : value >= target;
  const unit = goal.unit ?? 'x';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${figure}: ${value.toFixed(digits)}${unit} (goal ${op} ${target}${unit}): ${met ? 'met' : 'NOT met'}`;
}
