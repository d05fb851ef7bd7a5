// Style the docs build adds to Redoc's own, at the end of the page's head.
export const pageStyle = [
  // A request sample wraps its long lines (curl's URL, the client's import) and keeps clear of the
  // copy button over its top right corner, instead of scrolling them under it.
  '.panel-request-samples pre[data-testid="source-code"] { white-space: pre-wrap; overflow-wrap: anywhere; padding-right: 48px; }',
  // Redoc renders a section only once it scrolls into view, an empty placeholder this tall until
  // then, and skips painting the rendered ones out of view: a blank band above an operation opened
  // by its link (the whole page above it in a full-page screenshot). With no height the placeholders
  // above are in view at once, so every section renders at load (three operations afford it) and
  // stays painted.
  ':root { --lazy-section-min-height: 0px; }',
  '.api-content div:has(> [data-section-id]) { content-visibility: visible; }',
  // "API docs by" and Redocly's logo, an image on a CDN the page does not load: an empty box.
  '.menu-content span:has(> a[href="https://redocly.com/redoc/"]) { display: none; }',
  // Contrast (WCAG 2.1 AA, 4.5:1): the renderer's links (#1f7cff, 3.8:1 on its light backgrounds)
  // and its search prompt (2.7:1 on light, 2.2:1 on dark) take darker steps of its own palette.
  // Stronger than the renderer's :root, whose stylesheet comes after this one.
  'html:root:not(.dark) { --link-color-primary: var(--color-blue-8); }',
  'html:root { --search-trigger-color: var(--color-warm-grey-7); }',
].join('\n');
