// The home page's Largest Contentful Paint in Chromium, against a static twin: the same page as
// rendered, with its scripts removed, served as a plain HTML file. The twin is the floor any
// client-rendered page is measured against: what the browser needs to paint this content at all.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from '@playwright/test';
import { percentile } from './stats.ts';

const median = (values: number[]) => percentile(values, 0.5);

/** LCP in ms of a cold load (a fresh browser context, so nothing is cached). */
async function largestContentfulPaint(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
            type: 'largest-contentful-paint',
            buffered: true,
          });
        }),
    );
  } finally {
    await context.close();
  }
}

/** The home page as rendered, scripts removed, its relative URLs pointing at `origin`. */
async function staticTwin(browser: Browser, origin: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
    return await page.evaluate((base) => {
      for (const element of document.querySelectorAll('script, link[rel="modulepreload"]')) element.remove();
      const baseElement = document.createElement('base');
      baseElement.href = base;
      document.head.prepend(baseElement);
      return `<!doctype html>${document.documentElement.outerHTML}`;
    }, `${origin}/`);
  } finally {
    await context.close();
  }
}

export async function homePageLcp(origin: string, executablePath: string, runs: number) {
  const browser = await chromium.launch({ executablePath });
  const twin = await staticTwin(browser, origin);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(twin);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const twinUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const ours: number[] = [];
    const plain: number[] = [];
    await largestContentfulPaint(browser, `${origin}/`); // warm-up: the server's and the browser's first run
    for (let run = 0; run < runs; run++) {
      ours.push(await largestContentfulPaint(browser, `${origin}/`));
      plain.push(await largestContentfulPaint(browser, twinUrl));
    }
    return { ours: median(ours), staticTwin: median(plain), ratio: median(ours) / median(plain) };
  } finally {
    server.close();
    await browser.close();
  }
}
