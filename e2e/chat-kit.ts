/**
 * What the chat specs share: the app in the web shape with a scripted LLM (a session store seeded first, if asked),
 * the model configured as a person would, a message sent from the composer, and everything stopped after a test.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { closeDatabase, openDatabase } from '../src/main/core/db/database';
import { dbFile } from '../src/main/core/config';
import { SessionStore } from '../src/main/core/session/session-store';
import { startWebApp, stopWebApp, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let llm: LlmProcess | undefined;
let app: WebApp | undefined;

/** For `test.afterEach`: stops the scripted LLM and the app of the test that ran. */
export async function closeChatApp(): Promise<void> {
  llm?.stop();
  llm = undefined;
  if (app) await stopWebApp(app);
  app = undefined;
}

export async function openWith(page: Page, script: unknown[], seed?: (store: SessionStore) => void): Promise<WebApp> {
  let dataDir: string | undefined;
  if (seed) {
    dataDir = mkdtempSync(join(tmpdir(), 'skald-e2e-'));
    mkdirSync(join(dataDir, 'workspace'), { recursive: true });
    const db = openDatabase({ file: dbFile(dataDir) });
    seed(new SessionStore(db));
    closeDatabase(db);
  }
  app = await startWebApp({}, [], dataDir ? { dataDir } : {});
  llm = await startLlmProcess(app.dataDir, script);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  return app;
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('send').click();
}
