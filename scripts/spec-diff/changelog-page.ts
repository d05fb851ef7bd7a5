// The docs' changelog page: one entry per info.version of openapi.yaml, newest first, dated, with
// what changed since the version before (breaking first, as spec:changelog folds it) and the commits
// that made it folded beneath. Plain HTML with its styles inline: it loads nothing, like the rest of
// the docs.
import { escapeHtml, inlineMarkdown } from '../shared/html.js';
import { specChanges } from './engine/compare.js';
import { type Entry, foldChanges } from './format/entries.js';
import { fullWhere, SECTIONS } from './format/report.js';
import { summaryText } from './format/summary.js';
import { type Document, specAt, specHistory, versionOf } from './revisions.js';

interface Commit {
  hash: string;
  date: string;
  subject: string;
  spec: Document;
}

/** Consecutive commits with the same info.version. */
interface Release {
  version: string;
  commits: Commit[];
  /** The contract as the version before left it; none for the first. */
  base?: Document;
}

function releasesOf(commits: Commit[]): Release[] {
  const releases: Release[] = [];
  for (const commit of commits) {
    const last = releases.at(-1);
    if (last && last.version === versionOf(commit.spec)) last.commits.push(commit);
    else
      releases.push({
        version: versionOf(commit.spec),
        commits: [commit],
        ...(last && { base: last.commits.at(-1)?.spec }),
      });
  }
  return releases;
}

function entriesHtml(entries: Entry[]): string {
  return SECTIONS.flatMap(({ title, holds }) => {
    const held = entries.filter(holds);
    if (held.length === 0) return [];
    const items = held.map(
      (entry) =>
        `<li><span class="${entry.level}">${entry.level}</span> ${inlineMarkdown(fullWhere(entry))}${fullWhere(entry) ? ': ' : ''}${inlineMarkdown(entry.what)} <small>${entry.ids.map(escapeHtml).join(', ')}</small></li>`,
    );
    return [`<h3>${title}</h3>\n<ul>\n${items.join('\n')}\n</ul>`];
  }).join('\n');
}

const shortSubject = (subject: string) => (subject.length > 120 ? `${subject.slice(0, 119)}…` : subject);

function commitsHtml(commits: Commit[], entriesOf: Map<string, Entry[]>): string {
  const items = commits.map((commit) => {
    const entries = entriesOf.get(commit.hash);
    const counted = entries
      ? entries.length === 0
        ? 'no change to the contract'
        : `${entries.length} change(s), ${entries.filter((e) => e.level === 'error').length} breaking`
      : 'the first commit of the contract';
    return `<li><code>${commit.hash.slice(0, 7)}</code> ${commit.date}: ${escapeHtml(shortSubject(commit.subject))} <small>(${counted})</small></li>`;
  });
  return `<details><summary>${commits.length} commit(s)</summary>\n<ul>\n${items.join('\n')}\n</ul>\n</details>`;
}

async function releaseHtml(release: Release, entriesOf: Map<string, Entry[]>): Promise<string> {
  const [first, last] = [release.commits[0] as Commit, release.commits.at(-1) as Commit];
  const dates = first.date === last.date ? first.date : `${first.date} to ${last.date}`;
  const heading = `<h2 id="v${escapeHtml(release.version)}">${escapeHtml(release.version)} <small>${dates}</small></h2>`;
  const from = release.base ?? first.spec;
  const changes = from === last.spec ? [] : await specChanges(from, last.spec);
  const entries = foldChanges(changes, { before: from, after: last.spec });
  const intro = release.base
    ? `<p>${inlineMarkdown(summaryText(entries, changes.length))}</p>`
    : `<p>The first version of the contract.${entries.length > 0 ? ` Changed after its first commit: ${inlineMarkdown(summaryText(entries, changes.length))}` : ''}</p>`;
  return [heading, intro, entriesHtml(entries), commitsHtml(release.commits, entriesOf)].filter(Boolean).join('\n');
}

/** The page, and the commit it was built up to (the newest that changed openapi.yaml). */
export async function changelogPage(title: string): Promise<{ html: string; upTo: string }> {
  let history: ReturnType<typeof specHistory> = [];
  try {
    history = specHistory();
  } catch {
    // Not a git checkout (a tarball): no history to show.
  }
  // Oldest first; a commit that deleted openapi.yaml has no contract to show.
  const commits = history
    .toReversed()
    .map((commit) => ({ ...commit, spec: specAt(commit.hash) as Document }))
    .filter((commit) => commit.spec !== undefined);
  const entriesOf = new Map<string, Entry[]>();
  for (const [index, commit] of commits.entries()) {
    const previous = commits[index - 1];
    if (previous)
      entriesOf.set(
        commit.hash,
        foldChanges(await specChanges(previous.spec, commit.spec), { before: previous.spec, after: commit.spec }),
      );
  }
  const sections: string[] = [];
  for (const release of releasesOf(commits)) sections.unshift(await releaseHtml(release, entriesOf));
  const body = sections.length > 0 ? sections.join('\n') : '<p>No history: this copy is not a git checkout.</p>';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}: changelog</title>
<meta name="upTo" content="${history[0]?.hash ?? ''}">
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h2 small { font-weight: normal; color: #666; font-size: 0.7em; }
code { font-size: 0.9em; }
li small { color: #666; }
li span { display: inline-block; min-width: 4.5rem; font-weight: bold; }
.error { color: #b00020; } .warning { color: #a15c00; } .info { color: #555; font-weight: normal; }
details { margin: 0.5rem 0 2rem; } summary { cursor: pointer; color: #444; }
</style></head>
<body><p><a href="./">The API reference</a></p>
<h1>${escapeHtml(title)}: changelog</h1>
<p>Each version of <code>openapi.yaml</code> (its <code>info.version</code>), newest first, with what changed since the version before, as <code>npm run spec:changelog</code> tells it: <span class="error">error</span> breaks existing clients, <span class="warning">warning</span> may, info does not. The commits of each version are listed beneath it.</p>
${body}
</body></html>
`;
  return { html, upTo: history[0]?.hash ?? '' };
}
