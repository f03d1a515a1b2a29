// The catalog import's limits, larger than every other route's (64 KB bodies, REQUEST_TIMEOUT_MS).
// Its routes apply them, and the proxy in front must let them through: docker/nginx.conf follows
// these values, and scripts/proxy-limits.test.ts fails when the two disagree.

/** An import file of 100,000 rows of isbn, price, stock and available fits well within this. */
export const IMPORT_BODY_LIMIT = 8 * 1024 * 1024;
/** A dry run looks up at most IMPORT_MAX_NEW_BOOKS new ISBNs, which can take a while at Open Library. */
export const CHECK_TIME_LIMIT_MS = 2 * 60_000;
