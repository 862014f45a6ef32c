// What one load run measured, on its own so the bench context can hold results without importing
// the load generator.
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
}
