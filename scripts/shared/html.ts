// Text written into the docs' own HTML pages (the changelog, the workflows, the console).

/** The text with the characters HTML gives a meaning escaped, for an element or an attribute. */
export const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** Inline Markdown of one line (`code` only) as HTML. */
export const inlineMarkdown = (markdown: string): string =>
  escapeHtml(markdown).replace(/`([^`]+)`/g, '<code>$1</code>');
