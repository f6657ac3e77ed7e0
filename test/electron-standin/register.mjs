/**
 * `node --import tsx --import ./test/electron-standin/register.mjs out/main/index.js`: the real main bundle, with
 * `electron` resolved to the stand-in (electron-module.ts; docs/desktop.md "The desktop shape run end to end").
 */
import { register } from 'node:module';

const target = new URL('./electron-module.ts', import.meta.url).href;
register(
  `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return next(${JSON.stringify(target)}, context);
  return next(specifier, context);
}`)}`,
);
