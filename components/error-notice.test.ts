import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorNotice, errorDigest } from './error-notice';

const render = (error: unknown) => renderToStaticMarkup(createElement(ErrorNotice, { error, retry: () => {} }));

describe('ErrorNotice', () => {
  it('shows the digest for support and never the message or the stack', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2'), { digest: '2817364501' });
    const html = render(error);
    expect(html).toContain('2817364501');
    expect(html).toContain('Try again');
    expect(html).not.toContain('ECONNREFUSED');
    expect(html).not.toContain('hunter2');
    expect(html).not.toContain('error-notice.test');
  });

  it('says nothing of a reference when there is no digest (an error thrown in the browser)', () => {
    const html = render(new TypeError('Cannot read properties of undefined'));
    expect(html).not.toContain('reference');
    expect(html).not.toContain('Cannot read');
  });
});

describe('errorDigest', () => {
  it('reads only a short string digest', () => {
    expect(errorDigest({ digest: 'abc' })).toBe('abc');
    expect(errorDigest({ digest: 42 })).toBeNull();
    expect(errorDigest({ digest: 'x'.repeat(65) })).toBeNull();
    expect(errorDigest('boom')).toBeNull();
    expect(errorDigest(null)).toBeNull();
  });
});
