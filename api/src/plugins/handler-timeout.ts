// The time budget of a request (REQUEST_TIMEOUT_MS): past it the answer is a 503 TIMEOUT (errors.ts)
// rather than a wait without end. Fastify's own `handlerTimeout` does this with an AbortController, a
// timer and a 'close' listener armed and disarmed for every request: a fixed cost that weighs most on
// the cheapest reads, which the bench holds to the bare baseline (issue 32). Every route shares one
// budget, so the requests in flight are one list in arrival order, which is also the order of their
// deadlines, and one timer walks it from the oldest ten times a second.
//
// A route with a budget of its own (`config.timeBudgetMs`: the catalog export and its check, a sign-up
// and a password reset, which wait on Open Library or the identity provider) gets a timer of its own,
// and `request.timeBudgetSignal`, aborted when that budget is spent or the answer's connection closes.
// Not Fastify's `handlerTimeout` for them: it clears its timer at the request's 'close', which Node also
// emits once a body has been read, so a request with a body had no budget at all and its signal was
// aborted before its handler ran (fastify/fastify#6725; the tests show it over real HTTP).
//
// A write is never answered 503 once it has taken effect (lib/write-budget.ts): the handler of a route
// that may write runs with its budget where the database handles can check it, and a request whose
// COMMIT is under way, or done, is left out of the sweep for up to writeGraceMs more (the database's
// connection and statement timeouts), to be answered by its handler. Past that its connection is cut,
// which says only that the outcome is unknown; a 503 would say it failed.

import { finished } from 'node:stream/promises';
import { errorCodes, type FastifyReply, type onRequestHookHandler, type RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { type WriteBudget, writeBudgets, writeGraceMs } from '../lib/write-budget.ts';

/** How often the oldest requests are looked at: a late answer comes at most this much past the budget. */
export const SWEEP_INTERVAL_MS = 100;

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests begun and not yet answered (nor given up by their client and past the budget). */
    readonly requestsInFlight: number;
  }
  interface FastifyReply {
    /** Its place among the requests in flight (plugins/handler-timeout.ts). */
    timeBudget: unknown;
    /** On a route that may write, from its handler on: its writes' hold on the 503 (lib/write-budget.ts). */
    writeBudget: WriteBudget | null;
    /**
     * Answered 503 for its time, set at once, where `sent` waits for the answer's asynchronous onSend
     * hooks: whatever the request still does writes nothing.
     */
    answeredLate: boolean;
  }
  interface FastifyContextConfig {
    /** A budget of the route's own in place of REQUEST_TIMEOUT_MS (plugins/handler-timeout.ts). */
    timeBudgetMs?: number;
  }
  interface FastifyRequest {
    /**
     * On a route with `config.timeBudgetMs`: aborted when that budget is spent (its reason Fastify's
     * FST_ERR_HANDLER_TIMEOUT) or the answer's connection has closed (the client left, or it was sent).
     */
    timeBudgetSignal?: AbortSignal;
  }
}

const timeoutError = (reply: FastifyReply, budgetMs: number) =>
  // Read only here, for a request already late: the getter builds the route's options anew each time.
  new errorCodes.FST_ERR_HANDLER_TIMEOUT(budgetMs, reply.request.routeOptions.url);

/** Whether a write of the request is taking effect, or took it: the sweep leaves it to its handler a while. */
const heldByWrite = (reply: FastifyReply) =>
  reply.writeBudget !== null && (reply.writeBudget.committing > 0 || reply.writeBudget.committed);

/**
 * Ends a request past its budget: 503 TIMEOUT, or, for a stream already under way or a write that took
 * (or may have taken) effect, a cut connection, as Fastify's own timeout cuts a stream.
 */
function endPastBudget(reply: FastifyReply, error: Error) {
  // Cut, its outcome is unknown to its client: what it goes on to write completes it, and is let be.
  if (reply.raw.headersSent || heldByWrite(reply)) {
    reply.raw.destroy(error);
    return;
  }
  reply.answeredLate = true;
  reply.send(error);
}

