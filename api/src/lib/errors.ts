// The one error type routes and services throw; the error handler turns it into
// `{ data: null, error: { code, message } }` with its status. Messages are written for the screen.

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

// The helpers by status, one name each: lib/refusals.ts declares the services' refusals with them.
/** Any refusal: its status, its code, the message, and details the screen may use. */
export const refusal = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
  new AppError(status, code, message, {}, details);
export const badRequest = (message: string, code = 'BAD_REQUEST') => refusal(400, code, message);
export const unauthorized = (message = 'You must be signed in.') => refusal(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do this.') => refusal(403, 'FORBIDDEN', message);
export const notFound = (message: string) => refusal(404, 'NOT_FOUND', message);
export const conflict = (message: string, details?: Record<string, unknown>) => refusal(409, 'CONFLICT', message, details);
/** Busy for now (503): the client should try again after `retryAfterSeconds`. */
export const unavailable = (message: string, retryAfterSeconds: number, code = 'BUSY') =>
  new AppError(503, code, message, { 'retry-after': String(retryAfterSeconds) });
