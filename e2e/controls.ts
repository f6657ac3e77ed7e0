/**
 * Controls as a person works them. The app's option cards and segmented choices (Settings → Providers, the first-run
 * guide, the Security page's rule form) hide their radio input (1 px, transparent) inside a label the person clicks.
 * A click forced onto that 1 px input lands wherever its point is: scrolled to the very edge of the settings pane, it
 * can fall outside the viewport or on another element, and the radio stays unchanged (seen on a loaded machine). So
 * the label is clicked (Playwright scrolls it into view and waits until it is stable and hit), and the radio must then
 * be checked.
 */
import { expect, type Locator } from '@playwright/test';

export async function pickOption(radio: Locator): Promise<void> {
  await radio.locator('xpath=ancestor::label[1]').click();
  await expect(radio).toBeChecked();
}