/** The budget a write's statements check, for a reply whose time is `budgetMs`. */
function writeBudgetOf(reply: FastifyReply, budgetMs: number): WriteBudget {
  return {
    committing: 0,
    committed: false,
    // Answered 503 already, before its handler began (in a hook) or since: it writes nothing.
    refuseIfSpent() {
      if (!reply.answeredLate) {
        // Answered in time, or bound to answer as its handler does (a write is under way or done).
        if (reply.sent || this.committed || this.committing > 0 || reply.elapsedTime < budgetMs) return;
        // Past the budget before the sweep came by: answered here, as the sweep would.
        endPastBudget(reply, timeoutError(reply, budgetMs));
      }
      throw timeoutError(reply, budgetMs);
    },
  };
}

/**
 * The onRequest hook of a route with a budget of its own: a timer that answers 503 TIMEOUT (or cuts a
 * stream already under way, as the shared budget does) and aborts the request's budget signal. A
 * write taking effect holds it for up to `graceMs`, as the shared budget's sweep does.
 */
const ownBudget =
  (budgetMs: number, graceMs: number): onRequestHookHandler =>
  (request, reply, done) => {
    const budget = new AbortController();
    request.timeBudgetSignal = budget.signal;
    const expire = () => {
      if (reply.sent || reply.raw.destroyed) return;
      if (heldByWrite(reply) && reply.elapsedTime < budgetMs + graceMs) {
        timer = setTimeout(expire, SWEEP_INTERVAL_MS);
        return;
      }
      const error = timeoutError(reply, budgetMs);
      budget.abort(error);
      endPastBudget(reply, error);
    };
    let timer = setTimeout(expire, budgetMs);
    // The answer's close, not the request's: it comes when the answer is sent or its connection is gone.
    reply.raw.once('close', () => {
      clearTimeout(timer);
      budget.abort();
    });
    done();
  };

const READS = new Set(['GET', 'HEAD']);

