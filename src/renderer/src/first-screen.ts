/**
 * Imported first by the page's entry (main.tsx): the bridge (and in the web shape its socket) starts before React
 * and the app's other modules evaluate, and the first screen's data is asked for at once (docs/ui.md "What the
 * first page loads").
 */
import { requestFirstScreen } from './stores/sessions-store';

requestFirstScreen();
