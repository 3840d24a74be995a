// What `npm run lighthouse` holds the apps to (issue 33), and how a page's runs make one score.

/** The Lighthouse categories audited, with the least score (0–100) each page must reach. */
export const THRESHOLDS = { performance: 90, accessibility: 95, 'best-practices': 95 } as const;

export type Category = keyof typeof THRESHOLDS;
export type Scores = Record<Category, number>;

export const CATEGORIES = Object.keys(THRESHOLDS) as Category[];

/**
 * One score per category from a page's runs: each category's median. Performance moves with the
 * machine's load from one run to the next (Lighthouse times the page's real work and then scales
 * it), so one slow run must not decide; a single run is its own median.
 */
export function medianScores(runs: Scores[]): Scores {
  if (runs.length === 0) throw new Error('no run to take the median of');
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
  };
  return Object.fromEntries(CATEGORIES.map((category) => [category, median(runs.map((run) => run[category]))])) as Scores;
}

/** The categories below their threshold, as "performance 84 < 90". */
export function shortfalls(scores: Scores): string[] {
  return CATEGORIES.filter((category) => scores[category] < THRESHOLDS[category]).map((category) => `${category} ${scores[category]} < ${THRESHOLDS[category]}`);
}
