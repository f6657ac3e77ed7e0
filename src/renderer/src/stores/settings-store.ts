/**
 * View state of Settings and the first-run guide (docs/ui.md): providers, models in fallback order, the app
 * settings, what "test connection" last said per provider, and the local servers found. Every write goes to the
 * core and is re-read; keys go in and never come back (only `hasKey`).
 */
import { createStore } from 'zustand/vanilla';
import type { AppSettingsDto } from '../../../shared/contract/app';
import type { LocalProvider, ModelView, ProbeResult, ProviderView } from '../../../shared/contract/providers';
import { skald } from '../bridge/skald';
import { modelsChanged } from './sessions-store';
import { setThemeChoice } from './theme';

export interface SettingsState {
  loaded: boolean;
  providers: ProviderView[];
  models: ModelView[];
  app: AppSettingsDto | null;
  dataDir: string;
  workspaceDir: string;
  tests: Record<number, ProbeResult | 'testing'>;
  local: LocalProvider[] | null;
  error: string | null;
}

const initial = (): SettingsState => ({
  loaded: false,
  providers: [],
  models: [],
  app: null,
  dataDir: '',
  workspaceDir: '',
  tests: {},
  local: null,
  error: null,
});
export const settingsStore = createStore<SettingsState>(initial);
export const resetSettingsStore = () => settingsStore.setState(initial(), true);

export async function loadSettings(): Promise<void> {
  try {
    const [p, m, a, info] = await Promise.all([
      skald.providers.list({}),
      skald.models.list({}),
      skald.app.getSettings({}),
      skald.app.info({}),
    ]);
    settingsStore.setState({
      loaded: true,
      providers: p.providers,
      models: m.models,
      app: a.settings,
      dataDir: info.dataDir,
      workspaceDir: info.workspaceDir,
      error: null,
    });
    if (a.settings.theme) setThemeChoice(a.settings.theme);
  } catch (e) {
    settingsStore.setState({ error: (e as Error).message });
  }
}

/** Runs one write; on success re-reads everything (the pickers too). Returns the core's message on refusal. */
export async function settingsWrite(work: () => Promise<unknown>): Promise<string | null> {
  try {
    await work();
  } catch (e) {
    return (e as Error).message;
  }
  await loadSettings();
  modelsChanged();
  return null;
}

export async function testProvider(id: number): Promise<ProbeResult> {
  settingsStore.setState((s) => ({ tests: { ...s.tests, [id]: 'testing' } }));
  const result = await skald.providers
    .test({ id })
    .catch((e: Error): ProbeResult => ({ ok: false, status: null, message: e.message, latencyMs: 0 }));
  settingsStore.setState((s) => ({ tests: { ...s.tests, [id]: result } }));
  return result;
}

export async function discoverLocal(): Promise<LocalProvider[]> {
  const { found } = await skald.providers.discoverLocal({}).catch(() => ({ found: [] as LocalProvider[] }));
  settingsStore.setState({ local: found });
  return found;
}

export async function setAppSettings(patch: Parameters<typeof skald.app.setSettings>[0]): Promise<string | null> {
  try {
    const { settings } = await skald.app.setSettings(patch);
    settingsStore.setState({ app: settings });
    if (patch.theme) setThemeChoice(patch.theme);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Moves a model one place in the fallback order (the core rewrites every priority). */
export function moveModel(id: number, direction: -1 | 1): Promise<string | null> {
  const ids = settingsStore.getState().models.map((m) => m.id);
  const i = ids.indexOf(id);
  const j = i + direction;
  if (i < 0 || j < 0 || j >= ids.length) return Promise.resolve(null);
  [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  return settingsWrite(() => skald.models.reorder({ ids }));
}
