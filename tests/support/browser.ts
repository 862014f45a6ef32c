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

/** The little of the DOM that `tableMisalignments` reads (the project compiles without the DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface LaidOut {
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): Iterable<LaidOut>;
  querySelector(selector: string): LaidOut | null;
  getAttribute(name: string): string | null;
  textContent: string | null;
}

/**
 * Every visible table whose header cells do not stand over its body cells: for each table with a
 * shown header row, each header cell's left and right edges must match the cells of its column in
 * the first body row (within 2 px), and the header must sit above the body. A table laid out as a
 * grid or flex box by a stray rule puts caption, header and body side by side, which this reads.
 * Tables shown as cards on a phone hide their header (1 px, clipped) and are left out.
 */
export async function tableMisalignments(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: LaidOut }).document;
    const problems: string[] = [];
    let index = 0;
    for (const table of doc.querySelectorAll('main table')) {
      index += 1;
      const name = `table ${index} (${(table.querySelector('caption')?.textContent ?? table.getAttribute('aria-label') ?? '').trim().slice(0, 40)})`;
      const box = table.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue; // not shown (a closed <details>)
      const headRows = [...table.querySelectorAll(':scope > thead > tr')];
      const headRow = headRows.at(-1);
      const bodyRow = table.querySelector(':scope > tbody > tr');
      if (headRow === undefined || bodyRow === null) continue;
      const head = table.querySelector(':scope > thead')!.getBoundingClientRect();
      if (head.height <= 1 || head.width <= 1) continue; // the phone's card layout hides the header
      const headCells = [...headRow.querySelectorAll(':scope > th, :scope > td')];
      const bodyCells = [...bodyRow.querySelectorAll(':scope > th, :scope > td')];
      const spans = (cells: LaidOut[]) => cells.reduce((sum, cell) => sum + Number(cell.getAttribute('colspan') ?? 1), 0);
      // Rows with spans (a group header, a note across the table) are compared only when they agree cell for cell.
      if (spans(headCells) !== spans(bodyCells) || headCells.length !== bodyCells.length) continue;
      const body = bodyRow.getBoundingClientRect();
      if (head.bottom > body.top + 1) problems.push(`${name}: the header (bottom ${head.bottom}) is not above the body (top ${body.top})`);
      headCells.forEach((cell, column) => {
        const a = cell.getBoundingClientRect();
        const b = bodyCells[column]!.getBoundingClientRect();
        if (Math.abs(a.left - b.left) > 2 || Math.abs(a.right - b.right) > 2) {
          problems.push(
            `${name}, column ${column + 1} "${(cell.textContent ?? '').trim().slice(0, 30)}": header at x ${Math.round(a.left)}–${Math.round(a.right)}, ` +
              `body at x ${Math.round(b.left)}–${Math.round(b.right)}`,
          );
        }
      });
    }
    return problems;
  });
}

/** How much of a page's height `keepScreenshot` pictures: enough for its first tables. */
const SCREENSHOT_MAX_HEIGHT = 3_000;

/**
 * Keeps a screenshot of the page as it is now in tests/.artifacts/pages/<name>-<width>.jpg, so a
 * person can look at every page kind at each width after a run. Its top 3,000 px, as JPEG: a
 * full-length PNG of every page was half the browser suites' time.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const folder = path.join(ARTIFACTS, 'pages');
  fs.mkdirSync(folder, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const height = await page.evaluate(
    () => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight,
  );
  const file = `${
    name
      .replace(/^\//, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .slice(0, 80) || 'home'
  }-${width}.jpg`;
  await page.screenshot({
    path: path.join(folder, file),
    type: 'jpeg',
    quality: 70,
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(height, SCREENSHOT_MAX_HEIGHT) },
  });
}
