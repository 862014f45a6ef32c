// Debian's Chromium driven by playwright-core, and axe-core run in the page, for the browser tests.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach } from 'vitest';
import { PROJECT_ROOT } from '../../api/config.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(`[tests] Chromium not found at ${CHROMIUM}: the browser tests are skipped (bash scripts/ensure-services.sh installs it).`);
}
/** Without the background-networking flags Chromium keeps trying hosts this machine cannot reach. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const ARTIFACTS = path.join(PROJECT_ROOT, 'tests', '.artifacts');
const AXE = path.join(PROJECT_ROOT, 'node_modules', 'axe-core', 'axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page (WCAG 2.1 A/AA and best practice). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // Only the violations are read: axe then skips collecting every node that passed.
      resultTypes: ['violations'],
    });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))}`,
    );
}

/**
 * Keeps a full-page screenshot of each of these pages when a test of the file fails, in
 * tests/.artifacts/ as `<test>-<label>.png`: the picture of what failed. Only then: screenshots of
 * every page visited were half of the browser suites' time.
 */
export function screenshotFailures(pages: () => Record<string, Page | undefined>): void {
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const test = task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80);
      for (const [label, page] of Object.entries(pages())) {
        if (page === undefined || page.isClosed()) continue;
        // The failure is the test's to report: a page that cannot be pictured adds nothing to it.
        await page.screenshot({ path: path.join(ARTIFACTS, `${test}-${label}.png`), fullPage: true }).catch(() => undefined);
      }
    });
  });
}
