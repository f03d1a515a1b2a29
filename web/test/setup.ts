import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { apiServer } from './render';

// findBy… and waitFor wait up to 5 s, not Testing Library's 1 s: a screen that appears at all appears
// within a few hundred ms alone, yet took over a second with the whole suite, or a CI run, on both cores.
configure({ asyncUtilTimeout: 5_000 });

// An API call no test declared is an error: MSW reports it through console.error, which fails the test.
beforeAll(() => apiServer.listen({ onUnhandledRequest: 'error' }));
afterAll(() => apiServer.close());

// A console.error during a test (React's warnings, an unmatched call) fails it.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  apiServer.resetHandlers();
  vi.restoreAllMocks();
  expect(
    consoleErrors.map((args) => args.map(String).join(' ')),
    'console.error during the test',
  ).toEqual([]);
});

// jsdom's Blob (and so File) has no text(), which every browser has; read it the older way.
if (!Blob.prototype.text) {
  Blob.prototype.text = function text(this: Blob) {
    return new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsText(this);
    });
  };
}
