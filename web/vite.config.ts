import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

// In `npm run dev` the API runs on its own port and Vite proxies /api to it, so the browser still
// sees one origin.
export default defineConfig({
  root: import.meta.dirname,
  // Every asset is also written compressed (.br and .gz) at build time; the API serves the variant the
  // browser accepts (plugins/web.ts), so no request pays for compressing a file.
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 })],
  server: { proxy: { '/api': { target: process.env.API_ORIGIN ?? 'http://127.0.0.1:3001', changeOrigin: false } } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
  },
});
