export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** "min–max" of repeated measurements, as a share of the median. */
export const spread = (values: number[]) => {
  const m = median(values);
  return m ? Math.round(((Math.max(...values) - Math.min(...values)) / m) * 1000) / 10 : 0;
};

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
