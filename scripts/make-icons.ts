/**
 * Renders `resources/icon.svg` to every icon the installers and the window need (docs/desktop.md "Installers"), in
 * Chromium through Playwright, offline: `resources/icons/<n>x<n>.png` (Linux, and the sources of the other two),
 * `resources/icon.png` (512: window, tray, notifications), `resources/icon.ico` (Windows: PNG entries 16–256) and
 * `resources/icon.icns` (macOS: PNG entries 16–1024). Each size is drawn from the vector, not scaled from a big bitmap.
 * Run after editing the SVG: `node --import tsx scripts/make-icons.ts`; the outputs are committed.
 */
import { chromium } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../e2e/chromium';

export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** icns entry type → the PNG size it holds (the @2x types hold twice their point size). */
export const ICNS_TYPES: Record<string, number> = {
  icp4: 16,
  ic11: 32,
  icp5: 32,
  ic12: 64,
  ic07: 128,
  ic13: 256,
  ic08: 256,
  ic14: 512,
  ic09: 512,
  ic10: 1024,
};

/** ICO: a directory of entries, each a whole PNG (Windows Vista and later read PNG entries). */
export function buildIco(pngs: ReadonlyMap<number, Buffer>): Buffer {
  const sizes = [...pngs.keys()];
  const header = Buffer.alloc(6 + 16 * sizes.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  let offset = header.length;
  sizes.forEach((size, i) => {
    const png = pngs.get(size)!;
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...sizes.map((s) => pngs.get(s)!)]);
}

/** ICNS: 'icns' + total length, then entries of type + length + PNG data. */
export function buildIcns(pngs: ReadonlyMap<number, Buffer>): Buffer {
  const entries = Object.entries(ICNS_TYPES).map(([type, size]) => {
    const png = pngs.get(size)!;
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(entries);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

async function main(): Promise<void> {
  const resources = fileURLToPath(new URL('../resources/', import.meta.url));
  const svg = readFileSync(join(resources, 'icon.svg'));
  const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const pngs = new Map<number, Buffer>();
  for (const size of ICON_SIZES) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}" style="display:block">`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    pngs.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
  }
  await browser.close();
  mkdirSync(join(resources, 'icons'), { recursive: true });
  for (const [size, png] of pngs) writeFileSync(join(resources, 'icons', `${size}x${size}.png`), png);
  writeFileSync(join(resources, 'icon.png'), pngs.get(512)!);
  writeFileSync(join(resources, 'icon.ico'), buildIco(new Map(ICO_SIZES.map((s) => [s, pngs.get(s)!]))));
  writeFileSync(join(resources, 'icon.icns'), buildIcns(pngs));
  console.log(`icons written to ${resources}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
