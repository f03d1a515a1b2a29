import { ApiError } from '../api/client';

/**
 * What the server (or the network) said about a failed call, to show under the spec's own generic
 * text ("Failed to delete author.") instead of hiding it. Nothing for a failure that is not a call's.
 */
export const failureReason = (error: unknown): string | undefined => (error instanceof ApiError ? error.message : undefined);
