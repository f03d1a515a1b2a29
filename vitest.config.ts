import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          root: './api',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Each file gets its own database, so files run in parallel safely.
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'scripts',
          root: '.',
          include: ['scripts/**/*.test.ts', 'seed/**/*.test.ts', 'packages/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./api/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      './web/vite.config.ts',
    ],
  },
});
