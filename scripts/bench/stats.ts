/** The value below which a share `p` (0.5 for the median, 0.95 for p95) of the measurements fall. */
export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;
