import './first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { requestFirstScreen } from './stores/sessions-store';
import './styles.css';

// Before React renders: on desktop the call goes out now; in the web shape it takes the early socket's answer.
requestFirstScreen();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
