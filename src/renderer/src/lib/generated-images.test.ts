import { describe, expect, it } from 'vitest';
import { generatedImagePaths } from './generated-images';

/** A card of `image_generate` (display `image`, as the tool says), or of `read_file` (display `none`). */
const done = (result: string | null, name = 'image_generate', status: 'done' | 'failed' | 'running' = 'done') => ({
  display: name === 'image_generate' ? ('image' as const) : ('none' as const),
  status,
  result,
});

describe('generatedImagePaths', () => {
  it('lists the saved paths of a finished image_generate call', () => {
    const result = JSON.stringify({
      provider: 'openai-images',
      images: [
        { path: 'images/2026-01-01-cat.png', bytes: 9, mime: 'image/png' },
        { path: 'images/2026-01-01-cat-2.png' },
      ],
    });
    expect(generatedImagePaths(done(result))).toEqual(['images/2026-01-01-cat.png', 'images/2026-01-01-cat-2.png']);
  });

  it('has none for another tool, a call not done, or a result of another shape', () => {
    const result = JSON.stringify({ images: [{ path: 'images/a.png' }] });
    expect(generatedImagePaths(done(result, 'read_file'))).toEqual([]);
    expect(generatedImagePaths(done(result, 'image_generate', 'failed'))).toEqual([]);
    expect(generatedImagePaths(done(null))).toEqual([]);
    expect(generatedImagePaths(done('not json'))).toEqual([]);
    expect(generatedImagePaths(done('{"images": "images/a.png"}'))).toEqual([]);
    expect(
      generatedImagePaths(
        done(JSON.stringify({ images: [null, { path: 3 }, { path: '' }, { path: 'images/ok.png' }] })),
      ),
    ).toEqual(['images/ok.png']);
  });
});
