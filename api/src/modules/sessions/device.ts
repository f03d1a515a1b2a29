// What a session was signed in from, in the words its owner would use ("Firefox on Linux"), for the
// list of one's sessions: enough to tell the phone's from the laptop's, and no more of the header than
// that is kept. Order matters: most browsers' headers name the ones they descend from too (Edge's says
// Chrome and Safari; Chrome's says Safari).
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  // HeadlessChrome: the same browser run without a window (automated tests, scripts).
  [/\b(Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\b(iPhone|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (header: string, known: [RegExp, string][]) => known.find(([pattern]) => pattern.test(header))?.[1];

/** "Chrome on Android", "Firefox", "Windows", or null when the User-Agent names nothing known. */
export function deviceOf(userAgent: string | undefined): string | null {
  // Past a real browser's length a header is noise; the patterns need not read it.
  const header = userAgent?.slice(0, 512) ?? '';
  const browser = firstMatch(header, BROWSERS);
  const system = firstMatch(header, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
