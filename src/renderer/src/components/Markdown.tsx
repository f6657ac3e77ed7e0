import { memo } from 'react';
import { renderMarkdown } from '../lib/markdown';

/** Sanitized Markdown (see lib/markdown.ts); the only place the chat sets inner HTML. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
});
