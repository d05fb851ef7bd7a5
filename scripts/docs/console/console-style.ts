// Style of the console page, beside Swagger UI's own stylesheet.
export const consoleStyle = [
  '.console-intro { max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; font-family: sans-serif; }',
  '.console-intro label { display: block; margin: 8px 0 4px; font-weight: bold; }',
  '.console-intro input { width: min(100%, 40em); padding: 6px; }',
  '.console-intro button { margin-left: 8px; padding: 6px 12px; }',
  // The errors an answer or the page's own check names, under the field they name.
  '.console-field-errors { margin: 4px 0 12px; padding: 6px 10px; color: #a00; background: #fff3f3; border-left: 3px solid #a00; font-family: monospace; list-style: none; }',
  '.console-field-errors li + li { margin-top: 4px; }',
].join('\n');
