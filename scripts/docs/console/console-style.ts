// Style of the console page, beside Swagger UI's own stylesheet.
export const consoleStyle = [
  '.console-intro { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font-family: sans-serif; }',
  '.console-intro label { display: block; margin: 8px 0 4px; font-weight: bold; }',
  '.console-intro input { width: min(100%, 40em); padding: 6px; }',
  '.console-intro button { margin-left: 8px; padding: 6px 12px; }',
  // The errors an answer or the page's own check names, under the field they name.
  '.console-field-errors { margin: 4px 0 12px; padding: 6px 10px; color: #a00; background: #fff3f3; border-left: 3px solid #a00; font-family: monospace; list-style: none; }',
  '.console-field-errors li + li { margin-top: 4px; }',
  // Contrast: Swagger UI's light theme draws much of its text below WCAG 2.1 AA's 4.5:1. Each
  // colour here is Swagger UI's own, darkened in its hue until its text reaches 4.6:1 (its dark
  // theme, html.dark-mode, is stronger than these rules and already passes).
  '.swagger-ui .info .title small { background: #6e7583; }',
  '.swagger-ui .info .title small.version-stamp { background-color: #5a7e03; }',
  '.swagger-ui .info a { color: #2274d4; }',
  '.swagger-ui .btn.authorize { border-color: #258358; color: #258358; }',
  '.swagger-ui .btn.authorize svg { color: #258358; fill: #258358; }',
  '.swagger-ui .btn.cancel { border-color: #e70000; color: #e70000; }',
  '.swagger-ui .btn.execute { background-color: #2274d4; border-color: #2274d4; }',
  '.swagger-ui .parameter__in, .swagger-ui .parameter__extension { color: #6b6b6b; }',
  '.swagger-ui .download-contents { background: #6f7485; }',
  // Grey on the schemas' boxes, which darken with each level of nesting.
  '.swagger-ui .json-schema-2020-12-expand-deep-button { color: #454545; }',
  '.swagger-ui .json-schema-2020-12-core-keyword__value--secondary { color: #454545; }',
  '.swagger-ui .json-schema-2020-12__constraint--string { background-color: #956d1d; }',
  ...Object.entries({ get: '#0172e3', post: '#258358', put: '#ad6103', patch: '#15836a', delete: '#e80707' }).map(
    ([method, colour]) => `.swagger-ui .opblock.opblock-${method} .opblock-summary-method { background: ${colour}; }`,
  ),
  // The numbers of a highlighted JSON body: the highlighter's theme (agate) writes their colour
  // inline, 3.45:1 on its dark background.
  '.swagger-ui .highlight-code pre span[style*="rgb(211, 99, 99)"] { color: #dd8585 !important; }',
].join('\n');
