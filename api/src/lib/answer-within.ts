/**
 * `work`'s answer, or a failure once `ms` have passed without one: for an ask that a half-open
 * connection or a stalled database would otherwise hold for minutes. `work` itself goes on; its
 * answer, when it comes, is dropped.
 */
export function answerWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
