// The web app's only way to the API: the client generated from openapi.yaml (schema.d.ts, never
// edited), wrapped once. `unwrap` turns `{ data }` into the data and any failure into ApiError with
// the server's message; client calls that meet a 401 refresh the session once and retry.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export const api = createClient<paths>({
  // Same origin as the page (an absolute URL, which Request requires outside a browser too).
  baseUrl: globalThis.location?.origin ?? '',
  credentials: 'include',
  // Looked up per call rather than captured once, so the environment's fetch is always the one used.
  fetch: (request) => globalThis.fetch(request),
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'ERROR',
    readonly details?: Record<string, unknown>,
    /** How long the shop asked to be left alone (its Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The longest wait a Retry-After is taken at: the shop's own limits reset within the hour. */
const LONGEST_RETRY_AFTER_MS = 3_600_000;

/** Retry-After as milliseconds: whole seconds or an HTTP date; anything else says nothing. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const wait = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - now;
  return Number.isNaN(wait) ? undefined : Math.min(Math.max(wait, 0), LONGEST_RETRY_AFTER_MS);
}

export type Result = { data?: unknown; error?: unknown; response: Response };
/** The `data` inside a success body, read from openapi-fetch's response union. */
export type DataOf<R extends Result> = Exclude<R['data'], undefined> extends { data: infer T } ? T : never;

export async function unwrap<R extends Result>(call: Promise<R>): Promise<DataOf<R>> {
  let result: R;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'The shop cannot be reached. Please check your connection.');
  }
  if (result.response.ok && result.data) return (result.data as { data: DataOf<R> }).data;
  const body = result.error as { error?: { message?: string; code?: string; details?: Record<string, unknown> } } | undefined;
  throw new ApiError(
    result.response.status,
    body?.error?.message ?? 'Something went wrong.',
    body?.error?.code,
    body?.error?.details,
    retryAfterMs(result.response.headers.get('retry-after')),
  );
}

export type Audience = 'Client' | 'Employee';
/** The Web Lock every tab's refresh of this audience's session takes (refreshSession), and a renewing call (withSessionRenewal). */
const refreshLock = (audience: Audience) => `bookshop-refresh-${audience}`;
/** How long a refresh refused as from before a renewal of the session's tokens waits to ask again. */
export const RENEWAL_SETTLES_MS = 1_000;
const inflight = new Map<Audience, Promise<string | null>>();
/** A refresh the shop asked to be left alone about (Retry-After): until when, and its refusal. */
const leftAlone = new Map<Audience, { until: number; error: ApiError }>();

/**
 * Forgets what the shop asked of a session's refreshes (all audiences' when none is named): a session
 * signed in or out since is not the one it was asked of, and a new one's refreshes start afresh.
 */
export const forgetRefreshWait = (audience?: Audience) => (audience ? leftAlone.delete(audience) : leftAlone.clear());

/** How long, from now, the shop asked this audience's refresh to wait; 0 when it did not. */
export const refreshWaitMs = (audience: Audience) => Math.max(0, (leftAlone.get(audience)?.until ?? 0) - Date.now());

/** The shop's answer that what was asked for does not exist (or is not this user's to see). */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** A failure that says nothing of the session: the shop unreachable, busy or briefly down. */
export const isTransient = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500);

/**
 * Rotates a session: the user type, or null when the shop refuses it (the session is over). When the
 * shop cannot answer (no network, 429, 5xx) it throws that failure: a blip is not a sign-out, and the
 * session's cookies are still good for the next try. Concurrent callers in this tab share one
 * request, and tabs take turns through a Web Lock, so a second tab presents the token the first one
 * just received. (The server also forgives a token reused within 30 s, for browsers without Web Locks.)
 */
export function refreshSession(audience: Audience): Promise<string | null> {
  const asked = leftAlone.get(audience);
  if (asked && asked.until > Date.now()) return Promise.reject(asked.error);
  let pending = inflight.get(audience);
  if (!pending) {
    const ask = () =>
      unwrap(api.POST('/api/public/authentication/refresh-tokens/{userType}', { params: { path: { userType: audience } } }));
    const refresh = () =>
      ask()
        .catch(async (error: unknown) => {
          // The session's tokens were renewed (a step-up or a new password, in this tab or another)
          // while this refresh carried the ones from before: the renewal's answer, which sets the new
          // cookies, is on its way or here. Asked once more, a moment later, with them.
          if (!(error instanceof ApiError && error.code === 'SESSION_RENEWED')) throw error;
          await new Promise((resolve) => setTimeout(resolve, RENEWAL_SETTLES_MS));
          return ask();
        })
        .then(
          (userType) => {
            leftAlone.delete(audience);
            return userType;
          },
          (error: unknown) => {
            if (!isTransient(error)) {
              leftAlone.delete(audience);
              return null;
            }
            // A 429 (the session's refreshes for the hour spent) or a 503 says when to ask again:
            // asking before, from a timer or a screen's 401, would only be refused again.
            if (error instanceof ApiError && error.retryAfterMs) leftAlone.set(audience, { until: Date.now() + error.retryAfterMs, error });
            throw error;
          },
        );
    const locks = globalThis.navigator?.locks;
    const inTurn = async () => (locks ? await locks.request(refreshLock(audience), refresh) : refresh());
    pending = inTurn().finally(() => inflight.delete(audience));
    inflight.set(audience, pending);
  }
  return pending;
}

/**
 * Says that a session ended (its refresh was refused), whichever screen found out: the session
 * provider listens and signs that audience out everywhere at once.
 */
export const sessionEvents = new EventTarget();
export const SESSION_EXPIRED = 'session-expired';
const sessionExpired = (audience: Audience) =>
  sessionEvents.dispatchEvent(new CustomEvent<Audience>(SESSION_EXPIRED, { detail: audience }));

/**
 * Runs a signed-in call that renews the session's tokens (a step-up, a factor enrolled, a new password)
 * as withSession does, with no refresh of this browser's (any tab's) under way meanwhile: a refresh
 * answered after the renewal's answer would put back cookies the renewal ended.
 */
export function withSessionRenewal<R extends Result>(audience: Audience, call: () => Promise<R>): Promise<DataOf<R>> {
  const locks = globalThis.navigator?.locks;
  return withSession(audience, async () => (locks ? await locks.request(refreshLock(audience), call) : await call()));
}

/** Runs a signed-in call; on 401 refreshes that session once and retries. A refresh the shop could not answer fails the call, signing no one out. */
export async function withSession<R extends Result>(audience: Audience, call: () => Promise<R>): Promise<DataOf<R>> {
  try {
    return await unwrap(call());
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    if (!(await refreshSession(audience))) {
      sessionExpired(audience);
      throw error;
    }
    return unwrap(call());
  }
}
