// The docs' changelog page: every commit that changed openapi.yaml, newest first, with what changed
// against the commit before it (spec-compare.ts), grouped by operation, levels marked. Plain HTML
// with its styles inline: it loads nothing, like the rest of the docs.

import { type Change, specChanges } from './engine/compare.js';
import { groupByOperation } from './format/report.js';
import { type Document, specAt, specHistory, versionOf } from './revisions.js';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function changesHtml(changes: Change[]): string {
  if (changes.length === 0) return '<p>No change to the contract (the file changed in form only).</p>';
  return [...groupByOperation(changes)]
    .map(
      ([operation, group]) =>
        `<h3><code>${escapeHtml(operation)}</code></h3>\n<ul>\n${group
          .map(
            (c) =>
              `<li><span class="${c.level}">${c.level}</span> <code>${escapeHtml(c.id)}</code> ${escapeHtml(c.where === operation ? c.what : `${c.where}: ${c.what}`)}</li>`,
          )
          .join('\n')}\n</ul>`,
    )
    .join('\n');
}

/** The page, and the commit it was built up to (the newest that changed openapi.yaml). */
export async function changelogPage(title: string): Promise<{ html: string; upTo: string }> {
  let history: ReturnType<typeof specHistory> = [];
  try {
    history = specHistory();
  } catch {
    // Not a git checkout (a tarball): no history to show.
  }
  // Oldest first, so that each revision is read once and compared with the one before it.
  const sections: string[] = [];
  let before: Document | undefined;
  for (const commit of history.toReversed()) {
    const after = specAt(commit.hash) as Document;
    const heading = `<h2>${escapeHtml(versionOf(after))} <small>${commit.date}, ${commit.hash.slice(0, 7)}</small></h2>`;
    sections.unshift(
      before
        ? `${heading}\n<p>${escapeHtml(commit.subject)}</p>\n${changesHtml(await specChanges(before, after))}`
        : `${heading}\n<p>The first version of the contract.</p>`,
    );
    before = after;
  }
  const body = sections.length > 0 ? sections.join('\n') : '<p>No history: this copy is not a git checkout.</p>';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}: changelog</title>
<meta name="upTo" content="${history[0]?.hash ?? ''}">
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h2 small { font-weight: normal; color: #666; font-size: 0.7em; }
code { font-size: 0.9em; }
li span { display: inline-block; min-width: 4.5rem; font-weight: bold; }
.error { color: #b00020; } .warning { color: #a15c00; } .info { color: #555; font-weight: normal; }
</style></head>
<body><p><a href="./">The API reference</a></p>
<h1>${escapeHtml(title)}: changelog</h1>
<p>Every change of <code>openapi.yaml</code>, newest first, as <code>npm run spec:diff</code> classes it: <span class="error">error</span> breaks existing clients, <span class="warning">warning</span> may, info does not.</p>
${body}
</body></html>
`;
  return { html, upTo: history[0]?.hash ?? '' };
}
