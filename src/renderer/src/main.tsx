import './first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, requestFirstRunCheck } from './App';
import { RenderGuard } from './components/RenderGuard';
import { requestFirstScreen } from './stores/sessions-store';
import './styles.css';
// After styles.css, whose rules of the same weight it overrides where the window is narrow.
import './layout.css';
import './a11y.css';

// Before React renders: on desktop the call goes out now; in the web shape it takes the early socket's answer.
requestFirstScreen();
// And whether this is the first run, with the guide's chunk then (App.tsx).
requestFirstRunCheck();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RenderGuard what="Skald's window" isWindow>
      <App />
    </RenderGuard>
  </StrictMode>,
);
