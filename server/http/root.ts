// GET /: where to go from the server's bare address. A browser (asking for HTML before JSON) is
// sent on to the docs; any other client gets the links as JSON.
import type { RequestHandler } from 'express';

export interface RootLinks {
  docs: string;
  openapi_yaml: string;
  openapi_json: string;
  /** The prefix of the operations. */
  api: string;
}

export function rootAnswer(info: { title: string; version: string }, links: RootLinks): RequestHandler {
  const body = { name: info.title, version: info.version, links };
  return (req, res) => {
    // Caches keep the redirect and the JSON apart.
    res.vary('Accept');
    if (req.accepts(['json', 'html']) === 'html') {
      res.redirect(302, links.docs);
      return;
    }
    res.json(body);
  };
}
