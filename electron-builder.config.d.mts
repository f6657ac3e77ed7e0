/** Types of electron-builder.config.mjs, for the packaging test. */
import type { Configuration, AfterPackContext } from 'electron-builder';
export const RENDERER_ONLY_PACKAGES: string[];
export const FUSES: Record<number, boolean> & { version: string };
export const NATIVE_BINDING_SOURCE: string;
export function afterPack(context: AfterPackContext): Promise<void>;
declare const config: Configuration & {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
};
export default config;
