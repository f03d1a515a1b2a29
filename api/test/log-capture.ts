// A logger destination for tests: every JSON line written to `stream` is kept, parsed, in `lines`.
import { Writable } from 'node:stream';

export function logCapture<Line = Record<string, unknown>>() {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}
