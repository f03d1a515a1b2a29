// The production start's answer to a stop (scripts/lib/start-signals.ts): at once while it waits or
// seeds, but only after a migration in progress, whose record left unfinished would refuse every start.
import { afterEach, expect, it } from 'vitest';
import { startSignals } from './lib/start-signals.ts';

let release = () => {};
afterEach(() => release());

function started() {
  const exits: number[] = [];
  const lines: string[] = [];
  const signals = startSignals(
    (code) => exits.push(code),
    (line) => lines.push(line),
  );
  release = signals.release;
  return { signals, exits, lines };
}

it('a SIGTERM outside a migration stops the start at once, with 143', () => {
  const { exits, lines } = started();
  process.emit('SIGTERM', 'SIGTERM');
  expect(exits).toEqual([143]);
  expect(lines).toEqual(['SIGTERM while starting: stopped before serving']);
});

it('a SIGTERM during a migration waits for it to end, then stops the start', async () => {
  const { signals, exits } = started();
  let finish = () => {};
  const migration = signals.uninterrupted(() => new Promise<string[]>((resolve) => (finish = () => resolve(['20261130_x']))));
  process.emit('SIGTERM', 'SIGTERM');
  await new Promise((r) => setTimeout(r, 50));
  expect(exits).toEqual([]);
  finish();
  expect(await migration).toEqual(['20261130_x']);
  expect(exits).toEqual([143]);
});

it("once released, the signals are the server's: the start no longer answers them", () => {
  const { signals, exits } = started();
  signals.release();
  // A listener standing in for the server's, as the signal then has.
  const server = () => {};
  process.on('SIGINT', server);
  try {
    process.emit('SIGINT', 'SIGINT');
  } finally {
    process.off('SIGINT', server);
  }
  expect(exits).toEqual([]);
});
