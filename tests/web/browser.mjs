// What the page tests share: Debian's chromium, headless, through
// puppeteer-core from build/npm (no browser download), in a profile of its
// own that close() removes; and a check that prints ok/FAIL and counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

export async function launch(src, chromium, width, height) {
  const puppeteer = createRequire(path.join(src, 'build/npm/package.json'))('puppeteer-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--window-size=${width},${height}`],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function checker() {
  const c = { failures: 0 };
  c.check = (ok, what) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) c.failures++;
  };
  return c;
}
