/** Types of launch-plan.mjs, for its test. */
export type LaunchPlan = { shape: 'desktop'; electronPath: string; binding: string } | { shape: 'web'; reason: string };
export function planLaunch(probes: {
  forceWeb: boolean;
  findElectron: () => { path?: string; reason?: string };
  buildBinding: () => string;
}): LaunchPlan;
