/**
 * Imported first by the page's entry (main.tsx), and with no run-time imports of its own, so it runs before any other
 * module of the page evaluates (the contract's schemas, React, the app). The build also makes it a chunk of its own
 * that the HTML runs by itself (electron.vite.config.ts), before the app's chunk has even arrived: in the web shape the
 * socket opens and the first screen's call goes out at once, and the core answers it while the browser fetches,
 * compiles and evaluates the rest of the page (docs/ui.md "What the first page loads"; bridge/early-socket.ts). The
 * web client adopts the socket, and the app's own ask for the first screen (`requestFirstScreen`, from main.tsx)
 * takes that answer.
 */
import { openEarlySocket } from './bridge/early-socket';

openEarlySocket();
