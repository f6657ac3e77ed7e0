// @vitest-environment jsdom
/**
 * A part that throws while rendering shows what failed in its own place, the parts beside it stay, and it renders
 * again when asked (or when its key changes): the window never goes blank for one bad message (docs/ui.md "A part
 * that fails to render"). In jsdom, with React's own client renderer.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { RenderGuard } from './RenderGuard';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let box: HTMLDivElement;
let root: Root;
let broken = true;

function Message({ text }: { text: string }) {
  if (broken && text === 'bad') throw new RangeError('Maximum call stack size exceeded\n    at deep (x.js:1:1)');
  return <p>{text}</p>;
}

const list = (texts: string[]) => (
  <div>
    {texts.map((text, i) => (
      <RenderGuard key={i} what="This message" resetKey={text}>
        <Message text={text} />
      </RenderGuard>
    ))}
  </div>
);

beforeEach(() => {
  broken = true;
  vi.spyOn(console, 'error').mockImplementation(() => {});
  box = document.createElement('div');
  document.body.append(box);
  root = createRoot(box);
});
afterEach(() => {
  act(() => root.unmount());
  box.remove();
  vi.restoreAllMocks();
});

it('one message that throws shows why in its place; the others render', () => {
  act(() => root.render(list(['first', 'bad', 'third'])));
  expect([...box.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['first', 'third']);
  const failed = box.querySelector('[data-testid="render-failed"]')!;
  expect(failed.getAttribute('role')).toBe('alert');
  // The first line of the error only: no stack in the page.
  expect(failed.textContent).toBe('This message could not be shown: Maximum call stack size exceededTry again');
});

it('"Try again" renders the part again, and so does a new key', () => {
  act(() => root.render(list(['bad'])));
  broken = false;
  act(() => (box.querySelector('button') as HTMLButtonElement).click());
  expect(box.querySelector('p')?.textContent).toBe('bad');
  broken = true;
  act(() => root.render(list(['bad'])));
  expect(box.querySelector('[data-testid="render-failed"]')).not.toBeNull();
  act(() => root.render(list(['good'])));
  expect(box.querySelector('p')?.textContent).toBe('good');
  expect(box.querySelector('[data-testid="render-failed"]')).toBeNull();
});

it('the window guard offers a reload instead', () => {
  act(() =>
    root.render(
      <RenderGuard what="Skald's window" isWindow>
        <Message text="bad" />
      </RenderGuard>,
    ),
  );
  expect(box.textContent).toBe("Skald's window could not be shown: Maximum call stack size exceededReload the window");
});
