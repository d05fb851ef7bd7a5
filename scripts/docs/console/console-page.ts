// The console's HTML: a link back to the reference, what happens to the key, the form that asks for
// a base URL when the page is opened from a file, and the element the console renders into. No
// inline script or style: the page's policy allows scripts and styles from its own folder only.

import { consoleFolder } from '../../../server/docs-folders.js';
import { escapeHtml } from '../../shared/html.js';

export const CONSOLE_ELEMENT_ID = 'console';
export const BASE_URL_FORM_ID = 'base-url';

/** The query parameter that names the operation to open, `<tag>/<operationId>` (page/main.ts). */
export const OPERATION_PARAMETER = 'operation';

/**
 * The console's link to one operation, relative to the docs page. In the query, not the fragment
 * Swagger UI opens an operation by (`#/<tag>/<operationId>`): the reference takes every link with a
 * fragment for one of its own sections.
 */
export function consoleLink(tag: string, operationId: string): string {
  const operation = `${tag.replaceAll(' ', '_')}/${operationId}`;
  return `${consoleFolder}/index.html?${OPERATION_PARAMETER}=${encodeURIComponent(operation)}`;
}

export function consolePage(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: console</title>
<link rel="stylesheet" href="swagger-ui.css">
<link rel="stylesheet" href="console.css">
</head>
<body>
<header class="console-intro">
<p><a href="../index.html">${escapeHtml(title)}: reference</a></p>
<p>Send each operation to the API from this page: <strong>Authorize</strong> once with your key, then
<strong>Try it out</strong> on an operation. The key stays in this page's memory only: nothing
stores it, and it is gone when you reload or leave the page.</p>
<form id="${BASE_URL_FORM_ID}" hidden>
<p>This page is opened from a file, not from the API's server, so it cannot send to its own origin:
give the base URL of a server to send to. That server must allow this page's origin in
<code>CORS_ORIGINS</code> (a page opened from a file has the origin <code>null</code>).</p>
<label for="${BASE_URL_FORM_ID}-input">Base URL of the API server</label>
<input id="${BASE_URL_FORM_ID}-input" name="baseUrl" type="url" required placeholder="http://127.0.0.1:3000">
<button type="submit">Send to this server</button>
</form>
</header>
<main id="${CONSOLE_ELEMENT_ID}"></main>
<script src="swagger-ui-bundle.js"></script>
<script src="console.js"></script>
</body>
</html>
`;
}
