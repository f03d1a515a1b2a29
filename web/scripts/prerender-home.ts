// After `vite build`: writes the home page's first render, with preloads of its lists' calls, into
// dist/index.html (served at '/'), and keeps the empty page as dist/shell.html (served for every
// other path, so no page flashes the home page before its own). Both get their .br and .gz beside them, as the build's other files.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import { createServer } from 'vite';

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
const EMPTY_ROOT = '<div id="root"></div>';
const STYLESHEET = /\s*<link rel="stylesheet"[^>]*>/g;

/**
 * The stylesheets first in <head>: they block the first paint, and Vite writes them after the
 * scripts and module preloads, which a browser then fetches ahead of them.
 */
function stylesheetsFirst(html: string): string {
  const sheets = html.match(STYLESHEET) ?? [];
  return html.replace(STYLESHEET, '').replace('</title>', `</title>${sheets.join('')}`);
}

async function writeWithCompressed(file: string, html: string) {
  await writeFile(file, html);
  await writeFile(`${file}.br`, await promisify(brotliCompress)(html));
  await writeFile(`${file}.gz`, await promisify(gzip)(html));
}

const vite = await createServer({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  logLevel: 'error',
});
try {
  const { renderHomePage, homeListPreloads } = (await vite.ssrLoadModule('/src/prerender.tsx')) as {
    renderHomePage: () => string;
    homeListPreloads: () => string;
  };
  const shell = stylesheetsFirst(await readFile(path.join(dist, 'index.html'), 'utf8'));
  if (!shell.includes(EMPTY_ROOT)) throw new Error(`dist/index.html has no ${EMPTY_ROOT} to prerender into`);
  await writeWithCompressed(path.join(dist, 'shell.html'), shell);
  const home = shell.replace('</head>', `${homeListPreloads()}</head>`).replace(EMPTY_ROOT, `<div id="root">${renderHomePage()}</div>`);
  await writeWithCompressed(path.join(dist, 'index.html'), home);
  console.log('prerendered the home page into dist/index.html; dist/shell.html serves the other pages');
} finally {
  await vite.close();
}
