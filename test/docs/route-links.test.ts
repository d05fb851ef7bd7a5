// The built reference's links to its own routes take the fragment form its router renders.
import { describe, expect, it } from 'vitest';
import { hashRouteLinks } from '../../scripts/docs/route-links.js';

describe('the reference links to its routes by fragment', () => {
  it('turns each link to a path from the root into that route', () => {
    expect(hashRouteLinks('<a href="/section/errors">Errors</a><a class="logo" href="/">Home</a>')).toBe(
      '<a href="#/section/errors">Errors</a><a class="logo" href="#/">Home</a>',
    );
  });

  it('leaves every other link and attribute as it is', () => {
    const kept = [
      '<a href="https://redocly.com/redoc/">x</a>',
      '<a href="//cdn.example/x">x</a>',
      '<a href="changelog.html">x</a>',
      '<a href="#redocly-link-icon">x</a>',
      '<a href="mailto:api-team@example.org">x</a>',
      '<link rel="stylesheet" href="/style.css">',
      '<a data-href="/keys">x</a>',
      '<abbr title="/keys">x</abbr>',
    ].join('');
    expect(hashRouteLinks(kept)).toBe(kept);
  });
});