export default fp(
  async (app) => {
    const budgetMs = app.config.requestTimeoutMs;
    // How long past its budget a write under way (or done) may keep its request from the 503.
    const graceMs = writeGraceMs(app.config.database);
    /** A reply not yet finished, in a list oldest first; `reply` is null once it has left. */
    interface InFlight {
      reply: FastifyReply | null;
      next: InFlight | null;
      previous: InFlight | null;
    }
    let oldest: InFlight | null = null;
    let newest: InFlight | null = null;
    let count = 0;
    /** Takes an entry out of the list; again (a reply answered after its sweep) does nothing. */
    const leave = (entry: InFlight) => {
      if (entry.reply === null) return;
      count--;
      if (entry.previous) entry.previous.next = entry.next;
      else oldest = entry.next;
      if (entry.next) entry.next.previous = entry.previous;
      else newest = entry.previous;
      entry.reply = entry.next = entry.previous = null;
    };

    const answerLate = (reply: FastifyReply) => {
      // A route with a budget of its own is its own timer's to end, once armed: the hooks that run
      // before it (a session's check) are the shared budget's.
      if (reply.request.timeBudgetSignal) return;
      endPastBudget(reply, timeoutError(reply, budgetMs));
    };
    /**
     * A request logs its one line at its answer ('finish', lib/logging.ts). One that leaves this list
     * here may never finish: its connection is gone (its client left, or the budget cut its stream),
     * even if its handler answered into it since; or it is still being written (to a slow client, a
     * late 503, a stream with a budget of its own) and may yet finish, and is written only if not.
     */
    const logIfNeverAnswered = (reply: FastifyReply, cutByBudget: boolean) => {
      const line = () => {
        try {
          const message = cutByBudget ? 'request cut: past its time budget' : 'request aborted: the client left before the answer';
          reply.log.info({ req: reply.request, responseTime: reply.elapsedTime }, message);
        } catch {
          // A log line must never end the process.
        }
      };
      if (reply.raw.destroyed) line();
      // timeBudget is cleared by this plugin's onResponse, the first to run at 'finish'.
      else reply.raw.once('close', () => reply.timeBudget !== null && line());
    };
    const sweep = () => {
      let entry = oldest;
      while (entry?.reply) {
        const { reply, next } = entry;
        // An answer already ended leaves here too, should its onResponse not have run: a reply whose
        // time stopped short of the budget at the head of the list would stop the walk for good.
        const ended = reply.sent || reply.raw.destroyed;
        if (!ended && reply.elapsedTime < budgetMs) break;
        // Its write is taking effect, or took it: its handler answers, within the grace.
        const held = !ended && !reply.request.timeBudgetSignal && heldByWrite(reply);
        if (held && reply.elapsedTime < budgetMs + graceMs) {
          entry = next;
          continue;
        }
        leave(entry);
        entry = next;
        try {
          if (!ended) answerLate(reply);
          // Not ended before, destroyed now: answerLate cut its stream.
          logIfNeverAnswered(reply, !ended && reply.raw.destroyed);
        } catch (error) {
          // One request's failure to be answered (or logged) must not end the process, nor stop the walk.
          reply.log.error({ err: error }, 'the answer past the time budget failed');
        }
      }
    };
    const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    app.decorate('requestsInFlight', {
      getter: () => count,
    });

    // Where a reply's entry is: a property every reply has from the start. A Set of the replies
    // themselves measured about 35 µs a request more over HTTP (three servers each way, a `categories`
    // read; docs/performance.md), far more than a set's own work, for a reason not found.
    app.decorateReply('timeBudget', null);
    app.decorateReply('writeBudget', null);
    app.decorateReply('answeredLate', false);
    app.decorateRequest('timeBudgetSignal', undefined);
    // The first onRequest hook of every route, so that the budget counts every hook's wait (a session's
    // check, a rate limit's) as Fastify's did. reply.elapsedTime counts from before it, since every
    // route has an onResponse hook (this one's).
    app.addHook('onRequest', (_request, reply, done) => {
      const entry: InFlight = { reply, next: null, previous: newest };
      count++;
      if (newest) newest.next = entry;
      else oldest = entry;
      newest = entry;
      reply.timeBudget = entry;
      done();
    });
    app.addHook('onRoute', (route) => {
      const ownBudgetMs = route.config?.timeBudgetMs;
      if (ownBudgetMs) route.onRequest = [ownBudget(ownBudgetMs, graceMs), ...[route.onRequest ?? []].flat()];
      if ([route.method].flat().every((method) => READS.has(method))) return;
      // Only the handler's own work: what hooks write before it (a rate limit's count, a session's
      // activity) is not the request's write, and must not spare it the 503.
      const handler = route.handler as RouteHandlerMethod;
      const limitMs = ownBudgetMs ?? budgetMs;
      route.handler = function withWriteBudget(request, reply) {
        const budget = writeBudgetOf(reply, limitMs);
        reply.writeBudget = budget;
        const answer = writeBudgets.run(budget, () => handler.call(this, request, reply));
        if (!(answer instanceof Promise)) return answer;
        return answer.catch(async (error: unknown) => {
          if (!reply.answeredLate) throw error;
          // Answered 503 already: what failed after it (a write refused, most likely) is a line of its
          // own, not Fastify's error that a handler failed after its answer.
          reply.log.warn({ err: error }, 'a request answered 503 for its time went on, and was stopped: it wrote nothing more');
          // Returned once the 503 is out: Fastify sends a handler's undefined itself while `sent` is false.
          if (!reply.sent) await finished(reply.raw).catch(() => undefined);
          return undefined;
        });
      };
    });
    app.addHook('onResponse', (_request, reply, done) => {
      if (reply.timeBudget) leave(reply.timeBudget as InFlight);
      reply.timeBudget = null;
      done();
    });
  },
  { name: 'handler-timeout', dependencies: ['config'] },
);
